//===- Rule.cpp -----------------------------------------------------------===//

#include "tensorplace/checker/Rule.h"
#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/DeviceGuards.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/ProjectFacts.h"
#include "tensorplace/checker/TorchModel.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/Support/Regex.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace tensorplace {

FindingSink::~FindingSink() = default;

void Rule::report(Finding F, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!UserCodeFilter(SM).isUserCode(F.Loc))
    return;
  if (isSuppressedByNolint(F.Loc, Name, SM))
    return;
  if (!Pending.On.empty()) {
    // register_all(cell_anchors_): the function defined elsewhere is given
    // the member and may register it; nothing can settle that.
    for (const CallExpr *Call : Pending.CallExprs)
      for (const Expr *Arg : Call->arguments()) {
        const Expr *Given = skipValuePlumbing(Arg);
        if (const auto *Address = dyn_cast<UnaryOperator>(Given);
            Address && Address->getOpcode() == UO_AddrOf)
          Given = Address->getSubExpr();
        const FieldDecl *Field = namedField(Given);
        if (Field && Field->getName() == Pending.Member)
          return;
      }
    F.PendingOn = Pending.On;
    F.PendingMember = Pending.Member;
    F.Fixes.clear();
    for (const auto &[Loc, Callee] : Pending.Calls)
      F.Notes.push_back(
          {Loc, "'" + Callee +
                    "' is defined in another file of the project, and "
                    "neither it nor what it calls names '" +
                    Pending.Member + "'"});
  }
  if ((!F.PendingOn.empty() || !F.PendingStateOf.empty() ||
       !F.PendingReachOf.empty() || !F.PendingDataOf.empty()) &&
      !Sink.acceptsPending())
    return;
  F.Rule = Name;
  Sink.report(F, Ctx);
}

namespace {
/// What the rules of one translation unit share, built by the first rule
/// that asks: the call graph, the device guards and the module facts. Reset at
/// the start of every translation unit; one per thread so that files can be
/// analysed in parallel.
struct TranslationUnitCache {
  const ASTContext *Ctx = nullptr;
  std::unique_ptr<CallGraph> Calls;
  std::unique_ptr<DeviceGuards> Guards;
  /// The configuration the facts were built with: rules whose module-model
  /// options are alike (the usual case) share them.
  Config BuiltWith;
  std::unique_ptr<ModuleFacts> Facts;
  /// The function summaries went to the sink (once per translation unit).
  bool SummariesSent = false;
};
thread_local TranslationUnitCache Current;
} // namespace

void Rule::onStartOfTranslationUnit() {
  // The facts and the guards refer to the graph: drop them first.
  Current.Facts.reset();
  Current.Guards.reset();
  Current.Calls.reset();
  Current.Ctx = nullptr;
  Current.SummariesSent = false;
}

void Rule::sendSummaries(ASTContext &Ctx) {
  // A front end that settles pending findings needs to know what this
  // file's functions name and call, whether or not anything here waits on
  // another.
  if (acceptsPending() && !Current.SummariesSent) {
    Current.SummariesSent = true;
    sink().summaries(summarizeFunctions(Ctx, callGraph(Ctx), deviceGuards(Ctx)),
                     Ctx);
  }
}

const CallGraph &Rule::callGraph(ASTContext &Ctx) {
  if (Current.Ctx != &Ctx) {
    Current.Facts.reset();
    Current.Guards.reset();
    Current.Calls.reset();
    Current.Ctx = &Ctx;
    Current.SummariesSent = false;
  }
  if (!Current.Calls)
    Current.Calls = std::make_unique<CallGraph>(Ctx);
  return *Current.Calls;
}

const DeviceGuards &Rule::deviceGuards(ASTContext &Ctx) {
  const CallGraph &Calls = callGraph(Ctx);
  if (!Current.Guards)
    Current.Guards = std::make_unique<DeviceGuards>(Ctx, Calls);
  return *Current.Guards;
}

void ModuleRule::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(translationUnitDecl().bind("tu"), this);
}

void ModuleRule::run(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  ActiveConfigScope Scope(config());
  const CallGraph &Calls = callGraph(Ctx);
  if (!Current.Facts || !Current.BuiltWith.sameModuleModel(config())) {
    Current.Facts = std::make_unique<ModuleFacts>(Ctx, Calls);
    Current.BuiltWith = config();
  }
  check(*Current.Facts, Ctx);
  Pending = PendingContext();
  sendSummaries(Ctx);
}

