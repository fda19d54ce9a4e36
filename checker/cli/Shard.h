//===- Shard.h - Splitting a run across machines and merging the reports --===//
//
// --shard=I/N analyses a deterministic part of the files, so that N CI jobs
// cover a codebase between them; --merge combines their JSON or SARIF
// reports into the report one run would have written. A finding that waits on
// facts of other files (a setup method defined elsewhere, a launcher's
// callers) cannot be settled by one shard: each shard's report carries its
// pending findings and its files' function summaries, and the merge settles
// them over all shards' summaries, as one run does over all files.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_SHARD_H
#define TENSORPLACE_CLI_SHARD_H

#include "Report.h"
#include "tensorplace/driver/Driver.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

/// Shard Index (1-based) of Count.
struct ShardSpec {
  unsigned Index = 1;
  unsigned Count = 1;
};

/// Parses "I/N" with 1 <= I <= N.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text);

/// The files of shard Spec: the files are ordered by their path relative to
/// Root (the same on every machine, wherever the checkout is), and the k-th
/// (0-based) goes to shard k mod N + 1. Every file is in exactly one shard,
/// and shard sizes differ by at most one. RelativePath maps a file to its
/// path relative to the source root. The result keeps the input order.
std::vector<std::string>
selectShard(llvm::ArrayRef<std::string> Files, const ShardSpec &Spec,
            llvm::function_ref<std::string(const std::string &)> RelativePath);

/// What a shard's report carries for --merge (under ShardStateKey).
struct ShardState {
  ShardSpec Spec;
  /// The shard's source root, which SARIF locations are relative to.
  std::string SourceRoot;
  /// Findings that wait on other files' facts, passed through the shard's
  /// filter (--diff, --baseline) and fingerprinted as they are reported once
  /// settled; each still holds its pending conditions.
  std::vector<Reported> Pending;
  /// What the functions defined in the shard's files name and call.
  std::vector<driver::PlainSummary> Summaries;
};
llvm::json::Object toJSON(const ShardState &State);
llvm::Expected<ShardState> shardStateFromValue(const llvm::json::Value &Value);

enum class ReportKind { Json, Sarif };

struct MergedReport {
  ReportKind Kind = ReportKind::Json;
  llvm::json::Value Report = nullptr;
  unsigned Findings = 0;
  /// A SARIF input says a file could not be analysed.
  bool AnyFailed = false;
  /// A SARIF input says a file was analysed partially.
  bool AnyPartial = false;
};

/// Reads reports written by --format=json or --format=sarif, all of one kind,
/// and merges them: findings with the same fingerprint (a header's finding
/// reached from files in several shards) are kept once, and findings are
/// ordered by path, line, column and rule. For SARIF, the rules are united and
/// the files that could not be analysed, or only partially, are kept as
/// notifications. Reports of --shard must be all N shards of one split; their
/// pending findings are settled over every shard's summaries and the holding
/// ones merged in. The merged report carries no shard state.
llvm::Expected<MergedReport>
mergeReports(llvm::ArrayRef<std::string> ReportFiles);

} // namespace cli
} // namespace tensorplace

#endif
