//===- LazilyCreatedLayer.cpp ---------------------------------------------===//

#include "LazilyCreatedLayer.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

using namespace clang;

namespace tensorplace {

static const char *const Remedy =
    "create and register it in the constructor (or in reset() for a "
    "Cloneable), or silence with // NOLINT(torch-lazily-created-layer)";

/// Dropout and the like: LibTorch modules with no parameters or buffers,
/// only a training mode.
static bool hasOnlyATrainingMode(const CXXRecordDecl *Impl) {
  return isLibTorchModuleClass(Impl) && (Impl->getName().contains("Dropout") ||
                                         Impl->getName() == "RReLUImpl");
}

/// The condition names a bool parameter of F about training (`train`,
/// `training`, `is_train`), or asks is_training().
static bool namesTrainingFlag(const Stmt *S, const FunctionDecl *F) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
      if (P->getDeclContext() == F && P->getType()->isBooleanType() &&
          P->getIdentifier() && P->getName().contains_insensitive("train"))
        return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (calleeName(Call) == "is_training")
      return true;
  for (const Stmt *Child : S->children())
    if (namesTrainingFlag(Child, F))
      return true;
  return false;
}

/// Made in a branch that a training flag decides (`if (train) x =
/// Dropout(p)(x);`): the branch, not train()/eval(), decides whether it
/// runs, so the new module's training mode is the one wanted.
static bool isGatedByTrainingFlag(const Expr *Creation, const FunctionDecl *F) {
  FunctionBody Body(F);
  for (const Stmt *Child = Creation, *Parent = Body.parentOf(Creation); Parent;
       Child = Parent, Parent = Body.parentOf(Parent)) {
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      if (Child != If->getCond() && namesTrainingFlag(If->getCond(), F))
        return true;
    if (const auto *Cond = dyn_cast<ConditionalOperator>(Parent))
      if (Child != Cond->getCond() && namesTrainingFlag(Cond->getCond(), F))
        return true;
  }
  return false;
}

void LazilyCreatedLayer::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const ModuleFacts::ModuleCreation &C : Facts.moduleCreations()) {
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(C.Function);
    if (!Path || isContainerModule(C.Impl) ||
        isDefaultLoss(C.Impl, C.Creation) ||
        Facts.isInitializationTemplate(C.Creation) ||
        (hasOnlyATrainingMode(C.Impl) &&
         isGatedByTrainingFlag(C.Creation, C.Function)))
      continue;
    // A user class that registers nothing in the code seen here, and whose
    // constructor or reset() is in another file: only that file can tell
    // whether a new one holds parameters (a helper built per call from the
    // input's tensors holds none).
    std::vector<std::string> StateElsewhere;
    if (const CXXRecordDecl *Def = C.Impl->getDefinition();
        Def && Facts.inventory().isModuleClassHere(Def) &&
        Facts.hasHiddenSetup(Def) &&
        !Facts.inventory().hasStateInItsCode(Def) &&
        llvm::none_of(Def->fields(), [&](const FieldDecl *Field) {
          return llvm::any_of(
              Facts.writesTo(Field), [&](const ModuleFacts::FieldWrite &W) {
                return W.Kind == ModuleFacts::WriteKind::InClassInit &&
                       (Facts.givesTensorState(W) || Facts.givesModule(W));
              });
        })) {
      if (!acceptsPending())
        continue;
      StateElsewhere = setupDefinedElsewhere(Def);
      if (StateElsewhere.empty())
        continue;
    } else if (Facts.isStatelessModuleClass(C.Impl,
                                            /*AllowGivenTensors=*/true)) {
      continue;
    }
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
    if (!StateElsewhere.empty())
      waitOnStateOf(C.Impl, std::move(StateElsewhere), F);
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
