//===- UnregisteredSubmodule.cpp ------------------------------------------===//

#include "UnregisteredSubmodule.h"
#include "FunctionBody.h"
#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <optional>

using namespace clang;

namespace tensorplace {

/// Dropout, BatchNorm and the like change behaviour with train()/eval();
/// missing that is the part users notice first.
static bool switchesWithTraining(const CXXRecordDecl *Impl) {
  llvm::StringRef Name = Impl->getName();
  return Name.contains("Dropout") || Name.contains("BatchNorm") ||
         Name.contains("InstanceNorm") || Name == "RReLUImpl";
}

/// A user module class with no tensor or module members of its own, that
/// registers nothing in the code seen here, and whose setup is in another
/// file: whether it holds state is unknown, so it is not claimed.
static bool hasUnknownState(const ModuleFacts &Facts,
                            const CXXRecordDecl *Impl) {
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def || !Facts.hasHiddenSetup(Def))
    return false;
  for (const FieldDecl *Field : Def->fields())
    if (isStateMemberType(Field->getType()))
      return false;
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(R.Function))
      if (Method->getParent()->getCanonicalDecl() == Def->getCanonicalDecl())
        return false;
  return true;
}

/// A module class that owns parameters, buffers or submodules: a built-in
/// that is neither stateless nor a container (whose state is whatever is put
/// in it), or a user class that, or whose base, registers something in code
/// seen here.
static bool hasKnownState(const ModuleFacts &Facts, const CXXRecordDecl *Impl,
                          unsigned Depth = 0) {
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def || Depth > 4)
    return false;
  if (isFrontendModuleBase(Def))
    return false;
  if (isLibTorchModuleClass(Def))
    return !isStatelessBuiltinModule(Def) && !isContainerModule(Def);
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(R.Function)) {
      const CXXRecordDecl *Owner = Method->getParent()->getDefinition();
      if (Owner && (Owner->getCanonicalDecl() == Def->getCanonicalDecl() ||
                    Def->isDerivedFrom(Owner)))
        return true;
    }
  // A class that forgot to register its own layers still holds them
  // (`Attn() : proj(Linear(8, 8)) {}`): a module with state, given one at
  // construction, is state that Module::to() would have to reach.
  for (const FieldDecl *Field : Def->fields()) {
    const CXXRecordDecl *Held = nullptr;
    if (!isModuleHandleLikeType(Field->getType(), &Held) &&
        !isModuleValueLikeType(Field->getType(), &Held))
      continue;
    if (!Held || Held->getCanonicalDecl() == Def->getCanonicalDecl() ||
        !hasKnownState(Facts, Held, Depth + 1))
      continue;
    if (llvm::any_of(
            Facts.writesTo(Field), [&](const ModuleFacts::FieldWrite &W) {
              return Facts.isConstructionWrite(W) && Facts.givesModule(W);
            }))
      return true;
  }
  return false;
}

/// A write that puts modules into a container member: anything but `= {}`.
static bool fillsContainer(const ModuleFacts::FieldWrite &W) {
  if (!W.Value || W.Kind == ModuleFacts::WriteKind::DefaultInit)
    return false;
  const Expr *Value = skipValuePlumbing(W.Value);
  if (const auto *List = dyn_cast<InitListExpr>(Value))
    return List->getNumInits() > 0;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value))
    return Construct->getNumArgs() > 0;
  return true;
}

