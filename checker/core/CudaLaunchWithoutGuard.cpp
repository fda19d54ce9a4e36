//===- CudaLaunchWithoutGuard.cpp -----------------------------------------===//

#include "CudaLaunchWithoutGuard.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/DeviceGuards.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <optional>

using namespace clang;

namespace tensorplace {

namespace {

/// A kernel launch: kernel<<<grid, block, shmem, stream>>>(args) or
/// cudaLaunchKernel(kernel, grid, block, args, shmem, stream).
struct Launch {
  const CallExpr *Call;
  /// The stream argument; null when it was left out (the default stream).
  const Expr *Stream;
};

/// The stream argument of a launch, or nullptr when it defaults.
const Expr *streamArgument(const CallExpr *Call, unsigned Index) {
  if (Call->getNumArgs() <= Index)
    return nullptr;
  const Expr *Stream = Call->getArg(Index);
  return isa<CXXDefaultArgExpr>(Stream) ? nullptr : Stream;
}

std::optional<Launch> asLaunch(const Stmt *S) {
  if (const auto *Kernel = dyn_cast<CUDAKernelCallExpr>(S)) {
    const CallExpr *Config = Kernel->getConfig();
    return Launch{Kernel, Config ? streamArgument(Config, 3) : nullptr};
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return std::nullopt;
  llvm::StringRef Name = calleeName(Call);
  if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel")
    return Launch{Call, streamArgument(Call, 5)};
  return std::nullopt;
}

/// 0, nullptr, cudaStreamDefault, cudaStreamLegacy, cudaStreamPerThread, or
/// a cast of one: the device's default stream, not PyTorch's current one.
bool isDefaultStream(const Expr *Stream, unsigned Depth = 0) {
  if (!Stream)
    return true;
  if (Depth > 4)
    return false;
  const Expr *E = skipValuePlumbing(Stream)->IgnoreParenCasts();
  // at::cuda::getDefaultCUDAStream(), also through .stream() or a
  // conversion to cudaStream_t.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (calleeName(Call) == "getDefaultCUDAStream")
      return true;
    if (const Expr *Object = memberCallObject(Call))
      if (calleeName(Call) == "stream" ||
          isa_and_nonnull<CXXConversionDecl>(Call->getCalleeDecl()))
        return isDefaultStream(Object, Depth + 1);
  }
  // const cudaStream_t stream = 0;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
          Var->getType().isConstQualified() && Var->getInit())
        return isDefaultStream(Var->getInit(), Depth + 1);
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  if (const auto *Literal = dyn_cast<IntegerLiteral>(E))
    return Literal->getValue() == 0;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (Ref->getDecl()->getDeclName().isIdentifier())
      return tensorplace::compat::isOneOf(
          Ref->getDecl()->getName(),
          {"cudaStreamDefault", "cudaStreamLegacy", "cudaStreamPerThread"});
  return false;
}

bool isDataAccessName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"data_ptr", "data", "mutable_data_ptr", "const_data_ptr",
             "packed_accessor32", "packed_accessor64",
             "generic_packed_accessor", "accessor"});
}

/// What one expression reads of tensor memory: the tensor objects (x in
/// x.data_ptr<float>(), x.packed_accessor32<...>(), also through a local
/// initialised from one), and whether some read's tensor is not known (in a
/// template, x.data_ptr<T>() on an object of dependent type) or lies beyond
/// three locals.
struct TensorDataReads {
  llvm::SmallVector<const Expr *, 4> Tensors;
  bool Dependent = false;
  bool Truncated = false;
  bool any() const { return !Tensors.empty() || Dependent; }

  void scan(const Stmt *S, unsigned Depth = 0) {
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
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var))
          scan(Var->getInit(), Depth + 1);
    for (const Stmt *Child : S->children())
      scan(Child, Depth);
  }
};

TensorDataReads tensorDataReads(const Launch &L) {
  TensorDataReads Reads;
  for (const Expr *Arg : L.Call->arguments())
    Reads.scan(Arg);
  return Reads;
}

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

