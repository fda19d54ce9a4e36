//===- main.cpp - The tensorplace command-line tool -----------------------===//
//
//   tensorplace [options] <source files or directories...> [-- <flags>]
//   tensorplace -p <build dir> [files or directories...]
//
// Each file is analysed in a worker process of its own (-j at once); the
// results are printed whole, in the sorted order of the files.
//
// Exit status: 0 no findings, 1 findings, 2 a file could not be analysed at
// all or the command line is wrong. A file with compiler errors is analysed
// partially and does not change the status (unless --fail-on-partial).
//
//===----------------------------------------------------------------------===//

#include "Analyse.h"
#include "ApplyFixes.h"
#include "Cache.h"
#include "Filter.h"
#include "Git.h"
#include "Progress.h"
#include "Report.h"
#include "Shard.h"
#include "TorchPython.h"
#include "Workers.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/driver/Driver.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <sys/resource.h>

using namespace clang;
using namespace llvm;
using namespace tensorplace;

static cl::OptionCategory Category("tensorplace options");

static cl::list<std::string> Sources(cl::Positional,
                                     cl::desc("<source files or directories>"),
                                     cl::ZeroOrMore, cl::cat(Category));
static cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory with compile_commands.json"),
              cl::value_desc("build dir"), cl::cat(Category));
static cl::opt<std::string>
    Checks("checks",
           cl::desc("Comma-separated globs of checks to run, as clang-tidy's "
                    "(default: torch-*)"),
           cl::init("torch-*"), cl::cat(Category));
static cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Regex of header paths whose findings are shown, as clang-tidy's "
             "(default: none; the main file's findings are always shown)"),
    cl::init(""), cl::cat(Category));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fix-its"),
                         cl::cat(Category));
static cl::opt<std::string> TorchPython(
    "torch-python",
    cl::desc("Without a compilation database: compile the given files as "
             "torch.utils.cpp_extension does with the torch of this Python "
             "interpreter (its include paths, C++ standard and ABI, Python's "
             "headers); flags after '--' are added"),
    cl::value_desc("python"), cl::cat(Category));
static cl::list<std::string>
    ExtraArgs("extra-arg", cl::desc("Add a compiler argument at the end"),
              cl::cat(Category));
static cl::list<std::string>
    ExtraArgsBefore("extra-arg-before",
                    cl::desc("Add a compiler argument at the start"),
                    cl::cat(Category));
static cl::opt<bool> PrintPluginPath(
    "plugin-path", cl::desc("Print the path of the clang-tidy plugin and exit"),
    cl::cat(Category));
namespace {
enum class CudaHeaders { Tensorplace, Toolkit };
} // namespace
static cl::opt<CudaHeaders> CudaHeadersChoice(
    "cuda-headers", cl::desc("Headers that CUDA sources are parsed with"),
    cl::values(clEnumValN(CudaHeaders::Tensorplace, "tensorplace",
                          "tensorplace's own declarations (default): any "
                          "Clang, no CUDA toolkit or GPU LibTorch needed"),
               clEnumValN(CudaHeaders::Toolkit, "toolkit",
                          "the CUDA toolkit's and LibTorch's, as the compile "
                          "command finds them (needs a Clang that supports "
                          "that CUDA version)")),
    cl::init(CudaHeaders::Tensorplace), cl::cat(Category));
static cl::opt<bool> PrintCudaHeadersPath(
    "cuda-headers-path",
    cl::desc("Print the directory of tensorplace's CUDA headers and exit"),
    cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
static cl::opt<std::string> ResourceDir(
    "resource-dir",
    cl::desc("Clang resource directory (default: the one tensorplace was "
             "built with)"),
    cl::init(""), cl::cat(Category));
static cl::opt<bool> Quiet("quiet",
                           cl::desc("Print findings and errors only: no "
                                    "progress line and no summary"),
                           cl::cat(Category));
static cl::opt<unsigned>
    Jobs("j",
         cl::desc("Files analysed at once, each in a worker process "
                  "(default: the number of cores)"),
         cl::value_desc("n"), cl::init(0), cl::Prefix, cl::cat(Category));

using cli::OutputFormat;
static cl::opt<OutputFormat>
    Format("format", cl::desc("How findings are printed on standard output"),
           cl::values(clEnumValN(OutputFormat::Text, "text",
                                 "clang's diagnostics (default)"),
                      clEnumValN(OutputFormat::Json, "json",
                                 "a JSON array of findings"),
                      clEnumValN(OutputFormat::Sarif, "sarif",
                                 "SARIF 2.1.0, for GitHub code scanning"),
                      clEnumValN(OutputFormat::GitHub, "github",
                                 "GitHub Actions annotations (::warning ...)")),
           cl::init(OutputFormat::Text), cl::cat(Category));
static cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("Directory that reported paths and fingerprints are relative to "
             "(default: the git work tree of the current directory, else the "
             "current directory)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(Category));
static cl::opt<std::string>
    Baseline("baseline",
             cl::desc("Do not report findings whose fingerprints are in this "
                      "file (written by --write-baseline)"),
             cl::value_desc("file"), cl::init(""), cl::cat(Category));
static cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Write the fingerprints of every current finding to this file"),
    cl::value_desc("file"), cl::init(""), cl::cat(Category));
static cl::opt<std::string>
    DiffRev("diff",
            cl::desc("Report only findings on lines added or changed since "
                     "this git revision (untracked files count as changed)"),
            cl::value_desc("rev"), cl::init(""), cl::cat(Category));
static cl::list<std::string>
    Excludes("exclude",
             cl::desc("Skip files matching this glob, matched against the "
                      "path relative to the source root and the absolute path "
                      "(repeatable)"),
             cl::value_desc("glob"), cl::cat(Category));
static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the reported findings and their fix-its as YAML for "
             "clang-apply-replacements"),
    cl::value_desc("file.yaml"), cl::init(""), cl::cat(Category));
