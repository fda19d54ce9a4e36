//===- ProjectFacts.cpp ---------------------------------------------------===//

#include "tensorplace/checker/ProjectFacts.h"
#include "FunctionBody.h"
#include "TensorMemory.h"
#include "tensorplace/checker/DeviceGuards.h"
#include "tensorplace/checker/ModuleInventory.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include <deque>
#include <optional>

using namespace clang;

namespace tensorplace {

std::string functionKey(const FunctionDecl *F) {
  F = F->getCanonicalDecl();
  PrintingPolicy Policy(F->getASTContext().getLangOpts());
  Policy.SuppressScope = false;
  std::string Key = F->getQualifiedNameAsString() + "(";
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    if (I)
      Key += ",";
    Key += F->getParamDecl(I)->getType().getCanonicalType().getAsString(Policy);
  }
  Key += ")";
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
    if (Method->isConst())
      Key += " const";
  return Key;
}

bool isSettleableFunction(const FunctionDecl *F) {
  return !F->isTemplated() && F->isExternallyVisible() &&
         !F->isTemplateInstantiation();
}

namespace {
/// What one function body names and calls, before following its callees.
struct Direct {
  llvm::StringSet<> Names;
  llvm::SmallVector<const FunctionDecl *, 8> Callees;
  bool Opaque = false;
  /// Calls register_parameter/buffer/module or replace_module.
  bool Registers = false;
};

/// push_back() and the like of Sequential or ModuleList, which register what
/// they are given (in a class derived from one, its setup fills it), given
/// something but a stateless built-in module (an activation, a pooling).
static bool isContainerInsertion(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!Method || !isContainerModule(Method->getParent()))
    return false;
  llvm::StringRef Name = calleeName(Call);
  if (Name != "push_back" && Name != "insert" && Name != "extend" &&
      Name != "append" && Name != "update")
    return false;
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    QualType T = skipValuePlumbing(Arg)->getType();
    const CXXRecordDecl *Held = heldModuleClass(T);
    if (!Held)
      Held = recordOf(T);
    // A name (push_back("relu", ...)) is not a module.
    if (Held && !isModuleClass(Held) && !heldModuleClass(T))
      return false;
    return !Held || !isStatelessBuiltinModule(Held);
  });
}

struct BodyScan : RecursiveASTVisitor<BodyScan> {
  Direct &Out;
  explicit BodyScan(Direct &Out) : Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Out.Names.insert(Field->getName());
    return true;
  }
  // this->t_ in a template: the member's name, resolved or not.
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    if (E->getMember().isIdentifier())
      Out.Names.insert(E->getMember().getAsIdentifierInfo()->getName());
    return true;
  }
  bool VisitRecoveryExpr(RecoveryExpr *) {
    Out.Opaque = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // On this module or another: either way some module class has state,
    // and a setup function registering on another module is rare.
    if (ModuleInventory::isRegistrationName(calleeName(Call)) ||
        isContainerInsertion(Call))
      Out.Registers = true;
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      Out.Callees.push_back(Callee);
      if (const FunctionDecl *Forward = CallGraph::autogradForward(Call))
        Out.Callees.push_back(Forward);
    } else if (!isa<CXXPseudoDestructorExpr>(
                   Call->getCallee()->IgnoreParenImpCasts()))
      // A call through a pointer or a std::function: anything may run.
      Out.Opaque |= !Call->getCallee()->getType()->isDependentType() &&
                    !isa<CXXMemberCallExpr>(Call);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (const CXXConstructorDecl *Ctor = CE->getConstructor())
      Out.Callees.push_back(Ctor);
    return true;
  }
};
} // namespace

/// Another file may call Callee too: it has no body here, or its body is in
/// a header, which the other files that include it also define.
static bool isSharedWithOtherFiles(const FunctionDecl *Callee,
                                   const SourceManager &SM) {
  const FunctionDecl *Definition = nullptr;
  if (!Callee->isDefined(Definition))
    return true;
  return !SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation()));
}

