//===- UnregisteredSubmodule.cpp ------------------------------------------===//

#include "UnregisteredSubmodule.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

using namespace clang;

namespace tensorplace {

/// Dropout, BatchNorm and the like change behaviour with train()/eval();
/// missing that is the part users notice first.
static bool switchesWithTraining(const CXXRecordDecl *Impl) {
  llvm::StringRef Name = Impl->getName();
  return Name.contains("Dropout") || Name.contains("BatchNorm") ||
         Name.contains("InstanceNorm") || Name == "RReLUImpl";
}

void UnregisteredSubmodule::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // Registration may happen in setup code this file cannot see.
    if (Facts.hasHiddenSetup(Class))
      continue;
    for (const FieldDecl *Field : Class->fields()) {
      const CXXRecordDecl *Held = nullptr;
      if (!isModuleHandleLikeType(Field->getType(), &Held) ||
          Facts.isRegistered(Field))
        continue;
      // Stateless built-ins (activations, pooling, ...) and user modules with
      // no state of their own lose nothing by staying unregistered.
      if (Held && Facts.isStatelessModuleClass(Held))
        continue;
      const ModuleFacts::FieldWrite *ModuleWrite = nullptr;
      for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
        if (!Facts.givesModule(W) || isDefaultLoss(Held, W.Value))
          continue;
        // A holder that only default-constructs matters once it is used.
        if (W.Kind == ModuleFacts::WriteKind::DefaultInit &&
            !Facts.isUsedInFunctions(Field))
          continue;
        ModuleWrite = &W;
        break;
      }
      if (!ModuleWrite)
        continue;

      std::string Member = Field->getNameAsString();
      bool IsHandle = heldModuleClass(Field->getType()) != nullptr;
      Finding F;
      if (!placeMemberFinding(Field, ModuleWrite->Loc, name(), Ctx, F))
        continue;
      F.Message = "'" + Member + "' holds " +
                  (IsHandle ? "a submodule" : "submodules") + " of module '" +
                  Class->getNameAsString() + "' that " +
                  (IsHandle ? "is" : "are") +
                  " never registered; Module::to(), parameters(), "
                  "train()/eval() and torch::save() will not reach " +
                  (IsHandle ? "it" : "them");
      if (Held && switchesWithTraining(Held))
        F.Message += ", so '" + Held->getNameAsString() +
                     "' stays in training mode after eval()";
      std::string Where =
          ModuleWrite->Kind == ModuleFacts::WriteKind::DefaultInit
              ? "default-constructs a module here"
              : "is given a module here";
      F.Notes.push_back(
          {ModuleWrite->Loc,
           "'" + Member + "' " + Where + "; register it with " +
               (IsHandle ? Member + " = register_module(\"" +
                               registeredName(Member) + "\", ...)"
                         : std::string("register_module(name, ...) for each "
                                       "element")) +
               ", or silence with // NOLINT(torch-unregistered-submodule)"});
      if (IsHandle)
        F.Fixes =
            registerMemberFix(Facts, Class, Field, "register_module", Ctx);
      report(std::move(F), Ctx);
    }
  }
}

} // namespace tensorplace
