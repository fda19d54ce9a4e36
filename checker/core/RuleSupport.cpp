//===- RuleSupport.cpp ----------------------------------------------------===//

#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <deque>

using namespace clang;

namespace tensorplace {

/// The expression as written, when it is short enough to quote in a note
/// and written outside a macro; empty otherwise.
static std::string quotable(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange Range = E->getSourceRange();
  if (Range.isInvalid() || Range.getBegin().isMacroID() ||
      Range.getEnd().isMacroID())
    return "";
  llvm::StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Text.empty() || Text.size() > 40 || Text.contains('\n'))
    return "";
  return Text.str();
}

std::optional<FindingNote> meetingNote(const DeviceMeeting &Meeting,
                                       llvm::StringRef What, bool ModuleOutput,
                                       SourceLocation FindingLoc,
                                       ASTContext &Ctx) {
  if (!Meeting.At)
    return std::nullopt;
  SourceLocation Loc = Meeting.At->getBeginLoc();
  std::string Other = Meeting.Other ? quotable(Meeting.Other, Ctx) : "";
  std::string Message;
  switch (Meeting.How) {
  case DeviceMeeting::Kind::Unknown:
    return std::nullopt;
  case DeviceMeeting::Kind::Operand:
    if (!Other.empty()) {
      Loc = Meeting.Other->getBeginLoc();
      Message = What.str() + " meets '" + Other +
                "' here, which may be on the module's device";
    } else {
      Message =
          What.str() + " meets a value here that may be on the module's device";
    }
    break;
  case DeviceMeeting::Kind::Returned:
    Message = What.str() + " is returned here" +
              (ModuleOutput ? " as the module's output"
                            : ", to a caller that may use it with data on "
                              "the module's device");
    break;
  case DeviceMeeting::Kind::Stored:
    Message = What.str() + " is stored " +
              (Other.empty() ? std::string("here, outside this function")
                             : "in '" + Other + "' here");
    break;
  case DeviceMeeting::Kind::Passed: {
    const auto *Call = dyn_cast<CallExpr>(Meeting.At);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    Message = What.str() + " is passed here to " +
              (Callee ? "'" + Callee->getQualifiedNameAsString() + "'"
                      : std::string("a function")) +
              ", which may use it with data on the module's device";
    break;
  }
  }
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isInvalid() || SM.getFileLoc(Loc) == SM.getFileLoc(FindingLoc))
    return std::nullopt;
  return FindingNote{Loc, std::move(Message)};
}

static bool registersName(const ModuleFacts &Facts, const CXXRecordDecl *Class,
                          llvm::StringRef Name) {
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls()) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(R.Function);
    if (!Method || Method->getParent() != Class || R.Call->getNumArgs() == 0)
      continue;
    // The name reaches register_* as a std::string built from a literal.
    const Expr *NameArg = R.Call->getArg(0);
    while (true) {
      NameArg = NameArg->IgnoreImplicit()->IgnoreParenImpCasts();
      const auto *Construct = dyn_cast<CXXConstructExpr>(NameArg);
      if (!Construct || Construct->getNumArgs() == 0)
        break;
      NameArg = Construct->getArg(0);
    }
    const auto *Literal = dyn_cast<StringLiteral>(NameArg);
    if (!Literal || Literal->getString() == Name)
      return true; // The same name, or one we cannot read: do not guess.
  }
  return false;
}

/// Where Loc is in Function: before or after Other, by where the code is
/// written (macro code counts where the macro is used).
static bool isBefore(SourceLocation Loc, SourceLocation Other,
                     const SourceManager &SM) {
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loc),
                                      SM.getExpansionLoc(Other));
}

/// Registration at Loc in Function happens whenever the function runs: it is
/// in a constructor's initializer list, or in a statement of the body that
/// is not an if or a switch.
static bool runsUnconditionally(const FunctionDecl *Function,
                                SourceLocation Loc, const SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Function->getBody());
  if (!Body)
    return false;
  Loc = SM.getExpansionLoc(Loc);
  if (isBefore(Loc, Body->getLBracLoc(), SM))
    return isa<CXXConstructorDecl>(Function);
  for (const Stmt *S : Body->body()) {
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    if (isBefore(Loc, SM.getExpansionLoc(S->getBeginLoc()), SM) ||
        isBefore(End, Loc, SM))
      continue;
    return !isa<IfStmt>(S) && !isa<SwitchStmt>(S);
  }
  return false;
}

