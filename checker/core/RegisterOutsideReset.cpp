//===- RegisterOutsideReset.cpp -------------------------------------------===//

#include "RegisterOutsideReset.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace tensorplace {

static bool isReset(const FunctionDecl *F) {
  return F->getDeclName().isIdentifier() && F->getName() == "reset" &&
         F->getNumParams() == 0;
}

/// Functions reachable from Roots through calls defined here, not entering
/// reset() (unless a root is reset()), with the function each was entered
/// from.
static llvm::DenseMap<const FunctionDecl *, const FunctionDecl *>
reachableFrom(llvm::ArrayRef<const FunctionDecl *> Roots,
              const ModuleFacts &Facts) {
  llvm::DenseMap<const FunctionDecl *, const FunctionDecl *> Reached;
  llvm::SmallVector<const FunctionDecl *, 8> Work;
  for (const FunctionDecl *Root : Roots)
    if (Reached.try_emplace(canonicalFunction(Root), nullptr).second)
      Work.push_back(canonicalFunction(Root));
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    for (const ModuleFacts::CallEdge &Edge : Facts.calleesOf(F))
      if (!isReset(Edge.Callee) && Reached.try_emplace(Edge.Callee, F).second)
        Work.push_back(Edge.Callee);
  }
  return Reached;
}

/// register_*(...) or this->register_*(...): registering into this module.
static bool registersIntoThis(const CallExpr *Call) {
  const Expr *Object = memberCallObject(Call);
  return !Object || isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
}

/// The class, or a base of its own below Cloneable, overrides clone(), so
/// copies are not made through reset() (LibTorch's ParameterList does this).
static bool overridesClone(const CXXRecordDecl *Class) {
  if (!Class || isFrontendModuleBase(Class))
    return false;
  const CXXRecordDecl *Def = Class->getDefinition();
  if (!Def)
    return false;
  for (const CXXMethodDecl *Method : Def->methods())
    if (Method->getDeclName().isIdentifier() && Method->getName() == "clone")
      return true;
  for (const CXXBaseSpecifier &Base : Def->bases())
    if (overridesClone(recordOf(Base.getType())))
      return true;
  return false;
}

void RegisterOutsideReset::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    if (!isCloneableClass(Class) || overridesClone(Class))
      continue;
    llvm::SmallVector<const FunctionDecl *, 2> Constructors, Resets;
    for (const CXXConstructorDecl *Ctor : Class->ctors())
      if (Ctor->isUserProvided() && Ctor->hasBody())
        Constructors.push_back(Ctor);
    for (const CXXMethodDecl *Method : Class->methods())
      if (isReset(Method) && Method->hasBody())
        Resets.push_back(Method);
    auto FromConstructors = reachableFrom(Constructors, Facts);
    auto FromReset = reachableFrom(Resets, Facts);

    for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls()) {
      const FunctionDecl *F = canonicalFunction(R.Function);
      auto Entered = FromConstructors.find(F);
      if (Entered == FromConstructors.end() || FromReset.count(F) ||
          R.Name == "replace_module" || !registersIntoThis(R.Call))
        continue;
      std::string Where =
          isa<CXXConstructorDecl>(F)
              ? "in the constructor of Cloneable module '" +
                    Class->getNameAsString() + "'"
              : "in '" + describeFunction(F) +
                    "', which the constructor of Cloneable module '" +
                    Class->getNameAsString() + "' calls,";
      llvm::StringRef Kind = R.Name == "register_parameter" ? "parameters"
                             : R.Name == "register_buffer"  ? "buffers"
                                                            : "child modules";
      Finding Fd;
      Fd.Loc = R.Call->getBeginLoc();
      Fd.Message = "'" + R.Name.str() + "' is called " + Where +
                   " instead of in reset(); clone() copies the module, clears "
                   "the copy's registrations and calls only reset(), so it "
                   "throws \"The cloned module does not have the same number "
                   "of " +
                   Kind.str() +
                   " as the original module after calling reset()\"";
      Fd.Notes.push_back(
          {R.Call->getBeginLoc(),
           "move the registration into reset() and call reset() from the "
           "constructor, or silence with // "
           "NOLINT(torch-register-outside-reset)"});
      report(std::move(Fd), Ctx);
    }
  }
}

} // namespace tensorplace