/// Code the compiler could not make sense of that may have held a device
/// guard: its text, as written (a macro's use), names a guard or a device
/// (DEVICE_GUARD(x), cudaSetDevice(i) undeclared, a CUDAGuard whose header
/// is missing). A check whose macro is gone (CHECK_INPUT(x) over LibTorch
/// 1.x's AT_CHECK) does not.
static bool mayHoldGuard(SourceRange Written, const SourceManager &SM,
                         const LangOptions &LangOpts) {
  CharSourceRange Range = SM.getExpansionRange(Written);
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, LangOpts);
  if (Text.empty())
    return true;
  std::string Lower = Text.lower();
  return llvm::StringRef(Lower).contains("guard") ||
         llvm::StringRef(Lower).contains("device");
}

static constexpr llvm::StringLiteral PointerCallPrefix =
    "call through a pointer to ";

/// The key under which the calls through pointers to functions of Type are
/// recorded (DeviceCall::Callee), and on which a function of that type whose
/// address is registered is called (RegisteredAddresses).
static std::string pointerCallKey(const FunctionProtoType *Type,
                                  const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressScope = false;
  std::string Key =
      PointerCallPrefix.str() +
      Type->getReturnType().getCanonicalType().getAsString(Policy) + "(";
  for (unsigned I = 0; I < Type->getNumParams(); ++I)
    Key += (I ? "," : "") +
           Type->getParamType(I).getCanonicalType().getAsString(Policy);
  return Key + ")";
}

/// The type of the function Call calls through a pointer
/// (`registry().at(name)(x)`, `(*fn)(x)`); nullptr for any other call.
static const FunctionProtoType *pointerCallType(const CallExpr *Call) {
  if (Call->getDirectCallee() || isa<CXXMemberCallExpr>(Call) ||
      isa<CXXOperatorCallExpr>(Call))
    return nullptr;
  QualType T = Call->getCallee()->getType();
  if (T.isNull() || T->isDependentType())
    return nullptr;
  const auto *Pointer = T->getAs<PointerType>();
  return Pointer ? Pointer->getPointeeType()->getAs<FunctionProtoType>()
                 : nullptr;
}

/// The calls F makes of user functions other files may call too (through a
/// template's dependent call too: each candidate), each with whether a
/// device guard is in force there and the parameters it hands a tensor's
/// memory; and its calls through pointers to functions, under the type's
/// pointerCallKey().
static std::vector<DeviceCall> deviceCalls(const FunctionDecl *F,
                                           const DeviceGuards &Guards,
                                           UserCodeFilter &Filter,
                                           const SourceManager &SM,
                                           const LangOptions &LangOpts) {
  std::vector<DeviceCall> Out;
  FunctionBody Body(F);
  // Where the compiler could not make sense of F's code in a way that may
  // have held a guard: an expression it recovered from that names a guard
  // or a device, or a declaration it could not make (a guard whose header
  // is missing). A guard lost there holds for the calls after it.
  llvm::SmallVector<SourceLocation, 4> Lost;
  for (const Stmt *S : Body.statements()) {
    if (isa<RecoveryExpr>(S) && mayHoldGuard(S->getSourceRange(), SM, LangOpts))
      Lost.push_back(S->getBeginLoc());
    if (const auto *Decls = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Decls->decls())
        if (D->isInvalidDecl() &&
            mayHoldGuard(D->getSourceRange(), SM, LangOpts))
          Lost.push_back(D->getBeginLoc());
  }
  for (const Stmt *S : Body.statements()) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      continue;
    bool Errors = llvm::any_of(Lost, [&](SourceLocation L) {
      return L.isInvalid() ||
             SM.isBeforeInTranslationUnit(L, Call->getBeginLoc());
    });
    std::optional<DeviceGuards::State> State;
    // A call of the function Key, whose parameter ParamOf(I) Call's
    // argument I binds to (-1: none).
    auto record = [&](std::string Key,
                      llvm::function_ref<int(unsigned)> ParamOf) {
      if (!State)
        State = Guards.stateAt(F, Call->getBeginLoc());
      DeviceCall D;
      D.Callee = std::move(Key);
      switch (State->K) {
      case DeviceGuards::State::Guarded:
        D.State = DeviceCall::Guarded;
        break;
      case DeviceGuards::State::Unguarded:
        D.State = DeviceCall::Unguarded;
        break;
      case DeviceGuards::State::Open:
        D.State = DeviceCall::Open;
        for (const FunctionDecl *Entry : State->OpenOn)
          D.OpenOn.push_back(functionKey(Entry));
        break;
      }
      // A guard may be among what the compiler could not make sense of
      // before the call.
      if (Errors && D.State != DeviceCall::Guarded)
        D.State = DeviceCall::Unknown;
      // Memory of tensors the caller allocated itself on the current device
      // is where a guard would put the launch: the call is recorded again,
      // as a guarded one handing those parameters a tensor's memory, which
      // settles a default-stream finding and claims no missing guard.
      DeviceCall OnCurrentDevice;
      OnCurrentDevice.Callee = D.Callee;
      OnCurrentDevice.State = DeviceCall::Guarded;
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        int Param = ParamOf(I);
        if (Param < 0)
          continue;
        switch (handedTensorMemory(Call->getArg(I), Body)) {
        case HandedMemory::Tensor:
          D.TensorArgs.push_back(Param);
          break;
        case HandedMemory::LocalCurrentDevice:
          OnCurrentDevice.TensorArgs.push_back(Param);
          break;
        case HandedMemory::None:
          break;
        }
      }
      Out.push_back(std::move(D));
      if (!OnCurrentDevice.TensorArgs.empty())
        Out.push_back(std::move(OnCurrentDevice));
    };
    for (const FunctionDecl *Callee : CallGraph::callees(Call))
      if (Callee->isExternallyVisible() &&
          Filter.isUserCode(Callee->getLocation()) &&
          isSharedWithOtherFiles(Callee, SM))
        record(functionKey(Callee),
               [&](unsigned I) { return parameterIndexOf(Call, Callee, I); });
    // A dispatcher's call through a table of registered functions: it may
    // reach each function of the type whose address is registered.
    if (const FunctionProtoType *Type = pointerCallType(Call))
      record(pointerCallKey(Type, F->getASTContext()), [&](unsigned I) {
        return I < Type->getNumParams() ? static_cast<int>(I) : -1;
      });
  }
  return Out;
}

