//===- HardcodedDevice.cpp ------------------------------------------------===//

#include "HardcodedDevice.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/ExprCXX.h"
#include <memory>

using namespace clang;

namespace tensorplace {

namespace {
/// How a device literal is used: the outermost expression it becomes part of
/// (through conversions to Device or TensorOptions), and what uses that.
struct DeviceUse {
  const Expr *Top = nullptr;
  const Stmt *User = nullptr;
  /// It became a Device or TensorOptions on the way: a placement, not a
  /// DeviceType compared with x.device().type().
  bool Converted = false;
  /// One branch of `cond ? kCUDA : kCPU`.
  bool InConditional = false;
  /// The innermost such choice.
  const ConditionalOperator *Choice = nullptr;
};
} // namespace

/// Whether an initializer names the CUDA device (torch::kCUDA, "cuda:1")
/// and whether it chooses (`?:`, is_available()): what it stands for then
/// depends on the machine.
static void scanInitializer(const Stmt *S, bool &NamesCuda, bool &Chooses,
                            unsigned Depth = 0) {
  if (!S)
    return;
  if (Depth > 64) { // Not a device constant's initializer.
    Chooses = true;
    return;
  }
  std::string Spelling;
  if (deviceLiteral(S, Spelling) == DeviceLiteral::CUDA)
    NamesCuda = true;
  if (isa<AbstractConditionalOperator>(S))
    Chooses = true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (calleeName(Call) == "is_available")
      Chooses = true;
  for (const Stmt *Child : S->children())
    scanInitializer(Child, NamesCuda, Chooses, Depth + 1);
}

/// A constant of the program that names the CUDA device, with no choice:
/// `const auto CUDAFloat = torch::TensorOptions().dtype(torch::kFloat32)
/// .device(torch::kCUDA);` at namespace scope, a static constexpr member
/// `kGpu = torch::kCUDA`. Using it in a module hard-codes the device as the
/// literal would. Variables that may change are not constants of this kind.
/// Returns the constant's definition.
static const VarDecl *cudaConstant(const Stmt *S, const ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(S);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasGlobalStorage() ||
      !(Var->isConstexpr() || Var->getType().isConstQualified()))
    return nullptr;
  QualType T = Var->getType();
  if (!isDeviceTypeEnum(T) && !isDeviceType(T) && !isTensorOptionsType(T))
    return nullptr;
  const VarDecl *Definition = nullptr;
  const Expr *Init = Var->getAnyInitializer(Definition);
  if (!Init || !Definition ||
      Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return nullptr;
  bool NamesCuda = false, Chooses = false;
  scanInitializer(Init, NamesCuda, Chooses);
  return NamesCuda && !Chooses ? Definition : nullptr;
}

static DeviceUse deviceUse(const Expr *Literal, const FunctionBody &Body) {
  DeviceUse Use;
  const Stmt *Current = Literal;
  while (const auto *Parent = dyn_cast_or_null<Expr>(Body.parentOf(Current))) {
    // Conversions and constructions: torch::Device("cuda:0"),
    // torch::TensorOptions(torch::kCUDA), the std::string a literal becomes.
    bool Plumbing =
        isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
        isa<MaterializeTemporaryExpr>(Parent) ||
        isa<CXXBindTemporaryExpr>(Parent) || isa<ExprWithCleanups>(Parent) ||
        isa<CXXFunctionalCastExpr>(Parent) || isa<CXXConstructExpr>(Parent);
    if (const auto *Cond = dyn_cast<ConditionalOperator>(Parent)) {
      if (Cond->getCond() == Current)
        break;
      Use.InConditional = Plumbing = true;
      if (!Use.Choice)
        Use.Choice = Cond;
    }
    if (!Plumbing)
      break;
    if (isDeviceType(Parent->getType()) ||
        isTensorOptionsType(Parent->getType()))
      Use.Converted = true;
    Current = Parent;
  }
  Use.Top = cast<Expr>(Current);
  Use.User = Body.parentOf(Current);
  return Use;
}

/// x.device() == torch::kCUDA asks where x is; it places nothing.
static bool isComparison(const Stmt *User) {
  if (const auto *Op = dyn_cast_or_null<BinaryOperator>(User))
    return Op->isComparisonOp();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User))
    return Op->getOperator() == OO_EqualEqual ||
           Op->getOperator() == OO_ExclaimEqual;
  return false;
}

