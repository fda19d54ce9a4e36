//===- SetupPaths.cpp -----------------------------------------------------===//

#include "tensorplace/checker/SetupPaths.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include <deque>

using namespace clang;

namespace tensorplace {

/// `this` or `*this` is an argument: the callee has the whole module.
static bool passesThis(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments()) {
    const Expr *E = Arg->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(E))
      E = Deref->getSubExpr()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(E))
      return true;
  }
  return false;
}

SetupPaths::SetupPaths(const ModuleInventory &Inventory, const CallGraph &Calls,
                       const SourceManager &SM) {
  for (const CXXRecordDecl *Class : Inventory.classesWithUndefinedSetup())
    hideSetup(Class);
  findConstructionPath(Inventory, Calls);
  findHiddenSetup(Inventory, SM);
  findForwardPath(Inventory, Calls);
}

void SetupPaths::hideSetup(const CXXRecordDecl *Class) {
  ClassesWithHiddenSetup.insert(Class);
  UnsettledClasses.insert(Class);
}

void SetupPaths::findConstructionPath(const ModuleInventory &Inventory,
                                      const CallGraph &Calls) {
  std::deque<const FunctionDecl *> Work;
  for (const FunctionDecl *F : Inventory.functions())
    if (isConstructionRoot(F) &&
        ConstructionFunctions.insert(canonicalFunction(F)).second)
      Work.push_back(canonicalFunction(F));
  while (!Work.empty()) {
    const FunctionDecl *F = Work.front();
    Work.pop_front();
    for (const CallGraph::Edge &Edge : Calls.callsFrom(F))
      if (ConstructionFunctions.insert(Edge.Callee).second)
        Work.push_back(Edge.Callee);
  }
}

void SetupPaths::findHiddenSetup(const ModuleInventory &Inventory,
                                 const SourceManager &SM) {
  // Setup code the compiler could not make sense of may have held
  // registrations: the member rules say nothing about such classes. Errors
  // elsewhere (in forward(), say) do not hide registrations.
  for (const FunctionDecl *F : Inventory.functionsWithErrors())
    if (isConstructionFunction(F))
      if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
        hideSetup(Method->getParent());

  // Setup that calls a method whose body is elsewhere may register anything
  // there. A method of the class itself, or a function given the module
  // (this), may register any member: the member rules say nothing about such
  // classes. A method called on a member registers, at most, into that
  // member's own module, never the member into this one.
  UserCodeFilter Filter(SM);
  for (const ModuleInventory::CallSite &Site : Inventory.callSites()) {
    if (!isConstructionFunction(Site.Caller))
      continue;
    for (const FunctionDecl *Callee : Site.Callees) {
      if (Callee->isDefined() || !Filter.isUserCode(Callee->getLocation()))
        continue;
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      const auto *CallerMethod = dyn_cast<CXXMethodDecl>(Site.Caller);
      bool OnThis = Method && !Method->isStatic() &&
                    !memberCallObject(Site.Call) &&
                    !isa<CXXOperatorCallExpr>(Site.Call);
      if (const Expr *Object = memberCallObject(Site.Call))
        OnThis |= isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
      const CXXRecordDecl *CallerClass =
          CallerMethod ? CallerMethod->getParent() : nullptr;
      if (CallerClass && (OnThis || passesThis(Site.Call))) {
        // Another file may define the callee: the CLI, which sees the
        // project, settles what it does (functionKey() names it there).
        ClassesWithHiddenSetup.insert(CallerClass);
        if (isSettleableFunction(Callee))
          HiddenCallees[CallerClass].push_back({Site.Call, Callee});
        else
          hideSetup(CallerClass);
      }
      if (Method && isModuleClass(Method->getParent()))
        if (const CXXRecordDecl *Def = Method->getParent()->getDefinition())
          if (Def != CallerClass || !OnThis)
            hideSetup(Def);
    }
  }
}

void SetupPaths::findForwardPath(const ModuleInventory &Inventory,
                                 const CallGraph &Calls) {
  std::deque<const FunctionDecl *> Work;
  for (const FunctionDecl *F : Inventory.functions()) {
    if (!isForwardRoot(F))
      continue;
    const FunctionDecl *Root = canonicalFunction(F);
    if (ForwardPaths.try_emplace(Root, ForwardPath{Root, nullptr, {}}).second)
      Work.push_back(Root);
  }
  while (!Work.empty()) {
    const FunctionDecl *F = Work.front();
    Work.pop_front();
    const FunctionDecl *Root = ForwardPaths.lookup(F).Root;
    for (const CallGraph::Edge &Edge : Calls.callsFrom(F)) {
      if (isConstructionRoot(Edge.Callee))
        continue;
      if (ForwardPaths
              .try_emplace(Edge.Callee,
                           ForwardPath{Root, F, Edge.Call->getBeginLoc()})
              .second)
        Work.push_back(Edge.Callee);
    }
  }
}

bool SetupPaths::isConstructionFunction(const FunctionDecl *F) const {
  return F && ConstructionFunctions.count(canonicalFunction(F));
}

const SetupPaths::ForwardPath *
SetupPaths::forwardPath(const FunctionDecl *F) const {
  if (!F)
    return nullptr;
  auto It = ForwardPaths.find(canonicalFunction(F));
  return It == ForwardPaths.end() ? nullptr : &It->second;
}

bool SetupPaths::hasHiddenSetup(const CXXRecordDecl *Class) const {
  const CXXRecordDecl *Def = Class->getDefinition();
  return ClassesWithHiddenSetup.count(Def ? Def : Class);
}

llvm::ArrayRef<SetupPaths::HiddenCall>
SetupPaths::settleableHiddenSetup(const CXXRecordDecl *Class) const {
  const CXXRecordDecl *Def = Class->getDefinition();
  Def = Def ? Def : Class;
  if (!ClassesWithHiddenSetup.count(Def) || UnsettledClasses.count(Def))
    return {};
  auto It = HiddenCallees.find(Def);
  if (It == HiddenCallees.end())
    return {};
  return It->second;
}

} // namespace tensorplace
