//===- UnregisteredTensorMember.cpp ---------------------------------------===//

#include "UnregisteredTensorMember.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/LLVMCompat.h"
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

/// An override of Module::to() in the class moves the member: the parent's
/// to() calls it on each child, and a caller's on the module itself.
static bool isMovedByToOverride(const ModuleFacts &Facts,
                                const FieldDecl *Field) {
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(W.Function))
      if (Method->getDeclName().isIdentifier() && Method->getName() == "to" &&
          Method->isVirtual())
        return true;
  return false;
}

/// The expression asks for requires_grad: trainable, so an optimizer built
/// from parameters() needs it.
static bool mentionsRequiresGrad(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (tensorplace::compat::isOneOf(
            calleeName(Call),
            {"requires_grad", "requires_grad_", "set_requires_grad"}))
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsRequiresGrad(Child))
      return true;
  return false;
}

/// t_.to(x.device()), t_.to(x), t_.to(table_.device(), torch::kLong): a
/// move to a device the function's own parameters give, or the module's
/// registered state (a buffer, a parameter, a registered child's weight),
/// which Module::to() moves.
static bool movesToParameterDevice(const ModuleFacts &Facts,
                                   const CallExpr *Call,
                                   const FunctionDecl *F) {
  if (!Call || calleeName(Call) != "to" || Call->getNumArgs() == 0)
    return false;
  ValueIdentity::Decls From;
  Facts.identity().origins(Call->getArg(0), From);
  return llvm::any_of(From, [&](const ValueDecl *D) {
    if (const auto *P = dyn_cast<ParmVarDecl>(D))
      return P->getDeclContext() == F;
    if (const auto *Field = dyn_cast<FieldDecl>(D))
      return (isTensorLikeType(Field->getType()) ||
              isModuleHandleLikeType(Field->getType())) &&
             Facts.isRegistered(Field);
    return false;
  });
}

/// A number, perhaps converted to a data container of one element.
static bool isNumber(const Expr *E) {
  E = skipValuePlumbing(E);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1)
    E = skipValuePlumbing(Construct->getArg(0));
  return E->getType()->isArithmeticType();
}

/// Every value the member is given at construction is a one-dimensional
/// tensor from a LibTorch factory: a size of one extent (`zeros({n})`), a
/// flat list of numbers (`tensor({8, 16, 32})`), or a range (`arange(n)`).
static bool isOneDimensionalTable(const ModuleFacts &Facts,
                                  const FieldDecl *Field) {
  bool Any = false;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (W.Kind == ModuleFacts::WriteKind::ElementInsert)
      continue;
    const auto *Call = dyn_cast_or_null<CallExpr>(skipValuePlumbing(W.Value));
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !isTorchNamespaceFunction(Callee) || Call->getNumArgs() == 0)
      return false;
    llvm::StringRef Name = calleeName(Call);
    const InitListExpr *List = bracedList(Call->getArg(0));
    bool OneDimensional = false;
    if (tensorplace::compat::isOneOf(Name, {"arange", "linspace", "logspace"}))
      OneDimensional = true;
    else if (Name == "tensor")
      OneDimensional = List && llvm::all_of(List->inits(), isNumber);
    else if (tensorplace::compat::isOneOf(
                 Name, {"zeros", "ones", "empty", "full", "rand", "randn"}))
      OneDimensional = List && List->getNumInits() == 1;
    if (!OneDimensional)
      return false;
    Any = true;
  }
  return Any;
}

/// The member is given a tensor with no elements at construction
/// (`dim_sqrt_ = torch::empty(0);`), a placeholder that holds nothing to
/// move, as an undefined tensor does; and no later write builds on it
/// (`mem_ = torch::cat({mem_, x})` would grow the CPU placeholder).
static bool isPlaceholderOnly(const ModuleFacts &Facts,
                              const FieldDecl *Field) {
  if (!isTensorType(Field->getType()))
    return false;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (W.Kind == ModuleFacts::WriteKind::ElementInsert)
      return false;
    if (Facts.isConstructionWrite(W)) {
      if (!Facts.givesTensorState(W))
        continue;
      const auto *Call = dyn_cast_or_null<CallExpr>(skipValuePlumbing(W.Value));
      // Placed or converted on the way (`torch::zeros(0).to(device_)`): still
      // no elements.
      while (Call && tensorplace::compat::isOneOf(
                         calleeName(Call),
                         {"to", "cuda", "cpu", "type_as", "contiguous"}))
        Call = dyn_cast_or_null<CallExpr>(
            skipValuePlumbing(memberCallObject(Call)));
      const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
      if (!Callee || !isTorchNamespaceFunction(Callee) ||
          Call->getNumArgs() == 0 ||
          !tensorplace::compat::isOneOf(
              calleeName(Call),
              {"empty", "zeros", "ones", "full", "rand", "randn"}) ||
          !hasZeroExtent(Call->getArg(0)))
        return false;
    } else if (!W.Value || Facts.valueNamesMember(W.Value, Field)) {
      return false;
    }
  }
  return true;
}

/// `t_[i]` with an integer index: of a one-dimensional table, a
/// 0-dimensional tensor, which combines with tensors on any device as a
/// scalar does.
static bool isScalarElement(const Expr *Top, const Stmt *User) {
  const auto *Subscript = dyn_cast_or_null<CXXOperatorCallExpr>(User);
  return Subscript && Subscript->getOperator() == OO_Subscript &&
         Subscript->getNumArgs() == 2 && Subscript->getArg(0) == Top &&
         skipValuePlumbing(Subscript->getArg(1))
             ->getType()
             ->isIntegralOrEnumerationType();
}

