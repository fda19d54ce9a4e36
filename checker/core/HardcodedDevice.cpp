//===- HardcodedDevice.cpp ------------------------------------------------===//

#include "HardcodedDevice.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tensorplace {

namespace {
enum class Target { None, CUDA, CPU };

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
};
} // namespace

/// torch::kCUDA, c10::DeviceType::CUDA, "cuda", "cuda:1"; the CPU spellings.
static Target literalTarget(const Stmt *S, std::string &Spelling) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = Ref->getDecl();
    if (!D->getDeclName().isIdentifier() || !isDeviceTypeEnum(D->getType()))
      return Target::None;
    Spelling = D->getName().str();
    if (Spelling == "kCUDA" || Spelling == "CUDA")
      return Target::CUDA;
    if (Spelling == "kCPU" || Spelling == "CPU")
      return Target::CPU;
    return Target::None;
  }
  if (const auto *Str = dyn_cast<StringLiteral>(S)) {
    if (Str->getCharByteWidth() != 1) // Wide literals name no device.
      return Target::None;
    Spelling = Str->getString().str();
    if (tensorplace::compat::startsWith(llvm::StringRef(Spelling), "cuda"))
      return Target::CUDA;
    if (Spelling == "cpu")
      return Target::CPU;
  }
  return Target::None;
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

void HardcodedDevice::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  forEachUserFunction(Ctx, [&](const FunctionDecl *Function) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Function);
    bool InModule = Method && isModuleClass(Method->getParent());
    const ModuleFacts::ForwardPath *Path = Facts.forwardPath(Function);
    // Free functions, main() and training code choose devices for modules.
    if (!InModule && !Path)
      return;
    scan(
        FunctionBody(Function),
        [&](Finding &F) {
          return InModule ? "inside '" + describeFunction(Function) + "'"
                          : describePath(*Path, Function, F);
        },
        Ctx);
  });
  // Default member initialisers run in every constructor.
  for (const CXXRecordDecl *Class : Facts.moduleClasses())
    for (const FieldDecl *Field : Class->fields())
      if (const Expr *Init = Field->getInClassInitializer())
        scan(
            FunctionBody(Init),
            [&](Finding &) {
              return "in the initializer of '" +
                     Field->getQualifiedNameAsString() + "'";
            },
            Ctx);
}

void HardcodedDevice::scan(const FunctionBody &Body,
                           llvm::function_ref<std::string(Finding &)> Where,
                           ASTContext &Ctx) {
  auto Emit = [&](SourceLocation Loc, const std::string &What,
                  const char *Note) {
    Finding F;
    F.Loc = Loc;
    std::string Place = Where(F);
    F.Message = What + " " + Place + Consequence;
    F.Notes.push_back({Loc, Note});
    report(std::move(F), Ctx);
  };

  for (const Stmt *S : Body.statements()) {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      llvm::StringRef Name = calleeName(Call);
      if ((Name != "cuda" && Name != "cpu") ||
          !isTensorObject(memberCallObject(Call)))
        continue;
      // A result read on the host right away never meets device code.
      if (Name == "cpu" && isOnlyReadOnHost(Call, Body))
        continue;
      Emit(Call->getExprLoc(),
           Name == "cuda" ? "'Tensor::cuda' hard-codes the device"
                          : "'Tensor::cpu' moves a result to the CPU",
           Name == "cuda" ? FollowNote : HostNote);
      continue;
    }
    std::string Spelling;
    Target T = literalTarget(S, Spelling);
    if (T == Target::None)
      continue;
    DeviceUse Use = deviceUse(cast<Expr>(S), Body);
    if (T == Target::CUDA) {
      if ((Use.Converted && !isComparison(Use.User)) ||
          (!Use.Converted && isDependentPlacementCall(Use.User)))
        Emit(S->getBeginLoc(), "hard-coded device '" + Spelling + "'",
             FollowNote);
      continue;
    }
    // CPU: only a conversion, x.to(torch::kCPU), like x.cpu(); a
    // cuda-or-cpu choice is reported at its CUDA branch.
    const auto *To = dyn_cast_or_null<CallExpr>(Use.User);
    if (!Use.Converted || Use.InConditional || !To || calleeName(To) != "to")
      continue;
    const Expr *Object = memberCallObject(To);
    if (isTensorObject(Object) ? isOnlyReadOnHost(To, Body)
                               : !isModuleObject(Object))
      continue;
    Emit(S->getBeginLoc(),
         "'to(" + Spelling + ")' moves " +
             (isTensorObject(Object) ? "a result" : "a module") + " to the CPU",
         HostNote);
  }
}

} // namespace tensorplace
