//===- TensorMemory.cpp ---------------------------------------------------===//

#include "TensorMemory.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tensorplace {

namespace {

bool isDataAccessName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"data_ptr", "data", "mutable_data_ptr", "const_data_ptr",
             "packed_accessor32", "packed_accessor64",
             "generic_packed_accessor", "accessor"});
}

} // namespace

void TensorDataReads::scan(const Stmt *S, unsigned Depth) {
  if (!S)
    return;
  if (Depth > 3) {
    Truncated = true;
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (isDataAccessName(calleeName(Call)))
      if (const Expr *Object = memberCallObject(Call)) {
        QualType T = Object->getType();
        if (T->isPointerType())
          T = T->getPointeeType();
        if (isTensorType(T))
          Tensors.push_back(Object);
        // In a template, x.data_ptr<T>() and accessors name tensors;
        // data() is every container's.
        else if (T->isDependentType() && calleeName(Call) != "data")
          Dependent = true;
      }
  // A tensor converted to the kernel's parameter type by a constructor of
  // the project's (a device view of its memory: StaticDeviceTensor(t)): a
  // kernel cannot take the tensor itself, only what the constructor takes
  // out of it.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    if (const CXXConstructorDecl *Ctor = Construct->getConstructor())
      if (Construct->getNumArgs() >= 1 && !Ctor->isCopyOrMoveConstructor() &&
          !isTensorLikeType(Construct->getType()) &&
          !Ctor->getParent()->isInStdNamespace()) {
        const Expr *Arg = Construct->getArg(0)->IgnoreParenImpCasts();
        if (isTensorType(Arg->getType()))
          Tensors.push_back(Arg);
      }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
        scan(Var->getInit(), Depth + 1);
  for (const Stmt *Child : S->children())
    scan(Child, Depth);
}

namespace {

/// c10's kCUDA, or the DeviceType::CUDA enumerator it stands for.
bool namesCudaDeviceType(const DeclRefExpr *Ref) {
  const ValueDecl *D = Ref->getDecl();
  if (!D->getDeclName().isIdentifier())
    return false;
  return (D->getName() == "kCUDA" && isa<VarDecl>(D)) ||
         (D->getName() == "CUDA" && isa<EnumConstantDecl>(D) &&
          isDeviceTypeEnum(D->getType()));
}

/// Args place a new tensor on the current CUDA device and say nothing else
/// about its device: they name kCUDA, give no device index
/// (torch::Device(torch::kCUDA, 1)), and read no tensor, device or options
/// value (x.options(), a device parameter), whose device is not known here.
struct DeviceArgScan {
  bool Cuda = false;
  bool Other = false;
  void visit(const Stmt *S) {
    if (!S || Other)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (E->isTypeDependent() || E->containsErrors()) {
        Other = true;
        return;
      }
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
        if (isDeviceType(Construct->getType()) &&
            Construct->getNumArgs() >= 2 &&
            !isa<CXXDefaultArgExpr>(Construct->getArg(1)))
          Other = true;
    }
    if (isa<StringLiteral>(S))
      Other = true; // "cuda:1"
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (namesCudaDeviceType(Ref))
        Cuda = true;
      else if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (!Var->isConstexpr() &&
            (isTensorLikeType(Var->getType()) || isDeviceType(Var->getType()) ||
             isTensorOptionsType(Var->getType()) ||
             isDeviceTypeEnum(Var->getType())))
          Other = true;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (isTensorObject(memberCallObject(Call)))
        Other = true;
    for (const Stmt *Child : S->children())
      visit(Child);
  }
};

bool placesOnCurrentCudaDevice(const CallExpr *Factory) {
  DeviceArgScan Scan;
  for (const Expr *Arg : Factory->arguments())
    Scan.visit(Arg);
  return Scan.Cuda && !Scan.Other;
}

/// A local tensor that F allocates on the current CUDA device and never
/// re-binds: torch::empty(sizes, torch::kCUDA),
/// at::zeros(sizes, at::device(at::kCUDA).dtype(at::kFloat)).
bool isAllocatedOnCurrentDevice(const Expr *Tensor, const FunctionBody &Body) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Tensor->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getType()->isReferenceType() || !Var->getInit())
    return false;
  const auto *Factory = dyn_cast<CallExpr>(skipValuePlumbing(Var->getInit()));
  const FunctionDecl *Callee = Factory ? Factory->getDirectCallee() : nullptr;
  // from_blob() wraps memory that is wherever the pointer says.
  if (!Callee || !isTensorFactoryName(calleeName(Factory)) ||
      calleeName(Factory) == "from_blob" || !isTorchNamespaceFunction(Callee) ||
      !placesOnCurrentCudaDevice(Factory))
    return false;
  for (const DeclRefExpr *Use : Body.usesOf(Var)) {
    const Expr *Top = nullptr;
    const Stmt *User = valueUser(Use, Body, Top);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(User))
      if (BO->isAssignmentOp() && BO->getLHS() == Top)
        return false;
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User))
      if (Op->isAssignmentOp() && Op->getArg(0) == Top)
        return false;
    // Passed on by non-const reference (std::swap(out, x)): may be re-bound.
    if (const auto *Call = dyn_cast_or_null<CallExpr>(User))
      if (const FunctionDecl *F = Call->getDirectCallee())
        for (unsigned I = 0; I < Call->getNumArgs() && I < F->getNumParams();
             ++I)
          if (Call->getArg(I) == Top &&
              F->getParamDecl(I)->getType()->isReferenceType() &&
              !F->getParamDecl(I)
                   ->getType()
                   ->getPointeeType()
                   .isConstQualified())
            return false;
  }
  return true;
}

} // namespace

