//===- DeviceGuards.cpp ---------------------------------------------------===//

#include "tensorplace/checker/DeviceGuards.h"
#include "FunctionBody.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include <cctype>

using namespace clang;

namespace tensorplace {

/// Each makes a device current for its scope, a stream guard the stream's
/// device. MultiStreamGuard and CUDAMultiStreamGuard are not among them: they
/// set each stream's device's current stream and leave the current device as
/// it was (c10/core/impl/InlineStreamGuard.h).
bool isDeviceGuardType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  // std::optional<CUDAGuard> guard; guard.emplace(x.device()): a guard made
  // only on some paths is still the author's guard.
  if (const auto *Optional =
          dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    if (Optional->getDeclName().isIdentifier() &&
        Optional->getName() == "optional" &&
        Optional->getTemplateArgs().size() == 1 &&
        Optional->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return isDeviceGuardType(Optional->getTemplateArgs()[0].getAsType());
  if (!RD || !RD->getDeclName().isIdentifier())
    return false;
  bool Named = tensorplace::compat::isOneOf(
      RD->getName(),
      {"CUDAGuard", "OptionalCUDAGuard", "CUDAStreamGuard",
       "OptionalCUDAStreamGuard", "DeviceGuard", "OptionalDeviceGuard",
       "StreamGuard", "OptionalStreamGuard"});
  if (!Named)
    return false;
  std::string Qualified = RD->getQualifiedNameAsString();
  return tensorplace::compat::startsWith(llvm::StringRef(Qualified), "c10::") ||
         tensorplace::compat::startsWith(llvm::StringRef(Qualified), "at::");
}

bool isSetDeviceName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"cudaSetDevice", "set_device", "SetDevice", "MaybeSetDevice",
             "ExchangeDevice", "MaybeExchangeDevice", "setDeviceIndex",
             "exchangeDevice", "maybeExchangeDevice"});
}

DeviceGuards::DeviceGuards(ASTContext &Ctx, const CallGraph &Calls)
    : SM(Ctx.getSourceManager()), LangOpts(Ctx.getLangOpts()), Calls(Calls) {
  for (const FunctionDecl *F : Calls.functions()) {
    Scopes &S = Functions[canonicalFunction(F)];
    FunctionBody Body(F);
    for (const Stmt *St : Body.statements()) {
      if (const auto *Decl = dyn_cast<DeclStmt>(St)) {
        for (const clang::Decl *D : Decl->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D))
            if (isDeviceGuardType(Var->getType()))
              S.Guards.push_back(Var->getLocation());
        continue;
      }
      // cudaSetDevice(x.get_device()), c10::cuda::set_device(...),
      // MaybeSetDevice(...): the device is made current by hand, for the rest
      // of the thread's life.
      if (const auto *Call = dyn_cast<CallExpr>(St))
        if (isSetDeviceName(calleeName(Call))) {
          S.Guards.push_back(Call->getBeginLoc());
          S.SetsDevice = true;
        }
    }
  }
}

DeviceGuards::State DeviceGuards::stateAt(const FunctionDecl *F,
                                          SourceLocation Loc) const {
  return stateAt(canonicalFunction(F), Loc, 0);
}

/// A function named as a backward pass (`backward_cuda`, `roi_align_backward`,
/// `attn_bwd`, `gather_points_grad`): with no caller in C++, it is what a
/// Python torch.autograd.Function's backward() or an operator's autograd
/// formula calls, which the autograd engine runs under the guard it holds for
/// any backward().
static bool isNamedAsBackwardPass(const FunctionDecl *F) {
  if (!F->getDeclName().isIdentifier())
    return false;
  llvm::SmallVector<llvm::StringRef, 4> Words;
  llvm::StringRef Name = F->getName();
  // Split at underscores and at lower-to-upper case changes.
  size_t Start = 0;
  for (size_t I = 0; I <= Name.size(); ++I) {
    bool End = I == Name.size() || Name[I] == '_';
    bool CaseChange =
        !End && I > 0 && std::isupper(Name[I]) && std::islower(Name[I - 1]);
    if (!End && !CaseChange)
      continue;
    if (I > Start)
      Words.push_back(Name.slice(Start, I));
    Start = End ? I + 1 : I;
  }
  return llvm::any_of(Words, [](llvm::StringRef W) {
    return W.equals_insensitive("backward") || W.equals_insensitive("bwd") ||
           W.equals_insensitive("grad");
  });
}