static cl::opt<bool> FailOnPartial(
    "fail-on-partial",
    cl::desc("Exit with status 2 when a file had compiler errors and was "
             "analysed only partially"),
    cl::cat(Category));

static cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyse only shard I of N (1 <= I <= N) of the files, for N CI "
             "jobs that merge their reports with --merge"),
    cl::value_desc("I/N"), cl::init(""), cl::cat(Category));
static cl::opt<bool> Merge(
    "merge",
    cl::desc("Merge the reports named as inputs (all written by "
             "--format=json, or all by --format=sarif) into one, printed in "
             "their format; exits as one run over all the files would"),
    cl::cat(Category));

static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Directory of the persistent cache of results and precompiled "
             "headers (default: $XDG_CACHE_HOME/tensorplace, else "
             "~/.cache/tensorplace)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(Category));
static cl::opt<bool> NoCache(
    "no-cache",
    cl::desc("Analyse every file, and neither read nor write the cache"),
    cl::cat(Category));
static cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Size limit of the cache, in bytes or with a K, M or G suffix; "
             "the least recently used entries go first (default: 2G)"),
    cl::value_desc("size"), cl::init("2G"), cl::cat(Category));
static cl::opt<bool>
    Verbose("verbose",
            cl::desc("Say on standard error which files came from the cache "
                     "and which precompiled headers were built or reused"),
            cl::cat(Category));

static int usageError(const Twine &Message) {
  errs() << "tensorplace: error: " << Message << "\n";
  return 2;
}

/// The plugin sits in lib/ beside bin/ in the build tree, and in the
/// configured library directory once installed.
static std::string findPlugin(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, (void *)&findPlugin);
  SmallString<256> Dir(sys::path::parent_path(Exe));
  for (const char *Relative : {TENSORPLACE_PLUGIN_RELATIVE_DIR, "../lib"}) {
    SmallString<256> Candidate(Dir);
    sys::path::append(Candidate, Relative, TENSORPLACE_PLUGIN_FILE);
    sys::path::remove_dots(Candidate, true);
    if (sys::fs::exists(Candidate))
      return std::string(Candidate);
  }
  return "";
}

/// tensorplace's CUDA headers: installed next to this executable
/// (share/tensorplace/cuda), else those of the source tree it was built from.
static std::string findCudaHeaders() {
  std::string Exe =
      sys::fs::getMainExecutable(nullptr, (void *)&findCudaHeaders);
  SmallString<256> Candidate(sys::path::parent_path(Exe));
  sys::path::append(Candidate, TENSORPLACE_CUDA_HEADERS_RELATIVE_DIR,
                    "cuda_runtime.h");
  sys::path::remove_dots(Candidate, true);
  if (sys::fs::exists(Candidate))
    return std::string(sys::path::parent_path(Candidate));
  SmallString<256> Source(TENSORPLACE_CUDA_HEADERS_SOURCE_DIR);
  sys::path::append(Source, "cuda_runtime.h");
  if (sys::fs::exists(Source))
    return TENSORPLACE_CUDA_HEADERS_SOURCE_DIR;
  return "";
}

static bool isSourceFile(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".c++" ||
         Ext == ".C" || Ext == ".cu";
}

static std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

/// Positional arguments: files as given; directories expand to the database's
/// files below them (or, without a database listing, the sources below them).
static std::vector<std::string>
selectFiles(const tooling::CompilationDatabase &DB, bool HaveFileList) {
  std::vector<std::string> All =
      HaveFileList ? DB.getAllFiles() : std::vector<std::string>();
  for (std::string &F : All)
    F = absolutePath(F);
  if (Sources.empty()) {
    std::sort(All.begin(), All.end());
    All.erase(std::unique(All.begin(), All.end()), All.end());
    return All;
  }
  std::vector<std::string> Files;
  for (const std::string &Source : Sources) {
    std::string Abs = absolutePath(Source);
    if (!sys::fs::is_directory(Abs)) {
      Files.push_back(Abs);
      continue;
    }
    std::string Prefix = Abs + "/";
    if (HaveFileList) {
      for (const std::string &F : All)
        if (tensorplace::compat::startsWith(StringRef(F), Prefix))
          Files.push_back(F);
      continue;
    }
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Abs, EC), End;
         It != End && !EC; It.increment(EC))
      if (isSourceFile(It->path()))
        Files.push_back(absolutePath(It->path()));
  }
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

