//===- ValueIdentity.cpp --------------------------------------------------===//

#include "tensorplace/checker/ValueIdentity.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tensorplace {

const Expr *passedThrough(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || Call->getNumArgs() != 1)
    return nullptr;
  llvm::StringRef Name = calleeName(Call);
  return Name == "move" || Name == "forward" ? Call->getArg(0) : nullptr;
}

void ValueIdentity::bind(const VarDecl *Var, const Expr *From) {
  origins(From, Origins[Var]);
  identity(From, Identities[Var]);
}

/// The parameter or local DRE names, and what Map says it stands for (a
/// structured binding stands for its whole object).
void ValueIdentity::addVariable(
    const DeclRefExpr *DRE, const llvm::DenseMap<const VarDecl *, Decls> &Map,
    Decls &Out) {
  const ValueDecl *D = DRE->getDecl();
  if (const auto *B = dyn_cast<BindingDecl>(D))
    D = B->getDecomposedDecl();
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(D)) {
    Out.insert(P);
  } else if (const auto *V = dyn_cast_or_null<VarDecl>(D)) {
    Out.insert(V);
    auto It = Map.find(V);
    if (It != Map.end())
      Out.insert(It->second.begin(), It->second.end());
  }
}

void ValueIdentity::origins(const Stmt *S, Decls &Out) const {
  if (!S)
    return;
  if (isa<MemberExpr>(S) || isa<CXXDependentScopeMemberExpr>(S)) {
    if (const FieldDecl *Field = namedField(cast<Expr>(S)))
      Out.insert(Field->getCanonicalDecl());
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    addVariable(DRE, Origins, Out);
  }
  for (const Stmt *Child : S->children())
    origins(Child, Out);
}

void ValueIdentity::identity(const Stmt *S, Decls &Out) const {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E) {
    origins(S, Out);
    return;
  }
  E = skipValuePlumbing(E)->IgnoreParens();
  if (E->isTypeDependent() || E->containsErrors()) {
    origins(E, Out);
    return;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      Out.insert(Field->getCanonicalDecl());
    // fc_->weight is part of fc_.
    if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      identity(ME->getBase(), Out);
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    addVariable(DRE, Identities, Out);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    identity(CO->getTrueExpr(), Out);
    identity(CO->getFalseExpr(), Out);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      identity(BO->getRHS(), Out);
    else if (BO->isAssignmentOp())
      identity(BO->getLHS(), Out);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
      identity(UO->getSubExpr(), Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (const Expr *Arg = passedThrough(Call)) {
      identity(Arg, Out);
      return;
    }
    if (callMayReturnItsInput(Call)) {
      for (const Expr *Arg : Call->arguments())
        identity(Arg, Out);
      if (const Expr *Object = memberCallObject(Call))
        identity(Object, Out);
    }
    return;
  }
  if (isa<LambdaExpr>(E))
    return;
  // Constructions (a container module around members, a user block given a
  // member), initializer lists and anything else: what they are built from.
  if (isa<CXXConstructExpr>(E) || isa<InitListExpr>(E) ||
      isa<CXXStdInitializerListExpr>(E) || isa<ParenListExpr>(E)) {
    for (const Stmt *Child : E->children())
      identity(Child, Out);
    return;
  }
  origins(E, Out);
}

/// It returns a reference or a pointer, it is defined in user code or not
/// known, it is called on a module, it is an in-place operation (add_(), the
/// nn::init functions), or a tensor conversion that returns its object when
/// there is nothing to do (to(), contiguous()).
bool ValueIdentity::callMayReturnItsInput(const CallExpr *Call) const {
  if (Call->isGLValue() || Call->getType()->isPointerType())
    return true;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Filter.isUserCode(Callee->getLocation()))
    return true;
  const Expr *Object = memberCallObject(Call);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    Object = Op->getNumArgs() > 0 ? Op->getArg(0) : nullptr;
  if (Object && isModuleObject(Object))
    return true;
  llvm::StringRef Name = calleeName(Call);
  // any.ptr(), any.get<T>(): the module a torch::nn::AnyModule holds.
  if (Object && isAnyModuleType(Object->getType()) &&
      (Name == "ptr" || Name == "get"))
    return true;
  // In-place operations; a module or holder built from a member, whose copy
  // shares the member's parameter tensors (make_shared<Impl>(*m_)).
  if (tensorplace::compat::endsWith(Name, "_") || Name == "make_shared")
    return true;
  return Object && isTensorObject(Object) &&
         tensorplace::compat::isOneOf(Name, {"to", "cpu", "cuda", "contiguous",
                                             "type", "toType", "type_as",
                                             "set_requires_grad"});
}

} // namespace tensorplace
