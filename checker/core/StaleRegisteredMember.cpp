//===- StaleRegisteredMember.cpp ------------------------------------------===//

#include "StaleRegisteredMember.h"
#include "FunctionBody.h"
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

/// A tensor member of one of LibTorch's own layers (LinearImpl::weight,
/// BatchNormImplBase::running_mean, CrossEntropyLossImpl::weight). Every
/// tensor data member of a torch::nn module class is what its reset()
/// registers, as a parameter or a buffer (possibly an undefined one, as a
/// Linear's bias without bias).
static bool isLibraryLayerState(const FieldDecl *Field) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  return Class && isTensorType(Field->getType()) &&
         isLibTorchModuleClass(Class) && isModuleClass(Class);
}

/// Every return of Body hands back Param, unchanged: a helper that copies
/// into its argument and returns it, `Tensor assign(Tensor left, const
/// Tensor &right) { left.copy_(right); return left; }`. A tensor passed by
/// value is the same tensor (a handle to one TensorImpl).
static const ParmVarDecl *returnedParameter(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || !Def)
    return nullptr;
  FunctionBody Body(Def);
  const ParmVarDecl *Returned = nullptr;
  for (const Stmt *S : Body.statements()) {
    const auto *Return = dyn_cast<ReturnStmt>(S);
    if (!Return || Body.isInLambda(Return))
      continue;
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
        Return->getRetValue()
            ? skipValuePlumbing(Return->getRetValue())->IgnoreParenImpCasts()
            : nullptr);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || (Returned && Returned != Param))
      return nullptr;
    Returned = Param;
  }
  if (!Returned || !isTensorType(Returned->getType().getNonReferenceType()) ||
      llvm::any_of(Body.usesOf(Returned), [&](const DeclRefExpr *Use) {
        return assignmentTo(Use, Body) != nullptr;
      }))
    return nullptr;
  return Returned;
}

/// Value is a member that some module registers, or an in-place operation on
/// one, which returns that tensor itself: `fc->weight =
/// torch::nn::init::xavier_uniform_(fc->weight)`, `w_ = w_.fill_(0)`, or a
/// tied weight, `decoder->weight = embedding->weight`. Module::to() moves such
/// a tensor in place (set_data), so whatever holds it sees the move.
static bool isRegisteredTensor(const ModuleFacts &Facts, const Expr *Value,
                               unsigned Depth = 0) {
  Value = skipValuePlumbing(Value);
  if (!Value || Depth > 8)
    return false;
  if (const FieldDecl *Field = namedField(Value))
    return isTensorType(Field->getType()) &&
           (isLibraryLayerState(Field) ||
            Facts.registrationLoc(Field).isValid());
  const auto *Call = dyn_cast<CallExpr>(Value);
  if (!Call)
    return false;
  llvm::StringRef Name = calleeName(Call);
  if (!tensorplace::compat::endsWith(Name, "_") ||
      tensorplace::compat::endsWith(Name, "__")) {
    // A project helper that returns the tensor it was given: a function,
    // or a lambda (`auto assign = [](Tensor left, ...) {...}`), whose
    // operator() call has the closure as its first argument.
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned First = 0;
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee)) {
      if (!Method->getParent()->isLambda())
        return false;
      First = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    }
    const ParmVarDecl *Param = returnedParameter(Callee);
    if (!Param || First + Param->getFunctionScopeIndex() >= Call->getNumArgs())
      return false;
    return isRegisteredTensor(
        Facts, Call->getArg(First + Param->getFunctionScopeIndex()), Depth + 1);
  }
  if (const Expr *Object = memberCallObject(Call))
    return isTensorType(Object->getType()) &&
           isRegisteredTensor(Facts, Object, Depth + 1);
  // torch::nn::init::normal_(w, ...): the first argument, returned.
  return Call->getNumArgs() >= 1 &&
         isRegisteredTensor(Facts, Call->getArg(0), Depth + 1);
}