/// A call whose callee is not resolved yet (in a template), to which a
/// DeviceType is passed unconverted.
static bool isDependentPlacementCall(const Stmt *User) {
  const auto *Call = dyn_cast_or_null<CallExpr>(User);
  if (!Call || Call->getDirectCallee())
    return false;
  llvm::StringRef Name = calleeName(Call);
  return Name == "to" || Name == "device";
}

/// options.device(torch::kCUDA), x.options().device("cuda", 0):
/// TensorOptions::device is a forwarding template, so the literal becomes a
/// Device only inside LibTorch, never in the user's code.
static bool isOptionsDeviceCall(const Stmt *User) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(User);
  return Call && calleeName(Call) == "device" &&
         isTensorOptionsType(Call->getType()) &&
         isTensorOptionsType(Call->getImplicitObjectArgument()->getType());
}

/// The member call takes its tensor off the host: .cuda(), or .to() with a
/// device, a tensor or options.
static bool leavesHost(const CallExpr *Call) {
  llvm::StringRef Name = calleeName(Call);
  if (isHostCopy(Call))
    return false;
  // type_as(other) is to(other.options()): other's device too.
  if (Name == "cuda" || Name == "type_as")
    return true;
  if (Name != "to")
    return false;
  for (const Expr *Arg : Call->arguments()) {
    QualType T = skipValuePlumbing(Arg)->getType();
    if (isTensorType(T) || isDeviceType(T) || isTensorOptionsType(T))
      return true;
  }
  return false;
}

/// The result of the host copy never meets the module's device data: it is
/// read on the host, possibly after host operations, or moved back.
/// Otherwise Where says where it meets that data.
static bool staysOnHost(const CallExpr *Copy, const FunctionBody &Body,
                        llvm::function_ref<bool()> Returned,
                        DeviceMeeting *Where = nullptr,
                        bool KnownDeviceOnly = false) {
  auto IsMove = [](const CallExpr *C) { return leavesHost(C); };
  auto IsHostSource = [](const Expr *E) { return isHostCopy(E); };
  auto NotReturned = [] { return false; };
  HostValueModel HostValues{IsMove, IsHostSource, NotReturned};
  HostValues.KnownDeviceOnly = KnownDeviceOnly;
  if (Returned)
    HostValues.Returned = Returned;
  return !hostValueMeetsDevice(Copy, Body, HostValues, Where);
}

/// Whether a host copy that Function returns meets the module's device data
/// where a caller in this translation unit uses it, followed through up to
/// three returns. `.cpu()` says the copy is wanted on the host: with no
/// caller seen that mixes it with data known to be on the device (a layer,
/// a module's member or output, a tensor moved there), it is not reported.
static bool returnedHostCopyMeetsDevice(const ModuleFacts &Facts,
                                        const FunctionDecl *Function,
                                        unsigned Depth) {
  if (Depth > 2)
    return false;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionBody>> Bodies;
  for (const CallGraph::Edge *Edge : Facts.callsReturning(Function)) {
    std::unique_ptr<FunctionBody> &Body = Bodies[Edge->Caller];
    if (!Body)
      Body = std::make_unique<FunctionBody>(Edge->Caller);
    auto Returned = [&] {
      return returnedHostCopyMeetsDevice(Facts, Edge->Caller, Depth + 1);
    };
    // The caller asked for a host copy: only data known to be on the
    // module's device makes it a mistake there.
    if (!staysOnHost(Edge->Call, *Body, Returned, nullptr,
                     /*KnownDeviceOnly=*/true))
      return true;
  }
  return false;
}

namespace {
/// When a condition holds: where CUDA is available, where it is not, or
/// either.
enum class HoldsWhen { Unknown, CudaAvailable, CudaMissing };
} // namespace

