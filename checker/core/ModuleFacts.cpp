//===- ModuleFacts.cpp ----------------------------------------------------===//

#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace tensorplace {

ModuleFacts::ModuleFacts(ASTContext &Ctx, const CallGraph &Calls)
    : Context(Ctx), Calls(Calls), Identity(Ctx.getSourceManager()),
      Inventory(Ctx, Identity), Paths(Inventory, Calls, Ctx.getSourceManager()),
      Registrations(Inventory, Identity) {}

bool ModuleFacts::isStatelessModuleClass(const CXXRecordDecl *Impl,
                                         bool AllowGivenTensors) const {
  if (!Impl)
    return false;
  if (isStatelessBuiltinModule(Impl))
    return true;
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def || !Inventory.isModuleClassHere(Def))
    return false; // Not defined in user code here: assume it has state.
  if (Inventory.hasStateInItsCode(Def) || Paths.hasHiddenSetup(Def))
    return false;
  // A base that concrete modules derive from may hold anything through them.
  if (Def->isAbstract() ||
      llvm::any_of(moduleClasses(), [Def](const CXXRecordDecl *Other) {
        return Other != Def && Other->isDerivedFrom(Def);
      }))
    return false;
  for (const FieldDecl *Field : Def->fields()) {
    if (!isStateMemberType(Field->getType()))
      continue;
    // A tensor member that only ever holds what the module is given (a
    // constructor argument, another module's registered tensor).
    if (AllowGivenTensors && isTensorLikeType(Field->getType()) &&
        !Field->hasInClassInitializer() &&
        llvm::none_of(writesTo(Field), [&](const FieldWrite &W) {
          return W.Kind == WriteKind::ElementInsert || givesTensorState(W);
        }))
      continue;
    return false;
  }
  for (const CXXBaseSpecifier &Base : Def->bases()) {
    const CXXRecordDecl *BaseClass = recordOf(Base.getType());
    if (!BaseClass)
      return false;
    if (!isFrontendModuleBase(BaseClass) && isModuleClass(BaseClass) &&
        !isStatelessModuleClass(BaseClass, AllowGivenTensors))
      return false;
  }
  return true;
}

/// Class reaches torch::nn::Module (or a configured module base) through
/// public bases only, along some path.
static bool derivesPubliclyFromModule(const CXXRecordDecl *Class,
                                      unsigned Depth = 0) {
  const CXXRecordDecl *Def = Class ? Class->getDefinition() : nullptr;
  if (!Def || Depth > 16)
    return true; // Not visible: assume it is a module.
  if (isFrontendModuleBase(Def))
    return true;
  bool ModuleBase = false;
  for (const CXXBaseSpecifier &Base : Def->bases()) {
    const CXXRecordDecl *BaseClass = recordOf(Base.getType());
    if (!BaseClass)
      return true; // A dependent base: may be anything.
    if (!isModuleClass(BaseClass))
      continue;
    ModuleBase = true;
    if (Base.getAccessSpecifier() == AS_public &&
        derivesPubliclyFromModule(BaseClass, Depth + 1))
      return true;
  }
  // No module base in sight: a module base the configuration names.
  return !ModuleBase;
}

namespace {
/// Finds, in the code of one class, a use of what it inherits from a module
/// base: a member of such a base named (register_buffer, to, parameters,
/// is_training), or the object converted to such a base (`torch::save(*this,
/// path)`, `shared_from_this()`).
class InheritedModuleUse : public RecursiveASTVisitor<InheritedModuleUse> {
public:
  explicit InheritedModuleUse(const CXXRecordDecl *Class) : Class(Class) {}
  bool Found = false;