/// A constant table that each function using it first places on the device
/// of its input: `t_.to(x.device())` at every read, or `t_ =
/// t_.to(x.device())` before the reads; reads of its metadata aside. It
/// meets device data only on the input's device, and, trained by nothing
/// (no requires_grad), loses nothing an optimizer would need. Reads that
/// stay on the host (`.max().item()`) and, of a one-dimensional table,
/// scalar elements (`strides_[i]`) meet no device data as a tensor, and
/// count as placed.
enum class Placement {
  Placed,    ///< Every read seen is placed on the input's device.
  NotPlaced, ///< Some read is not, or it is trainable.
  NoReadSeen ///< No function of this file reads it.
};

static Placement followsInputDevice(const ModuleFacts &Facts,
                                    const FieldDecl *Field) {
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (mentionsRequiresGrad(W.Value))
      return Placement::NotPlaced;
  const FieldDecl *Member = Field->getCanonicalDecl();
  const bool Table = isOneDimensionalTable(Facts, Field);
  bool AnyRead = false;
  for (const FunctionDecl *F : Facts.calls().functions()) {
    if (Facts.isConstructionFunction(F))
      continue;
    FunctionBody Body(F);
    // Where t_ = t_.to(x.device()) ends: from there on t_ is on x's device.
    unsigned PlacedFrom = ~0u;
    for (const Stmt *S : Body.statements()) {
      const auto *Use = dyn_cast<Expr>(S);
      if (!Use ||
          !(isa<MemberExpr>(Use) || isa<CXXDependentScopeMemberExpr>(Use)))
        continue;
      const FieldDecl *Named = namedField(Use);
      if (!Named || Named->getCanonicalDecl() != Member)
        continue;
      AnyRead = true;
      const Expr *Top = nullptr;
      const Stmt *User = valueUser(Use, Body, Top);
      if (isOnlyReadOnHost(Top, Body) || (Table && isScalarElement(Top, User)))
        continue;
      if (const CallExpr *Call = memberCallOn(User, Body)) {
        llvm::StringRef Name = calleeName(Call);
        if (tensorplace::compat::isOneOf(
                Name, {"device", "get_device", "is_cuda", "sizes", "size",
                       "dim", "numel", "dtype", "scalar_type", "defined"}) ||
            movesToParameterDevice(Facts, Call, F))
          continue;
      }
      if (const auto *Assign = dyn_cast_or_null<CXXOperatorCallExpr>(User))
        if (Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
            Assign->getArg(0) == Top) {
          const auto *Move =
              dyn_cast<CallExpr>(skipValuePlumbing(Assign->getArg(1)));
          const FieldDecl *Moved =
              Move ? namedField(memberCallObject(Move)) : nullptr;
          if (!Moved || Moved->getCanonicalDecl() != Member ||
              !movesToParameterDevice(Facts, Move, F))
            return Placement::NotPlaced;
          PlacedFrom = std::min(PlacedFrom, Body.endOrderOf(Assign));
          continue;
        }
      if (Body.orderOf(Use) <= PlacedFrom)
        return Placement::NotPlaced;
    }
  }
  return AnyRead ? Placement::Placed : Placement::NoReadSeen;
}

/// The class declares a method that this file does not define (forward()
/// in the .cpp file beside the header): what it reads is judged by the file
/// that defines it.
static bool hasMethodsDefinedElsewhere(const CXXRecordDecl *Class) {
  return llvm::any_of(Class->methods(), [](const CXXMethodDecl *M) {
    return M->isUserProvided() && !tensorplace::compat::isPureVirtual(M) &&
           !M->isDefined() && !isa<CXXConstructorDecl>(M) &&
           !isa<CXXDestructorDecl>(M);
  });
}

void UnregisteredTensorMember::check(const ModuleFacts &Facts,
                                     ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // No code can move or register it: a plain class with a module base.
    if (Facts.isModuleInNameOnly(Class))
      continue;
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
        if (Facts.isConstructionWrite(W) && Facts.givesTensorState(W)) {
          StateWrite = &W;
          break;
        }
      }
      if (!StateWrite || Facts.isPerCallCache(Field) ||
          isPlaceholderOnly(Facts, Field))
        continue;
      // Kept on the right device by hand: in an override of to(), or placed
      // on the input's device wherever it is read (judged where the reads
      // are: by the file that defines the methods when this one does not).
      if (isMovedByToOverride(Facts, Field))
        continue;
      Placement Placed = followsInputDevice(Facts, Field);
      if (Placed == Placement::Placed || (Placed == Placement::NoReadSeen &&
                                          hasMethodsDefinedElsewhere(Class)))
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
      const bool WrittenAgain = isWrittenAgain(Facts, Class, Field);
      std::string Advice =
          WrittenAgain
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
      // Registered, the member would be rebound by the later writes: the
      // fix is a change to those writes too, which is the user's to make.
      if (IsTensor && !WrittenAgain)
        F.Fixes =
            registerMemberFix(Facts, Class, Field, "register_buffer", Ctx);
      report(std::move(F), Ctx);
    }
  }
}

} // namespace tensorplace