/// The assigned value is a local or parameter that the same function also
/// registers, before or after the assignment: `head = h; replace_module("head",
/// h);`. A holder or a tensor copied is the same object, so the member is
/// what the module holds.
static bool registersAssignedValue(const ModuleFacts &Facts,
                                   const ModuleFacts::FieldWrite &W) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
      W.Value ? skipValuePlumbing(W.Value)->IgnoreParenImpCasts() : nullptr);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage())
    return false;
  const FunctionDecl *Function = canonicalFunction(W.Function);
  return llvm::any_of(
      Facts.registrationCalls(), [&](const ModuleFacts::RegistrationCall &R) {
        if (!R.Function || canonicalFunction(R.Function) != Function)
          return false;
        return llvm::any_of(R.Call->arguments(), [&](const Expr *Arg) {
          const auto *Named = dyn_cast<DeclRefExpr>(
              skipValuePlumbing(Arg)->IgnoreParenImpCasts());
          return Named && Named->getDecl() == Var;
        });
      });
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
        if (Facts.writeRegisters(W) || registersAssignedValue(Facts, W) ||
            (!IsTensor && emptiesHolder(W.Value)))
          continue;
        if (InputBuffer && takesTensor(W.Function) &&
            !Facts.valueNamesMember(W.Value, Field))
          continue;
        if (IsTensor && (isReplacedWhereInputIs(W, Field) ||
                         isRegisteredTensor(Facts, W.Value)))
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
  checkLibraryLayerState(Facts, Ctx);
}

/// `fc1->weight = fc1->weight.view(...).contiguous()`, `bn->running_mean =
/// loaded["bn.running_mean"]`: a tensor of one of LibTorch's own layers
/// rebound from the user's code. The layer's reset() registered the old
/// tensor, and the layer's forward() reads the member, so the two part from
/// here on, wherever the write is (construction included: the layer was
/// built, and registered its state, before the write).
void StaleRegisteredMember::checkLibraryLayerState(const ModuleFacts &Facts,
                                                   ASTContext &Ctx) {
  std::vector<const ModuleFacts::FieldWrite *> Writes;
  for (const auto &Entry : Facts.inventory().allWrites())
    if (isLibraryLayerState(Entry.first))
      for (const ModuleFacts::FieldWrite &W : Entry.second)
        Writes.push_back(&W);
  const SourceManager &SM = Ctx.getSourceManager();
  // The map's order is the pointers': report in source order.
  llvm::sort(Writes, [&](const ModuleFacts::FieldWrite *A,
                         const ModuleFacts::FieldWrite *B) {
    return SM.isBeforeInTranslationUnit(A->Loc, B->Loc);
  });
  for (const ModuleFacts::FieldWrite *W : Writes) {
    if (W->Kind != ModuleFacts::WriteKind::Assign || !W->Function)
      continue;
    const FieldDecl *Field = W->Field;
    // Registered again right after, in a subclass's reset() say.
    if (Facts.writeRegisters(*W) || registersAssignedValue(Facts, *W) ||
        isReplacedWhereInputIs(*W, Field) ||
        isRegisteredTensor(Facts, W->Value) ||
        registrationsAround(Facts, *W, SM).After)
      continue;
    // Copying a whole module copies its registrations along.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(W->Function))
      if (Method->isCopyAssignmentOperator() ||
          Method->isMoveAssignmentOperator())
        continue;
    std::string Member = Field->getNameAsString();
    std::string Layer =
        cast<CXXRecordDecl>(Field->getParent())->getNameAsString();
    Finding F;
    F.Loc = W->Loc;
    F.Message = "'" + Member + "' is state that " + Layer +
                "::reset() registers, and this assignment rebinds it to "
                "another tensor; the layer keeps the registered one, so "
                "Module::to(), parameters(), torch::save() and clone() no "
                "longer act on the tensor its forward() uses";
    F.Notes.push_back(
        {W->Loc, "update it in place instead (" + Member + ".copy_(...) or " +
                     Member +
                     ".set_data(...) under torch::NoGradGuard), or silence "
                     "with // NOLINT(torch-stale-registered-member)"});
    report(std::move(F), Ctx);
  }
}

} // namespace tensorplace