  bool VisitMemberExpr(MemberExpr *E) {
    const auto *Owner =
        dyn_cast<CXXRecordDecl>(E->getMemberDecl()->getDeclContext());
    if (Owner && Owner != Class && isThis(E->getBase()) &&
        ((isModuleClass(Owner) && Class->isDerivedFrom(Owner)) ||
         E->getMemberNameInfo().getAsString() == "shared_from_this"))
      Found = true;
    return !Found;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *) {
    Found = true; // Not resolved yet in a template: may be inherited.
    return false;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *) {
    Found = true;
    return false;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *) {
    Found = true;
    return false;
  }
  bool VisitCastExpr(CastExpr *E) {
    if (E->getCastKind() == CK_DerivedToBase ||
        E->getCastKind() == CK_UncheckedDerivedToBase) {
      QualType To = E->getType();
      if (To->isPointerType())
        To = To->getPointeeType();
      if (const CXXRecordDecl *Target = recordOf(To))
        if (Target != Class && isThis(E->getSubExpr()) && isModuleClass(Target))
          Found = true;
    }
    return !Found;
  }

private:
  /// `this` or `*this`.
  static bool isThis(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(E))
      if (Deref->getOpcode() == UO_Deref)
        E = Deref->getSubExpr()->IgnoreParenImpCasts();
    return isa<CXXThisExpr>(E);
  }

  const CXXRecordDecl *Class;
};
} // namespace

bool ModuleFacts::isModuleInNameOnly(const CXXRecordDecl *Class) const {
  const CXXRecordDecl *Def = Class ? Class->getDefinition() : nullptr;
  if (!Def || Def->getDescribedClassTemplate() || Def->hasFriends() ||
      derivesPubliclyFromModule(Def))
    return false;
  InheritedModuleUse Use(Def);
  for (const Decl *Member : Def->decls()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member);
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member))
      Method = dyn_cast<CXXMethodDecl>(Template->getTemplatedDecl());
    if (!Method || Method->isImplicit() || Method->isDefaulted() ||
        Method->isDeleted())
      continue;
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition) || !Definition)
      return false; // Its code is elsewhere: it may use the module.
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten())
          Use.TraverseStmt(Init->getInit());
    Use.TraverseStmt(Definition->getBody());
    if (Use.Found)
      return false;
  }
  return true;
}

namespace {
/// Whether code names one member of the module, directly or through the
/// methods of its class that it calls on this module (followed a few levels
/// deep); a call that hands the module itself to other code (`f(*this)`), or
/// a call not resolved yet in a template, counts as naming it.
class MemberMentions {
public:
  explicit MemberMentions(const FieldDecl *Field)
      : Field(Field->getCanonicalDecl()),
        Class(cast<CXXRecordDecl>(Field->getParent())) {}

  bool mentions(const Stmt *S, unsigned Depth = 0) const {
    Finder F(*this, Depth);
    F.TraverseStmt(const_cast<Stmt *>(S));
    return F.Found;
  }

  /// The statement writes the member anew on every run: `m = value` (the
  /// value not naming the member), or a call of a method of the class on
  /// this module, not passed the member, whose body does so before naming
  /// the member otherwise.
  bool refreshes(const Stmt *S, unsigned Depth = 0) const {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = skipValuePlumbing(E);
    const Expr *Lhs = nullptr, *Rhs = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->getOpcode() == BO_Assign) {
      Lhs = BO->getLHS();
      Rhs = BO->getRHS();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      Lhs = Op->getArg(0);
      Rhs = Op->getArg(1);
    }
    if (Lhs) {
      const FieldDecl *Written = namedField(Lhs);
      return Written && Written->getCanonicalDecl() == Field &&
             !mentions(Rhs, Depth);
    }
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    const FunctionDecl *Callee = Call ? ownMethod(Call) : nullptr;
    if (!Callee || Depth >= MaxDepth ||
        llvm::any_of(Call->arguments(),
                     [&](const Expr *Arg) { return mentions(Arg, Depth); }))
      return false;
    return firstMention(Callee, Depth + 1) == Mention::Refreshed;
  }