/// Every tensor the launch reads was allocated by F on the current device:
/// the kernel, which runs on the current device too, cannot meet memory of
/// another device, so no guard is needed for it.
bool launchesOnlyOnLocalCurrentDeviceTensors(const TensorDataReads &Reads,
                                             const FunctionBody &Body) {
  if (Reads.Dependent || Reads.Truncated || Reads.Tensors.empty())
    return false;
  return llvm::all_of(Reads.Tensors, [&](const Expr *T) {
    return isAllocatedOnCurrentDevice(T, Body);
  });
}

/// The launches of each user function, in source order.
llvm::MapVector<const FunctionDecl *, llvm::SmallVector<Launch, 2>>
launchesByFunction(const CallGraph &Calls) {
  llvm::MapVector<const FunctionDecl *, llvm::SmallVector<Launch, 2>> Out;
  for (const FunctionDecl *F : Calls.functions()) {
    FunctionBody Body(F);
    for (const Stmt *S : Body.statements())
      if (std::optional<Launch> L = asLaunch(S))
        Out[canonicalFunction(F)].push_back(*L);
  }
  return Out;
}

} // namespace

/// How many times each identifier is written in the translation unit's user
/// files (the main file and those that define functions), as tokens: a name
/// in a comment or a string literal (`AT_DISPATCH_FLOATING_TYPES(t,
/// "forward_cuda", ...)`) calls nothing.
static llvm::StringMap<unsigned> identifierCounts(const CallGraph &Calls,
                                                  const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<unsigned> Seen{SM.getMainFileID().getHashValue()};
  llvm::SmallVector<FileID, 8> Files{SM.getMainFileID()};
  for (const FunctionDecl *G : Calls.functions()) {
    FileID File = SM.getFileID(SM.getExpansionLoc(G->getLocation()));
    if (File.isValid() && Seen.insert(File.getHashValue()).second)
      Files.push_back(File);
  }
  llvm::StringMap<unsigned> Counts;
  for (FileID File : Files)
    countIdentifiers(SM, Ctx.getLangOpts(), File, Counts);
  return Counts;
}

/// After compiler errors, a call of F may have been lost to error recovery,
/// so that F only seems to have no caller here. Not when nothing could call
/// it directly: the static forward() of a custom autograd function, which
/// only Function<T>::apply() reaches, or a function whose name appears in
/// none of the translation unit's user files' code but at its own
/// declarations (callers elsewhere are not visible in a clean parse either).
static bool cannotHaveLostCallers(const FunctionDecl *F,
                                  const llvm::StringMap<unsigned> &Names) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
    if (Method->isStatic() && Method->getDeclName().isIdentifier() &&
        Method->getName() == "forward" &&
        isAutogradFunctionClass(Method->getParent()))
      return true;
  if (!F->getDeclName().isIdentifier())
    return false;
  unsigned Mentions = Names.lookup(F->getName());
  auto Redecls = F->redecls();
  unsigned Declarations = std::distance(Redecls.begin(), Redecls.end());
  // template void launch<float>(...);: an explicit instantiation names the
  // template without calling it.
  if (const FunctionTemplateDecl *Template = F->getDescribedFunctionTemplate())
    for (const FunctionDecl *Spec : Template->specializations())
      if (Spec->getTemplateSpecializationKind() ==
              TSK_ExplicitInstantiationDefinition ||
          Spec->getTemplateSpecializationKind() ==
              TSK_ExplicitInstantiationDeclaration)
        ++Declarations;
  return Mentions <= Declarations;
}

void CudaLaunchWithoutGuard::registerMatchers(
    ast_matchers::MatchFinder &Finder) {
  Finder.addMatcher(ast_matchers::translationUnitDecl().bind("tu"), this);
}

