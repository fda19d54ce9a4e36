//===- ModuleFacts.cpp ----------------------------------------------------===//

#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/Config.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>

using namespace clang;

namespace tensorplace {

namespace {

/// Where a value may have come from: a member of a module or a parameter of
/// the enclosing function (for registration helpers).
using Origins = llvm::SmallPtrSet<const ValueDecl *, 4>;

const FieldDecl *referencedField(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

/// std::move(x) and std::forward<T>(x) pass x through.
const Expr *passedThrough(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || Call->getNumArgs() != 1)
    return nullptr;
  llvm::StringRef Name = calleeName(Call);
  return Name == "move" || Name == "forward" ? Call->getArg(0) : nullptr;
}

bool isElementInsertName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"push_back", "emplace_back", "push_front", "emplace_front",
             "insert", "emplace", "insert_or_assign", "try_emplace", "assign"});
}

bool isForwardName(const FunctionDecl *F) {
  for (const std::string &Name : activeConfig().ForwardMethods) {
    if (Name == "operator()"
            ? F->getOverloadedOperator() == OO_Call
            : F->getDeclName().isIdentifier() && F->getName() == Name)
      return true;
  }
  return false;
}

const CXXRecordDecl *moduleClassOfMethod(const FunctionDecl *F) {
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  if (!M)
    return nullptr;
  const CXXRecordDecl *RD = M->getParent();
  return isModuleClass(RD) ? RD : nullptr;
}

bool isForwardRoot(const FunctionDecl *F) {
  return isForwardName(F) && moduleClassOfMethod(F);
}

bool isConstructionRoot(const FunctionDecl *F) {
  if (isa<CXXConstructorDecl>(F))
    return true;
  return F->getDeclName().isIdentifier() && F->getName() == "reset" &&
         F->getNumParams() == 0 && moduleClassOfMethod(F);
}

struct RegistrationFlow {
  const CallExpr *Call;
  const FunctionDecl *Function;
  /// The innermost function the call is in: a lambda's call operator inside
  /// a lambda, else Function. Helper parameters are this function's.
  const FunctionDecl *Owner;
  Origins ArgOrigins;
};

struct CallSite {
  const CallExpr *Call;
  const FunctionDecl *Caller;
  const FunctionDecl *Owner;
  llvm::SmallVector<const FunctionDecl *, 2> Callees;
  llvm::SmallVector<Origins, 3> ArgOrigins;
};

} // namespace

bool ModuleFacts::isRegistrationName(llvm::StringRef Name) {
  return Name == "register_parameter" || Name == "register_buffer" ||
         Name == "register_module" || Name == "replace_module";
}

class ModuleFacts::Builder : public RecursiveASTVisitor<Builder> {
  using Base = RecursiveASTVisitor<Builder>;

public:
  Builder(ASTContext &Ctx, ModuleFacts &Facts)
      : Facts(Facts), Filter(Ctx.getSourceManager()), Ctx(Ctx) {}