/// S names the member: `register_module("head", head)`.
static bool namesField(const Stmt *S, const FieldDecl *Field) {
  if (!S)
    return false;
  if (const auto *Member = dyn_cast<MemberExpr>(S))
    if (const auto *Named = dyn_cast<FieldDecl>(Member->getMemberDecl()))
      if (Named->getCanonicalDecl() == Field->getCanonicalDecl())
        return true;
  for (const Stmt *Child : S->children())
    if (namesField(Child, Field))
      return true;
  return false;
}

/// Where, in Function, the member is registered: the places of
/// register_*(..., member) calls and of writes that store what a
/// registration returned.
static llvm::SmallVector<SourceLocation, 2>
registrationsInFunction(const ModuleFacts &Facts, const FieldDecl *Field,
                        const FunctionDecl *Function) {
  llvm::SmallVector<SourceLocation, 2> Where;
  const FunctionDecl *Canonical = canonicalFunction(Function);
  for (const ModuleFacts::RegistrationCall &R : Facts.registrationCalls())
    if (R.Function && canonicalFunction(R.Function) == Canonical &&
        llvm::any_of(R.Call->arguments(),
                     [&](const Expr *Arg) { return namesField(Arg, Field); }))
      // The call runs after its arguments: `register_module("conv", conv =
      // Conv2d(...))` registers what the assignment gave the member.
      Where.push_back(R.Call->getEndLoc());
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field))
    if (W.Function && canonicalFunction(W.Function) == Canonical &&
        Facts.writeRegisters(W))
      Where.push_back(W.Loc);
  return Where;
}

RegistrationOrder registrationsAround(const ModuleFacts &Facts,
                                      const ModuleFacts::FieldWrite &W,
                                      const SourceManager &SM) {
  RegistrationOrder Order;
  if (!W.Function)
    return Order;
  for (SourceLocation Site :
       registrationsInFunction(Facts, W.Field, W.Function)) {
    if (isBefore(W.Loc, Site, SM))
      Order.After = true;
    else if (runsUnconditionally(W.Function, Site, SM))
      Order.Before = true;
  }
  return Order;
}

std::vector<FixItHint> registerMemberFix(const ModuleFacts &Facts,
                                         const CXXRecordDecl *Class,
                                         const FieldDecl *Field,
                                         llvm::StringRef Registrar,
                                         ASTContext &Ctx) {
  bool IsModule = Registrar == "register_module";
  const ModuleFacts::FieldWrite *Only = nullptr;
  for (const ModuleFacts::FieldWrite &W : Facts.writesTo(Field)) {
    bool AtConstruction =
        !W.Function || Facts.isConstructionFunction(W.Function);
    // {nullptr} and undefined tensors are not state to register.
    bool GivesState =
        IsModule ? Facts.givesModule(W) : Facts.givesTensorState(W);
    if (!AtConstruction || !GivesState)
      continue;
    if (Only)
      return {}; // Registering at each of several writes could throw.
    Only = &W;
  }
  if (!Only || Only->Kind != ModuleFacts::WriteKind::Assign || !Only->Value)
    return {};
  // Where the registration belongs: the constructor of a plain module, reset()
  // of a Cloneable (clone() re-runs only reset()).
  bool InReset = Only->Function->getDeclName().isIdentifier() &&
                 Only->Function->getName() == "reset";
  bool InConstructor = isa<CXXConstructorDecl>(Only->Function);
  if (isCloneableClass(Class) ? !InReset : !InConstructor)
    return {};
  if (cast<CXXMethodDecl>(Only->Function)->getParent() != Class)
    return {};
  const Expr *Value = Only->Value;
  SourceLocation Begin = Value->getBeginLoc(), End = Value->getEndLoc();
  if (Begin.isInvalid() || End.isInvalid() || Begin.isMacroID() ||
      End.isMacroID())
    return {};
  std::string Name = registeredName(Field->getName());
  if (registersName(Facts, Class, Name))
    return {};
  // register_module() converts the handle to one to Module: not through a
  // private base (`class Block : torch::nn::Module`).
  if (IsModule)
    if (const CXXRecordDecl *Held = heldModuleClass(Field->getType()))
      if (!isPublicModuleClass(Held))
        return {};
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation AfterEnd =
      Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  if (AfterEnd.isInvalid())
    return {};
  // Under a dependent base (a template deriving from Cloneable<Derived>),
  // the unqualified name is not looked up in the base.
  bool DependentBase =
      llvm::any_of(Class->bases(), [](const CXXBaseSpecifier &B) {
        return B.getType()->isDependentType();
      });
  return {FixItHint::CreateInsertion(Begin, ((DependentBase ? "this->" : "") +
                                             Registrar + "(\"" + Name + "\", ")
                                                .str()),
          FixItHint::CreateInsertion(AfterEnd, ")")};
}

