//===- UnregisteredTensorMember.cpp ---------------------------------------===//

#include "UnregisteredTensorMember.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

using namespace clang;

namespace tensorplace {

void UnregisteredTensorMember::check(const ModuleFacts &Facts,
                                     ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // Registration may happen in setup code this file cannot see.
    if (Facts.hasHiddenSetup(Class))
      continue;
    for (const FieldDecl *Field : Class->fields()) {
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
      F.Notes.push_back(
          {StateWrite->Loc,
           "'" + Member + "' is given " + (IsTensor ? "a tensor" : "tensors") +
               " here; register " + (IsTensor ? "it" : "each tensor") +
               " with register_buffer(\"" + Registered +
               "\", ...) or register_parameter(\"" + Registered +
               "\", ...) and keep the returned tensor, or silence with "
               "// NOLINT(torch-unregistered-tensor-member)"});
      if (IsTensor)
        F.Fixes =
            registerMemberFix(Facts, Class, Field, "register_buffer", Ctx);
      report(std::move(F), Ctx);
    }
  }
}

} // namespace tensorplace