  enum class Mention { None, Refreshed, Read };
  /// How F's body first meets the member, statement by statement at its
  /// top level (constructor initializers do not count: F is no forward).
  Mention firstMention(const FunctionDecl *F, unsigned Depth = 0) const {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
    if (!Body)
      return Mention::Read;
    for (const Stmt *S : Body->body()) {
      if (refreshes(S, Depth))
        return Mention::Refreshed;
      if (mentions(S, Depth))
        return Mention::Read;
    }
    return Mention::None;
  }

private:
  static constexpr unsigned MaxDepth = 3;

  /// The definition of the method of the class that Call calls on this
  /// module; null for other calls.
  const FunctionDecl *ownMethod(const CXXMemberCallExpr *Call) const {
    const auto *Method = Call->getMethodDecl();
    const Expr *Object = Call->getImplicitObjectArgument();
    if (!Method || !Object ||
        !isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) ||
        Method->getParent()->getCanonicalDecl() != Class->getCanonicalDecl())
      return nullptr;
    const FunctionDecl *Definition = nullptr;
    return Method->hasBody(Definition) ? Definition : nullptr;
  }

  struct Finder : RecursiveASTVisitor<Finder> {
    const MemberMentions &Of;
    unsigned Depth;
    bool Found = false;
    Finder(const MemberMentions &Of, unsigned Depth) : Of(Of), Depth(Depth) {}
    bool shouldVisitLambdaBody() const { return true; }
    bool names(const Expr *E) {
      const FieldDecl *Named = namedField(E);
      return Named && Named->getCanonicalDecl() == Of.Field;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      Found |= names(E);
      return !Found;
    }
    bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
      Found |= names(E) || E->isImplicitAccess() ||
               isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts());
      return !Found;
    }
    bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *) {
      Found = true;
      return false;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
        if (const FunctionDecl *Callee = Of.ownMethod(Member)) {
          if (Depth >= MaxDepth ||
              Of.firstMention(Callee, Depth + 1) != Mention::None)
            Found = true;
          return !Found;
        }
      // The module handed to other code, which may read the member.
      Found |= llvm::any_of(Call->arguments(), isThisObject);
      return !Found;
    }
  };

  const FieldDecl *Field;
  const CXXRecordDecl *Class;
};
} // namespace

ModuleFacts::ForwardUse
ModuleFacts::forwardUseOf(const FieldDecl *Field) const {
  MemberMentions Of(Field);
  const auto *Owner = cast<CXXRecordDecl>(Field->getParent());
  ForwardUse Use = ForwardUse::None;
  // The forward() of the class, and of the classes here derived from it.
  llvm::SmallVector<const CXXRecordDecl *, 4> Classes{Owner};
  for (const CXXRecordDecl *Class : moduleClasses())
    if (Class != Owner && Class->hasDefinition() && Owner->hasDefinition() &&
        Class->isDerivedFrom(Owner))
      Classes.push_back(Class);
  for (const CXXRecordDecl *Class : Classes)
    for (const CXXMethodDecl *Method : Class->methods()) {
      if (!isForwardRoot(Method))
        continue;
      const FunctionDecl *Definition = nullptr;
      if (!Method->hasBody(Definition))
        return ForwardUse::Read; // Defined in another file: unknown.
      switch (Of.firstMention(Definition)) {
      case MemberMentions::Mention::None:
        break;
      case MemberMentions::Mention::Refreshed:
        Use = ForwardUse::RefreshedFirst;
        break;
      case MemberMentions::Mention::Read:
        return ForwardUse::Read;
      }
    }
  return Use;
}

bool ModuleFacts::valueNamesMember(const Expr *Value,
                                   const FieldDecl *Field) const {
  return Value && MemberMentions(Field).mentions(Value);
}

