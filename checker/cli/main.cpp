//===- main.cpp - The tensorplace command-line tool -----------------------===//
//
//   tensorplace [options] <source files or directories...> [-- <flags>]
//   tensorplace -p <build dir> [files or directories...]
//
// Exit status: 0 no findings, 1 findings, 2 a file could not be analysed or
// the command line is wrong.
//
//===----------------------------------------------------------------------===//

#include "ApplyFixes.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/driver/Driver.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>

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
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
static cl::opt<std::string> ResourceDir(
    "resource-dir",
    cl::desc("Clang resource directory (default: the one tensorplace was "
             "built with)"),
    cl::init(""), cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Print findings only"),
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
  if (Sources.empty())
    return All;
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
        if (StringRef(F).startswith(Prefix))
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

int main(int argc, const char **argv) {
  cl::HideUnrelatedOptions(Category);
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

  std::vector<const RuleInfo *> Enabled;
  for (const RuleInfo &Info : allRules())
    if (driver::checkEnabled(Checks, Info.Name))
      Enabled.push_back(&Info);
  if (ListChecks) {
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

  std::unique_ptr<tooling::CompilationDatabase> DB;
  bool HaveFileList = false;
  if (!BuildPath.empty()) {
    std::string Error;
    // A broken database in the directory itself is an error, not a reason to
    // use one from a parent directory.
    SmallString<256> JSONPath(BuildPath);
    sys::path::append(JSONPath, "compile_commands.json");
    if (sys::fs::exists(JSONPath) &&
        !tooling::JSONCompilationDatabase::loadFromFile(
            JSONPath, Error, tooling::JSONCommandLineSyntax::AutoDetect))
      return usageError("cannot load a compilation database from '" +
                        BuildPath + "': " + JSONPath + ": " + Error);
    DB =
        tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
    if (!DB)
      return usageError("cannot load a compilation database from '" +
                        BuildPath + "': " + Error);
    HaveFileList = true;
    DB = tooling::inferTargetAndDriverMode(tooling::inferMissingCompileCommands(
        tooling::expandResponseFiles(std::move(DB), vfs::getRealFileSystem())));
  } else if (FixedDB) {
    DB = std::move(FixedDB);
  } else if (!Sources.empty()) {
    std::string Error;
    DB = tooling::CompilationDatabase::autoDetectFromSource(
        absolutePath(Sources.front()), Error);
    if (!DB)
      return usageError("no compilation database: pass -p <build dir> or "
                        "compiler flags after '--' (" +
                        Error + ")");
    HaveFileList = true;
  } else {
    return usageError("no input: pass source files or directories, or "
                      "-p <build dir> to analyse every file it compiles");
  }

  std::vector<std::string> Files = selectFiles(*DB, HaveFileList);
  if (Files.empty())
    return usageError("no source files to analyse");

  driver::RunOptions Options;
  Options.IsEnabled = [](StringRef Name) {
    return driver::checkEnabled(Checks, Name);
  };
  Options.ExtraArgs = ExtraArgs;
  Options.ExtraArgsBefore = ExtraArgsBefore;
  Options.ResourceDir =
      ResourceDir.empty() ? driver::defaultResourceDir() : ResourceDir;
  Options.HeaderFilter = HeaderFilter;
  Options.Color = sys::Process::StandardOutIsDisplayed();

  unsigned FindingCount = 0, FailedFiles = 0;
  StringSet<> Seen; // A header's finding is reported once, not per includer.
  cli::FixesByFile FixesByFile;
  for (const std::string &File : Files) {
    driver::FileResult Result = driver::analyzeFile(*DB, File, Options);
    if (!Result.Ok) {
      ++FailedFiles;
      errs() << "tensorplace: error: '" << File
             << "' could not be analysed: " << Result.Errors;
      if (!StringRef(Result.Errors).endswith("\n"))
        errs() << "\n";
    }
    std::sort(Result.Findings.begin(), Result.Findings.end(),
              [](const driver::PlainFinding &A, const driver::PlainFinding &B) {
                return std::tie(A.File, A.Offset, A.Rule) <
                       std::tie(B.File, B.Offset, B.Rule);
              });
    for (const driver::PlainFinding &F : Result.Findings) {
      // Fixes are only applied to files that parsed cleanly. Every
      // translation unit's fixes are kept, so that applyFixes() sees when
      // two of them disagree about a header.
      if (Fix && Result.Ok)
        for (const tooling::Replacement &R : F.Fixes)
          FixesByFile[R.getFilePath().str()].push_back(R);
      std::string Key = F.File + ":" + std::to_string(F.Offset) + ":" + F.Rule +
                        ":" + F.Message;
      if (!Seen.insert(Key).second)
        continue;
      ++FindingCount;
      outs() << F.Rendered;
    }
    outs().flush();
  }

  if (Fix && !FixesByFile.empty() &&
      !cli::applyFixes(FixesByFile, Quiet, errs()))
    return 2;
  if (!Quiet)
    errs() << FindingCount << " finding" << (FindingCount == 1 ? "" : "s")
           << " in " << Files.size() << " file"
           << (Files.size() == 1 ? "" : "s")
           << (FailedFiles ? ", " + std::to_string(FailedFiles) +
                                 " could not be analysed"
                           : std::string())
           << "\n";
  if (FailedFiles)
    return 2;
  return FindingCount ? 1 : 0;
}
