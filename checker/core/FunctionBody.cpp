//===- FunctionBody.cpp ---------------------------------------------------===//

#include "FunctionBody.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>
#include <tuple>

using namespace clang;

namespace tensorplace {

/// The assignment `Var = ...` that Use is the left-hand side of.
const Expr *assignmentTo(const DeclRefExpr *Use, const FunctionBody &Body) {
  const Stmt *Current = Use;
  const Stmt *Parent = Body.parentOf(Current);
  while (isa_and_nonnull<ParenExpr>(Parent)) {
    Current = Parent;
    Parent = Body.parentOf(Current);
  }
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent))
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(0) == Current)
      return Op;
  if (const auto *Op = dyn_cast_or_null<BinaryOperator>(Parent))
    if (Op->getOpcode() == BO_Assign && Op->getLHS() == Current)
      return Op;
  return nullptr;
}

namespace {
class FunctionCollector : public RecursiveASTVisitor<FunctionCollector> {
  using Base = RecursiveASTVisitor<FunctionCollector>;

public:
  FunctionCollector(ASTContext &Ctx,
                    llvm::function_ref<void(const FunctionDecl *)> Visit)
      : Filter(Ctx.getSourceManager()), Visit(Visit) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    // LibTorch and system headers are large and never reported on.
    if (D && !isa<TranslationUnitDecl>(D) &&
        !Filter.isUserCode(D->getLocation()))
      return true;
    return Base::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *F) {
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    if (F->doesThisDeclarationHaveABody() &&
        !(Method && Method->getParent()->isLambda()))
      Visit(F);
    return true;
  }

private:
  UserCodeFilter Filter;
  llvm::function_ref<void(const FunctionDecl *)> Visit;
};
} // namespace

void forEachUserFunction(ASTContext &Ctx,
                         llvm::function_ref<void(const FunctionDecl *)> Visit) {
  FunctionCollector(Ctx, Visit).TraverseDecl(Ctx.getTranslationUnitDecl());
}

FunctionBody::FunctionBody(const Expr *Root) { add(Root, nullptr); }

FunctionBody::~FunctionBody() = default;

FunctionBody::FunctionBody(const FunctionDecl *F) : Function(F) {
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getInit())
        add(Init->getInit(), nullptr);
  if (const Stmt *Body = F->getBody())
    add(Body, nullptr);
}

void FunctionBody::add(const Stmt *Root, const Stmt *RootParent) {
  // A stack of its own rather than recursion: a chain of 20000 binary
  // operators nests the AST 20000 deep and would overflow the call stack.
  llvm::SmallVector<std::tuple<const Stmt *, const Stmt *, unsigned>, 64>
      Pending;
  Pending.emplace_back(Root, RootParent, 0);
  while (!Pending.empty()) {
    const Stmt *S, *Parent;
    unsigned Level;
    std::tie(S, Parent, Level) = Pending.pop_back_val();
    Depth = std::max(Depth, Level);
    Order[S] = Stmts.size();
    Stmts.push_back(S);
    if (Parent)
      Parents[S] = Parent;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Uses[Var].push_back(Ref);
      else if (const auto *B = dyn_cast<BindingDecl>(Ref->getDecl()))
        BindingUses[B].push_back(Ref);
    }
    // Children in reverse, so that they come off the stack in source order.
    size_t First = Pending.size();
    for (const Stmt *Child : S->children())
      if (Child)
        Pending.emplace_back(Child, S, Level + 1);
    std::reverse(Pending.begin() + First, Pending.end());
  }
  // Children come after their parent: walking backwards, each statement's
  // subtree end is known before its parent needs it.
  for (size_t I = Stmts.size(); I-- > 0;) {
    // By value: inserting the parent's entry below may grow the map and
    // move this one.
    unsigned End = std::max<unsigned>(EndOrder.lookup(Stmts[I]), I);
    EndOrder[Stmts[I]] = End;
    if (const Stmt *Parent = Parents.lookup(Stmts[I])) {
      unsigned &ParentEnd = EndOrder[Parent];
      ParentEnd = std::max(ParentEnd, End);
    }
  }
}

llvm::ArrayRef<const DeclRefExpr *>
FunctionBody::usesOf(const VarDecl *V) const {
  auto It = Uses.find(V);
  if (It == Uses.end())
    return {};
  return It->second;
}

llvm::ArrayRef<const DeclRefExpr *>
FunctionBody::usesOf(const BindingDecl *B) const {
  auto It = BindingUses.find(B);
  if (It == BindingUses.end())
    return {};
  return It->second;
}

bool FunctionBody::isInLambda(const Stmt *S) const {
  for (const Stmt *P = parentOf(S); P; P = parentOf(P))
    if (isa<LambdaExpr>(P))
      return true;
  return false;
}

const VarDecl *FunctionBody::variableInitializedBy(const Expr *Top) const {
  const auto *DS = dyn_cast_or_null<DeclStmt>(parentOf(Top));
  if (!DS)
    return nullptr;
  for (const Decl *D : DS->decls())
    if (const auto *Var = dyn_cast<VarDecl>(D))
      if (Var->getInit() == Top && Var->hasLocalStorage())
        return Var;
  return nullptr;
}

bool FunctionBody::buildCfg() const {
  if (CfgBuilt)
    return Cfg != nullptr;
  CfgBuilt = true;
  // Clang builds the CFG recursively, a few frames per level of the AST: a
  // chain of thousands of operators would overflow the stack. No real
  // function nests that deep.
  if (!Function || !Function->getBody() || Depth > MaxCfgDepth)
    return false;
  CFG::BuildOptions Options;
  // Every expression an element of its own, so that a use and a definition
  // each have a place; constructor initializers before the body.
  Options.setAllAlwaysAdd();
  Options.AddInitializers = true;
  Cfg = CFG::buildCFG(Function, Function->getBody(), &Function->getASTContext(),
                      Options);
  if (!Cfg)
    return false;
  for (const CFGBlock *Block : *Cfg) {
    unsigned Index = 0;
    for (const CFGElement &Element : *Block) {
      if (auto S = Element.getAs<CFGStmt>())
        CfgPositions.try_emplace(S->getStmt(), Block, Index);
      ++Index;
    }
  }
  return true;
}

bool FunctionBody::neverRuns(const Stmt *S) const {
  if (!buildCfg())
    return false;
  // A statement the function's CFG does not hold (the body of a lambda,
  // such as AT_DISPATCH's) runs only if the nearest enclosing one it holds
  // does.
  auto At = CfgPositions.find(S);
  for (const Stmt *Up = parentOf(S); At == CfgPositions.end() && Up;
       Up = parentOf(Up))
    At = CfgPositions.find(Up);
  if (At == CfgPositions.end())
    return false;
  if (!Reachable) {
    Reachable = std::make_unique<llvm::DenseSet<const CFGBlock *>>();
    llvm::SmallVector<const CFGBlock *, 16> Work{&Cfg->getEntry()};
    Reachable->insert(&Cfg->getEntry());
    // Without exception edges nothing leads to a try's handlers: take
    // every handler as reachable.
    for (const CFGBlock *Block : *Cfg)
      if (isa_and_nonnull<CXXTryStmt>(Block->getTerminatorStmt()) &&
          Reachable->insert(Block).second)
        Work.push_back(Block);
    while (!Work.empty()) {
      const CFGBlock *Block = Work.pop_back_val();
      // A null successor is an edge the CFG pruned as impossible.
      for (const CFGBlock *Next : Block->succs())
        if (Next && Reachable->insert(Next).second)
          Work.push_back(Next);
    }
  }
  return !Reachable->count(At->second.first);
}

