//===- CallGraph.cpp ------------------------------------------------------===//

#include "tensorplace/checker/CallGraph.h"
#include "FunctionBody.h" // forEachUserFunction
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>

using namespace clang;

namespace tensorplace {

const FunctionDecl *CallGraph::autogradForward(const CallExpr *Call) {
  const auto *Apply = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!Apply || !Apply->isStatic() || !Apply->getDeclName().isIdentifier() ||
      Apply->getName() != "apply")
    return nullptr;
  const auto *Base =
      dyn_cast<ClassTemplateSpecializationDecl>(Apply->getParent());
  if (!Base || !Base->getDeclName().isIdentifier() ||
      Base->getName() != "Function" || Base->getTemplateArgs().size() != 1 ||
      Base->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  const CXXRecordDecl *Derived =
      recordOf(Base->getTemplateArgs()[0].getAsType());
  if (!Derived || !Derived->hasDefinition() ||
      !isAutogradFunctionClass(Derived))
    return nullptr;
  for (const CXXMethodDecl *Method : Derived->getDefinition()->methods())
    if (Method->isStatic() && Method->getDeclName().isIdentifier() &&
        Method->getName() == "forward")
      return Method;
  return nullptr;
}

llvm::SmallVector<const FunctionDecl *, 2>
CallGraph::callees(const CallExpr *Call) {
  llvm::SmallVector<const FunctionDecl *, 2> Result;
  if (const FunctionDecl *Direct = Call->getDirectCallee()) {
    Result.push_back(canonicalFunction(Direct));
    // MyFunction::apply(x) runs MyFunction::forward(ctx, x).
    if (const FunctionDecl *Forward = autogradForward(Call))
      Result.push_back(canonicalFunction(Forward));
    return Result;
  }
  const auto *Overloads =
      dyn_cast_or_null<OverloadExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Overloads)
    return Result;
  for (const NamedDecl *D : Overloads->decls()) {
    D = D->getUnderlyingDecl();
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      Result.push_back(canonicalFunction(F));
  }
  return Result;
}

CallGraph::CallGraph(ASTContext &Ctx) {
  forEachUserFunction(Ctx, [&](const FunctionDecl *F) {
    Functions.push_back(F);
    const FunctionDecl *Caller = canonicalFunction(F);
    // The constructor's initializers, then the body, in source order; a
    // stack of its own rather than recursion, as deep as the AST may nest.
    llvm::SmallVector<const Stmt *, 64> Pending;
    if (const Stmt *Body = F->getBody())
      Pending.push_back(Body);
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
      for (auto It = Ctor->init_rbegin(); It != Ctor->init_rend(); ++It)
        if ((*It)->isWritten() && (*It)->getInit())
          Pending.push_back((*It)->getInit());
    while (!Pending.empty()) {
      const Stmt *S = Pending.pop_back_val();
      if (const auto *Call = dyn_cast<CallExpr>(S))
        for (const FunctionDecl *Callee : callees(Call)) {
          Edge E{Call, F, Callee};
          From[Caller].push_back(E);
          To[Callee].push_back(E);
        }
      size_t First = Pending.size();
      for (const Stmt *Child : S->children())
        if (Child)
          Pending.push_back(Child);
      std::reverse(Pending.begin() + First, Pending.end());
    }
  });
}

llvm::ArrayRef<CallGraph::Edge>
CallGraph::callsFrom(const FunctionDecl *F) const {
  auto It = From.find(canonicalFunction(F));
  return It == From.end() ? llvm::ArrayRef<Edge>() : It->second;
}

llvm::ArrayRef<CallGraph::Edge>
CallGraph::callsTo(const FunctionDecl *F) const {
  auto It = To.find(canonicalFunction(F));
  return It == To.end() ? llvm::ArrayRef<Edge>() : It->second;
}

} // namespace tensorplace
