//===- Workers.h - Analysing files in worker processes --------------------===//
//
// Each file is analysed in a child process of its own, so that a crash in
// Clang or in a rule costs that file only. The child sends its FileResult
// back as JSON through a pipe; the parent never runs the analysis itself.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_WORKERS_H
#define TENSORPLACE_CLI_WORKERS_H

#include "tensorplace/driver/Driver.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>

namespace tensorplace {
namespace cli {

/// What came back from the worker that analysed one file.
struct WorkerOutcome {
  /// The worker sent a result; otherwise Failure says what happened to it.
  bool Completed = false;
  driver::FileResult Result;
  std::string Failure;
  /// What the worker wrote to its standard error (Clang's or LLVM's own
  /// messages before a crash, say).
  std::string Stderr;
  /// Peak resident memory of the worker, in KiB.
  long MaxRssKiB = 0;
};

/// One finding or one function summary as a worker's result carries it: a
/// finding with its offset, rendered text and pending conditions. Shards
/// carry their pending findings and summaries to --merge in the same form.
llvm::json::Object toWireJSON(const driver::PlainFinding &F);
llvm::json::Object toWireJSON(const driver::PlainSummary &S);
llvm::Expected<driver::PlainFinding>
wireFindingFromValue(const llvm::json::Value &Value);
llvm::Expected<driver::PlainSummary>
wireSummaryFromValue(const llvm::json::Value &Value);

llvm::json::Value toJSON(const driver::FileResult &Result);
llvm::Expected<driver::FileResult> fileResultFromJSON(llvm::StringRef Text);
llvm::Expected<driver::FileResult>
fileResultFromValue(const llvm::json::Value &Value);

/// Analyses each of Files with Analyse in a forked worker, at most Jobs at
/// once, and calls OnDone in this process as each worker finishes (in any
/// order) and OnTick at least once a second while workers run. Must be
/// called before this process starts any thread.
void runInWorkers(
    llvm::ArrayRef<std::string> Files, unsigned Jobs,
    llvm::function_ref<driver::FileResult(const std::string &)> Analyse,
    llvm::function_ref<void(size_t Index, WorkerOutcome Outcome)> OnDone,
    llvm::function_ref<void()> OnTick);

} // namespace cli
} // namespace tensorplace

#endif
