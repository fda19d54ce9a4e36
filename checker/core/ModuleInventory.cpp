//===- ModuleInventory.cpp ------------------------------------------------===//

#include "tensorplace/checker/ModuleInventory.h"
#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/Config.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace tensorplace {

namespace {

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

/// A module handle or object built from constructor arguments, not copied
/// from another handle nor made empty with nullptr.
bool constructsNewModule(const CXXConstructExpr *CE) {
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

} // namespace

bool isForwardRoot(const FunctionDecl *F) {
  return isForwardName(F) && moduleClassOfMethod(F);
}

bool isConstructionRoot(const FunctionDecl *F) {
  if (isa<CXXConstructorDecl>(F))
    return true;
  return F->getDeclName().isIdentifier() && F->getName() == "reset" &&
         F->getNumParams() == 0 && moduleClassOfMethod(F);
}

bool ModuleInventory::isRegistrationName(llvm::StringRef Name) {
  return Name == "register_parameter" || Name == "register_buffer" ||
         Name == "register_module" || Name == "replace_module";
}

class ModuleInventory::Walk : public RecursiveASTVisitor<Walk> {
  using Base = RecursiveASTVisitor<Walk>;

public:
  Walk(ASTContext &Ctx, ModuleInventory &Out, ValueIdentity &Identity)
      : Out(Out), Identity(Identity), Filter(Ctx.getSourceManager()), Ctx(Ctx) {
  }

  void run() {
    TraverseDecl(Ctx.getTranslationUnitDecl());
    addDefaultInits();
    findInitializationTemplates();
    findPerCallCaches();
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
    Out.Functions.push_back(F);
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
      Out.FunctionsWithErrors.push_back(FunctionStack.back());
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
    Out.ModuleClasses.push_back(RD);
    if (RD->isInvalidDecl() ||
        llvm::any_of(RD->fields(),
                     [](const FieldDecl *F) { return F->isInvalidDecl(); }))
      Out.UndefinedSetup.push_back(RD);
    // The file that defines the constructor or reset() sees the setup.
    for (const CXXConstructorDecl *Ctor : RD->ctors())
      if (Ctor->isUserProvided() && !Ctor->isDefined())
        Out.UndefinedSetup.push_back(RD);
    for (const CXXMethodDecl *M : RD->methods())
      if (isConstructionRoot(M) && !M->isDefined())
        Out.UndefinedSetup.push_back(RD);
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
    Out.LocalInits[VD] = VD->getInit();
    Identity.bind(VD, VD->getInit());
    return true;
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    // for (auto &t : tensors_) register_buffer(name, t): t stands for the
    // member's elements.
    if (const VarDecl *LoopVar = S->getLoopVariable())
      Identity.bind(LoopVar, S->getRangeInit());
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
    noteUse(Field, ME);
    return true;
  }

  // this->t_ in a template, before the member is resolved.
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    const FieldDecl *Field = namedField(E);
    if (Field && !FunctionStack.empty())
      noteUse(Field, E);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Caller =
        FunctionStack.empty() ? nullptr : FunctionStack.back();
    llvm::StringRef Name = calleeName(Call);

    if (isRegistrationCall(Call, Name)) {
      RegistrationSite Site{Call, Caller, innermostFunction(), {}};
      for (const Expr *Arg : Call->arguments())
        Identity.identity(Arg, Site.Arguments);
      Out.RegistrationSites.push_back(std::move(Site));
      Out.RegistrationSiteCalls.insert(Call);
      if (Caller) {
        if (const auto *M = dyn_cast<CXXMethodDecl>(Caller))
          Out.ClassesWithState.insert(M->getParent());
        Out.Registrations.push_back({Call, Name, Caller,
                                     followsInputDevice(Call),
                                     containsModuleCreation(Call)});
      }
    }
    if (Name == "is_training" && Caller)
      if (const auto *M = dyn_cast<CXXMethodDecl>(Caller))
        Out.ClassesWithState.insert(M->getParent());

