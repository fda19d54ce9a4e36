//===- Analyse.h - From files to their results, cached or analysed --------===//
//
// The analysis step of a run: each file's result from the cache when it has
// one, else from a worker process, with the precompiled headers the files
// that are analysed can share built first.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_ANALYSE_H
#define TENSORPLACE_CLI_ANALYSE_H

#include "Cache.h"
#include "Workers.h"
#include "tensorplace/driver/Driver.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

/// What a file's cached result depends on besides the content of the files
/// it read: this build of tensorplace, the run's options (Checks: --checks as
/// given), the file's .clang-tidy settings and its compile commands. Empty
/// when the file's configuration cannot be read (the analysis will say why).
std::string cacheKey(const std::string &File,
                     const clang::tooling::CompilationDatabase &DB,
                     const driver::RunOptions &Options, llvm::StringRef Checks);

struct AnalysisSettings {
  /// Worker processes at most (0: one per core).
  unsigned Jobs = 0;
  /// Null with --no-cache.
  ResultCache *Cache = nullptr;
  /// --checks as given: part of the cache key.
  std::string Checks;
  /// --verbose: the PCH step's decisions go here.
  llvm::raw_ostream *PchLog = nullptr;
};

struct AnalysisHooks {
  /// Each file's outcome, in the order of the files, once it and every file
  /// before it are done.
  std::function<void(const std::string &File, WorkerOutcome Outcome)> Deliver;
  /// How many files are done, in any order, whenever it changes.
  std::function<void(unsigned Done)> Progress;
  /// At least once a second while workers run.
  std::function<void()> Tick;
  /// --verbose: a file whose result came from the cache.
  std::function<void(const std::string &File)> FromCache;
};

struct AnalysisStats {
  /// Worker processes that ran (0 when every result came from the cache).
  unsigned Workers = 0;
  /// A precompiled header was built (not only reused).
  bool BuiltPch = false;
};

/// Must be called before this process starts any thread (see runInWorkers).
AnalysisStats analyseFiles(const std::vector<std::string> &Files,
                           const clang::tooling::CompilationDatabase &DB,
                           driver::RunOptions Options,
                           const AnalysisSettings &Settings,
                           const AnalysisHooks &Hooks);

} // namespace cli
} // namespace tensorplace

#endif
