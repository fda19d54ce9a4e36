//===- ContentHash.h - What the persistent cache keys on ------------------===//
//
// The persistent cache (results per translation unit, precompiled headers
// kept across runs) trusts an entry only while every file it was made from
// still has the content it had. These are the pieces both the driver (PCHs)
// and the CLI (results) use: content hashes, each file read once per process,
// the identity of this build of tensorplace, and writes that a concurrent
// reader never sees half done.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_CONTENTHASH_H
#define TENSORPLACE_DRIVER_CONTENTHASH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <utility>
#include <vector>

namespace tensorplace {
namespace driver {

/// A file and the hash of its content when an entry was made from it.
struct FileState {
  std::string Path;
  std::string Hash;
};

/// Content hashes of files, each file read at most once per process: the
/// LibTorch headers that every translation unit includes are hashed once per
/// run, not once per unit.
class FileHashes {
public:
  /// "<size>:<xxhash64 in hex>" of the file's content, or "" when it cannot
  /// be read (a file that was removed no longer matches anything).
  const std::string &of(llvm::StringRef Path);
  /// The state of every file, as of now.
  std::vector<FileState> stateOf(llvm::ArrayRef<std::string> Paths);
  /// True when every file still has the recorded content.
  bool unchanged(llvm::ArrayRef<FileState> Files);

private:
  llvm::StringMap<std::string> Known;
};

llvm::json::Array toJSON(llvm::ArrayRef<FileState> Files);
/// False when V is not an array of {"path", "hash"} objects.
bool fromJSON(const llvm::json::Value &V, std::vector<FileState> &Files);

/// Writes Contents to Path through a unique temporary file in the same
/// directory, renamed over Path: a concurrent reader sees the old file or the
/// new one, never a part. Creates the directory when it is missing.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// Sets the file's modification time to now (the cache's "last used").
void touch(llvm::StringRef Path);

/// Identifies this build of tensorplace (its version, the LLVM it was built
/// against, and its executable's size and modification time), so that a
/// rebuilt checker never trusts what an older one cached.
const std::string &toolIdentity();

/// A hex digest (SHA-1) of Text, for cache file names.
std::string digest(llvm::StringRef Text);

} // namespace driver
} // namespace tensorplace

#endif
