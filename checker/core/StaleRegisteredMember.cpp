//===- StaleRegisteredMember.cpp ------------------------------------------===//

#include "StaleRegisteredMember.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace tensorplace {

/// `head = nullptr`, `head = torch::nn::Linear(nullptr)`: the holder is
/// emptied, not given another module. Whatever forward() still calls through
/// it fails loudly; nothing it uses is left out of Module::to().
static bool emptiesHolder(const Expr *Value) {
  Value = skipValuePlumbing(Value);
  if (!Value)
    return false;
  if (Value->getType()->isNullPtrType())
    return true;
  const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
  return Construct && Construct->getNumArgs() == 1 &&
         skipValuePlumbing(Construct->getArg(0))->getType()->isNullPtrType();
}

/// S calls register_buffer() somewhere.
static bool callsRegisterBuffer(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && calleeName(Call) == "register_buffer")
    return true;
  return llvm::any_of(S->children(), callsRegisterBuffer);
}

/// The member is registered as a buffer: `t_ = register_buffer("t", ...)`
/// or `register_buffer("t", t_)`.
static bool registeredAsBuffer(const ModuleFacts &Facts,
                               const FieldDecl *Field) {
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (Facts.writeRegisters(W) && callsRegisterBuffer(W.Value))
      return true;
  return llvm::any_of(
      Facts.registrationCalls(), [&](const ModuleFacts::RegistrationCall &R) {
        if (R.Name != "register_buffer" || R.Call->getNumArgs() < 2)
          return false;
        const FieldDecl *Named =
            namedField(skipValuePlumbing(R.Call->getArg(1)));
        return Named && Named->getCanonicalDecl() == Field->getCanonicalDecl();
      });
}

/// `buf = buf.to(q)`, `buf = buf.to(x.device())`: the member re-placed where
/// a tensor, device or options of the writing function is. Tensor::to()
/// returns the tensor itself when it already is there (the module moved with
/// its input), so the member stays the registered tensor. A device or dtype
/// written out, or taken from a member, is another matter.
static bool isReplacedWhereInputIs(const ModuleFacts::FieldWrite &W,
                                   const FieldDecl *Field) {
  const auto *Call = dyn_cast_or_null<CallExpr>(skipValuePlumbing(W.Value));
  if (!Call || calleeName(Call) != "to" || Call->getNumArgs() == 0)
    return false;
  const FieldDecl *Moved = namedField(memberCallObject(Call));
  if (!Moved || Moved->getCanonicalDecl() != Field->getCanonicalDecl())
    return false;
  const Expr *Target = skipValuePlumbing(Call->getArg(0));
  // A device converted to TensorOptions on the way.
  while (const auto *Convert = dyn_cast<CXXConstructExpr>(Target)) {
    if (Convert->getNumArgs() == 0)
      return false;
    Target = skipValuePlumbing(Convert->getArg(0));
  }
  if (const auto *Ask = dyn_cast<CallExpr>(Target))
    if (tensorplace::compat::isOneOf(calleeName(Ask), {"device", "options"}) &&
        memberCallObject(Ask))
      Target = skipValuePlumbing(memberCallObject(Ask));
  const auto *Ref = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Var->hasGlobalStorage() ||
      Var->getDeclContext() != static_cast<const DeclContext *>(W.Function))
    return false;
  QualType T = Var->getType().getNonReferenceType();
  return isTensorType(T) || isDeviceType(T) || isTensorOptionsType(T);
}

/// F takes a tensor: an input it computes the written value from.
static bool takesTensor(const FunctionDecl *F) {
  return llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
    return isTensorType(P->getType().getNonReferenceType());
  });
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
      // A per-call output kept in a registered tensor (so that a fresh
      // module has one): every forward() writes it anew before reading it,
      // so no read sees a tensor from before Module::to().
      if (IsTensor && Facts.isRefreshedOnEveryForward(Field))
        continue;
      // A buffer that keeps what the last call of a method given an input
      // computed (a distribution head's update(out), read by sample()),
      // which no forward() names: the per-call value, not state carried
      // across calls, so nothing that forward() uses is left behind.
      const bool InputBuffer =
          IsTensor && registeredAsBuffer(Facts, Field) &&
          Facts.forwardUseOf(Field) == ModuleFacts::ForwardUse::None;
      const SourceManager &SM = Ctx.getSourceManager();
      for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
        if (W.Kind != ModuleFacts::WriteKind::Assign || !W.Function)
          continue;
        // A value that is itself registered (replace_module, register_*
        // under a new name) is what the module holds.
        if (Facts.writeRegisters(W) || (!IsTensor && emptiesHolder(W.Value)))
          continue;
        if (InputBuffer && takesTensor(W.Function) &&
            !Facts.valueNamesMember(W.Value, Field))
          continue;
        if (IsTensor && isReplacedWhereInputIs(W, Field))
          continue;
        // Assigned, then registered in the same function: the member and
        // the registered object are one. In construction and reset(), state
        // is (re)built.
        // A holder registered before and rebound during construction ends
        // construction unregistered: torch-unregistered-submodule reports it.
        if (registrationsAround(Facts, W, SM).After ||
            Facts.isConstructionFunction(W.Function))
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