/// A member that holds a module object by value (ResidualImpl block_;
/// std::vector<Block> blocks_;): register_module() takes a handle, so what it
/// holds is never registered. Reported when the module class has state and
/// the member is used, and, for a container, given modules.
/// StateElsewhere: Held's state is not known here, and the finding is to wait
/// on these setup functions of other files (empty: Held must have known
/// state).
static std::optional<Finding>
checkByValue(const ModuleFacts &Facts, const CXXRecordDecl *Class,
             const FieldDecl *Field, const CXXRecordDecl *Held,
             const std::vector<std::string> &StateElsewhere,
             llvm::StringRef Check, ASTContext &Ctx) {
  if (Facts.isRegistered(Field) || !Facts.isUsedInFunctions(Field) ||
      (StateElsewhere.empty() && !hasKnownState(Facts, Held)))
    return std::nullopt;
  bool Single = isModuleClass(recordOf(Field->getType()));
  SourceLocation WriteLoc;
  if (!Single) {
    for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
      if (fillsContainer(W)) {
        WriteLoc = W.Loc;
        break;
      }
    if (WriteLoc.isInvalid())
      return std::nullopt;
  }
  std::string Member = Field->getNameAsString();
  std::string Module = Held->getNameAsString();
  Finding F;
  if (!placeMemberFinding(Field, WriteLoc, Check, Ctx, F))
    return std::nullopt;
  F.Message =
      "'" + Member + "' holds " +
      (Single ? "a '" + Module + "' module" : "'" + Module + "' modules") +
      " by value in module '" + Class->getNameAsString() +
      "'; a module held by value cannot be registered, so "
      "Module::to(), parameters(), train()/eval() and torch::save() "
      "will not reach " +
      (Single ? "it" : "them");
  F.Notes.push_back(
      {WriteLoc.isValid() ? WriteLoc : Field->getLocation(),
       std::string(Single ? "hold it through a module holder or a "
                            "std::shared_ptr and register it with "
                            "register_module()"
                          : "hold the elements through module holders and "
                            "register each with register_module(), or use "
                            "a torch::nn::ModuleList") +
           ", or silence with // NOLINT(torch-unregistered-submodule)"});
  if (!StateElsewhere.empty())
    waitOnStateOf(Held, StateElsewhere, F);
  return F;
}

/// A raw pointer member to a module that the class makes itself with new at
/// construction (`Block *body = new Block();`, `body_ = new BlockImpl(c)` in
/// the constructor) and never registers. A pointer given anything else (a
/// parameter, another module's child, this) points to a module owned
/// elsewhere and is not judged.
static std::optional<Finding>
checkRawPointer(const ModuleFacts &Facts, const CXXRecordDecl *Class,
                const FieldDecl *Field, const CXXRecordDecl *Held,
                const std::vector<std::string> &StateElsewhere,
                llvm::StringRef Check, ASTContext &Ctx) {
  if (Facts.isRegistered(Field) ||
      (StateElsewhere.empty() && !hasKnownState(Facts, Held)))
    return std::nullopt;
  const ModuleFacts::FieldWrite *Made = nullptr;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (Facts.isConstructionWrite(W) && W.Value &&
        isa<CXXNewExpr>(skipValuePlumbing(W.Value))) {
      Made = &W;
      break;
    }
  }
  if (!Made)
    return std::nullopt;
  std::string Member = Field->getNameAsString();
  Finding F;
  if (!placeMemberFinding(Field, Made->Loc, Check, Ctx, F))
    return std::nullopt;
  F.Message = "'" + Member + "' points to a '" + Held->getNameAsString() +
              "' module of module '" + Class->getNameAsString() +
              "' that is never registered; Module::to(), parameters(), "
              "train()/eval() and torch::save() will not reach it";
  F.Notes.push_back(
      {Made->Loc, "'" + Member +
                      "' is given a new module here; hold it through a "
                      "module holder or a std::shared_ptr and register it "
                      "with register_module(), or silence with // "
                      "NOLINT(torch-unregistered-submodule)"});
  if (!StateElsewhere.empty())
    waitOnStateOf(Held, StateElsewhere, F);
  return F;
}

/// Object is the member Field, or what its handle points to: `fc_`,
/// `fc_->` (what operator-> gives), `*fc_`, `(*fc_)`.
static bool namesMember(const Expr *Object, const FieldDecl *Field) {
  if (!Object)
    return false;
  Object = Object->IgnoreParenImpCasts();
  if (const auto *Star = dyn_cast<UnaryOperator>(Object);
      Star && Star->getOpcode() == UO_Deref)
    Object = Star->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object))
    if ((Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star) &&
        Op->getNumArgs() == 1)
      Object = Op->getArg(0)->IgnoreParenImpCasts();
  const auto *Member = dyn_cast<MemberExpr>(Object);
  return Member && Member->getMemberDecl()->getCanonicalDecl() ==
                       Field->getCanonicalDecl();
}