/// `is_available()` and `!is_available()`; unknown for anything else.
static HoldsWhen whenHolds(const Expr *Cond) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond))
    if (Not->getOpcode() == UO_LNot) {
      HoldsWhen Inner = whenHolds(Not->getSubExpr());
      if (Inner == HoldsWhen::Unknown)
        return Inner;
      return Inner == HoldsWhen::CudaAvailable ? HoldsWhen::CudaMissing
                                               : HoldsWhen::CudaAvailable;
    }
  if (const auto *Call = dyn_cast<CallExpr>(Cond))
    if (calleeName(Call) == "is_available")
      return HoldsWhen::CudaAvailable;
  return HoldsWhen::Unknown;
}

/// S runs only where CUDA is not available (the else branch of
/// `if (torch::cuda::is_available())`, the false arm of `?:`): there the CPU
/// is the only device, and naming it moves nothing.
static bool runsOnlyWithoutCuda(const Stmt *S, const FunctionBody &Body) {
  for (const Stmt *Child = S, *Parent = Body.parentOf(S); Parent;
       Child = Parent, Parent = Body.parentOf(Parent)) {
    const Expr *Cond = nullptr;
    bool InThen = false, InElse = false;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      Cond = If->getCond();
      InThen = Child == If->getThen();
      InElse = Child == If->getElse();
    } else if (const auto *Choice = dyn_cast<ConditionalOperator>(Parent)) {
      Cond = Choice->getCond();
      InThen = Child == Choice->getTrueExpr();
      InElse = Child == Choice->getFalseExpr();
    }
    if (!Cond || (!InThen && !InElse))
      continue;
    HoldsWhen When = whenHolds(Cond);
    if ((When == HoldsWhen::CudaAvailable && InElse) ||
        (When == HoldsWhen::CudaMissing && InThen))
      return true;
  }
  return false;
}

/// The condition reads a parameter of the function it is in
/// (`use_cuda ? kCUDA : kCPU`, `opts.gpu ? ...`): the caller chooses the
/// device, as it does with Module::to().
static bool readsParameter(const Stmt *Cond) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Cond))
    if (isa<ParmVarDecl>(Ref->getDecl()))
      return true;
  if (Cond)
    for (const Stmt *Child : Cond->children())
      if (readsParameter(Child))
        return true;
  return false;
}

/// S names a device literal somewhere: the CPU's, or with AnyDevice, any
/// (kCPU, kCUDA, "cuda:0").
static bool namesDevice(const Stmt *S, bool AnyDevice) {
  std::string Spelling;
  if (!S)
    return false;
  DeviceLiteral Named = deviceLiteral(S, Spelling);
  if (Named == DeviceLiteral::CPU ||
      (AnyDevice && Named != DeviceLiteral::None))
    return true;
  for (const Stmt *Child : S->children())
    if (namesDevice(Child, AnyDevice))
      return true;
  return false;
}

/// A and B name the same module object: `this` (written or implied), the
/// same variable, or the same member of the same object, through a
/// holder's `->`.
static bool sameModuleObject(const Expr *A, const Expr *B) {
  auto Strip = [](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(E))
      if (Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() == 1)
        E = Arrow->getArg(0)->IgnoreParenImpCasts();
    return E;
  };
  if (!A || !B)
    return false;
  A = Strip(A);
  B = Strip(B);
  if (isa<CXXThisExpr>(A) || isa<CXXThisExpr>(B))
    return isa<CXXThisExpr>(A) && isa<CXXThisExpr>(B);
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = dyn_cast<DeclRefExpr>(B);
    return RefB && RefA->getDecl() == RefB->getDecl();
  }
  const auto *MemberA = dyn_cast<MemberExpr>(A);
  const auto *MemberB = dyn_cast<MemberExpr>(B);
  return MemberA && MemberB &&
         MemberA->getMemberDecl() == MemberB->getMemberDecl() &&
         sameModuleObject(MemberA->getBase(), MemberB->getBase());
}