    if (const Expr *Object = memberCallObject(Call)) {
      // seq->push_back(fc_): fc_ is registered through the container module.
      if (isModuleContainerInsertName(Name) && isModuleObject(Object))
        for (const Expr *Arg : Call->arguments()) {
          ValueIdentity::Decls Inserted;
          Identity.origins(Arg, Inserted);
          for (const ValueDecl *D : Inserted) {
            if (const auto *Field = dyn_cast<FieldDecl>(D))
              Out.ContainerInsertedFields.try_emplace(Field,
                                                      Call->getBeginLoc());
            if (const auto *Local = dyn_cast<VarDecl>(D))
              if (Local->hasLocalStorage() &&
                  isModuleHandleLikeType(Local->getType()))
                Out.ContainerInsertedLocals.insert(Local);
          }
        }
      if (isElementInsertName(Name))
        if (const FieldDecl *Field = namedField(Object))
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
  using WriteKind = ModuleInventory::WriteKind;

  void addWrite(const FieldDecl *Field, const Expr *Value,
                const FunctionDecl *Function, SourceLocation Loc,
                WriteKind Kind) {
    QualType T = Field->getType();
    if (!isTensorLikeType(T) && !isModuleHandleLikeType(T) &&
        !isModuleValueLikeType(T) && !isScriptModuleType(T) &&
        !isAnyModuleType(T) && !pointedModuleClass(T))
      return;
    Out.Writes[Field->getCanonicalDecl()].push_back(
        {Field, Value, Function, Loc, Kind});
  }

  /// Field is named by Use in a function: used, and on the forward path,
  /// whether it is written before it is read.
  void noteUse(const FieldDecl *Field, const Expr *Use) {
    Out.UsedFields.insert(Field->getCanonicalDecl());
    if (CurrentForwardRoot)
      FirstUseOnForward.try_emplace(
          {CurrentForwardRoot, Field->getCanonicalDecl()},
          PlainWriteTargets.count(Use) != 0);
  }

  void addCreation(const Expr *E, const CXXRecordDecl *Impl,
                   const FunctionDecl *Function) {
    Out.Creations.push_back({E, Impl, Function});
    Out.CreationExprs.insert(E);
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
    if (!isRegistrationName(Name))
      return false;
    // Resolved: it must be torch::nn::Module's. Unresolved (in a template
    // with a dependent base): the name is all there is.
    if (const auto *M =
            dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
      return isModuleClass(M->getParent());
    return true;
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
        ValueIdentity::Decls From;
        Identity.origins(Source, From);
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

  void handleAssignment(const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    const FunctionDecl *Function =
        FunctionStack.empty() ? nullptr : FunctionStack.back();
    LHS = LHS->IgnoreParenImpCasts();
    if (const FieldDecl *Field = namedField(LHS)) {
      ValueIdentity::Decls Read;
      Identity.origins(RHS, Read);
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
    if (const FieldDecl *Field = namedField(Container))
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
      Site.Arguments.emplace_back();
      Identity.identity(Arg, Site.Arguments.back());
    }
    Out.Sites.push_back(std::move(Site));
  }

  /// Holders declared without an initializer, and never given one by a
  /// constructor, default-construct their module.
  void addDefaultInits() {
    for (const FieldDecl *Field : DefaultInitCandidates)
      if (!FieldsWithCtorInit.count(Field->getCanonicalDecl()))
        addWrite(Field, nullptr, nullptr, Field->getLocation(),
                 WriteKind::DefaultInit);
  }

  /// torch::nn::Linear eager(...); weight = adopt(eager->weight, x): a module
  /// built only to read its freshly initialised parameters out, never
  /// called, stored or registered.
  void findInitializationTemplates() {
    for (const auto &Local : Out.LocalInits) {
      const Expr *Init = skipValuePlumbing(Local.second);
      auto Use = LocalUses.find(Local.first);
      if (Out.CreationExprs.count(Init) && Use != LocalUses.end() &&
          Use->second.Total > 0 && Use->second.Total == Use->second.FieldReads)
        Out.InitializationTemplates.insert(Init);
    }
  }

  /// Per-call caches: each forward root's first mention is a plain write.
  void findPerCallCaches() {
    for (const auto &Entry : FirstUseOnForward) {
      const FieldDecl *Field = Entry.first.second;
      auto Inserted =
          Out.WrittenFirstOnForward.try_emplace(Field, Entry.second);
      if (!Inserted.second)
        Inserted.first->second &= Entry.second;
    }
  }

  ModuleInventory &Out;
  ValueIdentity &Identity;
  UserCodeFilter Filter;
  ASTContext &Ctx;
  llvm::SmallVector<const FunctionDecl *, 4> FunctionStack;
  llvm::SmallVector<const FunctionDecl *, 2> LambdaStack;
  struct LocalUse {
    unsigned Total = 0;
    unsigned FieldReads = 0;
  };
  llvm::DenseMap<const VarDecl *, LocalUse> LocalUses;
  llvm::DenseSet<const DeclRefExpr *> FieldReadObjects;
  const FunctionDecl *CurrentForwardRoot = nullptr;
  llvm::DenseSet<const FieldDecl *> FieldsWithCtorInit;
  std::vector<const FieldDecl *> DefaultInitCandidates;
  llvm::DenseSet<const Expr *> PlainWriteTargets;
  llvm::DenseMap<std::pair<const FunctionDecl *, const FieldDecl *>, bool>
      FirstUseOnForward;
};

ModuleInventory::ModuleInventory(ASTContext &Ctx, ValueIdentity &Identity) {
  Walk(Ctx, *this, Identity).run();
}

bool ModuleInventory::isModuleClassHere(const CXXRecordDecl *Def) const {
  return llvm::is_contained(ModuleClasses, Def);
}

llvm::ArrayRef<ModuleInventory::FieldWrite>
ModuleInventory::writesTo(const FieldDecl *Field) const {
  auto It = Writes.find(Field->getCanonicalDecl());
  if (It == Writes.end())
    return {};
  return It->second;
}

bool ModuleInventory::isWrittenFirstOnForward(const FieldDecl *Field) const {
  auto It = WrittenFirstOnForward.find(Field->getCanonicalDecl());
  return It != WrittenFirstOnForward.end() && It->second;
}

} // namespace tensorplace
