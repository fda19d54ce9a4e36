//===- Git.h - What git knows: the work tree and changed lines ------------===//

#ifndef TENSORPLACE_CLI_GIT_H
#define TENSORPLACE_CLI_GIT_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace tensorplace {
namespace cli {

/// The top level of the git work tree that holds Dir, or "" when Dir is in
/// none (or git is not installed).
std::string gitTopLevel(llvm::StringRef Dir);

/// The lines added or changed since a revision, by absolute path.
class ChangedLines {
public:
  bool contains(llvm::StringRef File, unsigned Line) const;
  /// Ranges of new-side lines, both ends included.
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> Ranges;
  /// Untracked files: every line counts as changed.
  llvm::StringMap<bool> WholeFiles;
};

/// Reads `git diff -U0 <Rev>` (the work tree against Rev) and the untracked
/// files of the work tree whose top level is TopLevel.
llvm::Expected<ChangedLines> changedLinesSince(llvm::StringRef Rev,
                                               llvm::StringRef TopLevel);

/// Parses the hunks of a unified diff with paths relative to TopLevel; only
/// the new side is kept.
void parseUnifiedDiff(llvm::StringRef Diff, llvm::StringRef TopLevel,
                      ChangedLines &Out);

} // namespace cli
} // namespace tensorplace

#endif