// Clang 21 and later overflow an 8 MiB stack on code nested as deeply as
// their own limits allow (256 brackets), where Clang 14 stops with an error.
// The main thread's stack grows up to the soft limit in force when it grows,
// and forked workers inherit it, so raising the limit here covers every file.
// Linux keeps at least 128 MiB free below the stack for it.
static void raiseStackLimit() {
  constexpr rlim_t Wanted = rlim_t(64) << 20;
  struct rlimit Limit;
  if (getrlimit(RLIMIT_STACK, &Limit) != 0 || Limit.rlim_cur == RLIM_INFINITY ||
      Limit.rlim_cur >= Wanted)
    return;
  Limit.rlim_cur = Limit.rlim_max == RLIM_INFINITY
                       ? Wanted
                       : std::min(Wanted, Limit.rlim_max);
  setrlimit(RLIMIT_STACK, &Limit);
}

/// "2G", "512M", "100K" or a number of bytes; nullopt when malformed.
static std::optional<uint64_t> parseSize(StringRef Text) {
  uint64_t Scale = 1;
  if (!Text.empty()) {
    switch (Text.back()) {
    case 'K':
    case 'k':
      Scale = uint64_t(1) << 10;
      break;
    case 'M':
    case 'm':
      Scale = uint64_t(1) << 20;
      break;
    case 'G':
    case 'g':
      Scale = uint64_t(1) << 30;
      break;
    default:
      break;
    }
    if (Scale != 1)
      Text = Text.drop_back();
  }
  uint64_t Value;
  if (Text.empty() || Text.getAsInteger(10, Value) ||
      Value > UINT64_MAX / Scale)
    return std::nullopt;
  return Value * Scale;
}

/// --merge: the reports given as inputs become one.
static int runMerge(bool HaveOtherInputs) {
  if (Sources.empty())
    return usageError("--merge needs the reports to merge");
  if (HaveOtherInputs || Shard.getNumOccurrences() || Fix)
    return usageError("--merge takes report files only: no -p, no "
                      "compiler flags, no --shard or --fix");
  if (Format.getNumOccurrences() && Format != OutputFormat::Json &&
      Format != OutputFormat::Sarif)
    return usageError("--merge prints the reports' own format, JSON or "
                      "SARIF");
  Expected<cli::MergedReport> Merged = cli::mergeReports(Sources);
  if (!Merged)
    return usageError(toString(Merged.takeError()));
  if (Format.getNumOccurrences() &&
      (Format == OutputFormat::Json) != (Merged->Kind == cli::ReportKind::Json))
    return usageError(
        std::string("--format=") +
        (Format == OutputFormat::Json ? "json" : "sarif") +
        " does not match the reports, which are " +
        (Merged->Kind == cli::ReportKind::Json ? "JSON" : "SARIF"));
  outs() << formatv("{0:2}", Merged->Report) << "\n";
  outs().flush();
  if (!Quiet)
    errs() << Merged->Findings << " finding"
           << (Merged->Findings == 1 ? "" : "s") << " in " << Sources.size()
           << " report" << (Sources.size() == 1 ? "" : "s") << "\n";
  if (Merged->AnyFailed || (FailOnPartial && Merged->AnyPartial))
    return 2;
  return Merged->Findings ? 1 : 0;
}

/// The compilation database: -p's, the flags after "--", or one found from
/// the first source. HaveFileList: it lists the files it compiles.
static Expected<std::unique_ptr<tooling::CompilationDatabase>>
loadDatabase(std::unique_ptr<tooling::CompilationDatabase> FixedDB,
             bool &HaveFileList) {
  auto Fail = [](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(), Message);
  };
  HaveFileList = false;
  if (!BuildPath.empty()) {
    std::string Error;
    // A broken database in the directory itself is an error, not a reason to
    // use one from a parent directory.
    SmallString<256> JSONPath(BuildPath);
    sys::path::append(JSONPath, "compile_commands.json");
    if (sys::fs::exists(JSONPath) &&
        !tooling::JSONCompilationDatabase::loadFromFile(
            JSONPath, Error, tooling::JSONCommandLineSyntax::AutoDetect))
      return Fail("cannot load a compilation database from '" + BuildPath +
                  "': " + JSONPath + ": " + Error);
    std::unique_ptr<tooling::CompilationDatabase> DB =
        tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
    if (!DB)
      return Fail("cannot load a compilation database from '" + BuildPath +
                  "': " + Error);
    HaveFileList = true;
    return tooling::inferTargetAndDriverMode(
        tooling::inferMissingCompileCommands(tooling::expandResponseFiles(
            std::move(DB), vfs::getRealFileSystem())));
  }
  if (FixedDB)
    return std::move(FixedDB);
  if (Sources.empty())
    return Fail("no input: pass source files or directories, or "
                "-p <build dir> to analyse every file it compiles");
  std::string Error;
  std::unique_ptr<tooling::CompilationDatabase> DB =
      tooling::CompilationDatabase::autoDetectFromSource(
          absolutePath(Sources.front()), Error);
  if (!DB)
    return Fail("no compilation database: pass -p <build dir> or compiler "
                "flags after '--' (" +
                Error + ")");
  HaveFileList = true;
  return std::move(DB);
}