namespace {
/// The user's functions whose address the user's code keeps for calls
/// through a pointer (a table of registered functions): named, not called,
/// in a variable's initialiser (`static Registrar r("scale", scale_launch);`
/// of a REGISTER_OP macro, `static const Fn table[] = {...}`), on the right
/// of an assignment (`registry()[name] = fn;`), or as an argument of a call
/// (`registry().emplace(name, fn)`). Not when handed to a Python binding or
/// LibTorch's operator registration (pybind11's def, TORCH_LIBRARY's impl):
/// those call it with a device guard of their own making, or none, and are
/// judged as today.
struct RegisteredAddresses : RecursiveASTVisitor<RegisteredAddresses> {
  UserCodeFilter &Filter;
  llvm::SetVector<const FunctionDecl *> Found;
  explicit RegisteredAddresses(UserCodeFilter &Filter) : Filter(Filter) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && !Filter.isUserCode(D->getLocation()))
      return true;
    return RecursiveASTVisitor<RegisteredAddresses>::TraverseDecl(D);
  }
  /// Every function named in E, not as a callee.
  void addNamed(const Expr *E) {
    if (!E)
      return;
    struct Names : RecursiveASTVisitor<Names> {
      RegisteredAddresses &Out;
      explicit Names(RegisteredAddresses &Out) : Out(Out) {}
      bool VisitCallExpr(CallExpr *Call) {
        Callees.insert(Call->getCallee()->IgnoreParenImpCasts());
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        if (!Callees.count(Ref))
          Out.add(dyn_cast<FunctionDecl>(Ref->getDecl()));
        return true;
      }
      llvm::DenseSet<const Expr *> Callees;
    } N(*this);
    N.TraverseStmt(const_cast<Expr *>(E));
  }
  void add(const FunctionDecl *F) {
    if (!F || !F->getType()->getAs<FunctionProtoType>() ||
        !Filter.isUserCode(F->getLocation()))
      return;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
      if (!Method->isStatic())
        return;
    Found.insert(F->getCanonicalDecl());
  }
  bool VisitVarDecl(VarDecl *V) {
    addNamed(V->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      addNamed(B->getRHS());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && isBindingOrRegistration(Callee))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()->IgnoreParens()))
        add(dyn_cast<FunctionDecl>(Ref->getDecl()));
      else if (const auto *AddressOf =
                   dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
               AddressOf && AddressOf->getOpcode() == UO_AddrOf)
        if (const auto *Ref = dyn_cast<DeclRefExpr>(
                AddressOf->getSubExpr()->IgnoreParenImpCasts()))
          add(dyn_cast<FunctionDecl>(Ref->getDecl()));
    return true;
  }
  static bool isBindingOrRegistration(const FunctionDecl *Callee) {
    std::string Name = Callee->getQualifiedNameAsString();
    for (llvm::StringRef Library : {"pybind11::", "torch::", "c10::", "at::"})
      if (compat::startsWith(Name, Library))
        return true;
    return false;
  }
};
} // namespace