  void run() {
    TraverseDecl(Ctx.getTranslationUnitDecl());
    finish();
  }

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    // System and LibTorch headers are never reported on and are large: skip
    // them whole.
    if (!isa<TranslationUnitDecl>(D) && !Filter.isUserCode(D->getLocation()))
      return true;
    const auto *F = dyn_cast<FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    FunctionStack.push_back(F);
    const FunctionDecl *SavedRoot = CurrentForwardRoot;
    CurrentForwardRoot = isForwardRoot(F) ? canonicalFunction(F) : nullptr;
    Functions.push_back(F);
    bool Result = Base::TraverseDecl(D);
    CurrentForwardRoot = SavedRoot;
    FunctionStack.pop_back();
    return Result;
  }

  // A lambda's body belongs to the enclosing function (its writes happen
  // there), but a registration helper written as a lambda is a helper too.
  bool TraverseLambdaExpr(LambdaExpr *LE) {
    LambdaStack.push_back(LE->getCallOperator());
    bool Result = Base::TraverseLambdaExpr(LE);
    LambdaStack.pop_back();
    return Result;
  }

  bool VisitRecoveryExpr(RecoveryExpr *) {
    if (!FunctionStack.empty())
      FunctionsWithErrors.push_back(FunctionStack.back());
    return true;
  }

  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (Init->isMemberInitializer() && Init->isWritten() &&
        !FunctionStack.empty()) {
      const FieldDecl *Field = Init->getMember();
      FieldsWithCtorInit.insert(Field->getCanonicalDecl());
      addWrite(Field, Init->getInit(), FunctionStack.back(),
               Init->getSourceLocation(), WriteKind::CtorInit);
    }
    return Base::TraverseConstructorInitializer(Init);
  }

  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (!RD->isThisDeclarationADefinition() || RD->isLambda() ||
        !isModuleClass(RD))
      return true;
    // An explicit instantiation repeats its template's findings.
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (Spec->getSpecializationKind() != TSK_ExplicitSpecialization)
        return true;
    Facts.ModuleClasses.push_back(RD);
    if (RD->isInvalidDecl() ||
        llvm::any_of(RD->fields(),
                     [](const FieldDecl *F) { return F->isInvalidDecl(); }))
      hideSetup(RD);
    // The file that defines the constructor or reset() sees the setup.
    for (const CXXConstructorDecl *Ctor : RD->ctors())
      if (Ctor->isUserProvided() && !Ctor->isDefined())
        hideSetup(RD);
    for (const CXXMethodDecl *M : RD->methods())
      if (isConstructionRoot(M) && !M->isDefined())
        hideSetup(RD);
    return true;
  }

  bool VisitFieldDecl(FieldDecl *Field) {
    if (const Expr *Init = Field->getInClassInitializer()) {
      addWrite(Field, Init, nullptr, Field->getLocation(),
               WriteKind::InClassInit);
    } else if (const CXXRecordDecl *Impl = heldModuleClass(Field->getType())) {
      // A ModuleHolder with no initializer default-constructs its module
      // (it does not compile otherwise); a shared_ptr starts out null.
      const CXXRecordDecl *Type = recordOf(Field->getType());
      if (Impl && Type && !Type->isInStdNamespace())
        DefaultInitCandidates.push_back(Field);
    }
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (isa<ParmVarDecl>(VD) || !VD->hasInit() || !VD->isLocalVarDecl())
      return true;
    Facts.LocalInits[VD] = VD->getInit();
    collectOrigins(VD->getInit(), Aliases[VD]);
    collectIdentity(VD->getInit(), ValueAliases[VD]);
    return true;
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    // for (auto &t : tensors_) register_buffer(name, t): t stands for the
    // member's elements.
    if (const VarDecl *LoopVar = S->getLoopVariable()) {
      collectOrigins(S->getRangeInit(), Aliases[LoopVar]);
      collectIdentity(S->getRangeInit(), ValueAliases[LoopVar]);
    }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      handleAssignment(BO->getLHS(), BO->getRHS(), BO->getOperatorLoc());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      handleAssignment(OCE->getArg(0), OCE->getArg(1), OCE->getOperatorLoc());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      if (V->isLocalVarDecl()) {
        LocalUse &Use = LocalUses[V];
        ++Use.Total;
        Use.FieldReads += FieldReadObjects.count(DRE);
      }
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || FunctionStack.empty())
      return true;
    // eager->weight, eager.weight: a member read through a local.
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Base))
      if (Arrow->getOperator() == OO_Arrow)
        Base = Arrow->getArg(0)->IgnoreParenImpCasts();
    if (const auto *Object = dyn_cast<DeclRefExpr>(Base))
      FieldReadObjects.insert(Object);
    Facts.UsedFields.insert(Field->getCanonicalDecl());
    if (CurrentForwardRoot)
      FirstUseOnForward.try_emplace(
          {CurrentForwardRoot, Field->getCanonicalDecl()},
          PlainWriteTargets.count(ME) != 0);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Caller =
        FunctionStack.empty() ? nullptr : FunctionStack.back();
    llvm::StringRef Name = calleeName(Call);

    if (isRegistrationCall(Call, Name)) {
      RegistrationFlow Flow{Call, Caller, innermostFunction(), {}};
      for (const Expr *Arg : Call->arguments())
        collectIdentity(Arg, Flow.ArgOrigins);
      Flows.push_back(std::move(Flow));
      RegistrationLikeCalls.insert(Call);
      if (Caller) {
        if (const auto *M = dyn_cast<CXXMethodDecl>(Caller))
          Facts.ClassesWithState.insert(M->getParent());
        Facts.Registrations.push_back({Call, Name, Caller,
                                       followsInputDevice(Call),
                                       containsModuleCreation(Call)});
      }
    }
    if (Name == "is_training" && Caller)
      if (const auto *M = dyn_cast<CXXMethodDecl>(Caller))
        Facts.ClassesWithState.insert(M->getParent());

    if (const Expr *Object = memberCallObject(Call)) {
      // seq->push_back(fc_): fc_ is registered through the container module.
      if (isModuleContainerInsertName(Name) && isModuleObject(Object))
        for (const Expr *Arg : Call->arguments()) {
          Origins Inserted;
          collectOrigins(Arg, Inserted);
          for (const ValueDecl *D : Inserted)
            if (const auto *Field = dyn_cast<FieldDecl>(D))
              ContainerInsertedFields.try_emplace(Field, Call->getBeginLoc());
        }
      if (isElementInsertName(Name))
        if (const FieldDecl *Field = referencedField(Object))
          addWrite(Field, Call, Caller, Call->getBeginLoc(),
                   WriteKind::ElementInsert);
    }

    if (Name == "make_shared" && Caller)
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (const TemplateArgumentList *Args =
                Callee->getTemplateSpecializationArgs())
          if (Args->size() >= 1 &&
              Args->get(0).getKind() == TemplateArgument::Type)
            if (const CXXRecordDecl *Impl = recordOf(Args->get(0).getAsType()))
              if (isModuleClass(Impl))
                addCreation(Call, Impl, Caller);

    if (Caller && (!isa<CXXOperatorCallExpr>(Call) ||
                   cast<CXXOperatorCallExpr>(Call)->getOperator() == OO_Call))
      addCallSite(Call, Caller);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (FunctionStack.empty())
      return true;
    const CXXRecordDecl *Type = recordOf(CE->getType());
    if (!Type || Type->isInStdNamespace())
      return true;
    const CXXRecordDecl *Impl =
        isModuleClass(Type) ? Type : heldModuleClass(CE->getType());
    if (Impl && constructsNewModule(CE))
      addCreation(CE, Impl, FunctionStack.back());
    return true;
  }

  bool VisitCXXNewExpr(CXXNewExpr *NE) {
    if (FunctionStack.empty())
      return true;
    if (const CXXRecordDecl *Impl = recordOf(NE->getAllocatedType()))
      if (isModuleClass(Impl))
        addCreation(NE, Impl, FunctionStack.back());
    return true;
  }