bool FunctionBody::reachingDefinitions(
    const VarDecl *Var, const DeclRefExpr *Use,
    llvm::ArrayRef<const Expr *> Assignments,
    llvm::SmallVectorImpl<const Expr *> &Defs, bool &Complete) const {
  if (!buildCfg())
    return false;
  auto At = CfgPositions.find(Use);
  if (At == CfgPositions.end())
    return false;
  // Where each definition is evaluated. The CFG gives each variable of a
  // declaration a DeclStmt of its own.
  auto DefinitionAt = [&](const CFGElement &Element) -> const Expr * {
    auto S = Element.getAs<CFGStmt>();
    if (!S)
      return nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(S->getStmt()))
      return DS->isSingleDecl() && DS->getSingleDecl() == Var ? Var->getInit()
                                                              : nullptr;
    for (const Expr *Assignment : Assignments)
      if (S->getStmt() == Assignment)
        return Assignment;
    return nullptr;
  };
  // Backwards from the use, each path up to the first definition on it.
  llvm::SmallPtrSet<const Expr *, 4> Found;
  llvm::DenseSet<const CFGBlock *> Entered;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work;
  Work.push_back(At->second);
  Complete = true;
  while (!Work.empty()) {
    auto [Block, End] = Work.pop_back_val();
    bool Defined = false;
    for (unsigned I = End; I-- > 0;)
      if (const Expr *Def = DefinitionAt((*Block)[I])) {
        if (Found.insert(Def).second)
          Defs.push_back(Def);
        Defined = true;
        break;
      }
    if (Defined)
      continue;
    bool AnyPredecessor = false;
    for (const CFGBlock::AdjacentBlock &Pred : Block->preds()) {
      const CFGBlock *P = Pred.getReachableBlock();
      if (!P)
        continue;
      AnyPredecessor = true;
      if (Entered.insert(P).second)
        Work.push_back({P, P->size()});
    }
    // The entry: a path on which Var was never given a value.
    if (!AnyPredecessor)
      Complete = false;
  }
  return true;
}

/// Nodes that pass a value on unchanged.
static bool isValuePlumbing(const Stmt *Parent) {
  if (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
      isa<MaterializeTemporaryExpr>(Parent) ||
      isa<CXXBindTemporaryExpr>(Parent) || isa<ExprWithCleanups>(Parent) ||
      isa<CXXFunctionalCastExpr>(Parent))
    return true;
  // A copy or move of the value (torch::Tensor y = x.cpu();).
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Parent)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    return Construct->getNumArgs() == 1 && Ctor &&
           Ctor->isCopyOrMoveConstructor();
  }
  return false;
}

const Stmt *valueUser(const Expr *E, const FunctionBody &Body,
                      const Expr *&Top) {
  const Stmt *Current = E;
  const Stmt *Parent = Body.parentOf(Current);
  while (Parent && isValuePlumbing(Parent)) {
    Current = Parent;
    Parent = Body.parentOf(Current);
  }
  Top = cast<Expr>(Current);
  return Parent;
}

const CallExpr *memberCallOn(const Stmt *User, const FunctionBody &Body) {
  if (!isa_and_nonnull<MemberExpr>(User) &&
      !isa_and_nonnull<CXXDependentScopeMemberExpr>(User) &&
      !isa_and_nonnull<UnresolvedMemberExpr>(User))
    return nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(Body.parentOf(User));
  if (!Call || Call->getCallee()->IgnoreParenImpCasts() != User)
    return nullptr;
  return Call;
}

/// Reads that happen on the host: the value, a pointer to the data, or
/// metadata that needs no device.
static bool isHostReadName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"item", "data_ptr", "const_data_ptr", "mutable_data_ptr",
             "accessor", "data", "numel", "size", "sizes", "dim", "ndimension",
             "scalar_type", "dtype", "defined", "toString"});
}

/// A reduction over every element with no argument written (t.mean(),
/// t.sum()): its 0-dimensional result takes part in elementwise operations
/// with tensors on any device like a number.
static bool isFullReduction(const CallExpr *Call) {
  return tensorplace::compat::isOneOf(calleeName(Call),
                                      {"mean", "sum", "prod", "max", "min",
                                       "norm", "std", "var", "all", "any"}) &&
         llvm::all_of(Call->arguments(), [](const Expr *Arg) {
           return isa<CXXDefaultArgExpr>(Arg);
         });
}

/// std::basic_ostream or a class derived from it.
static bool isOstream(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  for (unsigned Depth = 0; RD && Depth < 8; ++Depth) {
    if (RD->isInStdNamespace() && RD->getDeclName().isIdentifier() &&
        RD->getName() == "basic_ostream")
      return true;
    const CXXRecordDecl *Def = RD->getDefinition();
    if (!Def || Def->getNumBases() == 0)
      return false;
    RD = recordOf(Def->bases_begin()->getType());
  }
  return false;
}

bool isUnaryTensorStep(const CallExpr *Call) {
  if (!isTensorObject(memberCallObject(Call)) || !isTensorType(Call->getType()))
    return false;
  for (const Expr *Arg : Call->arguments())
    if (isTensorType(skipValuePlumbing(Arg)->getType()) ||
        Arg->getType()->isDependentType())
      return false;
  return true;
}

bool isOnlyReadOnHost(const Expr *E, const FunctionBody &Body, unsigned Depth) {
  if (Depth > 8)
    return false;
  const Expr *Top = nullptr;
  const Stmt *User = valueUser(E, Body, Top);
  if (const CallExpr *Call = memberCallOn(User, Body)) {
    llvm::StringRef Name = calleeName(Call);
    if (isHostReadName(Name))
      return true;
    // argmax(), contiguous(), flatten(): still on the host.
    return isUnaryTensorStep(Call) && isOnlyReadOnHost(Call, Body, Depth + 1);
  }
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User))
    return Op->getOperator() == OO_LessLess && Op->getNumArgs() == 2 &&
           Op->getArg(1) == Top && isOstream(Op->getArg(0)->getType());
  if (const VarDecl *Var = Body.variableInitializedBy(Top)) {
    if (Var->isStaticLocal())
      return false;
    for (const DeclRefExpr *Use : Body.usesOf(Var))
      if (!isOnlyReadOnHost(Use, Body, Depth + 1))
        return false;
    return true;
  }
  return false;
}

/// Element access through host memory: an accessor or a raw pointer to the
/// data, which a CUDA tensor refuses or does not give to the host.
static bool isHostElementAccessName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name,
      {"accessor", "data_ptr", "const_data_ptr", "mutable_data_ptr", "data"});
}