/// The module that ToCpu moves to the CPU is moved back later in the same
/// function to a device that is not written there (`auto d =
/// fc->weight.device(); to(torch::kCPU); save(...); to(d);`): a round trip
/// that leaves the module where its caller put it.
static bool movedBackLater(const CallExpr *ToCpu, const FunctionBody &Body) {
  const Expr *Module = memberCallObject(ToCpu);
  for (const Stmt *S : Body.statements()) {
    const auto *Back = dyn_cast<CallExpr>(S);
    if (!Back || Back == ToCpu || calleeName(Back) != "to" ||
        Body.orderOf(Back) <= Body.endOrderOf(ToCpu) ||
        Back->getNumArgs() == 0 ||
        namesDevice(Back->getArg(0), /*AnyDevice=*/true) ||
        !sameModuleObject(memberCallObject(Back), Module))
      continue;
    QualType T = skipValuePlumbing(Back->getArg(0))->getType();
    if (isDeviceType(T) || isTensorOptionsType(T))
      return true;
  }
  return false;
}

/// S is the CUDA side of a cuda-or-cpu choice made on a parameter of the
/// function: `use_cuda ? kCUDA : kCPU`, or `if (use_cuda) device_ = kCUDA;
/// else device_ = kCPU;`. The caller chooses, as it does with Module::to().
static bool isCallersChoice(const Stmt *S, const DeviceUse &Use,
                            const FunctionBody &Body) {
  if (Use.Choice && readsParameter(Use.Choice->getCond()))
    return true;
  for (const Stmt *Child = S, *Parent = Body.parentOf(S); Parent;
       Child = Parent, Parent = Body.parentOf(Parent))
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      const Stmt *Other = Child == If->getThen()   ? If->getElse()
                          : Child == If->getElse() ? If->getThen()
                                                   : nullptr;
      if (Other && namesDevice(Other, /*AnyDevice=*/false) &&
          readsParameter(If->getCond()))
        return true;
    }
  return false;
}

/// `auto device = torch::kCUDA;` or `auto device = is_available() ? kCUDA :
/// kCPU;`: a local DeviceType that Use initialises. Whether it places
/// anything is settled where the local is read: the read that becomes a
/// Device or TensorOptions, or goes to options.device(), is returned.
static const Expr *placingReadOfLocal(const DeviceUse &Use,
                                      const FunctionBody &Body) {
  const auto *Decl = dyn_cast_or_null<DeclStmt>(Use.User);
  if (!Decl)
    return nullptr;
  const VarDecl *Local = nullptr;
  for (const clang::Decl *D : Decl->decls())
    if (const auto *Var = dyn_cast<VarDecl>(D))
      if (Var->getInit() && Var->getInit()->IgnoreParenImpCasts() ==
                                Use.Top->IgnoreParenImpCasts())
        Local = Var;
  if (!Local || !Local->isLocalVarDecl() || Local->isStaticLocal() ||
      !isDeviceTypeEnum(Local->getType()))
    return nullptr;
  for (const Stmt *S : Body.statements()) {
    const auto *Ref = dyn_cast<DeclRefExpr>(S);
    if (!Ref || Ref->getDecl() != Local)
      continue;
    DeviceUse Read = deviceUse(Ref, Body);
    if ((Read.Converted && !isComparison(Read.User)) ||
        (!Read.Converted && (isDependentPlacementCall(Read.User) ||
                             isOptionsDeviceCall(Read.User))))
      return Ref;
  }
  return nullptr;
}

static const char *const FollowNote =
    "take the device from an input or a registered parameter (x.device(), "
    "x.options()) or a device argument, or silence with "
    "// NOLINT(torch-hardcoded-device)";
static const char *const HostNote =
    "leave results on the module's device for the caller to move, read them "
    "on the host right away (.item(), .data_ptr(), <<), or silence with "
    "// NOLINT(torch-hardcoded-device)";
static const char *const Consequence =
    "; a module must follow the device its caller moves it to with "
    "Module::to()";

