//===- LazilyCreatedLayer.cpp ---------------------------------------------===//

#include "LazilyCreatedLayer.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

using namespace clang;

namespace tensorplace {

static const char *const Remedy =
    "create and register it in the constructor (or in reset() for a "
    "Cloneable), or silence with // NOLINT(torch-lazily-created-layer)";

void LazilyCreatedLayer::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const ModuleFacts::ModuleCreation &C : Facts.moduleCreations()) {
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(C.Function);
    if (!Path || isContainerModule(C.Impl) ||
        Facts.isStatelessModuleClass(C.Impl) ||
        isDefaultLoss(C.Impl, C.Creation) ||
        Facts.isInitializationTemplate(C.Creation))
      continue;
    Finding F;
    F.Loc = C.Creation->getBeginLoc();
    std::string Where = describePath(*Path, C.Function, F);
    F.Message = "module '" + C.Impl->getQualifiedNameAsString() +
                "' is constructed " + Where +
                (Facts.isRegisteredWhereCreated(C.Creation)
                     ? "; it is created on the CPU when this runs, so "
                       "Module::to() calls and optimizers set up before never "
                       "see it"
                     : "; each time this runs it makes a new module on the CPU "
                       "that Module::to(), optimizers and train()/eval() never "
                       "reach");
    F.Notes.push_back({C.Creation->getBeginLoc(), Remedy});
    report(std::move(F), Ctx);
  }
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls()) {
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(R.Function);
    // A module built in the arguments is reported as the construction; a
    // tensor made from an input's options or device is the lazy-module
    // pattern: it materialises where the input lives.
    if (!Path || R.ConstructsModule ||
        (R.Name != "register_module" && R.Name != "replace_module" &&
         R.FollowsInputDevice))
      continue;
    Finding F;
    F.Loc = R.Call->getBeginLoc();
    std::string Where = describePath(*Path, R.Function, F);
    F.Message = "'" + R.Name.str() + "' is called " + Where +
                "; state registered after construction is missed by "
                "Module::to() calls and optimizers set up before it, and "
                "registering the same name twice throws";
    F.Notes.push_back({R.Call->getBeginLoc(), Remedy});
    report(std::move(F), Ctx);
  }
}

} // namespace tensorplace
