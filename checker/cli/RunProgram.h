//===- RunProgram.h - Running a helper program and reading its output -----===//
//
// The CLI asks other programs what they know: git (the work tree, the lines a
// change touched) and a Python interpreter's torch (an extension's flags).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_RUNPROGRAM_H
#define TENSORPLACE_CLI_RUNPROGRAM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tensorplace {
namespace cli {

struct ProgramOutput {
  /// The exit status; negative when the program could not be run.
  int Status = -1;
  std::string Out;
  /// Its standard error, trimmed, or why it could not be run.
  std::string Err;
};

/// Runs Program (a name looked up on PATH, or a path) with Args, standard input
/// empty, and returns its status and what it printed.
ProgramOutput runProgram(llvm::StringRef Program,
                         llvm::ArrayRef<std::string> Args);

} // namespace cli
} // namespace tensorplace

#endif
