//===- RegisterOutsideReset.cpp -------------------------------------------===//

#include "RegisterOutsideReset.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>

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

/// Registrations into this module written in S (a default member
/// initializer), outside lambdas.
static void findRegistrations(const Stmt *S,
                              llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    llvm::StringRef Name = calleeName(Call);
    if (ModuleFacts::isRegistrationName(Name) && Name != "replace_module" &&
        registersIntoThis(Call))
      Out.push_back(Call);
  }
  for (const Stmt *Child : S->children())
    findRegistrations(Child, Out);
}

/// A user function declared here and defined in another file.
static bool definedInAnotherFile(const FunctionDecl *F, ASTContext &Ctx) {
  return !F->isDefined() &&
         UserCodeFilter(Ctx.getSourceManager()).isUserCode(F->getLocation());
}

/// A call of a method of the class (or of a base of its own) on this module,
/// or a call handed the module (`fill(*this)`).
static bool actsOnThisModule(const CallExpr *Call, const CXXRecordDecl *Class) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Object && Method && isa<CXXThisExpr>(Object->IgnoreParenImpCasts())) {
      const CXXRecordDecl *Owner = Method->getParent();
      return Owner->getCanonicalDecl() == Class->getCanonicalDecl() ||
             Class->isDerivedFrom(Owner);
    }
  }
  return llvm::any_of(Call->arguments(), isThisObject);
}

/// The name a registration gives, when it is a string literal.
static std::optional<std::string> literalName(const CallExpr *Call) {
  if (Call->getNumArgs() == 0)
    return std::nullopt;
  const Expr *Arg = skipValuePlumbing(Call->getArg(0))->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg))
    if (Construct->getNumArgs() >= 1)
      Arg = Construct->getArg(0)->IgnoreParenImpCasts();
  if (const auto *Literal = dyn_cast<StringLiteral>(Arg))
    return Literal->getString().str();
  return std::nullopt;
}

static llvm::StringRef registeredKind(llvm::StringRef Name) {
  return Name == "register_parameter" ? "parameters"
         : Name == "register_buffer"  ? "buffers"
                                      : "child modules";
}