bool isElementAccessedOnHost(const Expr *E, const FunctionBody &Body,
                             unsigned Depth) {
  if (Depth > 8)
    return false;
  const Expr *Top = nullptr;
  const Stmt *User = valueUser(E, Body, Top);
  if (const CallExpr *Call = memberCallOn(User, Body))
    return isHostElementAccessName(calleeName(Call)) ||
           (isUnaryTensorStep(Call) &&
            isElementAccessedOnHost(Call, Body, Depth + 1));
  const VarDecl *Var = Body.variableInitializedBy(Top);
  // t = torch::zeros(...): the local it is assigned to.
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(User))
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(1) == Top)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasLocalStorage())
    return false;
  for (const DeclRefExpr *Use : Body.usesOf(Var))
    if (isElementAccessedOnHost(Use, Body, Depth + 1))
      return true;
  return false;
}

/// Functions of LibTorch and the standard library: they keep no reference to
/// their arguments and compute on the device their tensors are on.
bool isLibraryFunction(const FunctionDecl *F) {
  if (!F)
    return false;
  if (F->isInStdNamespace())
    return true;
  const DeclContext *DC = F->getDeclContext();
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
    DC = Method->getParent()->getDeclContext();
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getParent()->getRedeclContext()->isTranslationUnit())
        return tensorplace::compat::isOneOf(NS->getName(),
                                            {"std", "torch", "at", "c10"});
  return false;
}

namespace {

/// A variable of the function that holds its own value: a local, or a
/// parameter taken by value (assigning it rebinds the function's copy, not
/// the caller's), not a reference.
bool isLocalValueVar(const VarDecl *Var) {
  return Var && Var->hasLocalStorage() && !isa<DecompositionDecl>(Var) &&
         !Var->getType()->isReferenceType();
}

const Expr *assignedValue(const Expr *Assignment) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Assignment))
    return Op->getArg(1);
  return cast<BinaryOperator>(Assignment)->getRHS();
}

/// The class of a module that may own parameters or buffers: a built-in
/// that is not a stateless one (containers hold what is put in them), or a
/// user class with a tensor or module member, itself or in a base.
static bool mayOwnState(const CXXRecordDecl *Impl, unsigned Depth = 0) {
  Impl = Impl ? Impl->getDefinition() : nullptr;
  if (!Impl || Depth > 8 || isFrontendModuleBase(Impl))
    return false;
  if (isLibTorchModuleClass(Impl))
    return !isStatelessBuiltinModule(Impl);
  for (const FieldDecl *Field : Impl->fields())
    if (isStateMemberType(Field->getType()))
      return true;
  for (const CXXBaseSpecifier &Base : Impl->bases())
    if (mayOwnState(recordOf(Base.getType()), Depth + 1))
      return true;
  return false;
}

/// Call runs a module that may own state on its arguments: net(x) through
/// the module's holder, or net->forward(x). The module's parameters are on
/// the device it was moved to. Returns the module expression.
static const Expr *moduleRun(const CallExpr *Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return nullptr;
    const Expr *Object = Op->getArg(0)->IgnoreParenImpCasts();
    const CXXRecordDecl *Held =
        heldModuleClass(Object->getType().getNonReferenceType());
    return Held && mayOwnState(Held) ? Object : nullptr;
  }
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || !Method->getDeclName().isIdentifier() ||
      Method->getName() != "forward" || !isModuleClass(Method->getParent()) ||
      !mayOwnState(Method->getParent()))
    return nullptr;
  const Expr *Object = Member->getImplicitObjectArgument();
  if (!Object || Object->isImplicitCXXThis())
    return nullptr;
  return Object->IgnoreParenImpCasts();
}

class HostValueFlow {
public:
  HostValueFlow(const FunctionBody &Body, const HostValueModel &Model)
      : Body(Body), Model(Model) {}

  /// Where the value met device data, once meetsDevice() returned true.
  DeviceMeeting Meeting;

  /// How many steps a value is followed before it counts as meeting device
  /// data somewhere unknown, and how deep an operand is taken apart before
  /// it counts as possibly on the device: a host copy filtered round a
  /// loop and through a helper's body (an IoU of boxes in a host-side NMS)
  /// takes two dozen. A fresh count starts for each operand asked about.
  static constexpr unsigned MaxFlowSteps = 32;