/// --source-root, else the git work tree of the current directory, else the
/// current directory.
static std::string sourceRoot() {
  if (!SourceRoot.empty())
    return cli::realPath(SourceRoot);
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  std::string Root = cli::gitTopLevel(Cwd);
  return Root.empty() ? cli::realPath(Cwd) : Root;
}

/// The options of the analysis of each file.
static driver::RunOptions runOptions() {
  driver::RunOptions Options;
  Options.IsEnabled = [](StringRef Name) {
    return driver::checkEnabled(Checks, Name);
  };
  // The run sees every file it is given: findings that wait on functions
  // defined in other files are settled once all are analysed.
  Options.SettlePending = true;
  Options.ExtraArgs = ExtraArgs;
  Options.ExtraArgsBefore = ExtraArgsBefore;
  Options.ResourceDir =
      ResourceDir.empty() ? driver::defaultResourceDir() : ResourceDir;
  if (CudaHeadersChoice == CudaHeaders::Tensorplace)
    Options.CudaHeadersDir = findCudaHeaders();
  Options.HeaderFilter = HeaderFilter;
  Options.Color =
      Format == OutputFormat::Text && sys::Process::StandardOutIsDisplayed();
  Options.UseConfigFiles = true;
  if (Checks.getNumOccurrences())
    Options.CommandLineChecks = Checks;
  Options.HeaderFilterGiven = HeaderFilter.getNumOccurrences() != 0;
  return Options;
}

/// The cache of this run: null with --no-cache, or (with a warning) when it
/// cannot be opened.
static std::unique_ptr<cli::ResultCache> openCache(uint64_t Limit) {
  if (NoCache)
    return nullptr;
  std::string Dir = CacheDir.empty() ? cli::defaultCacheDir() : CacheDir;
  if (Dir.empty()) {
    errs() << "tensorplace: warning: no cache: neither XDG_CACHE_HOME nor "
              "HOME is set (pass --cache-dir, or --no-cache)\n";
    return nullptr;
  }
  Expected<std::unique_ptr<cli::ResultCache>> Opened =
      cli::ResultCache::open(Dir, Limit);
  if (!Opened) {
    errs() << "tensorplace: warning: no cache: " << toString(Opened.takeError())
           << "\n";
    return nullptr;
  }
  return std::move(*Opened);
}

/// The first line of a compiler's output that holds an error, without
/// colours, for a one-line summary.
static std::string firstErrorLine(StringRef Errors) {
  std::string Plain;
  // Drop colours (ESC [ ... m).
  for (size_t I = 0; I < Errors.size(); ++I) {
    if (Errors[I] == '\033') {
      while (I < Errors.size() && Errors[I] != 'm')
        ++I;
      continue;
    }
    Plain += Errors[I];
  }
  SmallVector<StringRef, 8> Lines;
  StringRef(Plain).split(Lines, '\n', -1, false);
  for (StringRef Line : Lines)
    if (Line.contains("error: "))
      return Line.str();
  return Lines.empty() ? std::string() : Lines.front().str();
}

/// Says on standard error why a file was not analysed, or only partially;
/// nullopt when it was analysed whole.
static std::optional<cli::FileProblem>
fileProblem(const std::string &File, const cli::WorkerOutcome &Outcome) {
  const driver::FileResult &Result = Outcome.Result;
  if (!Outcome.Completed || !Result.Parsed) {
    std::string Reason = Outcome.Completed
                             ? StringRef(Result.Errors).rtrim().str()
                             : Outcome.Failure;
    errs() << "tensorplace: error: '" << File
           << "' could not be analysed: " << Reason << "\n";
    if (!Outcome.Completed && !StringRef(Outcome.Stderr).trim().empty())
      errs() << "the analysis printed:\n"
             << StringRef(Outcome.Stderr).rtrim() << "\n";
    return cli::FileProblem{File, true, firstErrorLine(Reason)};
  }
  if (!Result.Ok) {
    std::string First = firstErrorLine(Result.Errors);
    errs() << "tensorplace: warning: '" << File
           << "' was analysed partially because of " << Result.ErrorCount
           << " compiler error" << (Result.ErrorCount == 1 ? "" : "s")
           << "; its fix-its are not applied\n  " << First << "\n";
    return cli::FileProblem{File, false, First};
  }
  return std::nullopt;
}

