//===- FunctionBody.cpp ---------------------------------------------------===//

#include "FunctionBody.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <algorithm>
#include <tuple>

using namespace clang;

namespace tensorplace {

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

FunctionBody::FunctionBody(const FunctionDecl *F) {
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
  llvm::SmallVector<std::pair<const Stmt *, const Stmt *>, 64> Pending;
  Pending.emplace_back(Root, RootParent);
  while (!Pending.empty()) {
    const Stmt *S, *Parent;
    std::tie(S, Parent) = Pending.pop_back_val();
    Stmts.push_back(S);
    if (Parent)
      Parents[S] = Parent;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Uses[Var].push_back(Ref);
    // Children in reverse, so that they come off the stack in source order.
    size_t First = Pending.size();
    for (const Stmt *Child : S->children())
      if (Child)
        Pending.emplace_back(Child, S);
    std::reverse(Pending.begin() + First, Pending.end());
  }
}

llvm::ArrayRef<const DeclRefExpr *>
FunctionBody::usesOf(const VarDecl *V) const {
  auto It = Uses.find(V);
  if (It == Uses.end())
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

} // namespace tensorplace
