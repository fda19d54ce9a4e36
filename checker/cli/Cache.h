//===- Cache.h - Results kept across runs ---------------------------------===//
//
// The persistent cache: for each translation unit, what its analysis
// returned, under a key made of this build of tensorplace, the run's
// options, the file's configuration and compile commands; and with it the
// content of every file the unit read. A result is used only while all of
// those files are unchanged, and then it is exactly what the analysis would
// return, so that everything after it (NOLINT was already applied; the
// baseline, --diff and de-duplication are applied as usual) prints the same.
//
// Layout of the cache directory:
//   results/<2 hex>/<key>.json   one translation unit's result
//   pch/<digest>.{h,pch,json}    kept precompiled headers (driver::PchCache)
//
// Entries are written to a temporary file and renamed, so concurrent runs
// never read half an entry; an entry that does not parse, or whose key or
// format differs, is ignored and written again. trim() removes the least
// recently used files (a hit touches its entry) while the cache is over its
// size limit.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_CACHE_H
#define TENSORPLACE_CLI_CACHE_H

#include "tensorplace/driver/ContentHash.h"
#include "tensorplace/driver/Driver.h"
#include "llvm/Support/Error.h"
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tensorplace {
namespace cli {

/// $XDG_CACHE_HOME/tensorplace, else $HOME/.cache/tensorplace ("" when
/// neither variable is set).
std::string defaultCacheDir();

class ResultCache {
public:
  /// Opens the cache in Dir, creating it; an error says why it cannot be
  /// used. LimitBytes bounds the whole directory, PCHs included.
  static llvm::Expected<std::unique_ptr<ResultCache>> open(llvm::StringRef Dir,
                                                           uint64_t LimitBytes);

  llvm::StringRef dir() const { return Dir; }
  /// Where the driver keeps PCHs.
  std::string pchDir() const;
  driver::FileHashes &hashes() { return Hashes; }

  /// The result stored under Key, when there is one whose files all still
  /// have the content they had.
  std::optional<driver::FileResult> lookup(llvm::StringRef Key);
  /// Stores a complete result (no compiler error) under Key, with the
  /// content of the files it read. Nothing is stored when one of them was
  /// modified after Since (the start of the run): the result may have been
  /// made from its older text. Returns false when nothing was stored.
  bool store(llvm::StringRef Key, const driver::FileResult &Result,
             std::chrono::system_clock::time_point Since);
  /// Removes the least recently used files until the cache takes at most
  /// nine tenths of its limit, when it is over the limit.
  void trim();

  unsigned Hits = 0, Misses = 0, Stored = 0;
  /// Entries that could not be read back (corrupt, truncated, another
  /// format): ignored, and replaced when the unit's result is stored.
  unsigned Unreadable = 0;

private:
  ResultCache(std::string Dir, uint64_t LimitBytes)
      : Dir(std::move(Dir)), LimitBytes(LimitBytes) {}
  std::string entryPath(llvm::StringRef Key) const;

  std::string Dir;
  uint64_t LimitBytes;
  driver::FileHashes Hashes;
};

} // namespace cli
} // namespace tensorplace

#endif