/// "cuda" or "cpu" for x.toBackend(Backend::CUDA) or (Backend::CPU), the
/// older spellings of x.cuda() and x.cpu(); "" otherwise.
static llvm::StringRef backendMove(const CallExpr *Call) {
  if (Call->getNumArgs() != 1)
    return "";
  const auto *Ref =
      dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts());
  const auto *Constant =
      Ref ? dyn_cast<EnumConstantDecl>(Ref->getDecl()) : nullptr;
  const auto *Enum =
      Constant ? dyn_cast<EnumDecl>(Constant->getDeclContext()) : nullptr;
  if (!Enum || !Enum->getIdentifier() || Enum->getName() != "Backend")
    return "";
  if (Constant->getName() == "CUDA")
    return "cuda";
  if (Constant->getName() == "CPU")
    return "cpu";
  return "";
}

/// Module::to() called on a module with no parameters, buffers or
/// submodules (`relu_.to(torch::kCUDA)`): it moves nothing.
static bool movesStatelessModule(const ModuleFacts &Facts, const Stmt *User) {
  const auto *To = dyn_cast_or_null<CallExpr>(User);
  if (!To || calleeName(To) != "to")
    return false;
  // Module::to() is the base's: the object is converted to a Module.
  const Expr *Object = memberCallObject(To);
  const CXXRecordDecl *Impl =
      Object ? objectModuleClass(Object->IgnoreParenImpCasts()) : nullptr;
  return Impl && !isContainerModule(Impl) && Facts.isStatelessModuleClass(Impl);
}

void HardcodedDevice::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  forEachUserFunction(Ctx, [&](const FunctionDecl *Function) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Function);
    bool InModule = Method && isModuleClass(Method->getParent());
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(Function);
    // Free functions, main() and training code choose devices for modules;
    // a helper that a forward() in another file calls is on its forward
    // path, which only the front end that sees the project can tell.
    std::vector<std::string> Reach;
    if (!InModule && !Path) {
      if (acceptsPending())
        Reach = reachableFromOtherFiles(Facts, Function);
      if (Reach.empty())
        return;
    }
    scan(
        Facts, FunctionBody(Function),
        [&](Finding &F) {
          if (!Reach.empty())
            return describeReachElsewhere(Function, Reach, F);
          return InModule ? "inside '" + describeFunction(Function) + "'"
                          : describePath(*Path, Function, F);
        },
        // What the helper returns goes to a caller out of sight, which
        // may read it on the host.
        [&] {
          return Reach.empty() &&
                 returnedHostCopyMeetsDevice(Facts, Function, 0);
        },
        Ctx);
  });
  // Default member initialisers run in every constructor.
  for (const CXXRecordDecl *Class : Facts.moduleClasses())
    for (const FieldDecl *Field : Class->fields())
      if (const Expr *Init = Field->getInClassInitializer())
        scan(
            Facts, FunctionBody(Init),
            [&](Finding &) {
              return "in the initializer of '" +
                     Field->getQualifiedNameAsString() + "'";
            },
            nullptr, Ctx);
}

