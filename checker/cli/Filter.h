//===- Filter.h - Which findings of a run are reported --------------------===//
//
// The step between the analysis of each file and the report: a header's
// finding is reported once however many files include it, each finding gets
// its fingerprint, and findings outside --diff or in the baseline are held
// back. It also gathers what --write-baseline and --fix need.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_FILTER_H
#define TENSORPLACE_CLI_FILTER_H

#include "ApplyFixes.h"
#include "Git.h"
#include "Report.h"
#include "tensorplace/driver/Driver.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

/// The path with symbolic links resolved (as git reports paths), or the
/// absolute path when it does not exist.
std::string realPath(llvm::StringRef Path);

struct FilterSettings {
  /// Paths in reports and fingerprints are relative to it.
  std::string Root;
  /// --diff: only findings on these lines are reported.
  const ChangedLines *Changed = nullptr;
  /// --baseline: fingerprints not to report.
  const llvm::StringSet<> *Accepted = nullptr;
  /// --write-baseline: keep every finding, reported or not, in Current.
  bool KeepCurrent = false;
  /// --fix: gather the fix-its of the reported findings in Fixes.
  bool CollectFixes = false;
};

class FindingFilter {
public:
  explicit FindingFilter(FilterSettings Settings)
      : Settings(std::move(Settings)) {}

  /// The findings of one translation unit to report, in the order of their
  /// files and offsets. A partial unit's findings lose their fix-its.
  std::vector<Reported> add(std::vector<driver::PlainFinding> Findings,
                            bool Partial);
  /// As add(), for findings that wait on other files: their fix-its are not
  /// gathered here but by takeFixes() for those that hold once settled.
  std::vector<Reported> addPending(std::vector<driver::PlainFinding> Findings,
                                   bool Partial);
  /// Gathers the fix-its of a pending finding that holds (--fix).
  void takeFixes(const Reported &R);

  /// Held back by --diff and by the baseline.
  unsigned OutsideDiff = 0, Suppressed = 0;
  /// Every finding, reported or not, when KeepCurrent.
  std::vector<Reported> Current;
  /// The reported findings' fix-its, and again those of a header's finding
  /// that another unit reports too, so that applyFixes() sees when two units
  /// disagree about a header.
  FixesByFile Fixes;

private:
  std::vector<Reported> addFindings(std::vector<driver::PlainFinding> Findings,
                                    bool Partial, bool CollectFixes);
  llvm::StringRef lineText(const std::string &File, unsigned Line);

  FilterSettings Settings;
  llvm::StringSet<> Seen, FixedKeys;
  llvm::StringMap<unsigned> Occurrences;
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> SourceTexts;
};

} // namespace cli
} // namespace tensorplace

#endif
