//===- Git.cpp ------------------------------------------------------------===//

#include "Git.h"
#include "RunProgram.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace tensorplace {
namespace cli {

namespace {

/// Runs git with Args in Dir.
ProgramOutput runGit(StringRef Dir, ArrayRef<std::string> Args) {
  std::vector<std::string> Argv{"-C", Dir.str()};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  return runProgram("git", Argv);
}

std::string join(StringRef TopLevel, StringRef Relative) {
  SmallString<256> Path(TopLevel);
  sys::path::append(Path, Relative);
  sys::path::remove_dots(Path, true);
  return std::string(Path);
}

} // namespace

std::string gitTopLevel(StringRef Dir) {
  ProgramOutput Top = runGit(Dir, {"rev-parse", "--show-toplevel"});
  if (Top.Status != 0)
    return "";
  return StringRef(Top.Out).trim().str();
}

bool ChangedLines::contains(StringRef File, unsigned Line) const {
  if (WholeFiles.count(File))
    return true;
  auto It = Ranges.find(File);
  if (It == Ranges.end())
    return false;
  for (const auto &Range : It->second)
    if (Line >= Range.first && Line <= Range.second)
      return true;
  return false;
}

void parseUnifiedDiff(StringRef Diff, StringRef TopLevel, ChangedLines &Out) {
  std::string Current;
  SmallVector<StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (Line.consume_front("+++ ")) {
      Line = Line.rtrim("\r");
      // A deleted file has no new side.
      Current = Line == "/dev/null" || !Line.consume_front("b/")
                    ? std::string()
                    : join(TopLevel, Line);
      continue;
    }
    if (Current.empty() || !Line.consume_front("@@ -"))
      continue;
    // "@@ -<old>[,n] +<start>[,<count>] @@"
    size_t Plus = Line.find(" +");
    if (Plus == StringRef::npos)
      continue;
    StringRef New = Line.drop_front(Plus + 2);
    New = New.take_until([](char C) { return C == ' '; });
    StringRef StartText, CountText;
    std::tie(StartText, CountText) = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count == 0)
      continue; // Lines were only removed.
    Out.Ranges[Current].push_back({Start, Start + Count - 1});
  }
}

Expected<ChangedLines> changedLinesSince(StringRef Rev, StringRef TopLevel) {
  ProgramOutput Verify = runGit(TopLevel, {"rev-parse", "--verify", "--quiet",
                                           (Rev + "^{commit}").str()});
  if (Verify.Status != 0)
    return createStringError(
        inconvertibleErrorCode(),
        "'" + Rev + "' is not a revision of the git repository at '" +
            TopLevel + "'" + (Verify.Err.empty() ? "" : ": " + Verify.Err));
  ProgramOutput Diff = runGit(
      TopLevel, {"-c", "core.quotePath=false", "diff", "-U0", "--no-color",
                 "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/",
                 StringRef(Verify.Out).trim().str(), "--"});
  if (Diff.Status != 0)
    return createStringError(inconvertibleErrorCode(),
                             "git diff failed: " + Diff.Err);
  ChangedLines Changed;
  parseUnifiedDiff(Diff.Out, TopLevel, Changed);
  ProgramOutput Untracked =
      runGit(TopLevel, {"ls-files", "--others", "--exclude-standard", "-z"});
  if (Untracked.Status != 0)
    return createStringError(inconvertibleErrorCode(),
                             "git ls-files failed: " + Untracked.Err);
  SmallVector<StringRef, 16> Names;
  StringRef(Untracked.Out).split(Names, '\0', -1, false);
  for (StringRef Name : Names)
    Changed.WholeFiles[join(TopLevel, Name)] = true;
  return Changed;
}

} // namespace cli
} // namespace tensorplace
