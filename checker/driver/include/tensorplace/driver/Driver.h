//===- Driver.h - Running the analysis over files with LibTooling --------===//
//
// Shared by the CLI and the tests: takes a compilation database and a file,
// runs the analysis core on it, and returns plain, location-independent
// findings (already rendered in clang's text format) and compiler errors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_DRIVER_H
#define TENSORPLACE_DRIVER_DRIVER_H

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <functional>
#include <string>
#include <vector>

namespace tensorplace {
namespace driver {

struct PlainNote {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

struct PlainFinding {
  std::string Rule;
  std::string File; ///< Absolute path.
  unsigned Line = 0, Column = 0, Offset = 0;
  std::string Message;
  std::vector<PlainNote> Notes;
  std::vector<clang::tooling::Replacement> Fixes;
  /// In clang's format, with source line, caret, fix-it and notes.
  std::string Rendered;
};

struct FileResult {
  std::string File;
  /// False when the file could not be analysed at all or had compile errors.
  bool Ok = false;
  /// The translation unit was parsed, perhaps with errors: the findings are
  /// as complete as Clang's error recovery allows.
  bool Parsed = false;
  unsigned ErrorCount = 0;
  /// Why it failed: compiler errors in clang's format, or a driver message.
  std::string Errors;
  std::vector<PlainFinding> Findings;
  /// Problems that did not stop the analysis (unknown options in a
  /// .clang-tidy file, for instance).
  std::vector<std::string> Warnings;
};

struct RunOptions {
  std::function<bool(llvm::StringRef)> IsEnabled;
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  /// Clang's resource directory (stddef.h and friends); empty keeps what the
  /// compile command says.
  std::string ResourceDir;
  /// Findings in headers are reported when the header's path matches this
  /// regex (clang-tidy's -header-filter); the main file always is.
  std::string HeaderFilter;
  bool Color = false;
  /// Read the .clang-tidy files above each file, as clang-tidy does: the torch
  /// checks' CheckOptions, the Checks entries that name torch checks (applied
  /// after "torch-*"), and HeaderFilterRegex.
  bool UseConfigFiles = false;
  /// The command line's check globs, applied after the configuration files'
  /// (empty when none were given).
  std::string CommandLineChecks;
  /// HeaderFilter came from the command line and wins over the files'.
  bool HeaderFilterGiven = false;
};

/// The resource directory of the Clang this tool was built against.
std::string defaultResourceDir();

/// Analyses every compile command of File (normally one).
FileResult analyzeFile(const clang::tooling::CompilationDatabase &Database,
                       llvm::StringRef File, const RunOptions &Options);

/// Matches a clang-tidy style check list ("-*,torch-*,-torch-foo").
bool checkEnabled(llvm::StringRef ChecksGlob, llvm::StringRef Check);

} // namespace driver
} // namespace tensorplace

#endif