/// The member is the object of a to(), cuda() or cpu() call somewhere in the
/// code seen here (backbone.to(device), model->backbone.cuda(), p->to(d)).
static bool isMovedByHand(const FieldDecl *Field, ASTContext &Ctx) {
  bool Moved = false;
  forEachUserFunction(Ctx, [&](const FunctionDecl *F) {
    if (Moved)
      return;
    FunctionBody Body(F);
    for (const Stmt *S : Body.statements()) {
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call)
        continue;
      llvm::StringRef Name = calleeName(Call);
      if (Name != "to" && Name != "cuda" && Name != "cpu")
        continue;
      if (namesMember(memberCallObject(Call), Field)) {
        Moved = true;
        return;
      }
    }
  });
  return Moved;
}

/// What Function does with the module member Field through calls on it:
/// moves it (to(), cuda(), cpu()), or runs it (operator(), forward(), or any
/// other method that is not bookkeeping: PredictQValues(obs)).
struct MemberCalls {
  bool Moves = false;
  bool Runs = false;
};

static void addMemberCalls(const FunctionDecl *Function, const FieldDecl *Field,
                           MemberCalls &Out) {
  FunctionBody Body(Function);
  for (const Stmt *S : Body.statements()) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      continue;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (Op->getOperator() == OO_Call && Op->getNumArgs() >= 1 &&
          namesMember(Op->getArg(0), Field))
        Out.Runs = true;
      continue;
    }
    if (!namesMember(memberCallObject(Call), Field))
      continue;
    llvm::StringRef Name = calleeName(Call);
    if (tensorplace::compat::isOneOf(Name, {"to", "cuda", "cpu"}))
      Out.Moves = true;
    else if (!tensorplace::compat::isOneOf(
                 Name, {"train", "eval", "is_training", "parameters",
                        "named_parameters", "buffers", "named_buffers",
                        "children", "named_children", "modules",
                        "named_modules", "zero_grad", "pretty_print", "get",
                        "ptr", "is_empty", "name", "save", "load"}))
      Out.Runs = true;
  }
}

/// A network the module keeps beside its own computation and looks after
/// itself: a method of the class moves it by hand (`critic_->to(device_)`),
/// and none runs it. An actor-critic policy's critic and target networks,
/// handed out through getters, are kept out of the policy's module tree on
/// purpose: the actor's optimizer is built from the policy's parameters(),
/// and registering the critic would make it step the critic's weights too.
static bool isCompanionNetwork(const CXXRecordDecl *Class,
                               const FieldDecl *Field) {
  MemberCalls Calls;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Def = nullptr;
    if (Method->hasBody(Def) && Def)
      addMemberCalls(Def, Field, Calls);
  }
  return Calls.Moves && !Calls.Runs;
}

/// The class or one of its bases declares to(): an override that can move
/// what Module::to() cannot reach.
static bool overridesTo(const CXXRecordDecl *Class, unsigned Depth = 0) {
  const CXXRecordDecl *Def = Class ? Class->getDefinition() : nullptr;
  if (!Def || Depth > 8 || isFrontendModuleBase(Def) ||
      isLibTorchModuleClass(Def))
    return false;
  for (const CXXMethodDecl *M : Def->methods())
    if (M->getDeclName().isIdentifier() && M->getName() == "to")
      return true;
  for (const CXXBaseSpecifier &Base : Def->bases())
    if (overridesTo(recordOf(Base.getType()), Depth + 1))
      return true;
  return false;
}