bool readsOnlyLocalCurrentDeviceTensors(const TensorDataReads &Reads,
                                        const FunctionBody &Body) {
  if (Reads.Dependent || Reads.Truncated || Reads.Tensors.empty())
    return false;
  return llvm::all_of(Reads.Tensors, [&](const Expr *T) {
    return isAllocatedOnCurrentDevice(T, Body);
  });
}

HandedMemory handedTensorMemory(const Expr *Arg, const FunctionBody &Body) {
  TensorDataReads Reads;
  Reads.scan(Arg);
  if (!Reads.any())
    return HandedMemory::None;
  return readsOnlyLocalCurrentDeviceTensors(Reads, Body)
             ? HandedMemory::LocalCurrentDevice
             : HandedMemory::Tensor;
}

bool passesTensorMemory(const Expr *Arg, const FunctionBody &Body) {
  return handedTensorMemory(Arg, Body) == HandedMemory::Tensor;
}

namespace {

/// The pointer parameters of F whose memory S hands on, also through the
/// initialisers of locals (three deep). A read on the host (*count, p[i],
/// p->n) hands on a value, not the memory, unless the value is a pointer
/// itself (inputs[0] of an array of data pointers).
void collectPointerParameters(const Stmt *S, const FunctionDecl *F,
                              llvm::SmallVectorImpl<unsigned> &Out,
                              unsigned Depth) {
  if (!S || Depth > 3)
    return;
  const auto *Read = dyn_cast<Expr>(S);
  // In a template, a direct-initialiser with a dependent argument
  // (`dim3 grid(n / KT);`) stays a ParenListExpr, which has no type.
  bool ReadsPointer =
      Read && !Read->getType().isNull() && Read->getType()->isPointerType();
  if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
    if (Unary->getOpcode() == UO_Deref) {
      if (ReadsPointer)
        collectPointerParameters(Unary->getSubExpr(), F, Out, Depth);
      return;
    }
    // &p[i]: an address inside p's memory.
    if (Unary->getOpcode() == UO_AddrOf)
      if (const auto *Element = dyn_cast<ArraySubscriptExpr>(
              Unary->getSubExpr()->IgnoreParens())) {
        collectPointerParameters(Element->getBase(), F, Out, Depth);
        return;
      }
  }
  if (const auto *Element = dyn_cast<ArraySubscriptExpr>(S)) {
    if (ReadsPointer)
      collectPointerParameters(Element->getBase(), F, Out, Depth);
    return;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    if (Member->isArrow())
      return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
      QualType T = Param->getType().getNonReferenceType();
      unsigned Index = Param->getFunctionScopeIndex();
      const auto *Owner = dyn_cast<FunctionDecl>(Param->getDeclContext());
      if ((T->isPointerType() || T->isArrayType()) && Owner &&
          Owner->getCanonicalDecl() == F->getCanonicalDecl() &&
          Index < F->getNumParams() && !llvm::is_contained(Out, Index))
        Out.push_back(Index);
    } else if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (Var->hasLocalStorage())
        collectPointerParameters(Var->getInit(), F, Out, Depth + 1);
    }
  }
  for (const Stmt *Child : S->children())
    collectPointerParameters(Child, F, Out, Depth);
}

} // namespace

llvm::SmallVector<unsigned, 4> pointerParametersRead(const CallExpr *Launch,
                                                     const FunctionDecl *F) {
  llvm::SmallVector<unsigned, 4> Out;
  for (const Expr *Arg : Launch->arguments())
    collectPointerParameters(Arg, F, Out, 0);
  llvm::sort(Out);
  return Out;
}

int parameterIndexOf(const CallExpr *Call, const FunctionDecl *F, unsigned I) {
  int Index = I;
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(F))
    --Index;
  if (Index < 0 || static_cast<unsigned>(Index) >= F->getNumParams())
    return -1;
  return Index;
}

} // namespace tensorplace