std::vector<FunctionSummary> summarizeFunctions(ASTContext &Ctx,
                                                const CallGraph &Graph,
                                                const DeviceGuards &Guards) {
  UserCodeFilter Filter(Ctx.getSourceManager());
  // Every user function with a body here, and what its body does.
  llvm::DenseMap<const FunctionDecl *, Direct> Bodies;
  std::vector<const FunctionDecl *> Order;
  struct Collect : RecursiveASTVisitor<Collect> {
    UserCodeFilter &Filter;
    llvm::DenseMap<const FunctionDecl *, Direct> &Bodies;
    std::vector<const FunctionDecl *> &Order;
    Collect(UserCodeFilter &Filter,
            llvm::DenseMap<const FunctionDecl *, Direct> &Bodies,
            std::vector<const FunctionDecl *> &Order)
        : Filter(Filter), Bodies(Bodies), Order(Order) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool TraverseDecl(Decl *D) {
      if (!D)
        return true;
      if (!isa<TranslationUnitDecl>(D) && !Filter.isUserCode(D->getLocation()))
        return true;
      return RecursiveASTVisitor<Collect>::TraverseDecl(D);
    }
    bool VisitFunctionDecl(FunctionDecl *F) {
      const auto *Method = dyn_cast<CXXMethodDecl>(F);
      if (!F->doesThisDeclarationHaveABody() || F->isTemplated() ||
          (Method && Method->getParent()->isLambda()))
        return true;
      const FunctionDecl *Canonical = F->getCanonicalDecl();
      auto Inserted = Bodies.try_emplace(Canonical);
      if (!Inserted.second)
        return true;
      Order.push_back(Canonical);
      Direct &D = Inserted.first->second;
      BodyScan Scan(D);
      Scan.TraverseStmt(F->getBody());
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
        for (const CXXCtorInitializer *Init : Ctor->inits()) {
          if (const FieldDecl *Field = Init->getMember())
            D.Names.insert(Field->getName());
          Scan.TraverseStmt(Init->getInit());
        }
      return true;
    }
  } C(Filter, Bodies, Order);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());

  // The calls of other files' functions, by caller (template patterns
  // included), with the guard state at each.
  llvm::DenseMap<const FunctionDecl *, std::vector<DeviceCall>> Device;
  std::vector<FunctionSummary> Out;
  for (const FunctionDecl *F : Graph.functions()) {
    std::vector<DeviceCall> Calls = deviceCalls(
        F, Guards, Filter, Ctx.getSourceManager(), Ctx.getLangOpts());
    if (Calls.empty())
      continue;
    const FunctionDecl *Canonical = F->getCanonicalDecl();
    if (isSettleableFunction(F) && Bodies.count(Canonical)) {
      Device[Canonical] = std::move(Calls);
      continue;
    }
    // No other file names it (a template, a function local to its file):
    // a summary under a key of its own, for its calls only.
    FunctionSummary S;
    SourceLocation Loc = Ctx.getSourceManager().getFileLoc(F->getLocation());
    S.Key = functionKey(F) + " (internal to " +
            Ctx.getSourceManager().getFilename(Loc).str() + ")";
    S.Loc = F->getLocation();
    S.DeviceCalls = std::move(Calls);
    Out.push_back(std::move(S));
  }
  // A function whose address is registered is called wherever a function
  // of its type is called through a pointer: recorded as a call of it that
  // is guarded exactly when those calls are.
  RegisteredAddresses Registered(Filter);
  Registered.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *F : Registered.Found) {
    FunctionSummary S;
    SourceLocation Loc = Ctx.getSourceManager().getFileLoc(F->getLocation());
    S.Key = functionKey(F) + " (registered in " +
            Ctx.getSourceManager().getFilename(Loc).str() + ")";
    S.Loc = F->getLocation();
    DeviceCall Through;
    Through.Callee = functionKey(F);
    Through.State = DeviceCall::Open;
    Through.OpenOn.push_back(
        pointerCallKey(F->getType()->getAs<FunctionProtoType>(), Ctx));
    S.DeviceCalls.push_back(std::move(Through));
    Out.push_back(std::move(S));
  }
  for (const FunctionDecl *F : Order) {
    if (!isSettleableFunction(F))
      continue;
    // Everything reachable through callees defined here.
    llvm::StringSet<> Names;
    std::vector<std::string> Calls;
    llvm::StringSet<> CallKeys;
    bool Opaque = false;
    bool Registers = false;
    llvm::DenseSet<const FunctionDecl *> Seen{F};
    std::deque<const FunctionDecl *> Work{F};
    while (!Work.empty()) {
      const FunctionDecl *G = Work.front();
      Work.pop_front();
      const Direct &D = Bodies.find(G)->second;
      for (const auto &Name : D.Names)
        Names.insert(Name.getKey());
      Opaque |= D.Opaque;
      Registers |= D.Registers;
      for (const FunctionDecl *Callee : D.Callees) {
        const FunctionDecl *Canonical = Callee->getCanonicalDecl();
        if (Bodies.count(Canonical)) {
          if (Seen.insert(Canonical).second)
            Work.push_back(Canonical);
          continue;
        }
        if (!Filter.isUserCode(Callee->getLocation()))
          continue; // LibTorch and the standard library name no member.
        if (Callee->isDefined() || !isSettleableFunction(Callee)) {
          // Defined here without being traversed (implicit code), or a
          // template or file-local function with no body: not settled.
          if (!Callee->isImplicit())
            Opaque = true;
          continue;
        }
        std::string Key = functionKey(Callee);
        if (CallKeys.insert(Key).second)
          Calls.push_back(std::move(Key));
      }
    }
    FunctionSummary S;
    S.Key = functionKey(F);
    S.Loc = F->getLocation();
    for (const auto &Name : Names)
      S.MemberNames.push_back(Name.getKey().str());
    llvm::sort(S.MemberNames);
    S.Calls = std::move(Calls);
    S.Opaque = Opaque;
    S.Registers = Registers;
    S.ForwardRoot = isForwardRoot(F);
    S.DeviceCalls = std::move(Device[F]);
    Out.push_back(std::move(S));
  }
  return Out;
}