/// A TorchScript module held in a module (a pretrained backbone):
/// register_module() cannot take one, so the parent's to() never moves it.
/// Reported when it is used, and nothing in the code seen here moves it by
/// hand or overrides to().
static std::optional<Finding> checkScriptModule(const ModuleFacts &Facts,
                                                const CXXRecordDecl *Class,
                                                const FieldDecl *Field,
                                                llvm::StringRef Check,
                                                ASTContext &Ctx) {
  if (!Facts.isUsedInFunctions(Field) || overridesTo(Class) ||
      isMovedByHand(Field, Ctx))
    return std::nullopt;
  SourceLocation WriteLoc;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (W.Value) {
      WriteLoc = W.Loc;
      break;
    }
  std::string Member = Field->getNameAsString();
  Finding F;
  if (!placeMemberFinding(Field, WriteLoc, Check, Ctx, F))
    return std::nullopt;
  F.Message = "'" + Member +
              "' holds a TorchScript module (torch::jit::Module) "
              "in module '" +
              Class->getNameAsString() +
              "'; register_module() cannot take one, so Module::to(), "
              "parameters(), train()/eval() and torch::save() will not reach "
              "it";
  F.Notes.push_back(
      {WriteLoc.isValid() ? WriteLoc : Field->getLocation(),
       "move it with " + Member +
           ".to(device) where the module is moved (an override of to() does "
           "it for every caller), or silence with // "
           "NOLINT(torch-unregistered-submodule)"});
  return F;
}

/// Every expression under S.
static void collectExprs(const Stmt *S, llvm::DenseSet<const Expr *> &Out) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    Out.insert(E);
  for (const Stmt *Child : S->children())
    collectExprs(Child, Out);
}

/// A torch::nn::AnyModule member given a module made there with state
/// (`norm_ = torch::nn::AnyModule(torch::nn::BatchNorm2d(c))`) and never
/// registered: register_module(name, norm_.ptr()) is what registers it. A
/// module that another function makes (`norm_ = make_norm(kind, c)`, maybe an
/// activation) is not judged.
static std::optional<Finding>
checkAnyModule(const ModuleFacts &Facts, const CXXRecordDecl *Class,
               const FieldDecl *Field, llvm::StringRef Check, ASTContext &Ctx) {
  if (Facts.isRegistered(Field) || !Facts.isUsedInFunctions(Field))
    return std::nullopt;
  const ModuleFacts::FieldWrite *Write = nullptr;
  const CXXRecordDecl *Held = nullptr;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (!W.Value || W.Kind == ModuleFacts::WriteKind::ElementInsert)
      continue;
    llvm::DenseSet<const Expr *> Parts;
    collectExprs(W.Value, Parts);
    for (const ModuleFacts::ModuleCreation &C : Facts.moduleCreations())
      if (Parts.count(C.Creation) && hasKnownState(Facts, C.Impl) &&
          !Facts.isRegisteredWhereCreated(C.Creation)) {
        Write = &W;
        Held = C.Impl;
        break;
      }
    if (Write)
      break;
  }
  if (!Write)
    return std::nullopt;
  std::string Member = Field->getNameAsString();
  Finding F;
  if (!placeMemberFinding(Field, Write->Loc, Check, Ctx, F))
    return std::nullopt;
  F.Message = "'" + Member + "' holds a submodule of module '" +
              Class->getNameAsString() +
              "' that is never registered; Module::to(), parameters(), "
              "train()/eval() and torch::save() will not reach it";
  if (switchesWithTraining(Held))
    F.Message += ", so '" + Held->getNameAsString() +
                 "' stays in training mode after eval()";
  F.Notes.push_back(
      {Write->Loc, "'" + Member + "' is given a '" + Held->getNameAsString() +
                       "' here; register it with register_module(\"" +
                       registeredName(Member) + "\", " + Member +
                       ".ptr()), or silence with // "
                       "NOLINT(torch-unregistered-submodule)"});
  return F;
}

