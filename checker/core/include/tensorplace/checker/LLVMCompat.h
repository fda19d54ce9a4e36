#pragma once

// The differences between the LLVM/Clang versions the checker builds against
// (14 to 22), kept in one place so that rules and front ends are written once.
// Every shim here names the version that made it necessary.

#include "llvm/ADT/StringRef.h"

namespace tensorplace {
namespace compat {

/// `StringRef::startswith`/`endswith` exist up to LLVM 18 and are removed
/// later; `starts_with`/`ends_with` exist from LLVM 16 on. Neither spelling
/// builds everywhere.
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}
inline bool endsWith(llvm::StringRef S, llvm::StringRef Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

} // namespace compat
} // namespace tensorplace
