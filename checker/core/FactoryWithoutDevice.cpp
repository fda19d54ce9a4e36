//===- FactoryWithoutDevice.cpp -------------------------------------------===//

#include "FactoryWithoutDevice.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/Config.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include <memory>
#include <optional>

using namespace clang;

namespace tensorplace {

namespace {
/// What an options argument says about the device.
enum class DeviceInfo { None, Present, Unknown };
} // namespace

/// A call to one of LibTorch's tensor factories, resolved or not yet resolved
/// in a template, or to one of the project's own (Own: FactoryFunctions).
static bool isFactoryCall(const CallExpr *Call,
                          llvm::ArrayRef<std::string> Own) {
  if (nameIsListed(Call->getDirectCallee(), Own))
    return true;
  if (!isTensorFactoryName(calleeName(Call)))
    return false;
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return isTorchNamespaceFunction(FD);
  const auto *Lookup =
      dyn_cast<UnresolvedLookupExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Lookup || Lookup->decls_begin() == Lookup->decls_end())
    return false;
  for (const NamedDecl *D : Lookup->decls())
    if (!isTorchNamespaceFunction(D->getUnderlyingDecl()))
      return false;
  return true;
}

/// Skips conversions and temporaries, and a one-argument conversion to
/// TensorOptions (torch::kLong, x.device() passed for the options).
static const Expr *skipOptionsPlumbing(const Expr *E) {
  while (true) {
    const Expr *Next = skipValuePlumbing(E);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next))
      if (Construct->getNumArgs() == 1 &&
          isTensorOptionsType(Construct->getType()) &&
          !isa<CXXDefaultArgExpr>(Construct->getArg(0)))
        Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
}

static bool isOptionsLikeType(QualType T) {
  if (T.isNull())
    return false;
  if (isTensorOptionsType(T) || isDeviceType(T) || isDeviceTypeEnum(T))
    return true;
  // c10::optional<Device> in the split-argument overloads.
  const auto *Optional =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Optional || !Optional->getDeclName().isIdentifier() ||
      Optional->getName() != "optional")
    return false;
  const TemplateArgumentList &Args = Optional->getTemplateArgs();
  return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type &&
         isDeviceType(Args[0].getAsType());
}

static DeviceInfo deviceIn(const Expr *E, const FunctionBody &Body,
                           unsigned Depth);

/// A local TensorOptions variable: what its initialiser says, as long as
/// nothing else in the function changes it.
static DeviceInfo deviceInLocal(const VarDecl *Var, const FunctionBody &Body,
                                unsigned Depth) {
  if (!Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getInit())
    return DeviceInfo::Unknown;
  for (const DeclRefExpr *Use : Body.usesOf(Var)) {
    const Expr *Top = nullptr;
    const Stmt *User = valueUser(Use, Body, Top);
    // Read as a whole (passed to a factory or another call): fine. Any
    // assignment or member call may set a device.
    if (memberCallOn(User, Body) || isa_and_nonnull<BinaryOperator>(User) ||
        (isa_and_nonnull<CXXOperatorCallExpr>(User) &&
         cast<CXXOperatorCallExpr>(User)->getArg(0) == Top))
      return DeviceInfo::Unknown;
  }
  return deviceIn(Var->getInit(), Body, Depth + 1);
}

