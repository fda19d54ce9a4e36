//===- Report.h - Findings as text, JSON, SARIF, GitHub, baselines, YAML --===//
//
// Every output format of the CLI, the fingerprints that identify a finding
// across unrelated edits, baselines of fingerprints, and fixes exported for
// clang-apply-replacements.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CLI_REPORT_H
#define TENSORPLACE_CLI_REPORT_H

#include "tensorplace/checker/Analysis.h"
#include "tensorplace/driver/Driver.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {
namespace cli {

/// A finding as it is reported.
struct Reported {
  driver::PlainFinding Finding;
  /// Relative to the source root when the file is below it, else absolute.
  std::string Path;
  std::string Fingerprint;
  /// The file it was found through had compiler errors.
  bool Partial = false;
};

/// A file that was analysed only partially, or not at all.
struct FileProblem {
  std::string File;
  bool Failed = false; ///< Not analysed at all (else: partially).
  std::string Reason;
};

/// Path relative to Root when it lies below Root, else Path itself.
std::string pathForReport(llvm::StringRef Path, llvm::StringRef Root);

/// Whitespace runs become one space; leading and trailing whitespace goes.
std::string normaliseWhitespace(llvm::StringRef Text);

/// Identifies a finding by its rule, its file, the text of its line and how
/// many identical (rule, file, text) findings came before it in the file, so
/// that it survives edits elsewhere in the file.
std::string fingerprint(llvm::StringRef Rule, llvm::StringRef Path,
                        llvm::StringRef LineText, unsigned Occurrence);

/// A finding as JSON: rule, file, line, column, message, notes (file, line,
/// column, message) and fixes (file, offset, length, replacement), the schema
/// of docs/checker.md. --format=json adds what a report knows (path,
/// fingerprint, partial); the workers' results add what the parent needs to
/// print and fix it (offset, rendered).
llvm::json::Object findingToJSON(const driver::PlainFinding &F);

/// One finding of --format=json: findingToJSON() and its path, fingerprint
/// and partial flag.
llvm::json::Object reportedToJSON(const Reported &R);

/// --format=json: an array of findings.
llvm::json::Value findingsToJSON(llvm::ArrayRef<Reported> Findings);

/// Where a shard's report carries what --merge needs to settle its pending
/// findings (Shard.h): a member of a JSON report's top-level object, a
/// property of a SARIF run.
constexpr llvm::StringLiteral ShardStateKey = "tensorplaceShard";

struct SarifRun {
  llvm::ArrayRef<const RuleInfo *> Rules;
  llvm::ArrayRef<Reported> Findings;
  llvm::ArrayRef<FileProblem> Problems;
  std::string SourceRoot;
  std::string DocsBaseUrl;
  std::string Version;
  /// A shard's state for --merge; also given to the JSON reporter, which then
  /// prints {"findings": [...], "tensorplaceShard": {...}}.
  const llvm::json::Object *ShardState = nullptr;
};
/// A SARIF 2.1.0 log with one run.
llvm::json::Value toSARIF(const SarifRun &Run);
/// One finding as a SARIF result, without its ruleIndex.
llvm::json::Object sarifResult(const Reported &R, llvm::StringRef SourceRoot);

enum class OutputFormat { Text, Json, Sarif, GitHub };

/// Prints a run's findings in one output format: text and GitHub annotations
/// as each file's turn comes, JSON and SARIF whole when the run ends.
class Reporter {
public:
  virtual ~Reporter();
  /// A file that could not be analysed, or only partially; Path as reported.
  virtual void problem(const FileProblem &, llvm::StringRef Path) {}
  /// A finding that is reported.
  virtual void finding(const Reported &) {}
  /// After the last file: every reported finding and every problem.
  virtual void finish(llvm::ArrayRef<Reported> Findings,
                      llvm::ArrayRef<FileProblem> Problems) {}
};
/// Run gives the SARIF log's rules, source root, docs and version; its
/// findings and problems are those passed to finish().
std::unique_ptr<Reporter>
makeReporter(OutputFormat Format, llvm::raw_ostream &OS, const SarifRun &Run);

/// GitHub Actions workflow commands (`::warning file=...::message`).
/// A finding and its notes, each note with its place (relative to Root when
/// below it), in one annotation.
void printGitHubFinding(llvm::raw_ostream &OS, const Reported &R,
                        llvm::StringRef Root);
void printGitHubProblem(llvm::raw_ostream &OS, const FileProblem &P,
                        llvm::StringRef Path);
std::string escapeGitHubData(llvm::StringRef Text);
std::string escapeGitHubProperty(llvm::StringRef Text);

/// A baseline: the fingerprints of accepted findings, in a JSON file.
llvm::Error writeBaseline(llvm::StringRef File,
                          llvm::ArrayRef<Reported> Findings);
llvm::Expected<llvm::StringSet<>> readBaseline(llvm::StringRef File);

/// The findings and their fixes in the YAML that clang-apply-replacements
/// reads (clang-tidy's --export-fixes format).
llvm::Error exportFixes(llvm::StringRef File, llvm::StringRef MainSourceFile,
                        llvm::ArrayRef<Reported> Findings,
                        llvm::StringRef BuildDirectory);

} // namespace cli
} // namespace tensorplace

#endif
