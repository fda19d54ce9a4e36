//===- StaleRegisteredMember.cpp ------------------------------------------===//

#include "StaleRegisteredMember.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace tensorplace {

/// Where Loc is in Function: before or after Other, by where the code is
/// written (macro code counts where the macro is used).
static bool isBefore(SourceLocation Loc, SourceLocation Other,
                     const SourceManager &SM) {
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loc),
                                      SM.getExpansionLoc(Other));
}

/// Registration at Loc in Function happens whenever the function runs: it is
/// in a constructor's initializer list, or in a statement of the body that
/// is not an if or a switch.
static bool runsUnconditionally(const FunctionDecl *Function,
                                SourceLocation Loc, const SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Function->getBody());
  if (!Body)
    return false;
  Loc = SM.getExpansionLoc(Loc);
  if (isBefore(Loc, Body->getLBracLoc(), SM))
    return isa<CXXConstructorDecl>(Function);
  for (const Stmt *S : Body->body()) {
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    if (isBefore(Loc, SM.getExpansionLoc(S->getBeginLoc()), SM) ||
        isBefore(End, Loc, SM))
      continue;
    return !isa<IfStmt>(S) && !isa<SwitchStmt>(S);
  }
  return false;
}

/// S names the member: `register_module("head", head)`.
static bool namesField(const Stmt *S, const FieldDecl *Field) {
  if (!S)
    return false;
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    if (const auto *Named = dyn_cast<FieldDecl>(Member->getMemberDecl()))
      if (Named->getCanonicalDecl() == Field->getCanonicalDecl())
        return true;
  for (const Stmt *Child : S->children())
    if (namesField(Child, Field))
      return true;
  return false;
}

/// Where, in the function of W, the member is registered: the places of
/// register_*(..., member) calls and of writes that store what a
/// registration returned.
static llvm::SmallVector<SourceLocation, 2>
registrationsInFunction(const ModuleFacts &Facts, const FieldDecl *Field,
                        const FunctionDecl *Function) {
  llvm::SmallVector<SourceLocation, 2> Where;
  const FunctionDecl *Canonical = canonicalFunction(Function);
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
    if (R.Function && canonicalFunction(R.Function) == Canonical &&
        llvm::any_of(R.Call->arguments(),
                     [&](const Expr *Arg) { return namesField(Arg, Field); }))
      Where.push_back(R.Call->getBeginLoc());
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (W.Function && canonicalFunction(W.Function) == Canonical &&
        Facts.writeRegisters(W))
      Where.push_back(W.Loc);
  return Where;
}

void StaleRegisteredMember::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // What the unseen setup code does with the member is unknown.
    if (Facts.hasHiddenSetup(Class))
      continue;
    for (const FieldDecl *Field : Class->fields()) {
      bool IsTensor = isTensorType(Field->getType());
      if (!IsTensor && !heldModuleClass(Field->getType()))
        continue;
      SourceLocation Registration = Facts.registrationLoc(Field);
      if (Registration.isInvalid())
        continue;
      const SourceManager &SM = Ctx.getSourceManager();
      for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
        if (W.Kind != ModuleFacts::WriteKind::Assign || !W.Function)
          continue;
        // A value that is itself registered (replace_module, register_*
        // under a new name) is what the module holds.
        if (Facts.writeRegisters(W))
          continue;
        // Assigned, then registered in the same function: the member and
        // the registered object are one. In construction and reset(), state
        // is (re)built; but a holder registered earlier in the same function,
        // unconditionally, and then given another module leaves the parent
        // with a module forward() does not use.
        bool RegisteredBefore = false, RegisteredAfter = false;
        for (SourceLocation Site :
             registrationsInFunction(Facts, Field, W.Function)) {
          if (isBefore(W.Loc, Site, SM))
            RegisteredAfter = true;
          else if (runsUnconditionally(W.Function, Site, SM))
            RegisteredBefore = true;
        }
        if (RegisteredAfter)
          continue;
        if (Facts.isConstructionFunction(W.Function) &&
            (IsTensor || !RegisteredBefore))
          continue;
        // Copying a whole module copies its registrations along.
        if (const auto *Method = dyn_cast<CXXMethodDecl>(W.Function))
          if (Method->isCopyAssignmentOperator() ||
              Method->isMoveAssignmentOperator())
            continue;
        std::string Member = Field->getNameAsString();
        Finding F;
        F.Loc = W.Loc;
        if (IsTensor) {
          F.Message = "'" + Member +
                      "' is registered module state, and this assignment "
                      "rebinds it to another tensor; the module keeps the "
                      "registered one, so Module::to(), torch::save() and "
                      "clone() no longer act on the tensor forward() uses";
        } else {
          F.Message = "'" + Member +
                      "' is a registered submodule, and this assignment "
                      "rebinds it to another module; the parent keeps the "
                      "registered one, so Module::to(), parameters(), "
                      "train()/eval() and torch::save() act on a module "
                      "forward() no longer uses";
        }
        F.Notes.push_back(
            {Registration, "'" + Member + "' is registered here"});
        F.Notes.push_back(
            {W.Loc,
             IsTensor
                 ? "update it in place instead (" + Member + ".copy_(...), " +
                       Member + ".mul_(...).add_(...), or " + Member +
                       ".set_data(...) under torch::NoGradGuard), or silence "
                       "with // NOLINT(torch-stale-registered-member)"
                 : "swap it with " + Member + " = replace_module(\"" +
                       registeredName(Member) +
                       "\", ...), or silence with "
                       "// NOLINT(torch-stale-registered-member)"});
        report(std::move(F), Ctx);
      }
    }
  }
}

} // namespace tensorplace
