//===- DiscardedToResult.cpp ----------------------------------------------===//

#include "DiscardedToResult.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>

using namespace clang;
using namespace clang::ast_matchers;

namespace tensorplace {

void DiscardedToResult::registerMatchers(MatchFinder &Finder) {
  const auto TensorClass = cxxRecordDecl(isSameOrDerivedFrom(
      cxxRecordDecl(hasAnyName("::at::Tensor", "::at::TensorBase"))));
  // Conversions that return a tensor and leave the object alone. (Python's
  // half()/float()/... have no C++ counterpart: there it is to(torch::kHalf).
  // hip(), xpu(), mps() exist in LibTorch 2.x.)
  const auto Conversion = cxxMethodDecl(
      ofClass(TensorClass),
      hasAnyName("to", "cuda", "cpu", "hip", "xpu", "mps", "meta", "pin_memory",
                 "contiguous", "toType", "toBackend"));
  Finder.addMatcher(
      cxxMemberCallExpr(callee(Conversion),
                        // Each instantiation repeats its template's finding.
                        unless(isInTemplateInstantiation()))
          .bind("call"),
      this);
}

/// Is the value of E thrown away: an expression statement, either side of a
/// discarded comma, a for-loop increment?
static bool isDiscarded(const Expr *E, ASTContext &Ctx) {
  const Stmt *Current = E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    if (Parents.size() != 1)
      return false;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false; // An initializer, a default argument: the value is used.
    if (isa<ExprWithCleanups>(Parent) || isa<ParenExpr>(Parent) ||
        isa<MaterializeTemporaryExpr>(Parent) ||
        isa<CXXBindTemporaryExpr>(Parent)) {
      Current = Parent;
      continue;
    }
    if (const auto *Compound = dyn_cast<CompoundStmt>(Parent)) {
      // The last statement of a GNU statement expression is its value.
      DynTypedNodeList Up = Ctx.getParents(*Compound);
      bool IsStmtExprValue = Up.size() == 1 && Up[0].get<StmtExpr>() &&
                             Compound->body_back() == Current;
      return !IsStmtExprValue;
    }
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return If->getThen() == Current || If->getElse() == Current;
    if (const auto *While = dyn_cast<WhileStmt>(Parent))
      return While->getBody() == Current;
    if (const auto *Do = dyn_cast<DoStmt>(Parent))
      return Do->getBody() == Current;
    if (const auto *For = dyn_cast<ForStmt>(Parent))
      return For->getBody() == Current || For->getInc() == Current ||
             For->getInit() == Current;
    if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Parent))
      return RangeFor->getBody() == Current;
    if (isa<SwitchCase>(Parent) || isa<LabelStmt>(Parent) ||
        isa<AttributedStmt>(Parent))
      return true;
    if (const auto *Comma = dyn_cast<BinaryOperator>(Parent)) {
      if (Comma->getOpcode() != BO_Comma)
        return false;
      if (Comma->getLHS()->IgnoreParens() == Current ||
          Comma->getLHS() == Current)
        return true;
      Current = Parent; // The right side is discarded if the comma is.
      continue;
    }
    return false;
  }
}

/// x.to(d) -> x = x.to(d), when x is a local variable or parameter of tensor
/// type, not const, and nothing comes from a macro. Never for members: a
/// registered member rebound to the copy would leave the module holding the
/// old tensor.
static std::optional<FixItHint> assignBackFix(const CXXMemberCallExpr *Call) {
  const Expr *Object = Call->getImplicitObjectArgument();
  if (!Object || Call->getBeginLoc().isMacroID() ||
      Call->getEndLoc().isMacroID())
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDeclOrParm() ||
      Ref->getType().isConstQualified() || !isTensorType(Ref->getType()))
    return std::nullopt;
  return FixItHint::CreateInsertion(Call->getBeginLoc(),
                                    (Var->getName() + " = ").str());
}

/// The object is a local variable of the function that nothing else names:
/// `torch::Tensor probe = ...; probe.to(device);`, a conversion made only
/// for its side effects (it throws where the device is unusable). Nothing
/// reads the tensor afterwards, so no tensor is left on the wrong device.
static bool isOtherwiseUnusedLocal(const CXXMemberCallExpr *Call,
                                   ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(
      Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDecl() || Var->isStaticLocal() ||
      Var->getType()->isReferenceType())
    return false;
  const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body)
    return false;
  auto Uses =
      match(findAll(declRefExpr(to(varDecl(equalsNode(Var)))).bind("use")),
            *Body, Ctx);
  return Uses.size() == 1;
}

void DiscardedToResult::run(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  if (!isDiscarded(Call, Ctx) || isOtherwiseUnusedLocal(Call, Ctx))
    return;
  const CXXMethodDecl *Method = Call->getMethodDecl();
  const Expr *Object = Call->getImplicitObjectArgument()->IgnoreImpCasts();
  std::string Subject = "the tensor";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Object))
    Subject = "'" + DRE->getDecl()->getNameAsString() + "'";
  else if (const auto *ME = dyn_cast<MemberExpr>(Object))
    Subject = "'" + ME->getMemberDecl()->getNameAsString() + "'";

  Finding F;
  F.Loc = Call->getExprLoc();
  F.Message = "result of 'Tensor::" + Method->getNameAsString() +
              "' is discarded; it returns a new tensor and leaves " + Subject +
              " unchanged, so this statement has no effect";
  if (std::optional<FixItHint> Fix = assignBackFix(Call))
    F.Fixes.push_back(*Fix);
  report(std::move(F), Ctx);
}

} // namespace tensorplace
