// Helpers for the checker tests: annotated inputs and running the front ends.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tensorplace::test {

/// (line, check) pairs; a line may expect the same check more than once.
using Findings = std::multiset<std::pair<unsigned, std::string>>;

/// Reads "// expect: torch-a, torch-b" annotations from an input file.
Findings expectationsIn(const std::string& path);

/// What an input says users see of the findings on a line besides their rules,
/// on comment lines right after the line's "expect:" annotation (clang-tidy's
/// CHECK-MESSAGES and CHECK-FIXES, next to the code):
///   // message: <text>    a finding on the line has a message containing <text>
///   // note@+N: <text>    one of its notes is N lines below the line (@-N: above)
///                         and contains <text>
///   // fixed: <text>      after every fix-it of the file, the line reads <text>
///   // fixed@+N: <text>   ... the line N lines below (@-N: above) reads <text>
/// Every line of the input without a "fixed:" must read the same after the
/// fix-its.
struct Detail {
  unsigned line = 0;
  std::string kind;  // "message", "note" or "fixed"
  int offset = 0;    // from the finding's line to the note's or the fixed line
  std::string text;
};
std::vector<Detail> detailsIn(const std::string& path);

/// An input's text without its detail lines: the code as a user would have
/// written it, for tests that copy an input and look for text in the result.
std::string readInput(const std::string& path);

/// Parses clang-style "file:line:col: warning: ... [torch-x]" lines whose
/// file ends with `file_suffix`; fails the test on a compiler error line.
Findings warningsIn(const std::string& output, const std::string& file_suffix);

/// Lines of the input that a mismatch is about, for readable failures.
std::string describeMismatch(const Findings& expected, const Findings& actual);

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
CommandResult runCommand(const std::string& command);

std::string readFile(const std::string& path);
void writeFile(const std::string& path, const std::string& content);
/// A fresh directory under the build tree for one test.
std::string scratchDir(const std::string& name);
std::string quote(const std::string& arg);

/// Flags that make an input parse against the stand-in header or against the
/// real LibTorch headers.
std::vector<std::string> standInFlags();
std::vector<std::string> realTorchFlags();
std::string joinFlags(const std::vector<std::string>& flags);

/// Runs the CLI (Cli, then Options) over Files once, and split into shards (2, 3 and one per
/// file) that --merge combines, in JSON and in SARIF, and checks that every merge reports what
/// the one run reports: the same findings, each with its rule, place, message, notes and
/// fingerprint, and the same exit status. Flags (compiler flags after "--") come last; the
/// shards' reports are written under Dir.
void checkShardsMatchOneRun(const std::string& cli,
                            const std::string& options,
                            const std::vector<std::string>& files,
                            const std::string& flags,
                            const std::string& dir);

}  // namespace tensorplace::test