static DeviceInfo deviceIn(const Expr *E, const FunctionBody &Body,
                           unsigned Depth) {
  if (!E || Depth > 8)
    return DeviceInfo::Unknown;
  E = skipOptionsPlumbing(E);
  QualType T = E->getType();
  // torch::kCUDA, torch::Device(...), "cuda:1", x.device().
  if (isDeviceType(T) || isDeviceTypeEnum(T) || isa<StringLiteral>(E))
    return DeviceInfo::Present;
  // torch::kLong: a dtype only.
  if (T->isEnumeralType() && !T->isDependentType())
    return DeviceInfo::None;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (!isTensorOptionsType(T))
      return DeviceInfo::Unknown;
    // torch::TensorOptions() has none; TensorOptions(kCUDA, 1) has one.
    return Construct->getNumArgs() == 0 ? DeviceInfo::None
                                        : DeviceInfo::Present;
  }
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() == 0 ? DeviceInfo::None : DeviceInfo::Unknown;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && isTensorOptionsType(Var->getType())
               ? deviceInLocal(Var, Body, Depth)
               : DeviceInfo::Unknown;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return DeviceInfo::Unknown;
  llvm::StringRef Name = calleeName(Call);
  if (const Expr *Object = memberCallObject(Call)) {
    QualType ObjectType = Object->getType();
    if (ObjectType->isPointerType())
      ObjectType = ObjectType->getPointeeType();
    // x.options(): derived from a tensor, device included.
    if (isTensorType(ObjectType))
      return Name == "options" ? DeviceInfo::Present : DeviceInfo::Unknown;
    if (!isTensorOptionsType(ObjectType))
      return DeviceInfo::Unknown;
    if (Name == "device" || Name == "device_index")
      return DeviceInfo::Present;
    if (Name == "dtype" || Name == "layout" || Name == "requires_grad" ||
        Name == "memory_format" || Name == "pinned_memory")
      return deviceIn(Object, Body, Depth + 1);
    return DeviceInfo::Unknown;
  }
  // The free functions torch::device(...), torch::dtype(...).
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !isTensorOptionsType(Callee->getReturnType()))
    return DeviceInfo::Unknown;
  if (Name == "device" || Name == "device_index")
    return DeviceInfo::Present;
  if (Name == "dtype" || Name == "layout" || Name == "requires_grad" ||
      Name == "memory_format")
    return DeviceInfo::None;
  return DeviceInfo::Unknown;
}

/// What the call's explicit options arguments say (None when there are none).
static DeviceInfo deviceOfCall(const CallExpr *Call, const FunctionBody &Body,
                               const Expr *&OptionsArg) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  DeviceInfo Result = DeviceInfo::None;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    QualType Type = Callee && I < Callee->getNumParams()
                        ? Callee->getParamDecl(I)->getType()
                        : Arg->getType();
    if (!isOptionsLikeType(Type.getNonReferenceType()) &&
        !isOptionsLikeType(Arg->getType()))
      continue;
    OptionsArg = Arg;
    DeviceInfo Info = deviceIn(Arg, Body, 0);
    if (Info != DeviceInfo::None)
      Result = Info;
  }
  return Result;
}

/// An argument written `{}`: an empty size makes a 0-dimensional tensor.
static bool isEmptyBraces(const Expr *E) {
  E = skipValuePlumbing(E);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() == 0;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->isListInitialization() && Construct->getNumArgs() == 0;
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
    return isEmptyBraces(StdList->getSubExpr());
  return false;
}

/// `fp->forward(xyz, feats, torch::empty(0))`: a tensor with no elements
/// handed straight to a function or module of the project, the "no tensor
/// here" sentinel of code written before c10::optional. There is nothing in
/// it to put on a device; a callee that tests it (`points.dim() > 1`) and
/// leaves it be is correct on any device. One that a local keeps, or that an
/// operation takes (`torch::cat({buf, torch::empty(0)})`), is followed as
/// usual.
static bool isSentinelArgument(const CallExpr *Call, const FunctionBody &Body) {
  if (Call->getNumArgs() == 0 ||
      !tensorplace::compat::isOneOf(
          calleeName(Call),
          {"empty", "zeros", "ones", "full", "rand", "randn"}) ||
      !hasZeroExtent(Call->getArg(0)))
    return false;
  const Stmt *Current = Call;
  const Stmt *Parent = Body.parentOf(Call);
  while (isa_and_nonnull<ImplicitCastExpr>(Parent) ||
         isa_and_nonnull<MaterializeTemporaryExpr>(Parent) ||
         isa_and_nonnull<CXXBindTemporaryExpr>(Parent) ||
         isa_and_nonnull<ParenExpr>(Parent) ||
         (isa_and_nonnull<CXXConstructExpr>(Parent) &&
          isTensorType(cast<Expr>(Parent)->getType()))) {
    Current = Parent;
    Parent = Body.parentOf(Parent);
  }
  const auto *User = dyn_cast_or_null<CallExpr>(Parent);
  if (!User || !llvm::is_contained(User->arguments(), Current))
    return false;
  const FunctionDecl *Callee = User->getDirectCallee();
  // A module run through its holder: operator() of a ModuleHolder.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(User))
    return Op->getOperator() == OO_Call && Op->getNumArgs() >= 1 &&
           isModuleObject(Op->getArg(0));
  return Callee && !isLibraryFunction(Callee) &&
         !isTorchNamespaceFunction(Callee);
}