/// Visits the keys of Functions, then those Visit adds to Next, each once,
/// breadth first, until Visit returns true; returns the key it stopped at, or
/// an empty string.
static std::string
findReachable(llvm::ArrayRef<std::string> Functions,
              llvm::function_ref<bool(const std::string &Key,
                                      std::vector<std::string> &Next)>
                  Visit) {
  llvm::StringSet<> Seen;
  std::deque<std::string> Work(Functions.begin(), Functions.end());
  std::vector<std::string> Next;
  while (!Work.empty()) {
    std::string Key = Work.front();
    Work.pop_front();
    if (!Seen.insert(Key).second)
      continue;
    Next.clear();
    if (Visit(Key, Next))
      return Key;
    Work.insert(Work.end(), Next.begin(), Next.end());
  }
  return "";
}

std::string unsettledBy(llvm::StringRef Member,
                        llvm::ArrayRef<std::string> Functions,
                        const ProjectSummaries &Summaries) {
  return findReachable(
      Functions, [&](const std::string &Key, std::vector<std::string> &Next) {
        auto It = Summaries.find(Key);
        if (It == Summaries.end() || It->second.Opaque ||
            llvm::is_contained(It->second.MemberNames, Member))
          return true;
        Next = It->second.Calls;
        return false;
      });
}

bool registersState(llvm::ArrayRef<std::string> Functions,
                    const ProjectSummaries &Summaries) {
  std::string Registering = findReachable(
      Functions, [&](const std::string &Key, std::vector<std::string> &Next) {
        auto It = Summaries.find(Key);
        if (It == Summaries.end())
          return false;
        if (It->second.Registers)
          return true;
        Next = It->second.Calls;
        return false;
      });
  return !Registering.empty();
}