/// A holder registered and then, in the same construction function, given
/// another module: `Net() : fc(register_module("fc", Linear(8, 4))) { fc =
/// Linear(8, 2); }`. From then on the parent holds the registered module and
/// the member a module that is never registered.
static std::optional<Finding>
checkReboundAtConstruction(const ModuleFacts &Facts, const CXXRecordDecl *Class,
                           const FieldDecl *Field, const CXXRecordDecl *Held,
                           ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (W.Kind != ModuleFacts::WriteKind::Assign || !W.Function ||
        !Facts.isConstructionFunction(W.Function) || Facts.writeRegisters(W) ||
        !Facts.givesModule(W))
      continue;
    RegistrationOrder Order = registrationsAround(Facts, W, SM);
    if (!Order.Before || Order.After)
      continue;
    std::string Member = Field->getNameAsString();
    Finding F;
    F.Loc = W.Loc;
    F.Message = "'" + Member + "' holds a submodule of module '" +
                Class->getNameAsString() +
                "' that is never registered: this assignment replaces the "
                "module registered before it, so Module::to(), parameters(), "
                "train()/eval() and torch::save() reach the registered one, "
                "which forward() does not use";
    if (Held && switchesWithTraining(Held))
      F.Message += ", and '" + Held->getNameAsString() +
                   "' stays in training mode after eval()";
    F.Notes.push_back(
        {Facts.registrationLoc(Field), "'" + Member + "' is registered here"});
    F.Notes.push_back(
        {W.Loc, "give the registration this module instead, or swap it "
                "with " +
                    Member + " = replace_module(\"" + registeredName(Member) +
                    "\", ...), or silence with "
                    "// NOLINT(torch-unregistered-submodule)"});
    return F;
  }
  return std::nullopt;
}

/// A call that adds to the container member Field (seq_->push_back(),
/// list_->extend(), dict_->update(), ...) in one of Class's methods.
struct ContainerInsert {
  const CallExpr *Call;
  const FunctionDecl *Function;
};

static std::vector<ContainerInsert> insertionsInto(const CXXRecordDecl *Class,
                                                   const FieldDecl *Field) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FieldDecl *Field;
    const FunctionDecl *Function = nullptr;
    std::vector<ContainerInsert> Found;
    bool VisitCallExpr(CallExpr *Call) {
      if (!isModuleContainerInsertName(calleeName(Call)))
        return true;
      // seq_->push_back(x) calls push_back on what seq_.operator->() gives.
      if (namesMember(memberCallObject(Call), Field))
        Found.push_back({Call, Function});
      return true;
    }
  } F;
  F.Field = Field;
  for (const CXXMethodDecl *Method : Class->methods())
    if (const Stmt *Body = Method->getBody()) {
      F.Function = canonicalFunction(Method);
      F.TraverseStmt(const_cast<Stmt *>(Body));
    }
  for (const CXXConstructorDecl *Ctor : Class->ctors())
    if (const FunctionDecl *Def = Ctor->getDefinition()) {
      F.Function = canonicalFunction(Def);
      for (const CXXCtorInitializer *Init :
           cast<CXXConstructorDecl>(Def)->inits())
        F.TraverseStmt(Init->getInit());
    }
  return std::move(F.Found);
}

/// A member of Class that is registered itself, as Arg names it.
static bool isRegisteredMemberArg(const ModuleFacts &Facts,
                                  const CXXRecordDecl *Class, const Expr *Arg) {
  const auto *Member = dyn_cast<MemberExpr>(skipValuePlumbing(Arg));
  const auto *Child =
      Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  return Child && Child->getParent() == Class && Facts.isRegistered(Child);
}

