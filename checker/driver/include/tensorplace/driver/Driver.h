//===- Driver.h - Running the analysis over files with LibTooling --------===//
//
// Shared by the CLI and the tests: takes a compilation database and a file,
// runs the analysis core on it, and returns plain, location-independent
// findings (already rendered in clang's text format) and compiler errors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_DRIVER_H
#define TENSORPLACE_DRIVER_DRIVER_H

#include "tensorplace/checker/ProjectFacts.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {
namespace driver {

struct PlainNote {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

struct PlainFinding {
  std::string Rule;
  std::string File; ///< Absolute path.
  unsigned Line = 0, Column = 0, Offset = 0;
  std::string Message;
  std::vector<PlainNote> Notes;
  std::vector<clang::tooling::Replacement> Fixes;
  /// In clang's format, with source line, caret, fix-it and notes.
  std::string Rendered;
  /// A finding that waits on functions defined in other files
  /// (tensorplace::Finding::PendingOn): reported only once the project's
  /// summaries settle it (PendingSettler).
  std::string PendingMember;
  std::vector<std::string> PendingOn;
  /// Holds unless every call of these functions elsewhere is made under a
  /// device guard (tensorplace::Finding::PendingCallersOf).
  std::vector<std::string> PendingCallersOf;
  /// Holds only if these setup functions of a module class, defined
  /// elsewhere, register something (tensorplace::Finding::PendingStateOf).
  std::vector<std::string> PendingStateOf;
  /// Holds only if one of these functions is on a module's forward path
  /// through a call elsewhere (tensorplace::Finding::PendingReachOf).
  std::vector<std::string> PendingReachOf;
  /// Holds only if a call elsewhere hands a tensor's memory to the launching
  /// function's pointer parameters (tensorplace::Finding::PendingDataOf).
  PendingData PendingDataOf;
};

/// What a function defined in this file names (tensorplace::FunctionSummary).
struct PlainSummary {
  std::string Key;
  std::string File; ///< Absolute path of its definition.
  unsigned Line = 0;
  std::vector<std::string> MemberNames;
  std::vector<std::string> Calls;
  bool Opaque = false;
  bool Registers = false;
  bool ForwardRoot = false;
  std::vector<DeviceCall> DeviceCalls;
};

struct FileResult {
  std::string File;
  /// False when the file could not be analysed at all or had compile errors.
  bool Ok = false;
  /// The translation unit was parsed, perhaps with errors: the findings are
  /// as complete as Clang's error recovery allows.
  bool Parsed = false;
  unsigned ErrorCount = 0;
  /// Why it failed: compiler errors in clang's format, or a driver message.
  std::string Errors;
  std::vector<PlainFinding> Findings;
  /// The user functions the file defines, when RunOptions::SettlePending.
  std::vector<PlainSummary> Summaries;
  /// Problems that did not stop the analysis (unknown options in a
  /// .clang-tidy file, for instance).
  std::vector<std::string> Warnings;
  /// The precompiled header the file was parsed with; empty when it was
  /// parsed from its own text alone (no PCH matched, or the PCH failed to
  /// load and the file was parsed again without it).
  std::string PchUsed;
  /// Every file the translation unit read, as absolute paths: the file
  /// itself, its headers and the headers inside the PCH it used (but not the
  /// PCH's own files), for the persistent cache to tell when it changed.
  std::vector<std::string> Dependencies;
};

class PchSet;
class FileHashes;
struct PchCache;

struct RunOptions {
  std::function<bool(llvm::StringRef)> IsEnabled;
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  /// Clang's resource directory (stddef.h and friends); empty keeps what the
  /// compile command says.
  std::string ResourceDir;
  /// tensorplace's CUDA headers (checker/cuda-headers, installed as
  /// share/tensorplace/cuda): a CUDA command that does not say -nocudainc is
  /// parsed with these in front, and without the toolkit's. Empty keeps the
  /// toolkit's headers, as the command finds them.
  std::string CudaHeadersDir;
  /// Findings in headers are reported when the header's path matches this
  /// regex (clang-tidy's -header-filter); the main file always is.
  std::string HeaderFilter;
  bool Color = false;
  /// Read the .clang-tidy files above each file, as clang-tidy does: the torch
  /// checks' CheckOptions, the Checks entries that name torch checks (applied
  /// after "torch-*"), and HeaderFilterRegex.
  bool UseConfigFiles = false;
  /// The command line's check globs, applied after the configuration files'
  /// (empty when none were given).
  std::string CommandLineChecks;
  /// HeaderFilter came from the command line and wins over the files'.
  bool HeaderFilterGiven = false;
  /// Parse the bodies of functions only where a rule may look at them: in
  /// the main file and in the user's headers, not in system or LibTorch
  /// headers. No finding depends on those bodies.
  bool SkipLibraryBodies = true;
  /// Keep findings that wait on functions defined in other files, and
  /// summarise the file's functions, for a PendingSettler to combine.
  bool SettlePending = false;
  /// Precompiled headers prepared for this run (preparePchs); a file whose
  /// compile flags and leading includes match one is parsed with it.
  const PchSet *Pchs = nullptr;
};

/// Adds one file's function summaries to the project's.
void addSummaries(ProjectSummaries &Project,
                  llvm::ArrayRef<PlainSummary> Summaries);

/// The finding waits on facts of other files (one of its Pending* fields is
/// set) and is reported only once settled.
bool isPending(const PlainFinding &F);

/// Settles pending findings against the summaries of every file of a run: a
/// pending finding holds when the project's summaries show that no function
/// it waits on, nor anything those call, names its member, or, for a launch,
/// that a function it is pending on is called without a device guard or not
/// at all. One settler serves a whole run, or the merge of its shards.
class PendingSettler {
public:
  /// Project must outlive the settler.
  explicit PendingSettler(const ProjectSummaries &Project);
  /// True when F holds; F is then an ordinary finding: its pending conditions
  /// are cleared and the forward() that reaches it is named in its message.
  /// A finding that is not pending holds as it is.
  bool settle(PlainFinding &F) const;

private:
  const ProjectSummaries &Project;
  DeviceCallsByCallee DeviceCalls;
  ForwardReach OnForward;
};

/// The resource directory of the Clang this tool was built against.
std::string defaultResourceDir();

/// Analyses every compile command of File (normally one).
FileResult analyzeFile(const clang::tooling::CompilationDatabase &Database,
                       llvm::StringRef File, const RunOptions &Options);

/// Precompiled headers of the leading LibTorch includes that several files of
/// one run share. Each is keyed by the file's compile command (flags and
/// directory, without the file) and by the exact `#include <...>` lines it
/// precompiles; a file uses one only when its flags are the key's and its
/// first includes are exactly the key's includes. The files live in a
/// temporary directory that the process which built them removes on
/// destruction (forked workers that inherit the set leave it alone).
class PchSet {
public:
  struct Entry {
    std::string Key;
    /// The header names it precompiles, in order ("torch/torch.h").
    std::vector<std::string> Includes;
    /// The PCH file.
    std::string Path;
    /// How many of the run's files share it.
    unsigned Files = 0;
    /// It was kept from an earlier run (PchCache), not built by this one.
    bool Reused = false;
  };
  ~PchSet();
  PchSet(const PchSet &) = delete;
  PchSet &operator=(const PchSet &) = delete;