  bool meetsDevice(const Expr *E, unsigned Depth) {
    if (Depth > MaxFlowSteps)
      return unknown(nullptr);
    const Expr *Top = nullptr;
    const Stmt *User = valueUser(E, Body, Top);
    if (!User)
      return false; // Dropped.
    if (Depth == 0 && Model.StartElement) {
      if (std::optional<unsigned> Taken = elementTaken(User)) {
        if (*Taken != *Model.StartElement)
          return false; // Another element is kept; this one is dropped.
        return meetsDevice(cast<Expr>(User), Depth + 1);
      }
      // Kept in a local whose every use takes one element (`auto r =
      // stage->forward(x); r[0] ... r[1]`): only this element's reads.
      if (const VarDecl *Var = Body.variableInitializedBy(Top);
          Var && isLocalValueVar(Var) && !Body.usesOf(Var).empty()) {
        llvm::SmallVector<const Expr *, 4> Reads;
        bool EveryUseTakesOne = true;
        for (const DeclRefExpr *Use : Body.usesOf(Var)) {
          const Stmt *Parent = userOfVariable(Use);
          std::optional<unsigned> Taken =
              Parent ? elementTaken(Parent) : std::nullopt;
          if (!Taken) {
            EveryUseTakesOne = false;
            break;
          }
          if (*Taken == *Model.StartElement)
            Reads.push_back(cast<Expr>(Parent));
        }
        if (EveryUseTakesOne) {
          for (const Expr *Read : Reads)
            if (meetsDevice(Read, Depth + 1))
              return true;
          return false;
        }
      }
    }
    if (const auto *UserExpr = dyn_cast<Expr>(User))
      if (UserExpr->containsErrors())
        return false;
    if (const CallExpr *Call = memberCallOn(User, Body)) {
      // copy_() copies across devices; its result is the tensor itself.
      if (Model.IsMove(Call) || isHostReadName(calleeName(Call)) ||
          calleeName(Call) == "copy_" || isFullReduction(Call))
        return false;
      for (const Expr *Arg : Call->arguments())
        if (isDeviceOperand(Arg, Depth + 1))
          return met(Kind::Operand, Call, Arg);
      return isTensorLikeType(Call->getType().getNonReferenceType()) &&
             meetsDevice(Call, Depth + 1);
    }
    if (isa<ReturnStmt>(User))
      return returned(User);
    if (const VarDecl *Var = Body.variableInitializedBy(Top))
      return !isLocalValueVar(Var) ? stored(User)
                                   : followDefinition(Var, Top, Depth + 1);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Top))
      if (assignmentTo(Ref, Body))
        return false; // Overwritten.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(User))
      if (Op->getOperator() == OO_LessLess && Op->getNumArgs() == 2 &&
          Op->getArg(1) == Top && !isTensorLikeType(Op->getType()))
        return false; // Printed.
    // An assignment of the value to a local.
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(User))
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
          Op->getArg(1) == Top) {
        // Assigned into a view or an element (t.select(1, 0) = v, t[0] = v):
        // the rvalue operator= copies, and a copy works across devices.
        if (const auto *Assign =
                dyn_cast_or_null<CXXMethodDecl>(Op->getCalleeDecl()))
          if (Assign->getRefQualifier() == RQ_RValue)
            return false;
        const Expr *Target = Op->getArg(0)->IgnoreParenImpCasts();
        // A field of a local aggregate (data.inputs = ...): a local too.
        if (const auto *Field = dyn_cast<MemberExpr>(Target))
          if (const VarDecl *Whole = localAggregateOf(Field))
            return followField(Whole, Field, Op, Depth + 1);
        const auto *Ref = dyn_cast<DeclRefExpr>(Target);
        const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        // `auto [det, mask] = f(x); det = det.cpu();`: an element of a local
        // object.
        if (const auto *Binding =
                Ref ? dyn_cast<BindingDecl>(Ref->getDecl()) : nullptr)
          if (isLocalValueBinding(Binding))
            return followBinding(Binding, Op, Depth + 1);
        return !isLocalValueVar(Var) ? stored(Op, Op->getArg(0))
                                     : followDefinition(Var, Op, Depth + 1);
      }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(User))
      return Cond->getCond() != Top && meetsDevice(Cond, Depth + 1);
    // An operand of an operation, possibly inside a list of tensors
    // (torch::cat({a, b})): every other tensor taking part must be a host
    // value too.
    const Stmt *Current = Top;
    const Stmt *Parent = User;
    auto IsListPlumbing = [](const Stmt *P) {
      return P &&
             (isa<InitListExpr>(P) || isa<CXXStdInitializerListExpr>(P) ||
              makesTuple(P) || isa<MaterializeTemporaryExpr>(P) ||
              isa<ImplicitCastExpr>(P) || isa<CXXBindTemporaryExpr>(P) ||
              // Boxes{b}: an aggregate of the list's elements.
              (isa<CXXFunctionalCastExpr>(P) &&
               isa<InitListExpr>(cast<CXXFunctionalCastExpr>(P)
                                     ->getSubExpr()
                                     ->IgnoreImplicit()) &&
               !isTensorType(cast<Expr>(P)->getType())) ||
              (isa<CXXConstructExpr>(P) && !isa<CXXTemporaryObjectExpr>(P) &&
               !isTensorType(cast<Expr>(P)->getType())));
    };
    // Where the list goes: only a list handed to an operation makes its
    // elements operands of one another. Put together in a returned or
    // stored pair (return {probs, torch::zeros(n)};), they stay apart.
    const Stmt *ListUser = Parent;
    while (IsListPlumbing(ListUser))
      ListUser = Body.parentOf(ListUser);
    const bool ListIsOperand = isa_and_nonnull<CallExpr>(ListUser);
    // Which element of the returned pair or aggregate the value is, when
    // it is in one list only.
    std::optional<unsigned> Element;
    unsigned Lists = 0;
    while (IsListPlumbing(Parent)) {
      // A std::vector built from the list is the list, not a pair of it.
      const bool FromList =
          isa<CXXConstructExpr>(Parent) &&
          isa<CXXStdInitializerListExpr>(cast<Expr>(Current)->IgnoreImplicit());
      if ((isa<InitListExpr>(Parent) || isa<CXXConstructExpr>(Parent) ||
           makesTuple(Parent)) &&
          !FromList) {
        if (std::optional<unsigned> Index = elementIndex(Parent, Current)) {
          ++Lists;
          Element = Index;
        }
      }
      if (ListIsOperand)
        for (const Stmt *Sibling : Parent->children())
          if (Sibling != Current && isa_and_nonnull<Expr>(Sibling) &&
              isDeviceOperand(cast<Expr>(Sibling), Depth + 1))
            return met(Kind::Operand, Parent, cast<Expr>(Sibling));
      Current = Parent;
      Parent = Body.parentOf(Current);
    }
    // return {a, b};: the whole list is returned. std::vector<Tensor> v =
    // {a, b};: the list is followed through the local.
    while (isa_and_nonnull<ExprWithCleanups>(Parent) ||
           isa_and_nonnull<ParenExpr>(Parent)) {
      Current = Parent;
      Parent = Body.parentOf(Parent);
    }
    if (isa_and_nonnull<ReturnStmt>(Parent))
      return returned(Parent, Lists == 1 ? Element : std::nullopt);
    if (isa_and_nonnull<DeclStmt>(Parent) && Current != Top)
      if (const VarDecl *Var = Body.variableInitializedBy(cast<Expr>(Current)))
        return !isLocalValueVar(Var)
                   ? stored(Parent)
                   : followDefinition(Var, cast<Expr>(Current), Depth + 1);
    // The result of an expression statement (t.add_(1);, t[0] = v;) is
    // dropped; the tensor itself flows on through its other uses.
    if (Parent && !isa<Expr>(Parent) && !isa<DeclStmt>(Parent))
      return false;
    // Part of an expression Clang recovered from an error (the object of a
    // member call no overload matched): no finding rests on it.
    for (const Stmt *Up = Parent; isa_and_nonnull<Expr>(Up);
         Up = Body.parentOf(Up))
      if (cast<Expr>(Up)->containsErrors())
        return false;
    const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
    if (!Call)
      return unknown(Parent); // Somewhere the flow does not follow.
    // An index of advanced indexing (x.index({i}), x.index_put_({i}, v)):
    // index tensors may be on the CPU whatever x's device, and are copied
    // over (PyTorch's check_indices_on_cpu_or_selfdevice).
    if (Call->getNumArgs() > 0 && Call->getArg(0) == Current &&
        isTensorObject(memberCallObject(Call)) &&
        tensorplace::compat::isOneOf(calleeName(Call), {"index", "index_put_"}))
      return false;
    // The lengths of pack_padded_sequence(input, lengths, ...): a CPU int64
    // tensor whatever input's device (at::_pack_padded_sequence requires it).
    if (Call->getNumArgs() > 1 && Call->getArg(1) == Current &&
        isLibraryFunction(Call->getDirectCallee()) &&
        tensorplace::compat::isOneOf(
            calleeName(Call),
            {"pack_padded_sequence", "_pack_padded_sequence"}))
      return false;
    // Copied into a tensor, or a view or element of it assigned a value
    // (dst.copy_(t), t[i] = v, t.select(1, 0) = v): a copy works across
    // devices, and the tensor written to is followed through its own uses.
    if (calleeName(Call) == "copy_")
      return false;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        if (const auto *Assign =
                dyn_cast_or_null<CXXMethodDecl>(Op->getCalleeDecl()))
          if (Assign->getRefQualifier() == RQ_RValue)
            return false;
    // Run through a module that may own parameters: they are on the
    // module's device.
    if (const Expr *Module = moduleRun(Call))
      if (Module != Current)
        return met(Kind::Operand, Call, Module);
    // Put into a container (v.push_back(t)): a local one carries the value
    // on to its later reads.
    if (const Expr *Object = memberCallObject(Call))
      if (Object != Current && isElementInsertName(calleeName(Call)) &&
          isTensorLikeType(Object->getType().getNonReferenceType()))
        return intoLocalContainer(Object, Call, Depth + 1);
    if (!isa<CXXOperatorCallExpr>(Call) &&
        !isLibraryFunction(Call->getDirectCallee())) {
      // The project's own function may keep it or mix it: followed into its
      // body where this translation unit has it.
      return meetsDeviceInCallee(Call, Current, Depth + 1)
                 ? met(Kind::Passed, Call)
                 : false;
    }
    // The tensor a method is called on first: x.masked_fill(mask, v) is
    // where mask meets x.
    if (const Expr *Object = memberCallObject(Call))
      if (Object != Current && isDeviceOperand(Object, Depth + 1))
        return met(Kind::Operand, Call, Object);
    for (const Expr *Arg : Call->arguments())
      if (Arg != Current && isDeviceOperand(Arg, Depth + 1))
        return met(Kind::Operand, Call, Arg);
    if (isTensorLikeType(Call->getType().getNonReferenceType()))
      return meetsDevice(Call, Depth + 1);
    return false; // A host result: a number, a bool, a string.
  }

  /// An operand that may carry the module's device into the operation:
  /// anything not a host value, or with KnownDeviceOnly, only data known
  /// to be there.
  bool isDeviceOperand(const Expr *E, unsigned Depth) {
    return Model.KnownDeviceOnly ? isKnownDevice(E, Depth) : !isHostLocal(E, 0);
  }

  /// E is data known to be on the module's device: a layer's output, a
  /// tensor member of a module, a tensor moved to a device, or the result
  /// of an operation on such data.
  bool isKnownDevice(const Expr *E, unsigned Depth) {
    if (!E || Depth > 16 || E->containsErrors())
      return false;
    E = skipValuePlumbing(E);
    if (!isTensorLikeType(E->getType().getNonReferenceType()) ||
        Model.IsHostSource(E))
      return false;
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      return Field &&
             isModuleClass(dyn_cast<CXXRecordDecl>(Field->getParent()));
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      // A parameter counts from where the function assigns it.
      if (!isLocalValueVar(Var))
        return false;
      bool Complete = false;
      return llvm::any_of(reachingDefinitions(Var, Ref, Complete),
                          [&](const Definition &D) {
                            return isKnownDevice(D.Value, Depth + 1);
                          });
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
      return isKnownDevice(Cond->getTrueExpr(), Depth + 1) ||
             isKnownDevice(Cond->getFalseExpr(), Depth + 1);
    if (isa<InitListExpr>(E) || isa<CXXStdInitializerListExpr>(E) ||
        (isa<CXXConstructExpr>(E) && !isa<CXXTemporaryObjectExpr>(E)))
      return llvm::any_of(E->children(), [&](const Stmt *Child) {
        return isa_and_nonnull<Expr>(Child) &&
               isKnownDevice(cast<Expr>(Child), Depth + 1);
      });
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call)
      return false;
    if (moduleRun(Call))
      return true;
    if (const Expr *Object = memberCallObject(Call)) {
      if (!isTensorObject(Object))
        return false;
      if (Model.IsMove(Call) || isKnownDevice(Object, Depth + 1))
        return true;
    } else if (!isa<CXXOperatorCallExpr>(Call) &&
               !isLibraryFunction(Call->getDirectCallee())) {
      return false;
    }
    return llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return isKnownDevice(Arg, Depth + 1);
    });
  }

  bool isHostLocal(const Expr *E, unsigned Depth) {
    if (!E || Depth > MaxFlowSteps)
      return false;
    if (E->containsErrors())
      return true; // No finding rests on what Clang recovered.
    E = skipValuePlumbing(E);
    QualType T = E->getType().getNonReferenceType();
    if (!isTensorLikeType(T) && !isa<InitListExpr>(E) &&
        !isa<CXXStdInitializerListExpr>(E))
      return !T->isDependentType();
    if (Model.IsHostSource(E))
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!isLocalValueVar(Var))
        return false;
      bool Complete = false;
      llvm::SmallVector<Definition, 2> Reaching =
          reachingDefinitions(Var, Ref, Complete);
      // A definition that reaches itself round a loop (`rows =
      // rows.index_select(0, keep)`) adds no data of its own: it is host
      // data when everything else it is made of is.
      return Complete &&
             llvm::all_of(Reaching,
                          [&](const Definition &D) {
                            if (!HostInProgress.insert(D.Value).second)
                              return true;
                            bool Host = isHostLocal(D.Value, Depth + 1);
                            HostInProgress.erase(D.Value);
                            return Host;
                          }) &&
             (isTensorType(T) || insertsAreHost(Var, Depth + 1));
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
      return isHostLocal(Cond->getTrueExpr(), Depth + 1) &&
             isHostLocal(Cond->getFalseExpr(), Depth + 1);
    if (isa<InitListExpr>(E) || isa<CXXStdInitializerListExpr>(E) ||
        (isa<CXXConstructExpr>(E) && !isa<CXXTemporaryObjectExpr>(E))) {
      for (const Stmt *Child : E->children())
        if (isa_and_nonnull<Expr>(Child) &&
            !isHostLocal(cast<Expr>(Child), Depth + 1))
          return false;
      return true;
    }
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || moduleRun(Call))
      return false; // A module's output is on the module's device.
    if (const Expr *Object = memberCallObject(Call)) {
      // An element of a container of host tensors (v.at(i), v.front()).
      if (!isTensorObject(Object) &&
          tensorplace::compat::isOneOf(calleeName(Call),
                                       {"at", "front", "back"}) &&
          isTensorLikeType(Object->getType().getNonReferenceType()))
        return isHostLocal(Object, Depth + 1);
      if (!isTensorObject(Object) || Model.IsMove(Call) ||
          !isHostLocal(Object, Depth + 1))
        return false;
    } else if (!isa<CXXOperatorCallExpr>(Call) &&
               !isLibraryFunction(Call->getDirectCallee())) {
      return returnsHostData(Call, Depth + 1);
    }
    for (const Expr *Arg : Call->arguments())
      if (!isHostLocal(Arg, Depth + 1))
        return false;
    return true;
  }

  /// Call, of the project's free function or static method whose body this
  /// translation unit has, is given host data only, and everything the
  /// body returns is made of its parameters and host values: `ious =
  /// iou(rows[0], rows.slice(0, 1))` on a host copy is host data.
  bool returnsHostData(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    const FunctionDecl *Definition = nullptr;
    if (!Callee || Depth > MaxFlowSteps || (Method && !Method->isStatic()) ||
        !Callee->hasBody(Definition) || !Definition ||
        Definition->isDependentContext() ||
        Definition->getNumParams() != Call->getNumArgs())
      return false;
    for (const Expr *Arg : Call->arguments())
      if (!isHostLocal(Arg, Depth))
        return false;
    FunctionBody CalleeBody(Definition);
    llvm::SmallPtrSet<const ParmVarDecl *, 4> Params;
    for (const ParmVarDecl *Param : Definition->parameters()) {
      // A parameter the body assigns, or takes by non-const reference,
      // may hold other data by the return.
      if (Param->getType()->isReferenceType() &&
          !Param->getType().getNonReferenceType().isConstQualified())
        return false;
      if (isParameterAssigned(Param, CalleeBody))
        return false;
      Params.insert(Param);
    }
    auto IsHostSource = [&](const Expr *E) {
      return Model.IsHostSource(E) || namesParameter(E, Params);
    };
    HostValueModel CalleeModel = Model;
    CalleeModel.IsHostSource = IsHostSource;
    HostValueFlow CalleeFlow(CalleeBody, CalleeModel);
    bool Returns = false;
    for (const Stmt *S : CalleeBody.statements())
      if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
        if (CalleeBody.isInLambda(Return))
          continue;
        if (!Return->getRetValue() ||
            !CalleeFlow.isHostLocal(Return->getRetValue(), Depth + 1))
          return false;
        Returns = true;
      }
    return Returns;
  }