/// A module that Function registers under Class itself: what a registration
/// returns (list_->push_back(register_module("b", Block()))), a registered
/// member, or a local also passed to a registration in the same function
/// (auto b = Block(); register_module("b", b); list_->push_back(b)).
static bool isRegisteredModuleValue(const ModuleFacts &Facts,
                                    const CXXRecordDecl *Class, const Expr *Arg,
                                    const FunctionDecl *Function) {
  // Also through a conversion to std::shared_ptr<Module> (LibTorch's
  // ModuleList::push_back(std::shared_ptr<Module>)).
  const Expr *E = skipValuePlumbing(Arg);
  while (const auto *Convert = dyn_cast<CXXConstructExpr>(E)) {
    if (Convert->getNumArgs() == 0 ||
        (Convert->getNumArgs() > 1 &&
         !isa<CXXDefaultArgExpr>(Convert->getArg(1))) ||
        !isModuleObject(Convert->getArg(0)))
      break;
    E = skipValuePlumbing(Convert->getArg(0));
  }
  auto IsRegistration = [](const Expr *V) {
    const auto *Call = dyn_cast_or_null<CallExpr>(skipValuePlumbing(V));
    return Call && ModuleFacts::isRegistrationName(calleeName(Call));
  };
  if (IsRegistration(E) || isRegisteredMemberArg(Facts, Class, E))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
    return false;
  if (Var->getInit() && IsRegistration(Var->getInit()))
    return true;
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls()) {
    if (!R.Function || canonicalFunction(R.Function) != Function)
      continue;
    for (const Expr *RegArg : R.Call->arguments())
      if (const auto *Passed = dyn_cast<DeclRefExpr>(skipValuePlumbing(RegArg)))
        if (Passed->getDecl() == Var)
          return true;
  }
  return false;
}

/// The modules added to the container: the arguments of each insertion that
/// are modules (not the names given with them).
template <typename Visit>
static void forEachInsertedModule(llvm::ArrayRef<ContainerInsert> Inserts,
                                  Visit V) {
  for (const ContainerInsert &I : Inserts)
    for (const Expr *Arg : I.Call->arguments())
      if (isModuleObject(Arg) || Arg->isTypeDependent())
        V(Arg, I.Function);
}

/// The constructor call a write of Field builds its module with, if any.
static const CXXConstructExpr *
moduleConstruction(const ModuleFacts::FieldWrite &W) {
  return W.Value ? dyn_cast<CXXConstructExpr>(skipValuePlumbing(W.Value))
                 : nullptr;
}

/// A module that a container can hold unregistered and lose nothing known:
/// one with no state (an activation, a user module that registers nothing,
/// Clamp(lo, hi)), or whose state only another file can tell. Not a
/// container, whose state is whatever was put in it.
static bool holdsNoKnownState(const ModuleFacts &Facts, const Expr *Arg) {
  const CXXRecordDecl *Held =
      heldModuleClass(skipValuePlumbing(Arg)->getType());
  return Held && !isContainerModule(Held) && !hasKnownState(Facts, Held);
}

/// A Sequential/ModuleList member that holds only modules registered on
/// their own, beside modules with no known state: built from registered members
/// (seq_ = Sequential(a_, b_)), or built empty and given only modules that are
/// registered as they are added (a list kept to index blocks that are each
/// registered). to(), parameters(), train()/eval() and torch::save() reach its
/// children through their own registration, and the container holds no state of
/// its own; registering it as well would list each child twice.
static bool wrapsOnlyRegisteredMembers(const ModuleFacts &Facts,
                                       const CXXRecordDecl *Class,
                                       const FieldDecl *Field,
                                       const CXXRecordDecl *Held) {
  if (!Held || !isContainerModule(Held))
    return false;
  std::vector<ContainerInsert> Inserts = insertionsInto(Class, Field);
  bool AllRegistered = true;
  forEachInsertedModule(Inserts, [&](const Expr *Arg, const FunctionDecl *F) {
    AllRegistered &= isRegisteredModuleValue(Facts, Class, Arg, F) ||
                     holdsNoKnownState(Facts, Arg);
  });
  if (!AllRegistered)
    return false;
  bool Any = !Inserts.empty();
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    if (!Facts.givesModule(W))
      continue;
    if (W.Kind == ModuleFacts::WriteKind::DefaultInit)
      continue; // Built empty.
    const CXXConstructExpr *Construct = moduleConstruction(W);
    if (!Construct)
      return false;
    for (const Expr *Arg : Construct->arguments()) {
      if (!isRegisteredMemberArg(Facts, Class, Arg) &&
          !holdsNoKnownState(Facts, Arg))
        return false;
      Any = true;
    }
  }
  return Any;
}

