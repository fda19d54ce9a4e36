//===- CudaLaunchWithoutGuard.cpp -----------------------------------------===//

#include "CudaLaunchWithoutGuard.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "TensorMemory.h"
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
#include <algorithm>
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

TensorDataReads tensorDataReads(const Launch &L) {
  TensorDataReads Reads;
  for (const Expr *Arg : L.Call->arguments())
    Reads.scan(Arg);
  return Reads;
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
  // The findings, with the message's place and the note for the launch.
  auto guardFinding = [&](const Launch &L, const std::string &What) {
    Finding F;
    F.Loc = L.Call->getBeginLoc();
    F.Message = "kernel launch on " + What +
                " without a device guard; the kernel runs on the current "
                "device, which need not be the tensors' device";
    F.Notes.push_back(
        {F.Loc, "declare 'const c10::cuda::OptionalCUDAGuard "
                "guard(device_of(<tensor>));' before the launch (or "
                "silence with // NOLINT(torch-cuda-launch-without-guard) "
                "when every caller holds one)"});
    return F;
  };
  auto streamFinding = [&](const Launch &L, const std::string &What) {
    Finding F;
    F.Loc = L.Stream ? L.Stream->getBeginLoc() : L.Call->getBeginLoc();
    F.Message = "kernel launch on " + What +
                " uses the default stream; it is not ordered with the "
                "work PyTorch queued on the tensors' current stream";
    F.Notes.push_back({F.Loc, "launch on at::cuda::getCurrentCUDAStream() "
                              "(from <ATen/cuda/CUDAContext.h>)"});
    return F;
  };
  // Called from other files only: the front end that sees the project
  // reports it unless every call there is made under a guard.
  auto waitOnCallers = [&](Finding &F, const DeviceGuards::State &State) {
    if (State.K != DeviceGuards::State::Open || !acceptsPending())
      return;
    for (const FunctionDecl *Entry : State.OpenOn) {
      std::string Key = functionKey(Entry);
      if (llvm::is_contained(F.PendingCallersOf, Key))
        continue;
      F.PendingCallersOf.push_back(std::move(Key));
      F.Notes.push_back({Entry->getLocation(),
                         "'" + Entry->getQualifiedNameAsString() +
                             "' has no caller in this file, and in the files "
                             "analysed it has none or one that holds no "
                             "device guard"});
    }
  };
  // A launch on memory handed in through pointer parameters: the calls here
  // that hand one of them a tensor's memory decide it; with no call here,
  // the calls in other files do.
  auto launchOnCallersMemory = [&](const FunctionDecl *Function,
                                   const Launch &L,
                                   const DeviceGuards::State &State) {
    // Dynamic parallelism: a kernel's callers are launches.
    if (Function->hasAttr<CUDAGlobalAttr>() ||
        Function->hasAttr<CUDADeviceAttr>())
      return;
    llvm::SmallVector<unsigned, 4> Params =
        pointerParametersRead(L.Call, Function);
    if (Params.empty())
      return;
    const FunctionDecl *Definition = Function->getDefinition();
    if (!Definition)
      return;
    std::string What = "tensor data passed to '" + describeFunction(Function) +
                       "' as pointers";
    llvm::ArrayRef<CallGraph::Edge> Callers = Calls.callsTo(Function);
    if (!Callers.empty()) {
      // The calls that hand the launch a tensor's memory decide the stream
      // finding; of those, the ones that hand memory their caller did not
      // allocate itself on the current device decide the guard finding.
      llvm::SmallVector<const CallGraph::Edge *, 2> TensorCalls, GuardCalls;
      for (const CallGraph::Edge &E : Callers) {
        HandedMemory Handed = HandedMemory::None;
        for (unsigned I = 0; I < E.Call->getNumArgs(); ++I) {
          int Param = parameterIndexOf(E.Call, Function, I);
          if (Param >= 0 &&
              llvm::is_contained(Params, static_cast<unsigned>(Param)))
            Handed = std::max(
                Handed, handedTensorMemory(E.Call->getArg(I), body(E.Caller)));
        }
        if (Handed != HandedMemory::None)
          TensorCalls.push_back(&E);
        if (Handed == HandedMemory::Tensor)
          GuardCalls.push_back(&E);
      }
      if (TensorCalls.empty())
        return;
      auto handsHere = [&](Finding &F, const CallGraph::Edge &E) {
        F.Notes.push_back(
            {E.Call->getBeginLoc(), "'" + describeFunction(E.Caller) +
                                        "' hands it a tensor's memory here"});
      };
      if (State.K != DeviceGuards::State::Guarded) {
        // Unguarded when one of the calls with a tensor's memory is.
        DeviceGuards::State Combined;
        Combined.K = DeviceGuards::State::Guarded;
        const CallGraph::Edge *Culprit = nullptr;
        for (const CallGraph::Edge *E : GuardCalls) {
          DeviceGuards::State Sub =
              Guards.stateAt(E->Caller, E->Call->getBeginLoc());
          if (Sub.K == DeviceGuards::State::Guarded)
            continue;
          if (!Culprit || Sub.K == DeviceGuards::State::Unguarded)
            Culprit = E;
          if (Sub.K == DeviceGuards::State::Unguarded) {
            Combined = Sub;
            break;
          }
          Combined.K = DeviceGuards::State::Open;
          for (const FunctionDecl *Entry : Sub.OpenOn)
            if (!llvm::is_contained(Combined.OpenOn, Entry))
              Combined.OpenOn.push_back(Entry);
        }
        if (Culprit) {
          Finding F = guardFinding(L, What);
          handsHere(F, *Culprit);
          waitOnCallers(F, Combined);
          report(std::move(F), Ctx);
        }
      }
      if (isDefaultStream(L.Stream)) {
        Finding F = streamFinding(L, What);
        handsHere(F, *TensorCalls.front());
        report(std::move(F), Ctx);
      }
      return;
    }
    // No call here: settled over the project's calls, where the function
    // is defined in this file and other files can call it.
    const SourceManager &SM = Ctx.getSourceManager();
    if (!acceptsPending() || !isCallableFromOtherFiles(Function) ||
        !SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation())))
      return;
    std::string Names;
    for (unsigned Index : Params)
      Names += std::string(Names.empty() ? "" : ", ") + "'" +
               Definition->getParamDecl(Index)->getName().str() + "'";
    auto pending = [&](Finding &F, bool Unguarded) {
      F.PendingDataOf.Function = functionKey(Function);
      F.PendingDataOf.Params.assign(Params.begin(), Params.end());
      F.PendingDataOf.Unguarded = Unguarded;
      F.Notes.push_back(
          {Definition->getLocation(),
           "'" + describeFunction(Function) +
               "' has no caller in this file; in the files analysed, a "
               "call hands a tensor's memory to " +
               Names + (Unguarded ? " and holds no device guard" : "")});
    };
    if (State.K != DeviceGuards::State::Guarded) {
      Finding F = guardFinding(L, What);
      pending(F, /*Unguarded=*/true);
      report(std::move(F), Ctx);
    }
    if (isDefaultStream(L.Stream)) {
      Finding F = streamFinding(L, What);
      pending(F, /*Unguarded=*/false);
      report(std::move(F), Ctx);
    }
  };
  for (const auto &[Function, Launches] : launchesByFunction(Calls)) {
    // A program's own main() picks its device for the whole process.
    if (Function->isMain())
      continue;
    for (const Launch &L : Launches) {
      TensorDataReads Reads = tensorDataReads(L);
      // After a throw on every path (`#else AT_ERROR("not compiled with
      // CUDA")` where the build switch holds the guard), it never runs.
      if (body(Function).neverRuns(L.Call))
        continue;
      std::string Where = "'" + describeFunction(Function) + "'";
      DeviceGuards::State State =
          Guards.stateAt(Function, L.Call->getBeginLoc());
      if (!Reads.any()) {
        // Launches on memory that is not a tensor's are not PyTorch's
        // concern; memory handed in through pointer parameters is a
        // tensor's where a caller takes it out of one.
        launchOnCallersMemory(Function, L, State);
        continue;
      }
      if (State.K != DeviceGuards::State::Guarded &&
          !readsOnlyLocalCurrentDeviceTensors(Reads, body(Function)) &&
          !mayHaveLostCallers(Function)) {
        Finding F = guardFinding(L, "tensor data in " + Where);
        waitOnCallers(F, State);
        report(std::move(F), Ctx);
      }
      if (isDefaultStream(L.Stream))
        report(streamFinding(L, "tensor data in " + Where), Ctx);
    }
  }
}

} // namespace tensorplace
