//===- NvccCommand.h - nvcc compile commands as Clang commands ------------===//
//
// CMake's CUDA language writes nvcc commands into compile_commands.json. Clang
// compiles CUDA too, but rejects nvcc's own flags, so a CUDA source could not
// be analysed from such a database. This rewrites an nvcc command into the
// Clang command that compiles the same source: includes, macros, language
// standard and GPU architectures kept, nvcc-only flags dropped.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_NVCCCOMMAND_H
#define TENSORPLACE_DRIVER_NVCCCOMMAND_H

#include "clang/Tooling/ArgumentsAdjusters.h"

namespace tensorplace {
namespace driver {

/// True when the command's compiler is nvcc.
bool isNvccCommand(const clang::tooling::CommandLineArguments &Args);

/// The Clang command for an nvcc command (other commands are returned
/// unchanged). The toolkit is the one nvcc belongs to (--cuda-path).
clang::tooling::CommandLineArguments
clangCommandFromNvcc(const clang::tooling::CommandLineArguments &Args);

} // namespace driver
} // namespace tensorplace

#endif