/// A container member built around, or given, some modules that are
/// registered on their own: registering the container as well would list
/// them twice in parameters(), and an optimizer built from it would step
/// them twice.
static bool wrapsSomeRegisteredMember(const ModuleFacts &Facts,
                                      const CXXRecordDecl *Class,
                                      const FieldDecl *Field) {
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (const CXXConstructExpr *Construct = moduleConstruction(W))
      for (const Expr *Arg : Construct->arguments())
        if (isRegisteredMemberArg(Facts, Class, Arg))
          return true;
  bool Some = false;
  forEachInsertedModule(insertionsInto(Class, Field),
                        [&](const Expr *Arg, const FunctionDecl *F) {
                          Some |= isRegisteredModuleValue(Facts, Class, Arg, F);
                        });
  return Some;
}

/// The expression takes the module itself: shared_from_this(), or `this`
/// as a value (not as the object of a member access).
static bool takesTheModuleItself(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (calleeName(Call) == "shared_from_this")
      return true;
  if (const auto *This = dyn_cast<CXXThisExpr>(S))
    return !This->isImplicit();
  for (const Stmt *Child : S->children()) {
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(S))
      if (Child == Member->getBase())
        continue;
    if (takesTheModuleItself(Child))
      return true;
  }
  return false;
}

/// Some write stores the module itself in the member (per-device replicas
/// of a model, one of which is the model): registering it would make the
/// module its own child.
static bool holdsTheModuleItself(const ModuleFacts &Facts,
                                 const FieldDecl *Field) {
  return llvm::any_of(Facts.writesTo(Field),
                      [](const ModuleFacts::FieldWrite &W) {
                        return takesTheModuleItself(W.Value);
                      });
}