bool ModuleFacts::anyProducer(
    const Expr *E, unsigned Depth,
    llvm::function_ref<bool(const Expr *, unsigned)> Leaf) const {
  E = skipValuePlumbing(E);
  if (!E || Depth > 4)
    return false;
  auto Recurse = [&](const Expr *Sub) {
    return anyProducer(Sub, Depth + 1, Leaf);
  };
  if (const auto *ILE = dyn_cast<InitListExpr>(E))
    return llvm::any_of(ILE->inits(), Recurse);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return Recurse(CO->getTrueExpr()) || Recurse(CO->getFalseExpr());
  // *blocks, blocks[i]: what a local pointer points to is followed to the
  // local's initializer (Block *blocks = new Block[n]()).
  if (const auto *Deref = dyn_cast<UnaryOperator>(E))
    if (Deref->getOpcode() == UO_Deref)
      return Recurse(Deref->getSubExpr());
  if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E))
    return Recurse(Element->getBase());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A local is followed to its initializer. A parameter (weight tying: a
    // tensor or module registered elsewhere) or a global is an alias.
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (const Expr *Init = Inventory.localInit(V))
        return Recurse(Init);
    }
    return false;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (const Expr *Arg = passedThrough(Call))
      return Recurse(Arg);
  return Leaf(E, Depth);
}

bool ModuleFacts::valueIsFreshTensor(const Expr *E, unsigned Depth) const {
  return anyProducer(E, Depth, [this](const Expr *P, unsigned D) {
    auto Fresh = [&](const Expr *Sub) {
      return valueIsFreshTensor(Sub, D + 1);
    };
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
      return llvm::any_of(CE->arguments(), Fresh); // Tensor(): undefined.
    if (const auto *Member = dyn_cast<MemberExpr>(P)) {
      // A field of a local aggregate (auto t = make_tables(); t.first) is
      // as fresh as the local. Another member, or another module's
      // parameter, is not.
      const auto *Base =
          dyn_cast<DeclRefExpr>(skipValuePlumbing(Member->getBase()));
      return !Member->isArrow() && Base && isa<VarDecl>(Base->getDecl()) &&
             Inventory.localInit(cast<VarDecl>(Base->getDecl())) && Fresh(Base);
    }
    if (isa<CXXNullPtrLiteralExpr>(P) || isa<IntegerLiteral>(P) ||
        isa<CXXBoolLiteralExpr>(P) || isa<FloatingLiteral>(P))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      llvm::StringRef Name = calleeName(Call);
      if (isRegistrationName(Name) || Name == "parameters" ||
          Name == "named_parameters" || Name == "buffers" ||
          Name == "named_buffers")
        return false;
      if (Call->getCallReturnType(Context)->isReferenceType()) {
        // An in-place method returns its own tensor
        // (`torch::ones(n).set_requires_grad(false)`, `t.uniform_()`): as
        // fresh as that tensor. Else a reference to one held elsewhere.
        const Expr *Object = memberCallObject(Call);
        return Object && isTensorObject(Object) && Fresh(Object);
      }
      if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Call))
        if (OCE->getOperator() == OO_Subscript)
          return Fresh(OCE->getArg(0));
    }
    return true;
  });
}