private:
  using WriteKind = ModuleFacts::WriteKind;

  void addWrite(const FieldDecl *Field, const Expr *Value,
                const FunctionDecl *Function, SourceLocation Loc,
                WriteKind Kind) {
    QualType T = Field->getType();
    if (!isTensorLikeType(T) && !isModuleHandleLikeType(T) &&
        !isModuleValueLikeType(T) && !isScriptModuleType(T))
      return;
    Facts.Writes[Field->getCanonicalDecl()].push_back(
        {Field, Value, Function, Loc, Kind});
  }

  void addCreation(const Expr *E, const CXXRecordDecl *Impl,
                   const FunctionDecl *Function) {
    Facts.Creations.push_back({E, Impl, Function});
    Facts.CreationExprs.insert(E);
  }

  /// A module handle or object built from constructor arguments, not copied
  /// from another handle nor made empty with nullptr.
  static bool constructsNewModule(const CXXConstructExpr *CE) {
    if (CE->getNumArgs() != 1)
      return true; // ModuleHolder() default-constructs the module.
    const Expr *Arg = CE->getArg(0)->IgnoreParenImpCasts();
    QualType ArgType = Arg->getType();
    if (ArgType->isNullPtrType())
      return false;
    if (ArgType->isPointerType())
      ArgType = ArgType->getPointeeType();
    return !heldModuleClass(ArgType) && !isModuleClass(recordOf(ArgType));
  }

  bool isRegistrationCall(const CallExpr *Call, llvm::StringRef Name) {
    // A project's registration helper (RegistrationHelpers): a function
    // whose body is not visible here, or a macro around the call.
    const Config &Options = activeConfig();
    if (nameIsListed(Call->getDirectCallee(), Options.RegistrationHelpers) ||
        (!Call->getDirectCallee() &&
         llvm::is_contained(Options.RegistrationHelpers, Name)) ||
        isInListedMacro(Call->getBeginLoc(), Ctx.getSourceManager(),
                        Options.RegistrationHelpers))
      return true;
    if (!ModuleFacts::isRegistrationName(Name))
      return false;
    // Resolved: it must be torch::nn::Module's. Unresolved (in a template
    // with a dependent base): the name is all there is.
    if (const auto *M =
            dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
      return isModuleClass(M->getParent());
    return true;
  }

  bool containsModuleCreation(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
        const CXXRecordDecl *Type = recordOf(CE->getType());
        if (Type && !Type->isInStdNamespace() &&
            (isModuleClass(Type) || heldModuleClass(CE->getType())) &&
            constructsNewModule(CE))
          return true;
      }
      if (isa<CXXNewExpr>(E) &&
          isModuleClass(recordOf(cast<CXXNewExpr>(E)->getAllocatedType())))
        return true;
      if (const auto *C = dyn_cast<CallExpr>(E))
        if (calleeName(C) == "make_shared")
          return true;
    }
    for (const Stmt *Child : S->children())
      if (containsModuleCreation(Child))
        return true;
    return false;
  }

  /// register_parameter("w", torch::empty({n, x.size(1)}, x.options())): the
  /// state is created from a parameter's options or device (or with a
  /// *_like factory of one), so it materialises where the input lives.
  bool followsInputDevice(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      llvm::StringRef Name = calleeName(Call);
      const Expr *Source = nullptr;
      if (tensorplace::compat::endsWith(Name, "_like") &&
          Call->getNumArgs() >= 1)
        Source = Call->getArg(0);
      else if (Name == "options" || Name == "device")
        if (const Expr *Object = memberCallObject(Call))
          if (isTensorType(Object->getType()))
            Source = Object;
      if (Source) {
        Origins From;
        collectOrigins(Source, From);
        if (llvm::any_of(
                From, [](const ValueDecl *D) { return isa<ParmVarDecl>(D); }))
          return true;
      }
    }
    for (const Stmt *Child : S->children())
      if (followsInputDevice(Child))
        return true;
    return false;
  }

  void markCreations(const Stmt *S, llvm::DenseSet<const Expr *> &Out) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S))
      if (Facts.CreationExprs.count(E))
        Out.insert(E);
    for (const Stmt *Child : S->children())
      markCreations(Child, Out);
  }

  /// The parameter or local DRE names, and what Map says it stands for
  /// (a structured binding stands for its whole object).
  static void addVariable(const DeclRefExpr *DRE,
                          const llvm::DenseMap<const VarDecl *, Origins> &Map,
                          Origins &Out) {
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

  void collectOrigins(const Stmt *S, Origins &Out) {
    if (!S)
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Out.insert(Field->getCanonicalDecl());
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      addVariable(DRE, Aliases, Out);
    }
    for (const Stmt *Child : S->children())
      collectOrigins(Child, Out);
  }

  /// Setup out of sight that no other file can settle.
  void hideSetup(const CXXRecordDecl *Class) {
    Facts.ClassesWithHiddenSetup.insert(Class);
    Facts.UnsettledClasses.insert(Class);
  }

  /// What a value is, not what it is computed from: the members, locals and
  /// parameters whose very object it may be (through moves, handle copies,
  /// both arms of ?:, in-place operations, functions that return a reference
  /// or that this translation unit defines). idx_ * 2, idx_.clone() and
  /// torch::cat({idx_}) are new tensors: registering them leaves idx_ out of
  /// Module::to(). Where the code is not understood, everything it names
  /// counts, so that nothing is reported on a guess.
  void collectIdentity(const Stmt *S, Origins &Out) {
    const auto *E = dyn_cast_or_null<Expr>(S);
    if (!E) {
      collectOrigins(S, Out);
      return;
    }
    E = skipValuePlumbing(E)->IgnoreParens();
    if (E->isTypeDependent() || E->containsErrors()) {
      collectOrigins(E, Out);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Out.insert(Field->getCanonicalDecl());
      // fc_->weight is part of fc_.
      if (!isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        collectIdentity(ME->getBase(), Out);
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      addVariable(DRE, ValueAliases, Out);
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
      collectIdentity(CO->getTrueExpr(), Out);
      collectIdentity(CO->getFalseExpr(), Out);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Comma)
        collectIdentity(BO->getRHS(), Out);
      else if (BO->isAssignmentOp())
        collectIdentity(BO->getLHS(), Out);
      return;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
        collectIdentity(UO->getSubExpr(), Out);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (const Expr *Arg = passedThrough(Call)) {
        collectIdentity(Arg, Out);
        return;
      }
      if (callMayReturnItsInput(Call)) {
        for (const Expr *Arg : Call->arguments())
          collectIdentity(Arg, Out);
        if (const Expr *Object = memberCallObject(Call))
          collectIdentity(Object, Out);
      }
      return;
    }
    if (isa<LambdaExpr>(E))
      return;
    // Constructions (a container module around members, a user block given
    // a member), initializer lists and anything else: what they are built
    // from.
    if (isa<CXXConstructExpr>(E) || isa<InitListExpr>(E) ||
        isa<CXXStdInitializerListExpr>(E) || isa<ParenListExpr>(E)) {
      for (const Stmt *Child : E->children())
        collectIdentity(Child, Out);
      return;
    }
    collectOrigins(E, Out);
  }

  /// The call's result may be one of its arguments or its object: it returns
  /// a reference or a pointer, it is defined in user code or not known, it
  /// is called on a module, it is an in-place operation (add_(), the
  /// nn::init functions), or a tensor conversion that returns its object
  /// when there is nothing to do (to(), contiguous()).
  bool callMayReturnItsInput(const CallExpr *Call) {
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
    // In-place operations; a module or holder built from a member, whose
    // copy shares the member's parameter tensors (make_shared<Impl>(*m_)).
    if (tensorplace::compat::endsWith(Name, "_") || Name == "make_shared")
      return true;
    return Object && isTensorObject(Object) &&
           tensorplace::compat::isOneOf(Name, {"to", "cpu", "cuda",
                                               "contiguous", "type", "toType",
                                               "type_as", "set_requires_grad"});
  }

  void handleAssignment(const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    const FunctionDecl *Function =
        FunctionStack.empty() ? nullptr : FunctionStack.back();
    LHS = LHS->IgnoreParenImpCasts();
    if (const FieldDecl *Field = referencedField(LHS)) {
      Origins Read;
      collectOrigins(RHS, Read);
      // cache_ = cache_ + x reads the member before it writes it.
      if (!Read.count(Field->getCanonicalDecl()))
        PlainWriteTargets.insert(LHS);
      addWrite(Field, RHS, Function, Loc, WriteKind::Assign);
      return;
    }
    // Element writes: v_[i] = ..., v_.at(i) = ..., *opt_ = ...
    const Expr *Container = nullptr;
    if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(LHS)) {
      if (Sub->getOperator() == OO_Subscript || Sub->getOperator() == OO_Star)
        Container = Sub->getArg(0);
    } else if (const auto *Call = dyn_cast<CallExpr>(LHS)) {
      llvm::StringRef Name = calleeName(Call);
      if (Name == "at" || Name == "back" || Name == "front" || Name == "value")
        Container = memberCallObject(Call);
    }
    if (const FieldDecl *Field = referencedField(Container))
      addWrite(Field, RHS, Function, Loc, WriteKind::ElementInsert);
  }

  const FunctionDecl *innermostFunction() const {
    if (!LambdaStack.empty())
      return LambdaStack.back();
    return FunctionStack.empty() ? nullptr : FunctionStack.back();
  }

  void addCallSite(const CallExpr *Call, const FunctionDecl *Caller) {
    CallSite Site{Call, Caller, innermostFunction(), {}, {}};
    Site.Callees = CallGraph::callees(Call);
    if (Site.Callees.empty())
      return;
    // f(args) through operator() passes the object as argument 0.
    bool ObjectFirst = isa<CXXOperatorCallExpr>(Call) &&
                       isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee());
    for (const Expr *Arg : Call->arguments()) {
      if (ObjectFirst) {
        ObjectFirst = false;
        continue;
      }
      Site.ArgOrigins.emplace_back();
      collectIdentity(Arg, Site.ArgOrigins.back());
    }
    Sites.push_back(std::move(Site));
  }

  /// `this` or `*this` is an argument: the callee has the whole module.
  static bool passesThis(const CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      if (isa<CXXThisExpr>(Arg->IgnoreParenImpCasts()) ||
          (isa<UnaryOperator>(Arg->IgnoreParenImpCasts()) &&
           isa<CXXThisExpr>(cast<UnaryOperator>(Arg->IgnoreParenImpCasts())
                                ->getSubExpr()
                                ->IgnoreParenImpCasts())))
        return true;
    return false;
  }

  bool containsRegistrationLikeCall(
      const Stmt *S,
      const llvm::DenseSet<const FunctionDecl *> &RegisteringFunctions) const {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (RegistrationLikeCalls.count(Call))
        return true;
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (RegisteringFunctions.count(canonicalFunction(Callee)))
          return true;
    }
    for (const Stmt *Child : S->children())
      if (containsRegistrationLikeCall(Child, RegisteringFunctions))
        return true;
    return false;
  }

  void finish() {
    for (const FieldDecl *Field : DefaultInitCandidates)
      if (!FieldsWithCtorInit.count(Field->getCanonicalDecl()))
        addWrite(Field, nullptr, nullptr, Field->getLocation(),
                 WriteKind::DefaultInit);

    // Modules created right inside a registration: registered late, not
    // never.
    for (const RegistrationCall &R : Facts.Registrations)
      if (R.ConstructsModule)
        markCreations(R.Call, Facts.CreationsInRegistration);

    // torch::nn::Linear eager(...); weight = adopt(eager->weight, x): a module
    // built only to read its freshly initialised parameters out, never
    // called, stored or registered.
    for (const auto &Local : Facts.LocalInits) {
      const Expr *Init = skipValuePlumbing(Local.second);
      auto Use = LocalUses.find(Local.first);
      if (Facts.CreationExprs.count(Init) && Use != LocalUses.end() &&
          Use->second.Total > 0 && Use->second.Total == Use->second.FieldReads)
        Facts.InitializationTemplates.insert(Init);
    }

    // Construction path: constructors, reset(), and what they call.
    std::deque<const FunctionDecl *> Work;
    for (const FunctionDecl *F : Functions)
      if (isConstructionRoot(F) &&
          Facts.ConstructionFunctions.insert(canonicalFunction(F)).second)
        Work.push_back(canonicalFunction(F));
    while (!Work.empty()) {
      const FunctionDecl *F = Work.front();
      Work.pop_front();
      for (const CallGraph::Edge &Edge : Facts.Calls.callsFrom(F))
        if (Facts.ConstructionFunctions.insert(Edge.Callee).second)
          Work.push_back(Edge.Callee);
    }

    // Setup code the compiler could not make sense of may have held
    // registrations: the member rules say nothing about such classes. Errors
    // elsewhere (in forward(), say) do not hide registrations.
    for (const FunctionDecl *F : FunctionsWithErrors)
      if (Facts.isConstructionFunction(F))
        if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
          hideSetup(Method->getParent());

    // Setup that calls a method whose body is elsewhere may register
    // anything there. A method of the class itself, or a function given the
    // module (this), may register any member: the member rules say nothing
    // about such classes. A method called on a member registers, at most,
    // into that member's own module, never the member into this one.
    for (const CallSite &Site : Sites) {
      if (!Facts.isConstructionFunction(Site.Caller))
        continue;
      for (const FunctionDecl *Callee : Site.Callees) {
        if (Callee->isDefined() || !Filter.isUserCode(Callee->getLocation()))
          continue;
        const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        const auto *CallerMethod = dyn_cast<CXXMethodDecl>(Site.Caller);
        bool OnThis = Method && !Method->isStatic() &&
                      !memberCallObject(Site.Call) &&
                      !isa<CXXOperatorCallExpr>(Site.Call);
        if (const Expr *Object = memberCallObject(Site.Call))
          OnThis |= isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
        const CXXRecordDecl *CallerClass =
            CallerMethod ? CallerMethod->getParent() : nullptr;
        if (CallerClass && (OnThis || passesThis(Site.Call))) {
          // Another file may define the callee: the CLI, which sees the
          // project, settles what it does (functionKey() names it there).
          Facts.ClassesWithHiddenSetup.insert(CallerClass);
          if (isSettleableFunction(Callee))
            Facts.HiddenCallees[CallerClass].push_back({Site.Call, Callee});
          else
            hideSetup(CallerClass);
        }
        if (Method && isModuleClass(Method->getParent()))
          if (const CXXRecordDecl *Def = Method->getParent()->getDefinition())
            if (Def != CallerClass || !OnThis)
              hideSetup(Def);
      }
    }

    // Forward path: forward()/operator() of modules and what they call,
    // without entering constructors or reset().
    for (const FunctionDecl *F : Functions) {
      if (!isForwardRoot(F))
        continue;
      const FunctionDecl *Root = canonicalFunction(F);
      if (Facts.ForwardPaths.try_emplace(Root, ForwardPath{Root, nullptr, {}})
              .second)
        Work.push_back(Root);
    }
    while (!Work.empty()) {
      const FunctionDecl *F = Work.front();
      Work.pop_front();
      const FunctionDecl *Root = Facts.ForwardPaths.lookup(F).Root;
      for (const CallGraph::Edge &Edge : Facts.Calls.callsFrom(F)) {
        if (isConstructionRoot(Edge.Callee))
          continue;
        if (Facts.ForwardPaths
                .try_emplace(Edge.Callee,
                             ForwardPath{Root, F, Edge.Call->getBeginLoc()})
                .second)
          Work.push_back(Edge.Callee);
      }
    }

    // Registration helpers: functions that pass a parameter on to a
    // registration (directly or through another helper), and functions that
    // register at all (their result may be the registered tensor).
    llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<unsigned, 2>>
        HelperParams;
    llvm::DenseSet<const FunctionDecl *> RegisteringFunctions;
    auto MarkParams = [&](const Origins &O, const FunctionDecl *Owner) {
      bool Changed = false;
      for (const ValueDecl *D : O) {
        const auto *P = dyn_cast<ParmVarDecl>(D);
        if (!P || !Owner || P->getDeclContext() != Owner)
          continue;
        auto &Params = HelperParams[canonicalFunction(Owner)];
        unsigned Index = P->getFunctionScopeIndex();
        if (llvm::find(Params, Index) == Params.end()) {
          Params.push_back(Index);
          Changed = true;
        }
      }
      return Changed;
    };
    for (const RegistrationFlow &Flow : Flows) {
      MarkParams(Flow.ArgOrigins, Flow.Owner);
      for (const FunctionDecl *F : {Flow.Function, Flow.Owner})
        if (F)
          RegisteringFunctions.insert(canonicalFunction(F));
    }
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const CallSite &Site : Sites)
        for (const FunctionDecl *Callee : Site.Callees) {
          if (RegisteringFunctions.count(Callee) &&
              RegisteringFunctions.insert(canonicalFunction(Site.Caller))
                  .second)
            Changed = true;
          auto It = HelperParams.find(Callee);
          if (It == HelperParams.end())
            continue;
          llvm::SmallVector<unsigned, 2> Indices = It->second;
          for (unsigned Index : Indices)
            if (Index < Site.ArgOrigins.size())
              Changed |= MarkParams(Site.ArgOrigins[Index], Site.Owner);
        }
    }

    // Registered members.
    auto &Registered = Facts.Registered;
    auto AddFields = [&](const Origins &O, SourceLocation Where) {
      for (const ValueDecl *D : O)
        if (const auto *Field = dyn_cast<FieldDecl>(D))
          Registered.try_emplace(Field, Where);
    };
    // Everything passed to a registration, or to a helper parameter that
    // reaches one.
    auto ForEachRegisteredArgument =
        [&](llvm::function_ref<void(const Origins &, SourceLocation)> Visit) {
          for (const RegistrationFlow &Flow : Flows)
            Visit(Flow.ArgOrigins, Flow.Call->getBeginLoc());
          for (const CallSite &Site : Sites)
            for (const FunctionDecl *Callee : Site.Callees) {
              auto It = HelperParams.find(Callee);
              if (It == HelperParams.end())
                continue;
              for (unsigned Index : It->second)
                if (Index < Site.ArgOrigins.size())
                  Visit(Site.ArgOrigins[Index], Site.Call->getBeginLoc());
            }
        };
    ForEachRegisteredArgument(AddFields);
    for (const auto &Entry : ContainerInsertedFields)
      Registered.try_emplace(Entry.first, Entry.second);
    // t_ = register_buffer(...), fc_(register_module(...)), v_.push_back(
    // register_parameter(...)), w_ = my_helper(...).
    llvm::DenseMap<const FieldDecl *, Origins> ContainerChildren;
    for (const auto &Entry : Facts.Writes)
      for (const FieldWrite &W : Entry.second) {
        if (containsRegistrationLikeCall(W.Value, RegisteringFunctions)) {
          Registered.try_emplace(Entry.first, W.Loc);
          Facts.RegisteringWrites.insert(W.Value);
        }
        const CXXRecordDecl *Held = heldModuleClass(W.Field->getType());
        if (Held && isContainerModule(Held) && W.Value)
          collectOrigins(W.Value, ContainerChildren[Entry.first]);
      }
    // auto pe = ...; register_buffer("pe", pe); pe_ = pe: the member shares
    // the registered tensor. So does a member given a local that holds what a
    // registration returned. Only tensors and modules are shared so: a device
    // or a size passed along says nothing about another member.
    llvm::DenseSet<const ValueDecl *> RegisteredLocals;
    auto AddLocals = [&](const Origins &O) {
      for (const ValueDecl *D : O)
        if (isa<VarDecl>(D) && (isTensorLikeType(D->getType()) ||
                                isModuleHandleLikeType(D->getType())))
          RegisteredLocals.insert(D);
    };
    ForEachRegisteredArgument(
        [&](const Origins &O, SourceLocation) { AddLocals(O); });
    for (const auto &Local : Facts.LocalInits)
      if (containsRegistrationLikeCall(Local.second, RegisteringFunctions))
        RegisteredLocals.insert(Local.first);
    for (const auto &Entry : Facts.Writes)
      for (const FieldWrite &W : Entry.second) {
        Origins From;
        // v_.push_back(x) stores x.
        const auto *Insert = dyn_cast_or_null<CallExpr>(W.Value);
        if (W.Kind == WriteKind::ElementInsert && Insert &&
            isElementInsertName(calleeName(Insert)))
          for (const Expr *Arg : Insert->arguments())
            collectIdentity(Arg, From);
        else
          collectIdentity(W.Value, From);
        if (llvm::any_of(From, [&](const ValueDecl *D) {
              return RegisteredLocals.count(D);
            }))
          Registered.try_emplace(Entry.first, W.Loc);
      }

    for (const auto &Entry : ContainerChildren)
      for (const ValueDecl *D : Entry.second)
        if (const auto *Field = dyn_cast<FieldDecl>(D))
          if (Field->getCanonicalDecl() != Entry.first->getCanonicalDecl())
            Facts.ListedInContainer.try_emplace(Field->getCanonicalDecl(),
                                                Entry.first);
    // seq_ = Sequential(a_, b_); register_module("seq", seq_): a_ and b_
    // are registered through seq_.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &Entry : ContainerChildren) {
        auto Container = Registered.find(Entry.first);
        if (Container == Registered.end())
          continue;
        SourceLocation Where = Container->second;
        for (const ValueDecl *D : Entry.second)
          if (const auto *Field = dyn_cast<FieldDecl>(D))
            Changed |= Registered.try_emplace(Field, Where).second;
      }
    }

    // Per-call caches: each forward root's first mention is a plain write.
    for (const auto &Entry : FirstUseOnForward) {
      const FieldDecl *Field = Entry.first.second;
      auto Inserted =
          Facts.WrittenFirstOnForward.try_emplace(Field, Entry.second);
      if (!Inserted.second)
        Inserted.first->second &= Entry.second;
    }
  }

  ModuleFacts &Facts;
  UserCodeFilter Filter;
  ASTContext &Ctx;
  llvm::SmallVector<const FunctionDecl *, 4> FunctionStack;
  llvm::SmallVector<const FunctionDecl *, 2> LambdaStack;
  std::vector<const FunctionDecl *> FunctionsWithErrors;
  struct LocalUse {
    unsigned Total = 0;
    unsigned FieldReads = 0;
  };
  llvm::DenseMap<const VarDecl *, LocalUse> LocalUses;
  llvm::DenseSet<const DeclRefExpr *> FieldReadObjects;
  const FunctionDecl *CurrentForwardRoot = nullptr;
  std::vector<const FunctionDecl *> Functions;
  /// What a local may have been computed from.
  llvm::DenseMap<const VarDecl *, Origins> Aliases;
  /// What a local may be the very object of (collectIdentity()).
  llvm::DenseMap<const VarDecl *, Origins> ValueAliases;
  std::vector<RegistrationFlow> Flows;
  std::vector<CallSite> Sites;
  llvm::DenseSet<const CallExpr *> RegistrationLikeCalls;
  llvm::DenseMap<const FieldDecl *, SourceLocation> ContainerInsertedFields;
  llvm::DenseSet<const FieldDecl *> FieldsWithCtorInit;
  std::vector<const FieldDecl *> DefaultInitCandidates;
  llvm::DenseSet<const Expr *> PlainWriteTargets;
  llvm::DenseMap<std::pair<const FunctionDecl *, const FieldDecl *>, bool>
      FirstUseOnForward;
};