void UnregisteredSubmodule::check(const ModuleFacts &Facts, ASTContext &Ctx) {
  for (const CXXRecordDecl *Class : Facts.moduleClasses()) {
    // No code can move or register it: a plain class with a module base.
    if (Facts.isModuleInNameOnly(Class))
      continue;
    // Registration may happen in setup code this file cannot see: say
    // nothing, or let the findings wait on it (prepareHiddenSetup()).
    if (!prepareHiddenSetup(Facts, Class))
      continue;
    for (const FieldDecl *Field : Class->fields()) {
      Pending.Member = Field->getNameAsString();
      const CXXRecordDecl *Held = nullptr;
      if (isScriptModuleType(Field->getType())) {
        if (std::optional<Finding> F =
                checkScriptModule(Facts, Class, Field, name(), Ctx))
          report(std::move(*F), Ctx);
        continue;
      }
      if (isAnyModuleType(Field->getType())) {
        if (std::optional<Finding> F =
                checkAnyModule(Facts, Class, Field, name(), Ctx))
          report(std::move(*F), Ctx);
        continue;
      }
      // A user module whose setup is in another file may have no state:
      // a finding about it waits on that file (the CLI settles it over the
      // whole project), or, without one, is not made.
      auto StateElsewhere = [&](const CXXRecordDecl *Held,
                                std::vector<std::string> &Keys) {
        if (!Held || !hasUnknownState(Facts, Held))
          return true;
        if (acceptsPending())
          Keys = setupDefinedElsewhere(Held);
        return !Keys.empty();
      };
      std::vector<std::string> HeldSetup;
      if (isModuleValueLikeType(Field->getType(), &Held)) {
        if (!StateElsewhere(Held, HeldSetup))
          continue;
        if (std::optional<Finding> F =
                checkByValue(Facts, Class, Field, Held, HeldSetup, name(), Ctx))
          report(std::move(*F), Ctx);
        continue;
      }
      if (const CXXRecordDecl *Pointee = pointedModuleClass(Field->getType())) {
        if (!StateElsewhere(Pointee, HeldSetup))
          continue;
        if (std::optional<Finding> F = checkRawPointer(
                Facts, Class, Field, Pointee, HeldSetup, name(), Ctx))
          report(std::move(*F), Ctx);
        continue;
      }
      if (!isModuleHandleLikeType(Field->getType(), &Held))
        continue;
      // Stateless built-ins (activations, pooling, ...) and user modules with
      // no state of their own lose nothing by staying unregistered.
      if (Held && (Facts.isStatelessModuleClass(Held) ||
                   !StateElsewhere(Held, HeldSetup)))
        continue;
      auto reportHeld = [&](Finding F) {
        if (!HeldSetup.empty())
          waitOnStateOf(Held, HeldSetup, F);
        report(std::move(F), Ctx);
      };
      if (Facts.isRegistered(Field)) {
        if (heldModuleClass(Field->getType()))
          if (std::optional<Finding> F =
                  checkReboundAtConstruction(Facts, Class, Field, Held, Ctx))
            reportHeld(std::move(*F));
        continue;
      }
      const ModuleFacts::FieldWrite *ModuleWrite = nullptr;
      for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
        if (!Facts.givesModule(W) || isDefaultLoss(Held, W.Value))
          continue;
        // A holder that only default-constructs matters once it is used.
        if (W.Kind == ModuleFacts::WriteKind::DefaultInit &&
            !Facts.isUsedInFunctions(Field))
          continue;
        ModuleWrite = &W;
        break;
      }
      if (!ModuleWrite ||
          wrapsOnlyRegisteredMembers(Facts, Class, Field, Held) ||
          holdsTheModuleItself(Facts, Field) ||
          isCompanionNetwork(Class, Field))
        continue;

      std::string Member = Field->getNameAsString();
      bool IsHandle = heldModuleClass(Field->getType()) != nullptr;
      Finding F;
      if (!placeMemberFinding(Field, ModuleWrite->Loc, name(), Ctx, F))
        continue;
      F.Message = "'" + Member + "' holds " +
                  (IsHandle ? "a submodule" : "submodules") + " of module '" +
                  Class->getNameAsString() + "' that " +
                  (IsHandle ? "is" : "are") +
                  " never registered; Module::to(), parameters(), "
                  "train()/eval() and torch::save() will not reach " +
                  (IsHandle ? "it" : "them");
      if (Held && switchesWithTraining(Held))
        F.Message += ", so '" + Held->getNameAsString() +
                     "' stays in training mode after eval()";
      std::string Where =
          ModuleWrite->Kind == ModuleFacts::WriteKind::DefaultInit
              ? "default-constructs a module here"
              : "is given a module here";
      // a_ = Linear(...); seq_ = Sequential(a_): registering seq_ reaches
      // a_ as well, and registering both would list a_ twice.
      if (const FieldDecl *Container = Facts.listingContainer(Field);
          Container && Container->getParent() == Class &&
          !Facts.writesTo(Container).empty()) {
        F.Notes.push_back({ModuleWrite->Loc, "'" + Member + "' " + Where});
        F.Notes.push_back(
            {Facts.writesTo(Container).front().Loc,
             "'" + Member + "' is listed in '" + Container->getNameAsString() +
                 "' here; register '" + Container->getNameAsString() +
                 "' and it reaches '" + Member +
                 "' too (registering both lists '" + Member +
                 "' twice in parameters())"});
        reportHeld(std::move(F));
        continue;
      }
      bool SharesChildren = wrapsSomeRegisteredMember(Facts, Class, Field);
      if (SharesChildren) {
        // No fix-it: registering the container too would list the members
        // it shares twice in parameters().
        F.Notes.push_back(
            {ModuleWrite->Loc,
             "'" + Member + "' " + Where +
                 " around modules that are registered on their own; "
                 "register it and stop registering those members, or "
                 "register what is added to it, or silence with // "
                 "NOLINT(torch-unregistered-submodule)"});
        reportHeld(std::move(F));
        continue;
      }
      F.Notes.push_back(
          {ModuleWrite->Loc,
           "'" + Member + "' " + Where + "; register it with " +
               (IsHandle ? Member + " = register_module(\"" +
                               registeredName(Member) + "\", ...)"
                         : std::string("register_module(name, ...) for each "
                                       "element")) +
               ", or silence with // NOLINT(torch-unregistered-submodule)"});
      if (IsHandle)
        F.Fixes =
            registerMemberFix(Facts, Class, Field, "register_module", Ctx);
      reportHeld(std::move(F));
    }
  }
}

} // namespace tensorplace
