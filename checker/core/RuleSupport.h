//===- RuleSupport.h - Small helpers shared by the rules ------------------===//

#ifndef TENSORPLACE_CHECKER_RULESUPPORT_H
#define TENSORPLACE_CHECKER_RULESUPPORT_H

#include "FunctionBody.h"
#include "tensorplace/checker/Finding.h"
#include "tensorplace/checker/LLVMCompat.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/Rule.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace tensorplace {

class ModuleFacts;

/// The name a member is conventionally registered under: the member's name
/// without a trailing underscore (weight_ -> "weight").
inline std::string registeredName(llvm::StringRef Member) {
  while (Member.size() > 1 && tensorplace::compat::endsWith(Member, "_"))
    Member = Member.drop_back();
  return Member.str();
}

/// 'NetImpl::forward', 'make_head': how a function is named in messages.
inline std::string describeFunction(const clang::FunctionDecl *F) {
  return F->getQualifiedNameAsString();
}

/// "inside 'Net::forward'" or "in 'make_head', which 'Net::forward' calls",
/// plus a note at the call that leads there.
inline std::string describePath(const ModuleFacts::ForwardPath &Path,
                                const clang::FunctionDecl *Function,
                                Finding &F) {
  if (!Path.Caller)
    return "inside '" + describeFunction(Function) + "'";
  F.Notes.push_back({Path.CallLoc, "'" + describeFunction(Function) +
                                       "' is called on the forward path of '" +
                                       describeFunction(Path.Root) + "' here"});
  return "in '" + describeFunction(Function) + "', which '" +
         describeFunction(Path.Root) + "' calls";
}

/// For a function that no forward() of this translation unit reaches, and
/// that no constructor or reset() here runs: the functions whose call on a
/// forward path in another file would put it on one, as functionKey() names
/// them (the function and its callers here, transitively, that another file
/// can call). Empty when there are none.
std::vector<std::string> reachableFromOtherFiles(const ModuleFacts &Facts,
                                                 const clang::FunctionDecl *F);

/// "in 'roi_align', which a module's forward() in another file calls", for a
/// function on a forward path only through another file: makes F wait on
/// the reach of Reach (reachableFromOtherFiles()), whose settling names that
/// forward() in the message.
std::string describeReachElsewhere(const clang::FunctionDecl *Function,
                                   std::vector<std::string> Reach, Finding &F);

/// The note that shows where a host value (What: "the new tensor") meets
/// data that may be on the module's device, as hostValueMeetsDevice found:
/// the operand it meets, the return (the module's output when
/// ModuleOutput), the member it is stored in, the project's function it is
/// passed to. Nothing when the place is unknown or is the finding's own.
std::optional<FindingNote> meetingNote(const DeviceMeeting &Meeting,
                                       llvm::StringRef What, bool ModuleOutput,
                                       clang::SourceLocation FindingLoc,
                                       clang::ASTContext &Ctx);

/// Where a member finding goes. Modules are often declared in a header and
/// constructed in a .cpp file; the finding is put where the analysed file can
/// show it: the declaration when it is in the main file, otherwise the write
/// that gives the member its value when that is, otherwise the declaration.
/// Returns false when a NOLINT at either place silences the check.
inline bool placeMemberFinding(const clang::FieldDecl *Field,
                               clang::SourceLocation WriteLoc,
                               llvm::StringRef Check, clang::ASTContext &Ctx,
                               Finding &F) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation Decl = Field->getLocation();
  if (isSuppressedByNolint(Decl, Check, SM) ||
      (WriteLoc.isValid() && isSuppressedByNolint(WriteLoc, Check, SM)))
    return false;
  bool DeclInMain = SM.isInMainFile(SM.getExpansionLoc(Decl));
  bool WriteInMain =
      WriteLoc.isValid() && SM.isInMainFile(SM.getExpansionLoc(WriteLoc));
  F.Loc = !DeclInMain && WriteInMain ? WriteLoc : Decl;
  if (F.Loc != Decl)
    F.Notes.push_back(
        {Decl, "'" + Field->getNameAsString() + "' is declared here"});
  return true;
}

/// Where the member a write assigns is registered in the write's own
/// function. Before: an unconditional registration (in a constructor's
/// initializer list, or in a statement of the body that is not an if or a
/// switch) comes before the write. After: a registration follows it, so the
/// member and the registered object are one.
struct RegistrationOrder {
  bool Before = false;
  bool After = false;
};
RegistrationOrder registrationsAround(const ModuleFacts &Facts,
                                      const ModuleFacts::FieldWrite &W,
                                      const clang::SourceManager &SM);

/// The fix-it that registers a member where the constructor (or, in a
/// Cloneable, reset()) assigns it: `m_ = value;` becomes
/// `m_ = register_buffer("m", value);` (or register_module). Offered only when
/// it is provably safe: the member's only construction-time write is that
/// plain assignment, nothing comes from a macro, and the class registers
/// nothing else under the name.
std::vector<clang::FixItHint>
registerMemberFix(const ModuleFacts &Facts, const clang::CXXRecordDecl *Class,
                  const clang::FieldDecl *Field, llvm::StringRef Registrar,
                  clang::ASTContext &Ctx);

/// The braced list an argument is written as (`{n}`, `{8, 16}`), through the
/// IntArrayRef, initializer_list or data container it is converted to.
const clang::InitListExpr *bracedList(const clang::Expr *E);

/// A size written with an extent of 0, as one number (`empty(0)`) or in a
/// braced list (`zeros({0, d})`): a tensor with no elements.
bool hasZeroExtent(const clang::Expr *Size);

/// The setup functions of a module class whose state only other files can
/// tell: its constructors and reset(), as functionKey() names them. Empty
/// when some of them cannot be settled elsewhere (a template).
std::vector<std::string>
setupDefinedElsewhere(const clang::CXXRecordDecl *Impl);

/// Makes F wait on the state of Held, a module class whose setup is in other
/// files (Finding::PendingStateOf): it holds once one of Keys registers
/// something, which its note says.
void waitOnStateOf(const clang::CXXRecordDecl *Held,
                   std::vector<std::string> Keys, Finding &F);

} // namespace tensorplace

#endif
