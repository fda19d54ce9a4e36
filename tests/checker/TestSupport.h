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

}  // namespace tensorplace::test
