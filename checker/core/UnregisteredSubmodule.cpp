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

/// A user module class with no tensor or module members of its own, that
/// registers nothing in the code seen here, and whose setup is in another
/// file: whether it holds state is unknown, so it is not claimed.
static bool hasUnknownState(const ModuleFacts &Facts,
                            const CXXRecordDecl *Impl) {
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def || !Facts.hasHiddenSetup(Def))
    return false;
  for (const FieldDecl *Field : Def->fields())
    if (isTensorLikeType(Field->getType()) ||
        isModuleHandleLikeType(Field->getType()))
      return false;
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(R.Function))
      if (Method->getParent()->getCanonicalDecl() == Def->getCanonicalDecl())
        return false;
  return true;
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
      // no state of their own lose nothing by staying unregistered; a user
      // module whose setup is elsewhere may be one of them.
      if (Held &&
          (Facts.isStatelessModuleClass(Held) || hasUnknownState(Facts, Held)))
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