bool countIdentifiers(const SourceManager &SM, const LangOptions &LangOpts,
                      FileID File, llvm::StringMap<unsigned> &Counts) {
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return false;
  Lexer Lex(SM.getLocForStartOfFile(File), LangOpts, Text.begin(), Text.begin(),
            Text.end());
  Token Tok;
  for (bool More = true; More;) {
    More = !Lex.LexFromRawLexer(Tok);
    if (Tok.is(tok::raw_identifier))
      ++Counts[Tok.getRawIdentifier()];
  }
  return true;
}

bool DeviceGuards::isNamedInMainFile(const FunctionDecl *F) const {
  if (!F->getDeclName().isIdentifier())
    return true;
  if (!MainFileNames)
    MainFileUnreadable = !countIdentifiers(SM, LangOpts, SM.getMainFileID(),
                                           MainFileNames.emplace());
  return MainFileUnreadable || MainFileNames->count(F->getName());
}

bool isCallableFromOtherFiles(const FunctionDecl *F) {
  return !F->isMain() && F->isExternallyVisible() &&
         (isSettleableFunction(F) || F->getDescribedFunctionTemplate());
}

DeviceGuards::State DeviceGuards::stateAt(const FunctionDecl *F,
                                          SourceLocation Loc,
                                          unsigned Depth) const {
  State Guarded;
  Guarded.K = State::Guarded;
  if (Depth > 6)
    return Guarded; // Too deep to tell: say nothing.
  // backward() of a custom autograd function: the autograd engine calls it
  // under a stream guard for the stream forward() ran on, which makes that
  // stream's device current (torch/csrc/autograd/engine.cpp,
  // evaluate_function).
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
    if (Method->isStatic() && Method->getDeclName().isIdentifier() &&
        Method->getName() == "backward" &&
        isAutogradFunctionClass(Method->getParent()))
      return Guarded;
  auto It = Functions.find(F);
  if (It != Functions.end()) {
    for (SourceLocation Guard : It->second.Guards)
      if (SM.isBeforeInTranslationUnit(Guard, Loc))
        return Guarded;
    // A helper called earlier that set the device for good.
    for (const CallGraph::Edge &Edge : Calls.callsFrom(F)) {
      auto Callee = Functions.find(Edge.Callee);
      if (Callee != Functions.end() && Callee->second.SetsDevice &&
          SM.isBeforeInTranslationUnit(Edge.Call->getBeginLoc(), Loc))
        return Guarded;
    }
  }
  llvm::ArrayRef<CallGraph::Edge> Callers = Calls.callsTo(F);
  if (Callers.empty()) {
    if (isNamedAsBackwardPass(F))
      return Guarded;
    // A header's function that this file never names (a launcher template
    // of a shared .cuh that another .cu file calls): the files that call it
    // judge it.
    if (!SM.isInMainFile(SM.getExpansionLoc(F->getLocation())) &&
        !isNamedInMainFile(F))
      return Guarded;
    State Open;
    if (isCallableFromOtherFiles(F)) {
      Open.K = State::Open;
      Open.OpenOn.push_back(F);
    } else if (!SM.isInMainFile(SM.getExpansionLoc(F->getLocation()))) {
      // A header's function local to each file that includes it: the files
      // that call it judge it.
      Open.K = State::Guarded;
    }
    return Open;
  }
  State Result = Guarded;
  for (const CallGraph::Edge &Edge : Callers) {
    const FunctionDecl *Caller = canonicalFunction(Edge.Caller);
    if (Caller == F)
      return State();
    State Sub = stateAt(Caller, Edge.Call->getBeginLoc(), Depth + 1);
    if (Sub.K == State::Unguarded)
      return Sub;
    if (Sub.K == State::Open) {
      Result.K = State::Open;
      for (const FunctionDecl *Entry : Sub.OpenOn)
        if (!llvm::is_contained(Result.OpenOn, Entry))
          Result.OpenOn.push_back(Entry);
    }
  }
  return Result;
}

} // namespace tensorplace