bool Rule::prepareHiddenSetup(const ModuleFacts &Facts,
                              const CXXRecordDecl *Class) {
  Pending = PendingContext();
  if (!Facts.hasHiddenSetup(Class))
    return true;
  llvm::ArrayRef<ModuleFacts::HiddenCall> Hidden =
      Facts.settleableHiddenSetup(Class);
  if (Hidden.empty() || !acceptsPending())
    return false;
  for (const ModuleFacts::HiddenCall &Call : Hidden) {
    std::string Key = functionKey(Call.Callee);
    if (!llvm::is_contained(Pending.On, Key))
      Pending.On.push_back(Key);
    Pending.Calls.push_back(
        {Call.Call->getBeginLoc(), Call.Callee->getNameAsString() + "()"});
    Pending.CallExprs.push_back(Call.Call);
  }
  return true;
}

bool matchesGlob(llvm::StringRef Glob, llvm::StringRef Check) {
  std::string Pattern = "^";
  for (char C : Glob)
    Pattern +=
        C == '*' ? std::string(".*") : llvm::Regex::escape(std::string(1, C));
  Pattern += "$";
  return llvm::Regex(Pattern).match(Check);
}

/// Does the comment's optional "(check, glob-*, ...)" list select Check?
static bool nolintSelects(llvm::StringRef AfterKeyword, llvm::StringRef Check) {
  AfterKeyword = AfterKeyword.ltrim(' ');
  if (!tensorplace::compat::startsWith(AfterKeyword, "("))
    return true;
  size_t Close = AfterKeyword.find(')');
  if (Close == llvm::StringRef::npos)
    return true; // clang-tidy treats a malformed list as "all checks".
  llvm::SmallVector<llvm::StringRef, 4> Globs;
  AfterKeyword.substr(1, Close - 1).split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs)
    if (matchesGlob(Glob.trim(), Check))
      return true;
  return false;
}

/// Finds Keyword as a whole word (NOLINT must not match NOLINTNEXTLINE) and
/// says whether it selects Check.
static bool lineHasNolint(llvm::StringRef Line, llvm::StringRef Keyword,
                          llvm::StringRef Check) {
  for (size_t Pos = Line.find(Keyword); Pos != llvm::StringRef::npos;
       Pos = Line.find(Keyword, Pos + 1)) {
    llvm::StringRef After = Line.substr(Pos + Keyword.size());
    if (!After.empty() && (isalnum(After[0]) || After[0] == '_'))
      continue;
    if (nolintSelects(After, Check))
      return true;
  }
  return false;
}

bool isSuppressedByNolint(SourceLocation Loc, llvm::StringRef Check,
                          const SourceManager &SM) {
  SourceLocation Expansion = SM.getExpansionLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Expansion), &Invalid);
  if (Invalid)
    return false;
  unsigned Offset = SM.getFileOffset(Expansion);
  size_t LineStart = Buffer.substr(0, Offset).rfind('\n');
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Line = Buffer.slice(LineStart, Buffer.find('\n', Offset));
  if (lineHasNolint(Line, "NOLINT", Check))
    return true;
  if (LineStart > 0) {
    llvm::StringRef BeforeLine = Buffer.substr(0, LineStart - 1);
    size_t PrevStart = BeforeLine.rfind('\n');
    PrevStart = PrevStart == llvm::StringRef::npos ? 0 : PrevStart + 1;
    if (lineHasNolint(BeforeLine.substr(PrevStart), "NOLINTNEXTLINE", Check))
      return true;
  }
  // NOLINTBEGIN/NOLINTEND regions before the finding's line.
  llvm::StringRef Before = Buffer.substr(0, LineStart);
  if (!Before.contains("NOLINTBEGIN"))
    return false;
  int Open = 0;
  while (!Before.empty()) {
    auto Split = Before.split('\n');
    if (lineHasNolint(Split.first, "NOLINTBEGIN", Check))
      ++Open;
    else if (lineHasNolint(Split.first, "NOLINTEND", Check) && Open > 0)
      --Open;
    Before = Split.second;
  }
  return Open > 0;
}

} // namespace tensorplace