/// The braced list an argument is written as (`{n}`, `{8, 16}`), through the
/// IntArrayRef, initializer_list or data container it is converted to.
const InitListExpr *bracedList(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = skipValuePlumbing(E);
    if (const auto *List = dyn_cast<InitListExpr>(E))
      return List;
    if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
      E = StdList->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() >= 1 &&
             llvm::all_of(
                 llvm::drop_begin(Construct->arguments()),
                 [](const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); }))
      E = Construct->getArg(0); // A std::vector also takes its allocator.
    else
      return nullptr;
  }
  return nullptr;
}

/// A size written with an extent of 0, as one number (`empty(0)`) or in a
/// braced list (`zeros({0, d})`).
bool hasZeroExtent(const Expr *Size) {
  for (unsigned Depth = 0; Size && Depth < 4; ++Depth) {
    Size = skipValuePlumbing(Size);
    if (const auto *Literal = dyn_cast<IntegerLiteral>(Size))
      return Literal->getValue() == 0;
    if (const InitListExpr *List = bracedList(Size))
      return llvm::any_of(List->inits(), [](const Expr *Extent) {
        const auto *Literal =
            dyn_cast<IntegerLiteral>(skipValuePlumbing(Extent));
        return Literal && Literal->getValue() == 0;
      });
    const auto *Construct = dyn_cast<CXXConstructExpr>(Size);
    if (!Construct || Construct->getNumArgs() == 0)
      return false;
    Size = Construct->getArg(0); // IntArrayRef(0)
  }
  return false;
}

std::vector<std::string> reachableFromOtherFiles(const ModuleFacts &Facts,
                                                 const FunctionDecl *F) {
  std::vector<std::string> Keys;
  if (F->isMain() || Facts.isConstructionFunction(F))
    return Keys;
  llvm::DenseSet<const FunctionDecl *> Seen{canonicalFunction(F)};
  std::deque<const FunctionDecl *> Work{F};
  while (!Work.empty()) {
    const FunctionDecl *G = Work.front();
    Work.pop_front();
    if (G->isMain())
      continue;
    if (isSettleableFunction(G))
      Keys.push_back(functionKey(G));
    for (const CallGraph::Edge &Edge : Facts.calls().callsTo(G))
      if (Seen.insert(canonicalFunction(Edge.Caller)).second)
        Work.push_back(Edge.Caller);
  }
  return Keys;
}

std::string describeReachElsewhere(const FunctionDecl *Function,
                                   std::vector<std::string> Reach, Finding &F) {
  F.PendingReachOf = std::move(Reach);
  return "in '" + describeFunction(Function) + "', which " +
         ForwardElsewhere.str() + " calls";
}

std::vector<std::string> setupDefinedElsewhere(const CXXRecordDecl *Impl) {
  std::vector<std::string> Keys;
  const CXXRecordDecl *Def = Impl->getDefinition();
  if (!Def)
    return Keys;
  for (const CXXMethodDecl *Method : Def->methods()) {
    if (Method->isImplicit() || Method->isDeleted() ||
        !isConstructionRoot(Method))
      continue;
    if (!isSettleableFunction(Method))
      return {};
    Keys.push_back(functionKey(Method));
  }
  return Keys;
}

void waitOnStateOf(const CXXRecordDecl *Held, std::vector<std::string> Keys,
                   Finding &F) {
  F.PendingStateOf = std::move(Keys);
  F.Notes.push_back(
      {Held->getLocation(),
       "'" + Held->getNameAsString() +
           "' has parameters, buffers or submodules: its setup, defined in "
           "another file of the project, registers them"});
}

} // namespace tensorplace