/// torch::tensor(2.0), torch::full({}, v), torch::zeros({}): 0-dimensional,
/// so it combines with CUDA tensors like a scalar.
static bool isZeroDimensional(const CallExpr *Call) {
  llvm::StringRef Name = calleeName(Call);
  if (Name == "tensor" && Call->getNumArgs() >= 1) {
    const Expr *Data = skipValuePlumbing(Call->getArg(0));
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Data))
      if (Construct->getNumArgs() == 1)
        Data = skipValuePlumbing(Construct->getArg(0));
    return Data->getType()->isArithmeticType();
  }
  if (Name == "arange" || Name == "linspace" || Name == "logspace" ||
      Name == "eye" || Name == "randperm" || Name == "from_blob")
    return false;
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isEmptyBraces(Arg))
      return true;
  return false;
}

/// A member call that moves its tensor to a device: .to(x.device()), .to(x),
/// .to(x.options()), .to(device) with a device from anywhere but a dtype, or
/// .cuda()/.cpu() (which torch-hardcoded-device judges).
static bool isMoveCall(const CallExpr *Call, const FunctionBody &Body) {
  llvm::StringRef Name = calleeName(Call);
  // type_as(other) is to(other.options()): other's device too.
  if (Name == "cuda" || Name == "cpu" || Name == "type_as")
    return true;
  if (Name != "to")
    return false;
  for (const Expr *Arg : Call->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    QualType T = skipValuePlumbing(Arg)->getType();
    if (isTensorType(T))
      return true;
    if (!isOptionsLikeType(T) && !isOptionsLikeType(Arg->getType()))
      continue;
    if (deviceIn(Arg, Body, 0) != DeviceInfo::None)
      return true;
  }
  // to(torch::kFloat): a dtype only; the tensor stays on the CPU.
  return false;
}

/// A factory with no device in its options, a new tensor on the host; or a
/// host copy (x.cpu(), x.to(torch::kCPU)), which torch-hardcoded-device
/// judges: combined with it, the factory meets nothing on the device.
static bool isHostValueSource(const Expr *E, const FunctionBody &Body,
                              llvm::ArrayRef<std::string> Own) {
  const auto *Call = dyn_cast<CallExpr>(E);
  const Expr *OptionsArg = nullptr;
  return Call && ((isFactoryCall(Call, Own) &&
                   deviceOfCall(Call, Body, OptionsArg) == DeviceInfo::None) ||
                  isHostCopy(Call));
}

static llvm::SmallPtrSet<const ParmVarDecl *, 4>
hostOnlyParameters(const FunctionDecl *F, const CallGraph &Calls,
                   llvm::ArrayRef<std::string> Own, unsigned Depth);

namespace {
/// The sources of host values in Function's body: a factory with no device
/// or a host copy (isHostValueSource()), and the parameters that every call
/// of Function in this translation unit gives host data
/// (hostOnlyParameters(), asked once, when a parameter comes up).
class HostSources {
public:
  HostSources(const FunctionBody &Body, const FunctionDecl *Function,
              const CallGraph &Calls, llvm::ArrayRef<std::string> Own,
              unsigned Depth = 0)
      : Body(Body), Function(Function), Calls(Calls), Own(Own), Depth(Depth) {}