void RegisterOutsideReset::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    if (!isCloneableClass(Class) || overridesClone(Class))
      continue;
    llvm::SmallVector<const FunctionDecl *, 2> Constructors, Resets;
    for (const CXXConstructorDecl *Ctor : Class->ctors())
      if (Ctor->isUserProvided() && Ctor->hasBody())
        Constructors.push_back(Ctor);
    // reset() declared here and defined in another file: what it calls
    // there (the constructor's own setup helper, typically) is not known.
    bool ResetElsewhere = false;
    for (const CXXMethodDecl *Method : Class->methods())
      if (isReset(Method)) {
        if (Method->hasBody())
          Resets.push_back(Method);
        else if (!tensorplace::compat::isPureVirtual(Method))
          ResetElsewhere = true;
      }
    auto FromConstructors = reachableFrom(Constructors, Facts);
    auto FromReset = reachableFrom(Resets, Facts);

    // What reset() registers again under the same name, clone() finds.
    llvm::StringSet<> ResetNames;
    bool ResetNamesUnknown = false;
    for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
      if (R.Function && FromReset.count(canonicalFunction(R.Function))) {
        if (std::optional<std::string> Name = literalName(R.Call))
          ResetNames.insert(*Name);
        else
          ResetNamesUnknown = true;
      }
    // reset() calls what another file defines: it may register anything.
    bool ResetCallsElsewhere = false;
    for (const auto &Entry : FromReset)
      for (const ModuleFacts::CallEdge &Edge : Facts.calleesOf(Entry.first))
        ResetCallsElsewhere |= definedInAnotherFile(Edge.Callee, Ctx);

    // reset() registers the name again (or registers names not known here):
    // the clone has it after reset(), and clone() succeeds.
    auto RegisteredByReset = [&](const CallExpr *Call) {
      std::optional<std::string> Registered = literalName(Call);
      return ResetNamesUnknown ||
             (Registered && ResetNames.count(*Registered)) ||
             (!Registered && !ResetNames.empty());
    };

    // torch::nn::ModuleList layers = register_module("layers", ...); in the
    // class: every constructor but the copy constructor runs it, and clone()
    // makes its copy with the copy constructor.
    for (const FieldDecl *Field : Class->fields()) {
      llvm::SmallVector<const CallExpr *, 2> Calls;
      findRegistrations(Field->getInClassInitializer(), Calls);
      for (const CallExpr *Call : Calls) {
        if (RegisteredByReset(Call))
          continue;
        std::string Name = calleeName(Call).str();
        Finding Fd;
        Fd.Loc = Call->getBeginLoc();
        Fd.Message =
            "'" + Name + "' is called in the default member initializer of '" +
            Field->getNameAsString() + "' of Cloneable module '" +
            Class->getNameAsString() +
            "' instead of in reset(); clone() copies the module with its "
            "copy constructor, which does not run the initializer, clears the "
            "copy's registrations and calls only reset(), so it throws \"The "
            "cloned module does not have the same number of " +
            registeredKind(Name).str() +
            " as the original module after calling reset()\"";
        Fd.Notes.push_back(
            {Call->getBeginLoc(),
             "declare the member empty and register it in reset(), or silence "
             "with // NOLINT(torch-register-outside-reset)"});
        report(std::move(Fd), Ctx);
      }
    }

    for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls()) {
      const FunctionDecl *F = canonicalFunction(R.Function);
      auto Entered = FromConstructors.find(F);
      if (Entered == FromConstructors.end() || FromReset.count(F) ||
          R.Name == "replace_module" || !registersIntoThis(R.Call) ||
          RegisteredByReset(R.Call))
        continue;
      std::string Where =
          isa<CXXConstructorDecl>(F)
              ? "in the constructor of Cloneable module '" +
                    Class->getNameAsString() + "'"
              : "in '" + describeFunction(F) +
                    "', which the constructor of Cloneable module '" +
                    Class->getNameAsString() + "' calls,";
      llvm::StringRef Kind = registeredKind(R.Name);
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

    // The constructor calls a function of another file on this module (a
    // helper of a base class that fills it): the CLI, which sees that file,
    // reports the call when the function registers something there.
    if (!acceptsPending() || !ResetNames.empty() || ResetNamesUnknown ||
        ResetCallsElsewhere || ResetElsewhere)
      continue;
    for (const FunctionDecl *F : Facts.calls().functions()) {
      if (!FromConstructors.count(canonicalFunction(F)))
        continue;
      for (const ModuleFacts::CallEdge &Edge : Facts.calleesOf(F)) {
        if (!definedInAnotherFile(Edge.Callee, Ctx) ||
            !isSettleableFunction(Edge.Callee) ||
            !actsOnThisModule(Edge.Call, Class))
          continue;
        std::string Callee = Edge.Callee->getNameAsString();
        Finding Fd;
        Fd.Loc = Edge.Call->getBeginLoc();
        Fd.Message =
            "'" + Callee + "' registers into Cloneable module '" +
            Class->getNameAsString() + "' when " +
            (isa<CXXConstructorDecl>(F)
                 ? std::string("its constructor")
                 : "'" + describeFunction(F) + "', which its constructor,") +
            " calls it, instead of in reset(); clone() copies the module, "
            "clears the copy's registrations and calls only reset(), so it "
            "throws \"The cloned module does not have the same number of "
            "... as the original module after calling reset()\"";
        Fd.PendingStateOf = {functionKey(Edge.Callee)};
        Fd.Notes.push_back(
            {Edge.Callee->getLocation(),
             "'" + Callee +
                 "' is defined in another file of the project, where it "
                 "registers parameters, buffers or submodules"});
        Fd.Notes.push_back(
            {Edge.Call->getBeginLoc(),
             "call it from reset() and call reset() from the constructor, or "
             "silence with // NOLINT(torch-register-outside-reset)"});
        report(std::move(Fd), Ctx);
      }
    }
  }
}

} // namespace tensorplace
