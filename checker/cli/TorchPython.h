//===- TorchPython.h - An extension's flags from a Python torch -----------===//
//
// Projects built with torch.utils.cpp_extension (setup.py's CppExtension and
// CUDAExtension, or load()) have no compilation database. The torch of the
// Python interpreter that builds them knows their flags: its include
// directories, the C++ standard its headers need, its C++ ABI, and Python's
// own headers, which torch/extension.h includes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_TORCHPYTHON_H
#define TENSORPLACE_CLI_TORCHPYTHON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

struct TorchExtensionFlags {
  /// torch.__version__.
  std::string TorchVersion;
  /// The compiler flags of the extension's sources.
  std::vector<std::string> Flags;
};

/// Asks the torch of Python (an interpreter's name or path) for the flags
/// torch.utils.cpp_extension compiles an extension's sources with.
llvm::Expected<TorchExtensionFlags> torchExtensionFlags(llvm::StringRef Python);

} // namespace cli
} // namespace tensorplace

#endif