  bool operator()(const Expr *E) {
    if (isHostValueSource(E, Body, Own))
      return true;
    const auto *Ref =
        dyn_cast<DeclRefExpr>(skipValuePlumbing(E)->IgnoreParenImpCasts());
    if (!Ref || !isa<ParmVarDecl>(Ref->getDecl()))
      return false;
    if (!HostParams)
      HostParams = hostOnlyParameters(Function, Calls, Own, Depth);
    return namesParameter(E, *HostParams);
  }

private:
  const FunctionBody &Body;
  const FunctionDecl *Function;
  const CallGraph &Calls;
  llvm::ArrayRef<std::string> Own;
  unsigned Depth;
  std::optional<llvm::SmallPtrSet<const ParmVarDecl *, 4>> HostParams;
};
} // namespace

/// The tensor parameters of F, a helper that is not a module's method, that
/// every call of F in this translation unit gives host data (a factory's
/// tensor with no device, or what is made only from one, also through the
/// callers' own such parameters), and that F never assigns. A helper fed
/// only host data computes on the host: its factories meet nothing of the
/// module's through them.
static llvm::SmallPtrSet<const ParmVarDecl *, 4>
hostOnlyParameters(const FunctionDecl *F, const CallGraph &Calls,
                   llvm::ArrayRef<std::string> Own, unsigned Depth) {
  llvm::SmallPtrSet<const ParmVarDecl *, 4> Host;
  const FunctionDecl *Definition = F->getDefinition();
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  if (Depth > 3 || !Definition ||
      (Method && isModuleClass(Method->getParent())))
    return Host;
  llvm::ArrayRef<CallGraph::Edge> Callers = Calls.callsTo(F);
  if (Callers.empty())
    return Host;
  FunctionBody Body(Definition);
  for (const ParmVarDecl *Param : Definition->parameters()) {
    QualType T = Param->getType();
    if (!isTensorLikeType(T.getNonReferenceType()) ||
        (T->isReferenceType() && !T.getNonReferenceType().isConstQualified()) ||
        isParameterAssigned(Param, Body))
      continue;
    bool AllHost = llvm::all_of(Callers, [&](const CallGraph::Edge &Edge) {
      unsigned Index = Param->getFunctionScopeIndex();
      if (isa<CXXOperatorCallExpr>(Edge.Call) && Method)
        ++Index;
      if (Index >= Edge.Call->getNumArgs() || Edge.Caller == Definition)
        return false;
      FunctionBody CallerBody(Edge.Caller);
      auto IsMove = [&](const CallExpr *C) {
        return isMoveCall(C, CallerBody);
      };
      HostSources Sources(CallerBody, Edge.Caller, Calls, Own, Depth + 1);
      HostValueModel Model{IsMove, Sources};
      return isHostValue(Edge.Call->getArg(Index), CallerBody, Model);
    });
    if (AllHost)
      Host.insert(Param);
  }
  return Host;
}

/// Passed straight to register_buffer/register_parameter on the forward path:
/// torch-lazily-created-layer reports the registration.
static bool isRegisteredRightAway(const Expr *E, const FunctionBody &Body) {
  const Expr *Top = nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(valueUser(E, Body, Top));
  if (!Call)
    return false;
  llvm::StringRef Name = calleeName(Call);
  return Name == "register_buffer" || Name == "register_parameter";
}

/// The parameter whose device a fix-it can take: the first tensor parameter
/// of the function the call is written in.
static const ParmVarDecl *tensorParameter(const FunctionDecl *F) {
  for (const ParmVarDecl *P : F->parameters())
    if (P->getIdentifier() && isTensorType(P->getType()))
      return P;
  return nullptr;
}

