//===- Filter.cpp ---------------------------------------------------------===//

#include "Filter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <tuple>

using namespace llvm;

namespace tensorplace {
namespace cli {

std::string realPath(StringRef Path) {
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    return std::string(Real);
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

StringRef FindingFilter::lineText(const std::string &File, unsigned Line) {
  auto It = SourceTexts.find(File);
  if (It == SourceTexts.end()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(File);
    It = SourceTexts.try_emplace(File, Buffer ? std::move(*Buffer) : nullptr)
             .first;
  }
  if (!It->second)
    return "";
  StringRef Text = It->second->getBuffer();
  for (unsigned L = 1; L < Line && !Text.empty(); ++L)
    Text = Text.split('\n').second;
  return Text.split('\n').first;
}

std::vector<Reported>
FindingFilter::add(std::vector<driver::PlainFinding> Findings, bool Partial) {
  return addFindings(std::move(Findings), Partial, Settings.CollectFixes);
}

std::vector<Reported>
FindingFilter::addPending(std::vector<driver::PlainFinding> Findings,
                          bool Partial) {
  return addFindings(std::move(Findings), Partial, false);
}

void FindingFilter::takeFixes(const Reported &R) {
  if (!Settings.CollectFixes)
    return;
  for (const clang::tooling::Replacement &X : R.Finding.Fixes)
    Fixes[X.getFilePath().str()].push_back(X);
}

std::vector<Reported>
FindingFilter::addFindings(std::vector<driver::PlainFinding> Findings,
                           bool Partial, bool CollectFixes) {
  std::sort(Findings.begin(), Findings.end(),
            [](const driver::PlainFinding &A, const driver::PlainFinding &B) {
              return std::tie(A.File, A.Offset, A.Rule) <
                     std::tie(B.File, B.Offset, B.Rule);
            });
  std::vector<Reported> Out;
  for (driver::PlainFinding &F : Findings) {
    std::string Key = F.File + ":" + std::to_string(F.Offset) + ":" + F.Rule +
                      ":" + F.Message;
    // Never a fix-it in a file that failed to parse.
    if (Partial)
      F.Fixes.clear();
    if (!Seen.insert(Key).second) {
      // A header's finding again, from another translation unit: reported
      // once, but its fix-its still go to applyFixes(), which refuses to
      // write a header two translation units would fix differently.
      if (CollectFixes && FixedKeys.count(Key))
        for (const clang::tooling::Replacement &X : F.Fixes)
          Fixes[X.getFilePath().str()].push_back(X);
      continue;
    }
    Reported R;
    std::string Real = realPath(F.File);
    R.Path = pathForReport(Real, Settings.Root);
    StringRef Text = lineText(F.File, F.Line);
    std::string Identity =
        F.Rule + "\n" + R.Path + "\n" + normaliseWhitespace(Text);
    R.Fingerprint = fingerprint(F.Rule, R.Path, Text, Occurrences[Identity]++);
    R.Partial = Partial;
    R.Finding = std::move(F);
    if (Settings.KeepCurrent)
      Current.push_back(R);
    if (Settings.Changed && !Settings.Changed->contains(Real, R.Finding.Line)) {
      ++OutsideDiff;
      continue;
    }
    if (Settings.Accepted && Settings.Accepted->count(R.Fingerprint)) {
      ++Suppressed;
      continue;
    }
    if (CollectFixes) {
      FixedKeys.insert(Key);
      for (const clang::tooling::Replacement &X : R.Finding.Fixes)
        Fixes[X.getFilePath().str()].push_back(X);
    }
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace cli
} // namespace tensorplace