ModuleFacts::ModuleFacts(ASTContext &Ctx, const CallGraph &Calls)
    : Context(Ctx), Calls(Calls) {
  Builder(Ctx, *this).run();
}

llvm::ArrayRef<ModuleFacts::FieldWrite>
ModuleFacts::writesTo(const FieldDecl *Field) const {
  auto It = Writes.find(Field->getCanonicalDecl());
  if (It == Writes.end())
    return {};
  return It->second;
}

bool ModuleFacts::isConstructionFunction(const FunctionDecl *F) const {
  return F && ConstructionFunctions.count(canonicalFunction(F));
}

const ModuleFacts::ForwardPath *
ModuleFacts::forwardPath(const FunctionDecl *F) const {
  if (!F)
    return nullptr;
  auto It = ForwardPaths.find(canonicalFunction(F));
  return It == ForwardPaths.end() ? nullptr : &It->second;
}

bool ModuleFacts::isPerCallCache(const FieldDecl *Field) const {
  auto It = WrittenFirstOnForward.find(Field->getCanonicalDecl());
  return It != WrittenFirstOnForward.end() && It->second;
}

SourceLocation ModuleFacts::registrationLoc(const FieldDecl *Field) const {
  return Registered.lookup(Field->getCanonicalDecl());
}

bool ModuleFacts::hasHiddenSetup(const CXXRecordDecl *Class) const {
  const CXXRecordDecl *Def = Class->getDefinition();
  return ClassesWithHiddenSetup.count(Def ? Def : Class);
}