/// The options parameter after the explicit arguments defaults to `{}`, so
/// passing a device there changes nothing else (randint's defaults to kLong).
static bool nextParamTakesPlainOptions(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  unsigned Explicit = 0;
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      ++Explicit;
  if (!Callee || Explicit >= Callee->getNumParams())
    return false;
  const ParmVarDecl *Next = Callee->getParamDecl(Explicit);
  if (!isTensorOptionsType(Next->getType().getNonReferenceType()) ||
      !Next->hasDefaultArg() || Next->hasUninstantiatedDefaultArg() ||
      Next->hasUnparsedDefaultArg())
    return false;
  const Expr *Default = skipValuePlumbing(Next->getDefaultArg());
  if (isEmptyBraces(Default))
    return true;
  const auto *Construct = dyn_cast<CXXConstructExpr>(Default);
  return Construct && Construct->getNumArgs() == 0;
}

/// torch::zeros({2, 3}) -> torch::zeros({2, 3}, x.device()): the device of
/// the function's tensor parameter, and nothing else (x.options() would also
/// change the dtype, of arange's integers for instance). Only when the call
/// has no options, is not in a macro or a lambda, its tensor is not filled
/// through an accessor or a data pointer (which needs it on the host), and
/// the parameter after the last argument is a TensorOptions defaulting to
/// `{}`.
static std::optional<FixItHint> deviceFix(const CallExpr *Call,
                                          const FunctionDecl *Function,
                                          const FunctionBody &Body) {
  const ParmVarDecl *Param = tensorParameter(Function);
  // from_blob wraps memory that already lives somewhere: naming a device there
  // would not move it.
  if (!Param || calleeName(Call) == "from_blob" ||
      Call->getBeginLoc().isMacroID() || Call->getRParenLoc().isMacroID() ||
      Body.isInLambda(Call) || isElementAccessedOnHost(Call, Body) ||
      !nextParamTakesPlainOptions(Call) || Call->getNumArgs() == 0 ||
      isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return std::nullopt;
  return FixItHint::CreateInsertion(
      Call->getRParenLoc(), (", " + Param->getName() + ".device()").str());
}

/// Whether a host value that Function returns meets device data where
/// Function is called: true when Function is a module's forward() (its result
/// is the module's output), when no call of it is seen here (a caller in
/// another file may combine it with anything), or when the chain of returns
/// is too long to follow. Element: the value is that element of a returned
/// pair, tuple or aggregate, and a caller that takes another one drops it.
static bool
returnedValueMeetsDevice(const ModuleFacts &Facts, const FunctionDecl *Function,
                         llvm::ArrayRef<std::string> Own, ASTContext &Ctx,
                         unsigned Depth,
                         std::optional<unsigned> Element = std::nullopt) {
  const ModuleFacts::ForwardPath *Path = Facts.forwardPath(Function);
  if (Depth > 2 || (Path && !Path->Caller))
    return true;
  bool AnyCall = false;
  // The bodies of the callers, each built once.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionBody>> Bodies;
  // forward() itself was settled above.
  for (const CallGraph::Edge *Edge : Facts.callsReturning(Function)) {
    AnyCall = true;
    std::unique_ptr<FunctionBody> &Body = Bodies[Edge->Caller];
    if (!Body)
      Body = std::make_unique<FunctionBody>(Edge->Caller);
    auto IsMove = [&](const CallExpr *C) { return isMoveCall(C, *Body); };
    HostSources IsHostSource(*Body, Edge->Caller, Facts.calls(), Own);
    auto Returned = [&] {
      return returnedValueMeetsDevice(Facts, Edge->Caller, Own, Ctx, Depth + 1);
    };
    auto ReturnedElement = [&](unsigned Index) {
      return returnedValueMeetsDevice(Facts, Edge->Caller, Own, Ctx, Depth + 1,
                                      Index);
    };
    HostValueModel Model{IsMove, IsHostSource, Returned};
    Model.ReturnedElement = ReturnedElement;
    Model.StartElement = Element;
    if (hostValueMeetsDevice(Edge->Call, *Body, Model))
      return true;
  }
  return !AnyCall;
}

void FactoryWithoutDevice::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  forEachUserFunction(Ctx, [&](const FunctionDecl *Function) {
    // Construction is fine: Module::to() moves what is registered there.
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(Function);
    // A helper that a forward() in another file calls is on its forward
    // path, which only the front end that sees the project can tell.
    std::vector<std::string> Reach;
    if (!Path) {
      if (!acceptsPending())
        return;
      Reach = reachableFromOtherFiles(Facts, Function);
      if (Reach.empty())
        return;
    }
    FunctionBody Body(Function);
    auto IsMove = [&](const CallExpr *C) { return isMoveCall(C, Body); };
    HostSources IsHostSource(Body, Function, Facts.calls(), FactoryFunctions);
    // Returned to a caller that moves it before it meets device data. A
    // caller in another file is out of sight: nothing is claimed there.
    auto Returned = [&] {
      return Reach.empty() && returnedValueMeetsDevice(
                                  Facts, Function, FactoryFunctions, Ctx, 0);
    };
    auto ReturnedElement = [&](unsigned Index) {
      return Reach.empty() &&
             returnedValueMeetsDevice(Facts, Function, FactoryFunctions, Ctx, 0,
                                      Index);
    };
    HostValueModel HostValues{IsMove, IsHostSource, Returned};
    HostValues.ReturnedElement = ReturnedElement;
    for (const Stmt *S : Body.statements()) {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call || !isFactoryCall(Call, FactoryFunctions) ||
          Call->containsErrors())
        continue;
      const Expr *OptionsArg = nullptr;
      // Options from a tensor, a device, or a variable we cannot follow.
      if (deviceOfCall(Call, Body, OptionsArg) != DeviceInfo::None)
        continue;
      // Combines with CUDA tensors like a scalar.
      if (isZeroDimensional(Call) || isSentinelArgument(Call, Body))
        continue;
      // Never meets device data: read on the host, combined only with other
      // host values, or moved where it belongs first.
      DeviceMeeting Meeting;
      if (!hostValueMeetsDevice(Call, Body, HostValues, &Meeting))
        continue;
      // Reported as a late registration by torch-lazily-created-layer.
      if (isRegisteredRightAway(Call, Body))
        continue;
      // After a return on every path: it never makes a tensor. Asked last,
      // as it builds the function's CFG.
      if (Body.neverRuns(Call))
        continue;
      Finding F;
      F.Loc = Call->getBeginLoc();
      std::string Name = calleeName(Call).str();
      std::string Where = Path ? describePath(*Path, Function, F)
                               : describeReachElsewhere(Function, Reach, F);
      F.Message = "tensor factory '" + Name +
                  "' has no device in its options " + Where +
                  "; it creates the tensor on the CPU wherever the module was "
                  "moved";
      const ParmVarDecl *Param = tensorParameter(Function);
      std::string Input = Param ? Param->getName().str() : "x";
      std::string Advice;
      if (Name == "from_blob")
        Advice =
            "move the wrapped host memory with .to(" + Input + ".device())";
      else if (isElementAccessedOnHost(Call, Body))
        // An accessor or a data pointer needs the tensor on the host: fill
        // it there, then move it.
        Advice = "its elements are accessed through host memory here, so "
                 "fill it on the host and move it with .to(" +
                 Input + ".device()) before it meets device data";
      else
        Advice = "pass an input's device or options (" + Input + ".device(), " +
                 Input + ".options()), use a '_like' factory";
      if (std::optional<FindingNote> Meets =
              meetingNote(Meeting, "the new tensor", Path && !Path->Caller,
                          Call->getBeginLoc(), Ctx))
        F.Notes.push_back(std::move(*Meets));
      F.Notes.push_back(
          {Call->getBeginLoc(),
           Advice +
               ", or silence with // NOLINT(torch-factory-without-device)"});
      if (!OptionsArg)
        if (std::optional<FixItHint> Fix = deviceFix(Call, Function, Body))
          F.Fixes.push_back(*Fix);
      report(std::move(F), Ctx);
    }
  });
}

} // namespace tensorplace
