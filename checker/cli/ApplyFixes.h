//===- ApplyFixes.h - Writing the CLI's fix-its to disk -------------------===//
//
// --fix leaves every file either untouched or fully fixed: a file is written
// through a temporary file and a rename, and a file whose fixes conflict (two
// translation units disagree about the same header, say) is not written at
// all.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_APPLYFIXES_H
#define TENSORPLACE_CLI_APPLYFIXES_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

/// Every fix-it of a run, by the file it edits. The same fix-it may come
/// from several translation units (a header's); identical ones count once.
using FixesByFile =
    std::map<std::string, std::vector<clang::tooling::Replacement>>;

/// The temporary files writeAtomically() makes are named
/// "<file>.tensorplace-XXXXXX" (six hex digits) in the file's directory. One
/// is left behind only when the process is killed between creating it and
/// the rename; the next --fix of that file removes it.
constexpr const char *TempSuffix = ".tensorplace-";

/// Writes Content to Path through a temporary file in the same directory,
/// flushed to disk, and a rename, so the file is either untouched or
/// completely rewritten. A symbolic link is followed: its target is written.
/// The file keeps its permission bits.
llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Content);

/// Applies each file's fix-its. A file is not written when its fix-its
/// conflict, when it is read-only, or when it cannot be read or written;
/// each is reported on Err naming the file, and the other files are still
/// fixed. Returns false when a file could not be read or written (conflicts
/// are warnings: the findings are still reported).
bool applyFixes(const FixesByFile &Fixes, bool Quiet, llvm::raw_ostream &Err);

} // namespace cli
} // namespace tensorplace

#endif