llvm::ArrayRef<ModuleFacts::HiddenCall>
ModuleFacts::settleableHiddenSetup(const CXXRecordDecl *Class) const {
  const CXXRecordDecl *Def = Class->getDefinition();
  Def = Def ? Def : Class;
  if (!ClassesWithHiddenSetup.count(Def) || UnsettledClasses.count(Def))
    return {};
  auto It = HiddenCallees.find(Def);
  if (It == HiddenCallees.end())
    return {};
  return It->second;
}

bool ModuleFacts::isStatelessModuleClass(const CXXRecordDecl *Impl) const {
  if (!Impl)
    return false;
  if (isStatelessBuiltinModule(Impl))
    return true;
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def || llvm::find(ModuleClasses, Def) == ModuleClasses.end())
    return false; // Not defined in user code here: assume it has state.
  if (ClassesWithState.count(Def) || ClassesWithHiddenSetup.count(Def))
    return false;
  // A base that concrete modules derive from may hold anything through them.
  if (Def->isAbstract() ||
      llvm::any_of(ModuleClasses, [Def](const CXXRecordDecl *Other) {
        return Other != Def && Other->isDerivedFrom(Def);
      }))
    return false;
  for (const FieldDecl *Field : Def->fields())
    if (isStateMemberType(Field->getType()))
      return false;
  for (const CXXBaseSpecifier &Base : Def->bases()) {
    const CXXRecordDecl *BaseClass = recordOf(Base.getType());
    if (!BaseClass)
      return false;
    if (!isFrontendModuleBase(BaseClass) && isModuleClass(BaseClass) &&
        !isStatelessModuleClass(BaseClass))
      return false;
  }
  return true;
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
      auto It = LocalInits.find(V);
      if (It != LocalInits.end())
        return Recurse(It->second);
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
    if (isa<MemberExpr>(P))
      return false; // Another member, or another module's parameter.
    if (isa<CXXNullPtrLiteralExpr>(P) || isa<IntegerLiteral>(P) ||
        isa<CXXBoolLiteralExpr>(P) || isa<FloatingLiteral>(P))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      llvm::StringRef Name = calleeName(Call);
      if (isRegistrationName(Name) || Name == "parameters" ||
          Name == "named_parameters" || Name == "buffers" ||
          Name == "named_buffers")
        return false;
      if (Call->getCallReturnType(Context)->isReferenceType())
        return false; // A reference to a tensor held elsewhere.
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
    if (CreationExprs.count(P) || isa<CXXNewExpr>(P))
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