private:
  using Kind = DeviceMeeting::Kind;

  /// Arg, an argument of Call, followed through the uses of its parameter in
  /// the callee's body, and where the callee returns it, on through the
  /// call's own uses here. A callee whose body is elsewhere and that returns
  /// a tensor may combine the value with its other arguments and hand the
  /// result back; one taking it through a variadic or unnamed parameter is
  /// not followed: both count as meeting device data. A callee whose body is
  /// elsewhere and that returns no tensor is not known to meet it.
  bool meetsDeviceInCallee(const CallExpr *Call, const Stmt *Arg,
                           unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    QualType Returns = Callee->getReturnType();
    const bool ReturnsTensor =
        isTensorLikeType(Returns.getNonReferenceType()) ||
        Returns->isDependentType();
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition ||
        Definition->isDependentContext()) {
      if (!ReturnsTensor || Model.KnownDeviceOnly)
        return false;
      // A method may combine it with what its object holds, unless the
      // object is a helper made right there from nothing
      // (`ToolsGW().toRGBTensor(s.cpu())`).
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      if (Method && !Method->isStatic() && !isFreshHelperObject(Call))
        return true;
      // A free function given no device data besides (`to_rgb(s.cpu())`)
      // computes on the host, as an operation of LibTorch would: its
      // result is followed on here (`.to(s.device())` moves it back).
      for (const Expr *Other : Call->arguments())
        if (Other != Arg && isDeviceOperand(Other, Depth + 1))
          return true;
      return meetsDevice(Call, Depth + 1);
    }
    if (Depth > MaxFlowSteps)
      return !Model.KnownDeviceOnly;
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Arg)
      ++Index;
    if (Index == Call->getNumArgs() || Index >= Definition->getNumParams())
      return !Model.KnownDeviceOnly;
    const ParmVarDecl *Param = Definition->getParamDecl(Index);
    if (!Param->getDeclName())
      return !Model.KnownDeviceOnly;
    FunctionBody CalleeBody(Definition);
    // A return there hands the value back to this call, which is followed
    // on from here. A callee that gives back no tensor returns it only
    // converted to something else, which counts as meeting device data.
    auto BackHere = [&] { return meetsDevice(Call, Depth + 1); };
    HostValueModel CalleeModel = Model;
    CalleeModel.Returned = nullptr;
    if (ReturnsTensor)
      CalleeModel.Returned = BackHere;
    // The callee's parameters given host data at this call (the value
    // followed, and others), and never assigned there, are host data:
    // `iou(rows[i], rows.slice(0, 0, i))` on one host copy combines it only
    // with itself, also through views of either (`box1.select(1, 2) -
    // box1.select(1, 0)`).
    llvm::SmallPtrSet<const ParmVarDecl *, 4> HostParams;
    for (unsigned I = 0;
         I < Call->getNumArgs() && I < Definition->getNumParams(); ++I) {
      const ParmVarDecl *Other = Definition->getParamDecl(I);
      if ((Other == Param || isHostLocal(Call->getArg(I), 0)) &&
          !isParameterAssigned(Other, CalleeBody))
        HostParams.insert(Other);
    }
    auto IsHostSource = [&](const Expr *E) {
      return Model.IsHostSource(E) || namesParameter(E, HostParams);
    };
    if (!HostParams.empty())
      CalleeModel.IsHostSource = IsHostSource;
    for (const DeclRefExpr *Use : CalleeBody.usesOf(Param)) {
      HostValueFlow Flow(CalleeBody, CalleeModel);
      if (Flow.meetsDevice(Use, Depth))
        return true;
    }
    return false;
  }

  /// The object of the member call Call is a temporary of a class that is
  /// not a module, constructed there with no arguments: it holds nothing
  /// but what its class gives every object.
  static bool isFreshHelperObject(const CallExpr *Call) {
    const Expr *Object = memberCallObject(Call);
    if (!Object)
      return false;
    Object = skipValuePlumbing(Object)->IgnoreParenImpCasts();
    const auto *Construct = dyn_cast<CXXConstructExpr>(Object);
    if (!Construct || Construct->getNumArgs() != 0)
      return false;
    const CXXRecordDecl *Class = recordOf(Construct->getType());
    return Class && !isModuleClass(Class);
  }

  /// The local value variable whose field Field names (data.inputs), if
  /// it is one.
  static const VarDecl *localAggregateOf(const MemberExpr *Field) {
    if (Field->isArrow() || !isa<FieldDecl>(Field->getMemberDecl()))
      return nullptr;
    const auto *Base =
        dyn_cast<DeclRefExpr>(Field->getBase()->IgnoreParenImpCasts());
    const auto *Var = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    return isLocalValueVar(Var) ? Var : nullptr;
  }

  /// The value was assigned to Field of the local aggregate Whole by
  /// Assign: followed through the reads of that field after it, and
  /// through uses of the whole aggregate (passed on, returned).
  bool followField(const VarDecl *Whole, const MemberExpr *Field,
                   const Expr *Assign, unsigned Depth) {
    if (!Visited.insert(Assign).second)
      return false;
    for (const DeclRefExpr *Use : Body.usesOf(Whole)) {
      if (Body.orderOf(Use) <= Body.orderOf(Assign))
        continue;
      const Stmt *Parent = userOfVariable(Use);
      if (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent)) {
        // Another field, or this one written again.
        if (Member->getMemberDecl() != Field->getMemberDecl())
          continue;
        const Stmt *Above = Body.parentOf(Member);
        if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Above))
          if (Op->getOperator() == OO_Equal && Op->getArg(0) == Member)
            continue;
        if (meetsDevice(Member, Depth))
          return true;
        continue;
      }
      if (!assignmentTo(Use, Body) && meetsDevice(Use, Depth))
        return true;
    }
    return false;
  }

  /// What uses the variable Use names, above parentheses and implicit
  /// conversions (the member access of `v.push_back`, the `r[1]`).
  const Stmt *userOfVariable(const DeclRefExpr *Use) const {
    const Stmt *Parent = Body.parentOf(Use);
    while (isa_and_nonnull<ParenExpr>(Parent) ||
           isa_and_nonnull<ImplicitCastExpr>(Parent))
      Parent = Body.parentOf(Parent);
    return Parent;
  }

  /// The element insert (v.push_back(...)) whose container Use names.
  const CallExpr *insertInto(const DeclRefExpr *Use) const {
    const Stmt *Parent = userOfVariable(Use);
    if (!isa_and_nonnull<MemberExpr>(Parent))
      return nullptr;
    const auto *Call =
        dyn_cast_or_null<CXXMemberCallExpr>(Body.parentOf(Parent));
    return Call && isElementInsertName(calleeName(Call)) ? Call : nullptr;
  }

  /// Every tensor put into the local container Var is a host value.
  bool insertsAreHost(const VarDecl *Var, unsigned Depth) {
    for (const DeclRefExpr *Use : Body.usesOf(Var))
      if (const CallExpr *Insert = insertInto(Use))
        for (const Expr *Arg : Insert->arguments())
          if (!isHostLocal(Arg, Depth))
            return false;
    return true;
  }

  /// The value was put into a container by Insert. A local container is
  /// followed through its reads after Insert; a member's, or one the
  /// caller passed, keeps it as it does today's tensors: not followed.
  bool intoLocalContainer(const Expr *Object, const CallExpr *Insert,
                          unsigned Depth) {
    const auto *Ref = dyn_cast<DeclRefExpr>(skipValuePlumbing(Object));
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!isLocalValueVar(Var) || !Visited.insert(Insert).second)
      return false;
    for (const DeclRefExpr *Use : Body.usesOf(Var)) {
      if (Body.orderOf(Use) <= Body.orderOf(Insert) ||
          assignmentTo(Use, Body) || insertInto(Use))
        continue;
      if (meetsDevice(Use, Depth))
        return true;
    }
    return false;
  }

  /// The value is stored where the flow does not follow it (a member, a
  /// reference, a structured binding): that counts as meeting device data,
  /// unless only known device data counts.
  bool stored(const Stmt *At, const Expr *Where = nullptr) {
    return !Model.KnownDeviceOnly && met(Kind::Stored, At, Where);
  }

  /// The flow reaches somewhere it does not follow: that counts as meeting
  /// device data, unless only known device data counts.
  bool unknown(const Stmt *At) {
    return !Model.KnownDeviceOnly && met(Kind::Unknown, At);
  }

  /// Records the first place the value meets device data; true propagates
  /// straight up, so the first is the one that decided.
  bool met(Kind How, const Stmt *At, const Expr *Other = nullptr) {
    if (!Decided) {
      Meeting = {How, At, Other};
      Decided = true;
    }
    return true;
  }

  /// A return from a lambda leaves the lambda, not the function.
  bool returned(const Stmt *Return,
                std::optional<unsigned> Element = std::nullopt) {
    if (Body.isInLambda(Return))
      return met(Kind::Returned, Return);
    if (Element && Model.ReturnedElement) {
      if (Model.ReturnedElement(*Element))
        return met(Kind::Returned, Return);
      return false;
    }
    if (!Model.Returned || Model.Returned())
      return met(Kind::Returned, Return);
    return false;
  }

  /// User takes one element of a pair, tuple or aggregate: `r.first`,
  /// `r.second`, `r.field`, `std::get<1>(r)`. Its index.
  static std::optional<unsigned> elementTaken(const Stmt *User) {
    if (const auto *Member = dyn_cast<MemberExpr>(User))
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
        return Field->getFieldIndex();
    // r[1] of a returned std::vector or std::array of tensors.
    if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(User))
      if (Subscript->getOperator() == OO_Subscript &&
          Subscript->getNumArgs() == 2 &&
          !isTensorType(Subscript->getArg(0)->getType()) &&
          isTensorLikeType(
              Subscript->getArg(0)->getType().getNonReferenceType()))
        if (const auto *Index = dyn_cast<IntegerLiteral>(
                Subscript->getArg(1)->IgnoreParenImpCasts()))
          return static_cast<unsigned>(Index->getValue().getZExtValue());
    const auto *Call = dyn_cast<CallExpr>(User);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->isInStdNamespace() || Call->getNumArgs() != 1 ||
        !Callee->getDeclName().isIdentifier() || Callee->getName() != "get")
      return std::nullopt;
    if (const TemplateArgumentList *Args =
            Callee->getTemplateSpecializationArgs())
      if (Args->size() >= 1 &&
          Args->get(0).getKind() == TemplateArgument::Integral)
        return static_cast<unsigned>(
            Args->get(0).getAsIntegral().getZExtValue());
    return std::nullopt;
  }

  /// std::make_pair(a, b), std::make_tuple(a, b, c): a pair or tuple of
  /// its arguments, like `{a, b}`.
  static bool makesTuple(const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    return Callee && Callee->isInStdNamespace() &&
           Callee->getDeclName().isIdentifier() &&
           tensorplace::compat::isOneOf(Callee->getName(),
                                        {"make_pair", "make_tuple"});
  }

  /// Current is element i of the list or construction List (`{a, b}`,
  /// `std::pair<Tensor, Tensor>(a, b)`, `std::make_pair(a, b)`).
  static std::optional<unsigned> elementIndex(const Stmt *List,
                                              const Stmt *Current) {
    if (const auto *Call = dyn_cast<CallExpr>(List)) {
      for (unsigned I = 0; I < Call->getNumArgs(); ++I)
        if (Call->getArg(I) == Current)
          return I;
    } else if (const auto *Init = dyn_cast<InitListExpr>(List)) {
      for (unsigned I = 0; I < Init->getNumInits(); ++I)
        if (Init->getInit(I) == Current)
          return I;
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(List)) {
      for (unsigned I = 0; I < Construct->getNumArgs(); ++I)
        if (Construct->getArg(I) == Current)
          return I;
    }
    return std::nullopt;
  }

  /// A definition of a local: its initializer or an assignment to it
  /// (Def), and the value it stores.
  struct Definition {
    const Expr *Def = nullptr;
    const Expr *Value = nullptr;
  };

  /// S is inside Outer (or is Outer).
  bool contains(const Stmt *Outer, const Stmt *S) const {
    unsigned At = Body.orderOf(S);
    return Body.orderOf(Outer) <= At && At <= Body.endOrderOf(Outer);
  }

  /// Whenever Use runs, Def has run before it: no branch, loop, lambda or
  /// short-circuit between them that Def is in and Use is not.
  bool alwaysRunsBefore(const Stmt *Def, const Stmt *Use) const {
    for (const Stmt *Child = Def, *Parent = Body.parentOf(Def); Parent;
         Child = Parent, Parent = Body.parentOf(Parent)) {
      if (const auto *If = dyn_cast<IfStmt>(Parent))
        if (Child == If->getCond())
          continue;
      const auto *Logical = dyn_cast<BinaryOperator>(Parent);
      bool Branches = isa<IfStmt>(Parent) || isa<SwitchStmt>(Parent) ||
                      isa<ForStmt>(Parent) || isa<WhileStmt>(Parent) ||
                      isa<DoStmt>(Parent) || isa<CXXForRangeStmt>(Parent) ||
                      isa<AbstractConditionalOperator>(Parent) ||
                      isa<LambdaExpr>(Parent) || isa<CXXCatchStmt>(Parent) ||
                      (Logical && Logical->isLogicalOp());
      if (Branches && !contains(Child, Use))
        return false;
    }
    return true;
  }

  /// The definitions of Var that may reach Use: over the CFG where it can
  /// tell (FunctionBody::reachingDefinitions), else in source order, the
  /// last one that always runs before it and the later ones that may run.
  /// Complete is false when a path reaches Use with no definition (in source
  /// order: when none always runs before it).
  llvm::SmallVector<Definition, 2> reachingDefinitions(const VarDecl *Var,
                                                       const DeclRefExpr *Use,
                                                       bool &Complete) const {
    // Over the function's CFG when it has the use: every path, loops' back
    // edges included.
    llvm::SmallVector<const Expr *, 4> Assignments;
    for (const DeclRefExpr *Other : Body.usesOf(Var))
      if (const Expr *Assignment = assignmentTo(Other, Body))
        Assignments.push_back(Assignment);
    llvm::SmallVector<const Expr *, 2> Defs;
    if (Body.reachingDefinitions(Var, Use, Assignments, Defs, Complete)) {
      llvm::SmallVector<Definition, 2> Reaching;
      for (const Expr *Def : Defs)
        Reaching.push_back(
            {Def, Def == Var->getInit() ? Def : assignedValue(Def)});
      return Reaching;
    }
    // Otherwise in source order: the last definition that always runs
    // before the use, and the later ones that may.
    unsigned At = Body.orderOf(Use);
    llvm::SmallVector<std::pair<unsigned, Definition>, 4> Before;
    // A parameter's "initializer" is its default argument, which is not
    // in the body.
    const Expr *Init = isa<ParmVarDecl>(Var) ? nullptr : Var->getInit();
    if (Init)
      if (Body.endOrderOf(Init) < At)
        Before.push_back({Body.endOrderOf(Init), {Init, Init}});
    for (const DeclRefExpr *Other : Body.usesOf(Var))
      if (const Expr *Assignment = assignmentTo(Other, Body))
        if (Body.endOrderOf(Assignment) < At)
          Before.push_back({Body.endOrderOf(Assignment),
                            {Assignment, assignedValue(Assignment)}});
    llvm::sort(Before,
               [](const auto &A, const auto &B) { return A.first > B.first; });
    llvm::SmallVector<Definition, 2> Reaching;
    Complete = false;
    for (const auto &Entry : Before) {
      Reaching.push_back(Entry.second);
      if ((Init && Entry.second.Def == Init) ||
          alwaysRunsBefore(Entry.second.Def, Use)) {
        Complete = true;
        break;
      }
    }
    return Reaching;
  }

  /// A binding of `auto [a, b] = ...;` in this function: it names part of a
  /// local object, not a reference to something else.
  static bool isLocalValueBinding(const BindingDecl *Binding) {
    const auto *Whole = dyn_cast_or_null<VarDecl>(Binding->getDecomposedDecl());
    return Whole && Whole->hasLocalStorage() &&
           !Whole->getType()->isReferenceType();
  }

  /// Follows the uses of Binding after the assignment Def, in source order
  /// (Clang's CFG tracks variables, not bindings), up to the next
  /// assignment of it.
  bool followBinding(const BindingDecl *Binding, const Expr *Def,
                     unsigned Depth) {
    if (!Visited.insert(Def).second)
      return false;
    unsigned After = Body.endOrderOf(Def);
    bool InLoop = false;
    for (const Stmt *P = Body.parentOf(Def); P; P = Body.parentOf(P))
      InLoop |= isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) ||
                isa<CXXForRangeStmt>(P);
    for (const DeclRefExpr *Use : Body.usesOf(Binding)) {
      if (!InLoop && Body.orderOf(Use) <= After)
        continue;
      if (assignmentTo(Use, Body)) {
        if (!InLoop)
          break;
        continue;
      }
      if (meetsDevice(Use, Depth))
        return true;
    }
    return false;
  }

  /// Def is `Var = Var.cuda();` (or another move of Var itself) in the
  /// branch an `if (t.is_cuda())` takes: a value that reaches past it
  /// unmoved does so only when the device data is not on CUDA.
  bool isMoveWhenOnCuda(const VarDecl *Var, const Expr *Def) const {
    if (Def == Var->getInit())
      return false;
    const auto *Move =
        dyn_cast<CallExpr>(skipValuePlumbing(assignedValue(Def)));
    const Expr *Object = Move ? memberCallObject(Move) : nullptr;
    const auto *Ref =
        Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
    if (!Ref || Ref->getDecl() != Var || !Model.IsMove(Move))
      return false;
    const Stmt *Child = Def;
    for (const Stmt *P = Body.parentOf(Def); P;
         Child = P, P = Body.parentOf(P)) {
      const auto *If = dyn_cast<IfStmt>(P);
      if (!If)
        continue;
      if (If->getThen() != Child || If->getElse())
        return false;
      const auto *Test =
          dyn_cast<CallExpr>(If->getCond()->IgnoreParenImpCasts());
      return Test && calleeName(Test) == "is_cuda" &&
             isTensorObject(memberCallObject(Test));
    }
    return false;
  }

  /// Follows the uses of Var that Def (its initializer or an assignment)
  /// may reach.
  bool followDefinition(const VarDecl *Var, const Expr *Def, unsigned Depth) {
    if (!Visited.insert(Def).second)
      return false;
    for (const DeclRefExpr *Use : Body.usesOf(Var)) {
      if (assignmentTo(Use, Body))
        continue;
      bool Complete = false;
      llvm::SmallVector<Definition, 2> Reaching =
          reachingDefinitions(Var, Use, Complete);
      if (llvm::none_of(Reaching,
                        [&](const Definition &D) { return D.Def == Def; }))
        continue;
      // Moved wherever the device data is on CUDA; on the CPU otherwise,
      // where it belongs.
      if (llvm::any_of(Reaching, [&](const Definition &D) {
            return D.Def != Def && isMoveWhenOnCuda(Var, D.Def);
          }))
        continue;
      if (meetsDevice(Use, Depth))
        return true;
    }
    return false;
  }

  const FunctionBody &Body;
  const HostValueModel &Model;
  llvm::SmallPtrSet<const Expr *, 8> Visited;
  /// The definitions isHostLocal() is deciding, for loops.
  llvm::SmallPtrSet<const Expr *, 8> HostInProgress;
  bool Decided = false;
};

} // namespace

bool isHostValue(const Expr *E, const FunctionBody &Body,
                 const HostValueModel &Model) {
  HostValueFlow Flow(Body, Model);
  return Flow.isHostLocal(E, 0);
}

bool namesParameter(const Expr *E,
                    const llvm::SmallPtrSetImpl<const ParmVarDecl *> &Params) {
  const auto *Ref =
      dyn_cast<DeclRefExpr>(skipValuePlumbing(E)->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Param && Params.count(Param);
}

bool isParameterAssigned(const ParmVarDecl *Param, const FunctionBody &Body) {
  return llvm::any_of(Body.usesOf(Param), [&](const DeclRefExpr *Use) {
    return assignmentTo(Use, Body) != nullptr;
  });
}

bool hostValueMeetsDevice(const Expr *E, const FunctionBody &Body,
                          const HostValueModel &Model, DeviceMeeting *Where) {
  HostValueFlow Flow(Body, Model);
  bool Meets = Flow.meetsDevice(E, 0);
  if (Meets && Where)
    *Where = Flow.Meeting;
  return Meets;
}

} // namespace tensorplace