bool ModuleFacts::valueIsFreshModule(const Expr *E, unsigned Depth) const {
  return anyProducer(E, Depth, [this](const Expr *P, unsigned D) {
    auto Fresh = [&](const Expr *Sub) {
      return valueIsFreshModule(Sub, D + 1);
    };
    if (Inventory.isModuleCreation(P) || isa<CXXNewExpr>(P))
      return true;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      // std::shared_ptr<NetImpl>(new NetImpl) and the like.
      if (llvm::any_of(CE->arguments(), Fresh))
        return true;
      const CXXRecordDecl *Type = recordOf(CE->getType());
      const CXXRecordDecl *Held = heldModuleClass(CE->getType());
      if (!Type || Type->isInStdNamespace() || !Held)
        return false;
      if (CE->getNumArgs() != 1)
        return true;
      // One argument may be a copy of a holder, a shared_ptr or nullptr, or
      // a module that lives elsewhere (a parameter); but a container built
      // around one member module of another class (Sequential(a_)) is a new
      // container.
      const Expr *Arg = CE->getArg(0)->IgnoreParenImpCasts();
      const CXXRecordDecl *ArgHeld = heldModuleClass(Arg->getType());
      return isContainerModule(Held) && ArgHeld &&
             ArgHeld->getCanonicalDecl() != Held->getCanonicalDecl() &&
             isa<MemberExpr>(skipValuePlumbing(Arg));
    }
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      llvm::StringRef Name = calleeName(Call);
      if (isRegistrationName(Name) || Name == "ptr" || Name == "get")
        return false;
      if (tensorplace::compat::endsWith(Name, "_pointer_cast"))
        return Call->getNumArgs() >= 1 && Fresh(Call->getArg(0));
      if (Name == "make_shared" || Name == "clone")
        return true;
      if (Call->getCallReturnType(Context)->isReferenceType())
        return false;
      // A factory helper (make_layer(...)) returning a module handle.
      return heldModuleClass(Call->getType()) != nullptr;
    }
    return false;
  });
}

llvm::SmallVector<const ModuleFacts::CallEdge *, 4>
ModuleFacts::callsReturning(const FunctionDecl *F) const {
  llvm::SmallVector<const CallEdge *, 4> Result;
  // A call resolved to F (not a template's candidate).
  for (const CallEdge &Edge : Calls.callsTo(F))
    if (Edge.Call->getDirectCallee())
      Result.push_back(&Edge);
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  if (!Method || !isForwardRoot(Method))
    return Result;
  const CXXRecordDecl *Impl = Method->getParent()->getCanonicalDecl();
  for (const FunctionDecl *Caller : Calls.functions())
    for (const CallEdge &Edge : Calls.callsFrom(Caller)) {
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(Edge.Call);
      if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
        continue;
      const CXXRecordDecl *Held = heldModuleClass(Op->getArg(0)
                                                      ->IgnoreParenImpCasts()
                                                      ->getType()
                                                      .getNonReferenceType());
      if (Held && Held->getCanonicalDecl() == Impl)
        Result.push_back(&Edge);
    }
  return Result;
}

bool ModuleFacts::givesTensorState(const FieldWrite &W) const {
  if (!W.Value)
    return false;
  if (W.Kind == WriteKind::ElementInsert)
    if (const auto *Call = dyn_cast<CallExpr>(W.Value->IgnoreParenImpCasts())) {
      if (isElementInsertName(calleeName(Call))) {
        for (const Expr *Arg : Call->arguments())
          if (valueIsFreshTensor(Arg, 0))
            return true;
        return false;
      }
    }
  return valueIsFreshTensor(W.Value, 0);
}

bool ModuleFacts::givesModule(const FieldWrite &W) const {
  if (W.Kind == WriteKind::DefaultInit)
    return true;
  if (!W.Value)
    return false;
  if (W.Kind == WriteKind::ElementInsert)
    if (const auto *Call = dyn_cast<CallExpr>(W.Value->IgnoreParenImpCasts())) {
      llvm::StringRef Name = calleeName(Call);
      if (isElementInsertName(Name)) {
        bool EmplacesFromArguments =
            tensorplace::compat::startsWith(Name, "emplace") ||
            Name == "try_emplace";
        for (const Expr *Arg : Call->arguments()) {
          if (valueIsFreshModule(Arg, 0))
            return true;
          QualType T = Arg->IgnoreParenImpCasts()->getType();
          if (T->isNullPtrType() || heldModuleClass(T))
            EmplacesFromArguments = false;
        }
        return EmplacesFromArguments && Call->getNumArgs() > 0;
      }
    }
  return valueIsFreshModule(W.Value, 0);
}

} // namespace tensorplace