/// Absolute fix paths: a compile command may name its file relative to its
/// directory.
static void makeFixesAbsolute(const tooling::CompilationDatabase &DB,
                              const std::string &File,
                              std::vector<driver::PlainFinding> &Findings) {
  for (driver::PlainFinding &F : Findings)
    for (tooling::Replacement &R : F.Fixes) {
      if (sys::path::is_absolute(R.getFilePath()))
        continue;
      std::vector<tooling::CompileCommand> Commands =
          DB.getCompileCommands(File);
      SmallString<256> Path(
          Commands.empty() ? StringRef() : StringRef(Commands[0].Directory));
      sys::path::append(Path, R.getFilePath());
      sys::path::remove_dots(Path, true);
      R = tooling::Replacement(Path, R.getOffset(), R.getLength(),
                               R.getReplacementText());
    }
}

/// --list-checks --format=json: what a tool that integrates tensorplace
/// needs of each check.
static json::Value checksToJSON(ArrayRef<const RuleInfo *> Checks) {
  json::Array Out;
  for (const RuleInfo *Info : Checks) {
    json::Array Options;
    for (const ConfigOption *O : optionsOf(*Info))
      Options.push_back(json::Object{
          {"name", O->Name}, {"default", O->Default}, {"meaning", O->Meaning}});
    Out.push_back(
        json::Object{{"name", Info->Name},
                     {"summary", plainSummary(*Info)},
                     {"fixIts", Info->HasFixIts},
                     {"options", std::move(Options)},
                     {"docs", std::string("docs/checks/") + Info->Name + ".md"},
                     {"url", std::string(TENSORPLACE_DOCS_BASE_URL) +
                                 "/checks/" + Info->Name + ".md"}});
  }
  return std::move(Out);
}

static void printVersion(raw_ostream &OS) {
  OS << "tensorplace " << TENSORPLACE_VERSION << "\n"
     << "  built with LLVM " << LLVM_VERSION_STRING
     << "; its clang-tidy plugin loads into clang-tidy " << LLVM_VERSION_MAJOR
     << "\n"
     << "  LibTorch of its build: " << TENSORPLACE_TORCH_VERSION
     << " (the checker reads the LibTorch headers of the code it "
        "analyses)\n";
}