ForwardReach forwardReach(const ProjectSummaries &Summaries) {
  // In the order of their names, so that every run names the same one.
  std::vector<std::string> Roots;
  for (const auto &Entry : Summaries)
    if (Entry.getValue().ForwardRoot)
      Roots.push_back(Entry.getKey().str());
  llvm::sort(Roots);
  ForwardReach Reached;
  for (const std::string &Root : Roots) {
    findReachable({Root},
                  [&](const std::string &Key, std::vector<std::string> &Next) {
                    // Another root's walk went on from here already.
                    if (!Reached.try_emplace(Key, Root).second && Key != Root)
                      return false;
                    auto It = Summaries.find(Key);
                    if (It != Summaries.end())
                      Next = It->second.Calls;
                    return false;
                  });
  }
  return Reached;
}

std::string forwardReaching(llvm::ArrayRef<std::string> Functions,
                            const ForwardReach &Reached) {
  for (const std::string &Key : Functions) {
    auto It = Reached.find(Key);
    if (It != Reached.end())
      return It->second;
  }
  return "";
}

std::string forwardName(llvm::StringRef Key) {
  // The parameter list starts at the first '(' after the name; an
  // operator() has its own.
  size_t Start = Key.find("operator()");
  Start = Start == llvm::StringRef::npos ? 0 : Start + 10;
  return Key.take_front(Key.find('(', Start)).str();
}

DeviceCallsByCallee indexDeviceCalls(const ProjectSummaries &Summaries) {
  DeviceCallsByCallee CallsOf;
  for (const auto &Entry : Summaries)
    for (const DeviceCall &D : Entry.getValue().DeviceCalls)
      CallsOf[D.Callee].push_back(&D);
  return CallsOf;
}

bool passedTensorMemory(const PendingData &Launcher,
                        const DeviceCallsByCallee &CallsOf) {
  auto It = CallsOf.find(Launcher.Function);
  if (It == CallsOf.end())
    return false;
  for (const DeviceCall *D : It->second) {
    bool Tensor = llvm::any_of(D->TensorArgs, [&](unsigned Param) {
      return llvm::is_contained(Launcher.Params, Param);
    });
    if (!Tensor)
      continue;
    // A guarded call, or one whose guard may be among what the compiler
    // could not make sense of (Unknown), claims nothing.
    if (!Launcher.Unguarded || D->State == DeviceCall::Unguarded ||
        (D->State == DeviceCall::Open &&
         calledWithoutGuard(D->OpenOn, CallsOf)))
      return true;
  }
  return false;
}

bool calledWithoutGuard(llvm::ArrayRef<std::string> Functions,
                        const DeviceCallsByCallee &CallsOf) {
  std::string Unguarded = findReachable(
      Functions, [&](const std::string &Key, std::vector<std::string> &Next) {
        auto It = CallsOf.find(Key);
        // Called from nowhere in the project: an entry point of a library,
        // which its users call with whatever device is current.
        if (It == CallsOf.end())
          return true;
        // A registered address whose type no code of the project calls
        // through a pointer: no call of it is seen there, and it claims
        // nothing (the function's other calls, or none, decide).
        auto unseen = [&](const DeviceCall *D) {
          return D->State == DeviceCall::Open && !D->OpenOn.empty() &&
                 llvm::all_of(D->OpenOn, [&](const std::string &On) {
                   return compat::startsWith(On, PointerCallPrefix) &&
                          !CallsOf.count(On);
                 });
        };
        if (llvm::all_of(It->second, unseen))
          return true;
        for (const DeviceCall *D : It->second) {
          if (unseen(D))
            continue;
          switch (D->State) {
          // A caller the compiler could not make sense of may hold a guard:
          // nothing is claimed on it.
          case DeviceCall::Guarded:
          case DeviceCall::Unknown:
            break;
          case DeviceCall::Unguarded:
            return true;
          case DeviceCall::Open:
            Next.insert(Next.end(), D->OpenOn.begin(), D->OpenOn.end());
            break;
          }
        }
        return false;
      });
  return !Unguarded.empty();
}

} // namespace tensorplace