  /// The PCH built for this key, or null.
  const Entry *find(llvm::StringRef Key) const;
  llvm::ArrayRef<Entry> entries() const { return Entries; }
  /// The directory the PCHs and their headers are in ("" when none was
  /// needed).
  llvm::StringRef dir() const { return Dir; }

private:
  PchSet() = default;
  friend std::unique_ptr<PchSet>
  preparePchs(const clang::tooling::CompilationDatabase &,
              llvm::ArrayRef<std::string>, const RunOptions &, unsigned,
              llvm::raw_ostream *, const PchCache *);
  std::string Dir;
  /// Dir belongs to the persistent cache and stays when the run ends.
  bool Persistent = false;
  long Owner = 0;
  std::vector<Entry> Entries;
};

/// How many files of a run must share a key for its PCH to pay, when Jobs
/// workers analyse them in parallel after the PCH is built (2 for one job:
/// building a PCH costs about what it saves 1.3 files; see docs/checker.md
/// "Speed").
unsigned minFilesPerPch(unsigned Jobs = 1);

/// Where PCHs are kept across runs (the persistent cache's pch/ directory),
/// and the run's content hashes that tell whether one is still current.
struct PchCache {
  std::string Dir;
  FileHashes *Hashes = nullptr;
};

/// Builds, in this process, a PCH for every group of at least MinFiles of
/// Files that share a key, for analyzeFile to use through RunOptions::Pchs
/// (in this process, or in workers forked after this returns). A PCH that
/// fails to build, or that would contain one of the user's headers, is left
/// out silently; Verbose, when given, says what was built and why not.
///
/// With a Cache, PCHs are built into its directory and kept: a later run
/// uses one whose headers all still have the content they had when it was
/// built, however few of its files share it (a file analysed alone too); a
/// PCH whose headers changed is built again.
std::unique_ptr<PchSet>
preparePchs(const clang::tooling::CompilationDatabase &Database,
            llvm::ArrayRef<std::string> Files, const RunOptions &Options,
            unsigned MinFiles, llvm::raw_ostream *Verbose = nullptr,
            const PchCache *Cache = nullptr);

/// Matches a clang-tidy style check list ("-*,torch-*,-torch-foo").
bool checkEnabled(llvm::StringRef ChecksGlob, llvm::StringRef Check);

/// The entries of a check list that name torch checks ("torch-...", with or
/// without a leading '-') but match none: most likely misspelt, and silently
/// enabling or disabling nothing. Each comes with the nearest check's name
/// when one is close ("'torch-unregistred-submodule' (did you mean
/// 'torch-unregistered-submodule'?)").
std::vector<std::string> unknownTorchChecks(llvm::StringRef ChecksGlob);

} // namespace driver
} // namespace tensorplace

#endif