void CudaLaunchWithoutGuard::run(
    const ast_matchers::MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionBody>> Bodies;
  auto body = [&](const FunctionDecl *F) -> const FunctionBody & {
    std::unique_ptr<FunctionBody> &B = Bodies[F];
    if (!B)
      B = std::make_unique<FunctionBody>(F);
    return *B;
  };
  // After a fatal error (a missing header, Clang 14 on CUDA 12+ headers) the
  // rest of the file is not parsed into anything reliable.
  const DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  if (Diags.hasFatalErrorOccurred())
    return;
  // After other errors a call may be lost to error recovery, so that a
  // launcher seems to have no caller at all: say nothing about those.
  bool Recovered = Diags.hasUncompilableErrorOccurred();
  sendSummaries(Ctx);
  const CallGraph &Calls = callGraph(Ctx);
  const DeviceGuards &Guards = deviceGuards(Ctx);
  std::optional<llvm::StringMap<unsigned>> Names;
  auto mayHaveLostCallers = [&](const FunctionDecl *F) {
    if (!Recovered || !Calls.callsTo(F).empty())
      return false;
    if (!Names)
      Names = identifierCounts(Calls, Ctx);
    return !cannotHaveLostCallers(F, *Names);
  };
  for (const auto &[Function, Launches] : launchesByFunction(Calls)) {
    // A program's own main() picks its device for the whole process.
    if (Function->isMain())
      continue;
    for (const Launch &L : Launches) {
      // Launches on memory that is not a tensor's are not PyTorch's concern.
      TensorDataReads Reads = tensorDataReads(L);
      if (!Reads.any())
        continue;
      // After a throw on every path (`#else AT_ERROR("not compiled with
      // CUDA")` where the build switch holds the guard), it never runs.
      if (body(Function).neverRuns(L.Call))
        continue;
      std::string Where = "'" + describeFunction(Function) + "'";
      DeviceGuards::State State =
          Guards.stateAt(Function, L.Call->getBeginLoc());
      if (State.K != DeviceGuards::State::Guarded &&
          !launchesOnlyOnLocalCurrentDeviceTensors(Reads, body(Function)) &&
          !mayHaveLostCallers(Function)) {
        Finding F;
        F.Loc = L.Call->getBeginLoc();
        F.Message = "kernel launch on tensor data in " + Where +
                    " without a device guard; the kernel runs on the current "
                    "device, which need not be the tensors' device";
        F.Notes.push_back(
            {F.Loc, "declare 'const c10::cuda::OptionalCUDAGuard "
                    "guard(device_of(<tensor>));' before the launch (or "
                    "silence with // NOLINT(torch-cuda-launch-without-guard) "
                    "when every caller holds one)"});
        // Called from other files only: the front end that sees the project
        // reports it unless every call there is made under a guard.
        if (State.K == DeviceGuards::State::Open && acceptsPending())
          for (const FunctionDecl *Entry : State.OpenOn) {
            std::string Key = functionKey(Entry);
            if (llvm::is_contained(F.PendingCallersOf, Key))
              continue;
            F.PendingCallersOf.push_back(std::move(Key));
            F.Notes.push_back(
                {Entry->getLocation(),
                 "'" + Entry->getQualifiedNameAsString() +
                     "' has no caller in this file, and in the files "
                     "analysed it has none or one that holds no device "
                     "guard"});
          }
        report(std::move(F), Ctx);
      }
      if (isDefaultStream(L.Stream)) {
        Finding F;
        F.Loc = L.Stream ? L.Stream->getBeginLoc() : L.Call->getBeginLoc();
        F.Message = "kernel launch on tensor data in " + Where +
                    " uses the default stream; it is not ordered with the "
                    "work PyTorch queued on the tensors' current stream";
        F.Notes.push_back({F.Loc, "launch on at::cuda::getCurrentCUDAStream() "
                                  "(from <ATen/cuda/CUDAContext.h>)"});
        report(std::move(F), Ctx);
      }
    }
  }
}

} // namespace tensorplace
