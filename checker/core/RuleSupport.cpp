//===- RuleSupport.cpp ----------------------------------------------------===//

#include "RuleSupport.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tensorplace {

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
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation AfterEnd =
      Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  if (AfterEnd.isInvalid())
    return {};
  return {FixItHint::CreateInsertion(Begin,
                                     (Registrar + "(\"" + Name + "\", ").str()),
          FixItHint::CreateInsertion(AfterEnd, ")")};
}

} // namespace tensorplace