void HardcodedDevice::scan(const ModuleFacts &Facts, const FunctionBody &Body,
                           llvm::function_ref<std::string(Finding &)> Where,
                           llvm::function_ref<bool()> Returned,
                           ASTContext &Ctx) {
  // Meeting: where a copy to the CPU meets the module's device data.
  auto Emit = [&](SourceLocation Loc, const std::string &What, const char *Note,
                  const DeviceMeeting *Meeting = nullptr,
                  std::optional<FindingNote> Origin = std::nullopt) {
    Finding F;
    F.Loc = Loc;
    std::string Place = Where(F);
    F.Message = What + " " + Place + Consequence;
    if (Origin)
      F.Notes.push_back(std::move(*Origin));
    if (Meeting)
      if (std::optional<FindingNote> Meets =
              meetingNote(*Meeting, "the CPU copy", false, Loc, Ctx))
        F.Notes.push_back(std::move(*Meets));
    F.Notes.push_back({Loc, Note});
    report(std::move(F), Ctx);
  };

  for (const Stmt *S : Body.statements()) {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      llvm::StringRef Name = calleeName(Call);
      // x.toBackend(torch::Backend::CUDA), the older spelling of x.cuda().
      if (Name == "toBackend")
        Name = backendMove(Call);
      if ((Name != "cuda" && Name != "cpu") || Call->containsErrors())
        continue;
      // In a template, an object whose type depends on its arguments
      // (`features(x).cuda()`, `features` of a parameter type): cuda() of
      // LibTorch's types (a tensor, a PackedSequence) all hard-code it.
      const Expr *Object = memberCallObject(Call);
      bool Dependent = Name == "cuda" && Object && Object->isTypeDependent();
      if (!isTensorObject(Object) && !Dependent)
        continue;
      // A result read on the host, after host operations or not, never
      // meets device code; without CUDA the CPU is the only device.
      DeviceMeeting Meeting;
      if (Name == "cpu" && (staysOnHost(Call, Body, Returned, &Meeting) ||
                            runsOnlyWithoutCuda(Call, Body)))
        continue;
      std::string Spelled = Dependent
                                ? std::string("'cuda()'")
                                : "'Tensor::" + calleeName(Call).str() + "'";
      Emit(Call->getExprLoc(),
           Name == "cuda" ? Spelled + " hard-codes the device"
                          : Spelled + " moves a result to the CPU",
           Name == "cuda" ? FollowNote : HostNote,
           Name == "cpu" ? &Meeting : nullptr);
      continue;
    }
    std::string Spelling;
    DeviceLiteral T = deviceLiteral(S, Spelling);
    const VarDecl *Constant = nullptr;
    if (T == DeviceLiteral::None) {
      Constant = cudaConstant(S, Ctx);
      if (!Constant)
        continue;
      T = DeviceLiteral::CUDA;
    }
    DeviceUse Use = deviceUse(cast<Expr>(S), Body);
    if (cast<Expr>(S)->containsErrors())
      continue;
    if (T == DeviceLiteral::CUDA) {
      // The caller's choice, made through a parameter; or a module moved
      // that holds nothing to move.
      if (isCallersChoice(S, Use, Body) ||
          movesStatelessModule(Facts, Use.User))
        continue;
      // A Device or TensorOptions constant is a placement already.
      if (Constant && !isDeviceTypeEnum(Constant->getType()))
        Use.Converted = true;
      const Expr *PlacedThrough =
          Use.Converted || Constant ? nullptr : placingReadOfLocal(Use, Body);
      if ((Use.Converted && !isComparison(Use.User)) ||
          (!Use.Converted && (isDependentPlacementCall(Use.User) ||
                              isOptionsDeviceCall(Use.User))) ||
          PlacedThrough) {
        if (!Constant) {
          std::optional<FindingNote> Read;
          if (PlacedThrough)
            Read = FindingNote{PlacedThrough->getExprLoc(),
                               "the device is placed through '" +
                                   cast<DeclRefExpr>(PlacedThrough)
                                       ->getDecl()
                                       ->getNameAsString() +
                                   "' here"};
          Emit(S->getBeginLoc(), "hard-coded device '" + Spelling + "'",
               FollowNote, nullptr, std::move(Read));
          continue;
        }
        std::string Name = Constant->getNameAsString();
        Emit(S->getBeginLoc(), "'" + Name + "' hard-codes the CUDA device",
             FollowNote, nullptr,
             FindingNote{Constant->getLocation(),
                         "'" + Name +
                             "' is a constant that names the CUDA "
                             "device here"});
      }
      continue;
    }
    // CPU: only a conversion, x.to(torch::kCPU), like x.cpu(); a
    // cuda-or-cpu choice is reported at its CUDA branch.
    const auto *To = dyn_cast_or_null<CallExpr>(Use.User);
    if (!Use.Converted || Use.InConditional || !To || calleeName(To) != "to")
      continue;
    const Expr *Object = memberCallObject(To);
    DeviceMeeting Meeting;
    if (isTensorObject(Object)
            ? staysOnHost(To, Body, Returned, &Meeting)
            : !isModuleObject(Object) || movedBackLater(To, Body) ||
                  movesStatelessModule(Facts, To))
      continue;
    if (runsOnlyWithoutCuda(To, Body))
      continue;
    Emit(S->getBeginLoc(),
         "'to(" + Spelling + ")' moves " +
             (isTensorObject(Object) ? "a result" : "a module") + " to the CPU",
         HostNote, isTensorObject(Object) ? &Meeting : nullptr);
  }
}

} // namespace tensorplace