int main(int argc, const char **argv) {
  raiseStackLimit();
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(Category);
  // The flags after "--", which --torch-python adds to its own.
  std::vector<std::string> AfterDashes;
  for (int I = 0; I < argc; ++I)
    if (StringRef(argv[I]) == "--") {
      AfterDashes.assign(argv + I + 1, argv + argc);
      break;
    }
  std::string FixedError;
  std::unique_ptr<tooling::CompilationDatabase> FixedDB =
      tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv,
                                                             FixedError);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "Finds device-placement bugs in LibTorch code.\n\n"
          "  tensorplace -p build/ [files or directories...]\n"
          "  tensorplace file.cpp -- -std=c++17 -I...\n",
          &errs()))
    return 2;
  if (!FixedError.empty())
    return usageError(FixedError);

  if (PrintPluginPath) {
    std::string Plugin = findPlugin(argv[0]);
    if (Plugin.empty())
      return usageError("the clang-tidy plugin (" TENSORPLACE_PLUGIN_FILE
                        ") is not installed next to this executable");
    outs() << Plugin << "\n";
    return 0;
  }
  if (PrintCudaHeadersPath) {
    std::string Dir = findCudaHeaders();
    if (Dir.empty())
      return usageError("tensorplace's CUDA headers are not installed next "
                        "to this executable (share/tensorplace/cuda)");
    outs() << Dir << "\n";
    return 0;
  }
  if (Merge)
    return runMerge(!BuildPath.empty() || FixedDB || !TorchPython.empty());
  if (!TorchPython.empty()) {
    if (!BuildPath.empty())
      return usageError("--torch-python gives the files' compile flags: it "
                        "takes no -p");
    Expected<cli::TorchExtensionFlags> Torch =
        cli::torchExtensionFlags(TorchPython);
    if (!Torch)
      return usageError(toString(Torch.takeError()));
    llvm::append_range(Torch->Flags, AfterDashes);
    FixedDB =
        std::make_unique<tooling::FixedCompilationDatabase>(".", Torch->Flags);
  }

  // The command line, checked before any work.
  std::optional<cli::ShardSpec> ShardSpec;
  if (Shard.getNumOccurrences()) {
    Expected<cli::ShardSpec> Parsed = cli::parseShard(Shard);
    if (!Parsed)
      return usageError(toString(Parsed.takeError()));
    ShardSpec = *Parsed;
    // Findings that wait on other shards' files reach the merge only in a
    // report it reads.
    if (Format != OutputFormat::Json && Format != OutputFormat::Sarif)
      return usageError("--shard writes a report for --merge: pass "
                        "--format=json or --format=sarif");
  }
  std::vector<const RuleInfo *> Enabled;
  for (const RuleInfo &Info : allRules())
    if (driver::checkEnabled(Checks, Info.Name))
      Enabled.push_back(&Info);
  for (const std::string &Unknown : driver::unknownTorchChecks(Checks))
    errs() << "tensorplace: warning: --checks names " << Unknown
           << ", which matches no torch check\n";
  if (ListChecks) {
    if (Format == OutputFormat::Json) {
      outs() << formatv("{0:2}", checksToJSON(Enabled)) << "\n";
      return 0;
    }
    outs() << "Enabled checks:\n";
    for (const RuleInfo *Info : Enabled)
      outs() << "    " << Info->Name << "\n";
    return 0;
  }
  if (Enabled.empty())
    return usageError("--checks='" + Checks +
                      "' enables no check; the checks are " +
                      "torch-* (see --list-checks with --checks='*')");
  if (!HeaderFilter.empty()) {
    std::string RegexError;
    if (!Regex(HeaderFilter).isValid(RegexError))
      return usageError("--header-filter is not a valid regex: " + RegexError);
  }
  std::vector<GlobPattern> ExcludePatterns;
  for (const std::string &Glob : Excludes) {
    Expected<GlobPattern> Pattern = GlobPattern::create(Glob);
    if (!Pattern)
      return usageError("--exclude='" + Glob + "' is not a valid glob: " +
                        toString(Pattern.takeError()));
    ExcludePatterns.push_back(std::move(*Pattern));
  }
  if (!SourceRoot.empty() && !sys::fs::is_directory(SourceRoot))
    return usageError("--source-root='" + SourceRoot + "' is not a directory");
  std::string Root = sourceRoot();

  std::optional<cli::ChangedLines> Changed;
  if (!DiffRev.empty()) {
    std::string TopLevel = cli::gitTopLevel(Root);
    if (TopLevel.empty())
      return usageError("--diff needs a git work tree, and '" + Root +
                        "' is in none");
    Expected<cli::ChangedLines> Lines =
        cli::changedLinesSince(DiffRev, TopLevel);
    if (!Lines)
      return usageError("--diff=" + DiffRev + ": " +
                        toString(Lines.takeError()));
    Changed = std::move(*Lines);
  }
  StringSet<> Accepted;
  if (!Baseline.empty()) {
    Expected<StringSet<>> Read = cli::readBaseline(Baseline);
    if (!Read)
      return usageError("cannot read the baseline '" + Baseline +
                        "': " + toString(Read.takeError()));
    Accepted = std::move(*Read);
  }

  // The files: from the database and the positional arguments, less
  // --exclude, then this shard's.
  bool HaveFileList = false;
  Expected<std::unique_ptr<tooling::CompilationDatabase>> LoadedDB =
      loadDatabase(std::move(FixedDB), HaveFileList);
  if (!LoadedDB)
    return usageError(toString(LoadedDB.takeError()));
  const tooling::CompilationDatabase &DB = **LoadedDB;
  std::vector<std::string> Files = selectFiles(DB, HaveFileList);
  unsigned ExcludedCount = 0;
  if (!ExcludePatterns.empty())
    Files.erase(std::remove_if(Files.begin(), Files.end(),
                               [&](const std::string &File) {
                                 std::string Relative = cli::pathForReport(
                                     cli::realPath(File), Root);
                                 for (const GlobPattern &P : ExcludePatterns)
                                   if (P.match(Relative) || P.match(File)) {
                                     ++ExcludedCount;
                                     return true;
                                   }
                                 return false;
                               }),
                Files.end());
  if (Files.empty())
    return usageError(ExcludedCount ? "no source files to analyse: --exclude "
                                      "left out all of them"
                                    : "no source files to analyse");

  cli::SarifRun SarifTemplate;
  SarifTemplate.Rules = Enabled;
  SarifTemplate.SourceRoot = Root;
  SarifTemplate.DocsBaseUrl = TENSORPLACE_DOCS_BASE_URL;
  SarifTemplate.Version = TENSORPLACE_VERSION;
  cli::ShardState ShardCarry;
  json::Object ShardCarryJSON;
  if (ShardSpec) {
    ShardCarry.Spec = *ShardSpec;
    ShardCarry.SourceRoot = Root;
    SarifTemplate.ShardState = &ShardCarryJSON;
  }
  std::unique_ptr<cli::Reporter> Reporter =
      cli::makeReporter(Format, outs(), SarifTemplate);

  // A shard with no file of its own is not an error: N jobs may outnumber
  // the files.
  if (ShardSpec) {
    Files = cli::selectShard(Files, *ShardSpec, [&](const std::string &File) {
      return cli::pathForReport(cli::realPath(File), Root);
    });
    if (Files.empty()) {
      ShardCarryJSON = toJSON(ShardCarry);
      Reporter->finish({}, {});
      if (!Quiet)
        errs() << "no file in shard " << ShardSpec->Index << "/"
               << ShardSpec->Count << "\n";
      return 0;
    }
  }

  std::optional<uint64_t> CacheLimit = parseSize(CacheMaxSize);
  if (!CacheLimit)
    return usageError("--cache-max-size='" + CacheMaxSize +
                      "' is not a size (bytes, or a number with K, M or G)");
  std::unique_ptr<cli::ResultCache> Cache = openCache(*CacheLimit);

  // Analyse (or take from the cache) → filter → report, file by file in the
  // order of the file list.
  auto Start = std::chrono::steady_clock::now();
  cli::Progress Bar(errs(), !Quiet && sys::Process::StandardErrIsDisplayed(),
                    Files.size());
  cli::FilterSettings FilterSettings;
  FilterSettings.Root = Root;
  FilterSettings.Changed = Changed ? &*Changed : nullptr;
  FilterSettings.Accepted = Baseline.empty() ? nullptr : &Accepted;
  FilterSettings.KeepCurrent = !WriteBaseline.empty();
  FilterSettings.CollectFixes = Fix;
  cli::FindingFilter Filter(FilterSettings);
  std::vector<cli::Reported> Reported;
  std::vector<cli::FileProblem> Problems;
  // Findings waiting on functions defined in other files or on their
  // callers there, and what every file's functions name and call, to settle
  // them once all files are analysed.
  // (Pending[1]: from files analysed partially.)
  std::vector<driver::PlainFinding> Pending[2];
  ProjectSummaries Summaries;
  // A --header-filter written as a path, with an unescaped '+' or '(' of a
  // directory name, is a regex that matches none of the paths it names, and
  // hides every finding in a header: said when the filter's text occurs
  // literally in a path the files read, but the regex matches none of them.
  std::optional<Regex> HeaderFilterRegex;
  std::string HeaderFilterText =
      StringRef(HeaderFilter).ltrim('^').rtrim('$').str();
  if (!HeaderFilter.empty())
    HeaderFilterRegex.emplace(HeaderFilter);
  bool HeaderFilterMatched = false, HeaderFilterTextSeen = false;
  std::map<std::string, unsigned> PerRule;
  StringSet<> WarnedAbout; // A configuration file's problem, once.
  long PeakRssKiB = 0;

  auto report = [&](std::vector<cli::Reported> Accepted) {
    for (cli::Reported &R : Accepted) {
      ++PerRule[R.Finding.Rule];
      Reporter->finding(R);
      Reported.push_back(std::move(R));
    }
  };

  cli::AnalysisSettings Analysis;
  Analysis.Jobs = Jobs;
  Analysis.Cache = Cache.get();
  Analysis.Checks = Checks;
  Analysis.PchLog = Verbose ? &errs() : nullptr;
  cli::AnalysisHooks Hooks;
  Hooks.Deliver = [&](const std::string &File, cli::WorkerOutcome Outcome) {
    PeakRssKiB = std::max(PeakRssKiB, Outcome.MaxRssKiB);
    Bar.clear();
    for (const std::string &Warning : Outcome.Result.Warnings)
      if (WarnedAbout.insert(Warning).second)
        errs() << "tensorplace: warning: " << Warning << "\n";
    std::optional<cli::FileProblem> Problem = fileProblem(File, Outcome);
    if (Problem) {
      Problems.push_back(*Problem);
      Reporter->problem(*Problem,
                        cli::pathForReport(cli::realPath(File), Root));
    }
    makeFixesAbsolute(DB, File, Outcome.Result.Findings);
    if (HeaderFilterRegex && !HeaderFilterMatched) {
      auto See = [&](StringRef Path) {
        HeaderFilterTextSeen |= Path.contains(HeaderFilterText);
        HeaderFilterMatched |= HeaderFilterRegex->match(Path);
      };
      See(cli::realPath(File));
      for (const std::string &Path : Outcome.Result.Dependencies)
        See(Path);
    }
    driver::addSummaries(Summaries, Outcome.Result.Summaries);
    if (ShardSpec)
      llvm::append_range(ShardCarry.Summaries, Outcome.Result.Summaries);
    bool Partial = Problem && !Problem->Failed;
    std::vector<driver::PlainFinding> Now;
    for (driver::PlainFinding &F : Outcome.Result.Findings)
      (driver::isPending(F) ? Pending[Partial] : Now).push_back(std::move(F));
    report(Filter.add(std::move(Now), Partial));
    outs().flush();
  };
  Hooks.Progress = [&](unsigned Done) { Bar.update(Done, Reported.size()); };
  Hooks.Tick = [&] { Bar.tick(); };
  if (Verbose)
    Hooks.FromCache = [&](const std::string &File) {
      Bar.clear();
      errs() << "tensorplace: from the cache: " << File << "\n";
    };
  cli::AnalysisStats Stats =
      cli::analyseFiles(Files, DB, runOptions(), Analysis, Hooks);
  Bar.clear();
  // Pending findings are filtered and fingerprinted before they are settled,
  // all of them, so that a run and the merge of its shards number them alike:
  // a shard cannot settle them (the facts may be in other shards' files), so
  // its report carries them for the merge to settle. Those the project's
  // summaries settle are reported as any other, and only their fix-its are
  // applied.
  const driver::PendingSettler Settler(Summaries);
  for (bool Partial : {false, true}) {
    std::vector<cli::Reported> Filtered =
        Filter.addPending(std::move(Pending[Partial]), Partial);
    if (ShardSpec) {
      llvm::append_range(ShardCarry.Pending, std::move(Filtered));
      continue;
    }
    llvm::erase_if(
        Filtered, [&](cli::Reported &R) { return !Settler.settle(R.Finding); });
    for (const cli::Reported &R : Filtered)
      Filter.takeFixes(R);
    report(std::move(Filtered));
  }
  // A baseline records the findings that hold, not those that waited and
  // were dropped.
  if (!ShardSpec)
    llvm::erase_if(Filter.Current, [&](cli::Reported &R) {
      return !Settler.settle(R.Finding);
    });
  if (ShardSpec)
    ShardCarryJSON = toJSON(ShardCarry);
  if (HeaderFilterRegex && !HeaderFilterMatched && HeaderFilterTextSeen)
    errs() << "tensorplace: warning: --header-filter='" << HeaderFilter
           << "' is a regex that matches none of the files read, though they "
              "lie under that path, so no finding in a header is shown (in a "
              "regex '+', '(' and '[' are operators: write '\\+' for a '+' "
              "in a path)\n";
  if (Cache && (Cache->Stored || Stats.BuiltPch))
    Cache->trim();
  Reporter->finish(Reported, Problems);
  outs().flush();

  // What else the run writes: the baseline, exported fixes, fixed files.
  bool OutputFailed = false;
  if (!WriteBaseline.empty())
    if (Error E = cli::writeBaseline(WriteBaseline, Filter.Current)) {
      errs() << "tensorplace: error: cannot write the baseline '"
             << WriteBaseline << "': " << toString(std::move(E)) << "\n";
      OutputFailed = true;
    }
  if (!ExportFixes.empty()) {
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    if (Error E = cli::exportFixes(ExportFixes, Files.front(), Reported, Cwd)) {
      errs() << "tensorplace: error: cannot export the fixes to '"
             << ExportFixes << "': " << toString(std::move(E)) << "\n";
      OutputFailed = true;
    }
  }
  if (Fix && !Filter.Fixes.empty() &&
      !cli::applyFixes(Filter.Fixes, Quiet, errs()))
    return 2;

  unsigned FailedFiles = 0, PartialFiles = 0;
  for (const cli::FileProblem &P : Problems)
    ++(P.Failed ? FailedFiles : PartialFiles);
  if (!Quiet) {
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    size_t Count = Reported.size();
    errs() << Count << " finding" << (Count == 1 ? "" : "s") << " in "
           << Files.size() << " file" << (Files.size() == 1 ? "" : "s");
    if (PartialFiles || FailedFiles)
      errs() << " (" << PartialFiles << " analysed partially, " << FailedFiles
             << " could not be analysed)";
    errs() << " in " << cli::formatDuration(Seconds);
    if (Stats.Workers)
      errs() << " with " << Stats.Workers << " worker"
             << (Stats.Workers == 1 ? "" : "s") << ", peak worker memory "
             << (PeakRssKiB + 512) / 1024 << " MiB";
    errs() << "\n";
    for (const auto &Entry : PerRule)
      errs() << "  " << Entry.first << ": " << Entry.second << "\n";
    if (Changed)
      errs() << "  outside the lines changed since " << DiffRev << ": "
             << Filter.OutsideDiff << "\n";
    if (!Baseline.empty())
      errs() << "  suppressed by the baseline: " << Filter.Suppressed << "\n";
    if (ExcludedCount)
      errs() << "  files excluded: " << ExcludedCount << "\n";
    if (Cache && Cache->Hits)
      errs() << "  from the cache: " << Cache->Hits << " of " << Files.size()
             << " file" << (Files.size() == 1 ? "" : "s") << "\n";
    for (const cli::FileProblem &P : Problems)
      errs() << "  " << (P.Failed ? "could not analyse" : "partial") << " '"
             << cli::pathForReport(cli::realPath(P.File), Root)
             << "': " << P.Reason << "\n";
  }
  if (FailedFiles || OutputFailed || (FailOnPartial && PartialFiles))
    return 2;
  // Writing a baseline accepts the findings it writes.
  if (!WriteBaseline.empty())
    return 0;
  return Reported.empty() ? 0 : 1;
}
