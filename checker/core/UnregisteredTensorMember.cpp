//===- UnregisteredTensorMember.cpp ---------------------------------------===//

#include "UnregisteredTensorMember.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace tensorplace {

/// The member is given new tensors again after construction: written
/// outside construction, or by a setup helper that a method other than the
/// constructors and reset() also calls (a recompute after an update).
/// Registering where it is written would then fail the second time with
/// "already defined".
static bool isWrittenAgain(const ModuleFacts &Facts, const CXXRecordDecl *Class,
                           const FieldDecl *Field) {
  llvm::SmallPtrSet<const FunctionDecl *, 4> Helpers;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (!W.Function || !Facts.givesTensorState(W))
      continue;
    if (!Facts.isConstructionFunction(W.Function))
      return true;
    if (!isa<CXXConstructorDecl>(W.Function) &&
        !(W.Function->getDeclName().isIdentifier() &&
          W.Function->getName() == "reset"))
      Helpers.insert(canonicalFunction(W.Function));
  }
  if (Helpers.empty())
    return false;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Caller = canonicalFunction(Method);
    if (Facts.isConstructionFunction(Caller))
      continue;
    for (const ModuleFacts::CallEdge &Edge : Facts.calleesOf(Caller))
      if (Helpers.count(canonicalFunction(Edge.Callee)))
        return true;
  }
  return false;
}

void UnregisteredTensorMember::check(const ModuleFacts &Facts,
                                     ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // Registration may happen in setup code this file cannot see: say
    // nothing, or let the findings wait on it (prepareHiddenSetup()).
    if (!prepareHiddenSetup(Facts, Class))
      continue;
    for (const FieldDecl *Field : Class->fields()) {
      Pending.Member = Field->getNameAsString();
      if (!isTensorLikeType(Field->getType()) || Facts.isRegistered(Field))
        continue;
      // State given at construction: an in-class or constructor initializer,
      // or a write in a constructor, reset() or a helper they call. What
      // forward() alone writes is not module state.
      const ModuleFacts::FieldWrite *StateWrite = nullptr;
      for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
        bool AtConstruction = !W.Function ||
                              isa<CXXConstructorDecl>(W.Function) ||
                              Facts.isConstructionFunction(W.Function);
        if (AtConstruction && Facts.givesTensorState(W)) {
          StateWrite = &W;
          break;
        }
      }
      if (!StateWrite || Facts.isPerCallCache(Field))
        continue;

      std::string Member = Field->getNameAsString();
      std::string Registered = registeredName(Member);
      bool IsTensor = isTensorType(Field->getType());
      Finding F;
      if (!placeMemberFinding(Field, StateWrite->Loc, name(), Ctx, F))
        continue;
      F.Message =
          "'" + Member + "' is " +
          (IsTensor ? "a tensor member" : "a container of tensors") +
          " of module '" + Class->getNameAsString() +
          "' that is never registered; Module::to() will not move it, and "
          "parameters(), buffers(), torch::save() and clone() will not see it";
      std::string Register = " with register_buffer(\"" + Registered +
                             "\", ...) or register_parameter(\"" + Registered +
                             "\", ...) and keep the returned tensor";
      // Registering the same name twice throws: a member recomputed later
      // is registered once and then updated in place.
      std::string Advice =
          isWrittenAgain(Facts, Class, Field)
              ? "; it is given new tensors again after construction, so "
                "register " +
                    std::string(IsTensor ? "it" : "each tensor") +
                    " once, in " +
                    (isCloneableClass(Class) ? "reset()" : "the constructor") +
                    "," + Register +
                    ", and update the registered tensor in place (copy_(), "
                    "set_data()) where it is recomputed, as registering "
                    "again fails with 'already defined'"
              : "; register " + std::string(IsTensor ? "it" : "each tensor") +
                    Register;
      F.Notes.push_back(
          {StateWrite->Loc, "'" + Member + "' is given " +
                                (IsTensor ? "a tensor" : "tensors") + " here" +
                                Advice +
                                ", or silence with "
                                "// NOLINT(torch-unregistered-tensor-member)"});
      if (IsTensor)
        F.Fixes =
            registerMemberFix(Facts, Class, Field, "register_buffer", Ctx);
      report(std::move(F), Ctx);
    }
  }
}

} // namespace tensorplace
