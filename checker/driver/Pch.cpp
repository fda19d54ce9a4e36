//===- Pch.cpp - Precompiled headers of LibTorch's includes ---------------===//
//
// Files of a run that start with the same LibTorch includes, under the same
// flags, share one PCH of those includes (bodies of library functions
// skipped), built before the workers start and, with the persistent cache,
// kept across runs. See docs/checker.md (Speed).
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "tensorplace/checker/TorchModel.h"
#include "tensorplace/driver/ContentHash.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include <algorithm>
#include <unistd.h>

using namespace clang;

namespace tensorplace {
namespace driver {

namespace {

/// True for include names that come from LibTorch's install root.
bool isLibTorchInclude(llvm::StringRef Name) {
  for (llvm::StringRef Root : {"torch/", "ATen/", "c10/", "caffe2/"})
    if (tensorplace::compat::startsWith(Name, Root))
      return true;
  return false;
}

/// The `#include <...>` lines a file starts with (after comments and blank
/// lines), up to and including the last LibTorch one, as long as every one
/// before it is LibTorch's or a standard library name (no extension). Any
/// other line, a quoted include, a macro or a conditional, ends the block:
/// what follows it may change what the includes mean.
std::vector<std::string> leadingLibraryIncludes(llvm::StringRef Text) {
  static const llvm::Regex Include(
      "^[ \t]*#[ \t]*include[ \t]*<([^<>\"]+)>[ \t]*(//.*)?$");
  std::vector<std::string> Includes;
  size_t LastLibTorch = 0;
  bool InComment = false;
  while (!Text.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    Line = Line.rtrim("\r");
    if (InComment) {
      size_t End = Line.find("*/");
      if (End == llvm::StringRef::npos)
        continue;
      InComment = false;
      Line = Line.drop_front(End + 2);
    }
    llvm::StringRef Trimmed = Line.trim();
    if (Trimmed.empty() || tensorplace::compat::startsWith(Trimmed, "//"))
      continue;
    if (tensorplace::compat::startsWith(Trimmed, "/*")) {
      size_t End = Trimmed.find("*/", 2);
      if (End == llvm::StringRef::npos) {
        InComment = true;
        continue;
      }
      if (Trimmed.drop_front(End + 2).trim().empty())
        continue;
      break;
    }
    llvm::SmallVector<llvm::StringRef, 3> Match;
    if (!Include.match(Line, &Match))
      break;
    llvm::StringRef Name = Match[1];
    bool LibTorch = isLibTorchInclude(Name);
    if (!LibTorch && Name.contains('.'))
      break;
    Includes.push_back(std::string(Name));
    if (LibTorch)
      LastLibTorch = Includes.size();
  }
  Includes.resize(LastLibTorch);
  return Includes;
}

/// The PCH key of a command, or "" when the file cannot share one.
std::string pchKey(const PreparedCommand &Command,
                   const std::vector<std::string> &Includes) {
  if (Includes.empty() || Command.FileIndex >= Command.Args.size())
    return "";
  std::string Key = Command.Directory;
  Key += '\0';
  for (size_t I = 0; I < Command.Args.size(); ++I)
    if (I != Command.FileIndex) {
      Key += Command.Args[I];
      Key += '\0';
    }
  Key += '\0';
  for (const std::string &Name : Includes) {
    Key += Name;
    Key += '\n';
  }
  return Key;
}

} // namespace

/// The PCH key of a command already prepared for analysis.
std::string pchKeyOf(const tooling::CompileCommand &Command,
                     const PreparedCommand &Prepared,
                     std::vector<std::string> *IncludesOut) {
  llvm::SmallString<256> Path(Command.Filename);
  compat::makeAbsolute(Command.Directory, Path);
  // Only a regular file is read here: opening a FIFO would block the run
  // before any file is analysed (analyzeFile names it as not regular).
  if (!llvm::sys::fs::is_regular_file(Path))
    return "";
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return "";
  std::vector<std::string> Includes =
      leadingLibraryIncludes((*Text)->getBuffer());
  std::string Key = pchKey(Prepared, Includes);
  if (IncludesOut)
    *IncludesOut = std::move(Includes);
  return Key;
}

namespace {

/// Fails the PCH when a header that is neither a system nor a LibTorch
/// header goes into it: the user's headers keep their bodies and may hold
/// findings, so they are always parsed with the file.
class OnlyLibraryHeaders : public PPCallbacks {
public:
  OnlyLibraryHeaders(const SourceManager &SM, std::string &UserHeader)
      : SM(SM), UserHeader(UserHeader) {}
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind Kind, FileID) override {
    if (Reason != EnterFile || Kind != SrcMgr::C_User || !UserHeader.empty() ||
        SM.getFileID(Loc) == SM.getMainFileID())
      return;
    // A FileEntryRef: FileEntry::getName() is gone in LLVM 19.
    if (auto Entry = SM.getFileEntryRefForID(SM.getFileID(Loc)))
      if (!isLibTorchPath(Entry->getName()))
        UserHeader = std::string(Entry->getName());
  }

private:
  const SourceManager &SM;
  std::string &UserHeader;
};

class GenerateLibraryPch : public GeneratePCHAction {
public:
  GenerateLibraryPch(std::string &UserHeader, std::shared_ptr<FilesRead> Files)
      : UserHeader(UserHeader), Files(std::move(Files)) {}
  bool BeginInvocation(CompilerInstance &CI) override {
    CI.addDependencyCollector(Files);
    validatePchByContent(CI);
    return GeneratePCHAction::BeginInvocation(CI);
  }
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<OnlyLibraryHeaders>(
        CI.getSourceManager(), UserHeader));
    return GeneratePCHAction::BeginSourceFileAction(CI);
  }

private:
  std::string &UserHeader;
  std::shared_ptr<FilesRead> Files;
};

/// Runs the PCH action on the invocation the driver made for the command,
/// with the options a reusable, template-instantiating PCH needs.
class PchFactory : public tooling::FrontendActionFactory {
public:
  PchFactory(std::string Output, bool SkipBodies, std::string &UserHeader,
             std::shared_ptr<FilesRead> Files)
      : Output(std::move(Output)), SkipBodies(SkipBodies),
        UserHeader(UserHeader), Files(std::move(Files)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<GenerateLibraryPch>(UserHeader, Files);
  }
  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Diags) override {
    Invocation->getFrontendOpts().OutputFile = Output;
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    Invocation->getFrontendOpts().SkipFunctionBodies = SkipBodies;
    // Without it every file that loads the PCH instantiates the pending
    // templates again, which costs most of what the PCH saves.
    compat::langOptions(Invocation->getLangOpts()).PCHInstantiateTemplates =
        true;
    return FrontendActionFactory::runInvocation(
        std::move(Invocation), Files, std::move(PCHContainerOps), Diags);
  }

private:
  std::string Output;
  bool SkipBodies;
  std::string &UserHeader;
  std::shared_ptr<FilesRead> Files;
};

/// The header a PCH is built from: the includes it precompiles.
std::string pchHeaderText(const std::vector<std::string> &Includes) {
  std::string Text;
  for (const std::string &Name : Includes)
    Text += "#include <" + Name + ">\n";
  return Text;
}

/// Builds one PCH from Header (already written); returns an empty string,
/// or why it could not be built. Read gets the files it was built from.
std::string buildPch(const tooling::CompileCommand &Command,
                     const RunOptions &Options, llvm::StringRef Header,
                     llvm::StringRef Output, std::vector<std::string> *Read) {
  PreparedCommand Prepared = prepareCommand(Command, Options);
  tooling::CommandLineArguments Args = Prepared.Args;
  Args[Prepared.FileIndex] = Header.str();
  Args.insert(Args.begin() + Prepared.FileIndex, "-xc++-header");

  std::string UserHeader;
  auto Files = std::make_shared<FilesRead>();
  PchFactory Factory(Output.str(), Options.SkipLibraryBodies, UserHeader,
                     Files);
  DiagnosticConsumer Diags; // Counts errors and prints nothing.
  llvm::IntrusiveRefCntPtr<FileManager> FileMgr = filesFor(Prepared.Directory);
  tooling::ToolInvocation Invocation(
      Args, &Factory, FileMgr.get(),
      std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(&Diags);
  bool Success = Invocation.run();
  if (Read)
    *Read = Files->absolute(Prepared.Directory);
  if (!UserHeader.empty())
    return "it would contain the user's header '" + UserHeader + "'";
  if (!Success || Diags.getNumErrors() > 0)
    return "the compiler reported errors";
  if (!llvm::sys::fs::exists(Output))
    return "the compiler wrote no PCH";
  return "";
}

/// A PCH kept by an earlier run is used while every file it was built from
/// (listed in Meta) has the content it had then.
bool keptPchIsCurrent(llvm::StringRef Output, llvm::StringRef Meta,
                      FileHashes &Hashes) {
  if (!llvm::sys::fs::is_regular_file(Output))
    return false;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(Meta);
  if (!Text)
    return false;
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Text)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return false;
  }
  std::vector<FileState> Files;
  return fromJSON(*Parsed, Files) && !Files.empty() && Hashes.unchanged(Files);
}

} // namespace

PchSet::~PchSet() {
  // Forked workers share the directory with their parent, which removes it;
  // the persistent cache's stays.
  if (!Dir.empty() && !Persistent && Owner == static_cast<long>(::getpid()))
    llvm::sys::fs::remove_directories(Dir);
}

const PchSet::Entry *PchSet::find(llvm::StringRef Key) const {
  for (const Entry &E : Entries)
    if (E.Key == Key)
      return &E;
  return nullptr;
}

unsigned minFilesPerPch(unsigned Jobs) {
  // Measured on <torch/torch.h> (docs/checker.md, "Speed"): building the PCH
  // costs about 5.6 s, and it saves about 4.2 s on each file that uses it.
  // The build runs before any worker starts, so with Jobs workers a file
  // saves a Jobs-th of that on the clock.
  const unsigned BuildTenths = 56, SavedTenths = 42;
  unsigned Jobs1 = std::max(Jobs, 1u);
  return std::max(2u, (BuildTenths * Jobs1 + SavedTenths - 1) / SavedTenths);
}

std::unique_ptr<PchSet>
preparePchs(const tooling::CompilationDatabase &Database,
            llvm::ArrayRef<std::string> Files, const RunOptions &Options,
            unsigned MinFiles, llvm::raw_ostream *Verbose,
            const PchCache *Cache) {
  std::unique_ptr<PchSet> Set(new PchSet());
  Set->Owner = static_cast<long>(::getpid());

  struct Group {
    tooling::CompileCommand Command;
    std::vector<std::string> Includes;
    unsigned Files = 0;
  };
  llvm::StringMap<Group> Groups;
  std::vector<std::string> Order;
  for (const std::string &File : Files) {
    llvm::SmallString<256> Path(File);
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, true);
    for (const tooling::CompileCommand &Command :
         Database.getCompileCommands(Path)) {
      std::vector<std::string> Includes;
      std::string Key =
          pchKeyOf(Command, prepareCommand(Command, Options), &Includes);
      if (Key.empty())
        continue;
      auto Inserted = Groups.try_emplace(Key, Group{Command, Includes, 0});
      if (Inserted.second)
        Order.push_back(Key);
      ++Inserted.first->second.Files;
    }
  }

  if (Cache) {
    Set->Dir = Cache->Dir;
    Set->Persistent = true;
  }
  for (const std::string &Key : Order) {
    const Group &G = Groups[Key];
    const std::vector<std::string> &Includes = G.Includes;
    std::string Names;
    for (const std::string &Name : Includes)
      Names += (Names.empty() ? "<" : ", <") + Name + ">";

    std::string Header, Output, Meta;
    if (Cache) {
      // One name per key, for this build of tensorplace: the header's path
      // is recorded in the PCH, so it stays where the PCH was built.
      std::string Stem =
          Cache->Dir + "/" +
          digest(toolIdentity() + '\0' + Key + '\0' +
                 (Options.SkipLibraryBodies ? "skip-bodies" : "bodies"));
      Header = Stem + ".h";
      Output = Stem + ".pch";
      Meta = Stem + ".json";
      if (keptPchIsCurrent(Output, Meta, *Cache->Hashes)) {
        // Touched, so that trimming the cache removes the least recently
        // used first.
        touch(Output);
        if (Verbose)
          *Verbose << "tensorplace: using the kept PCH '" << Output << "' of "
                   << Names << " for " << G.Files << " file"
                   << (G.Files == 1 ? "" : "s") << "\n";
        Set->Entries.push_back({Key, Includes, Output, G.Files, true});
        continue;
      }
    }
    if (G.Files < MinFiles) {
      if (Verbose)
        *Verbose << "tensorplace: no PCH for " << Names << ": " << G.Files
                 << " file" << (G.Files == 1 ? "" : "s") << " share it, "
                 << MinFiles << " needed\n";
      continue;
    }
    if (Set->Dir.empty()) {
      llvm::SmallString<256> Prefix, Dir;
      llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Prefix);
      llvm::sys::path::append(Prefix, "tensorplace-pch");
      if (std::error_code EC =
              llvm::sys::fs::createUniqueDirectory(Prefix, Dir)) {
        if (Verbose)
          *Verbose << "tensorplace: no PCH: cannot create a directory for "
                      "it: "
                   << EC.message() << "\n";
        return Set;
      }
      Set->Dir = std::string(Dir);
    }
    std::string Built;
    if (Cache) {
      // Built under a name of its own and renamed into place, so that a
      // concurrent run never loads half a PCH.
      Built = Output + ".tmp-" + std::to_string(::getpid());
      if (llvm::Error E =
              writeFileAtomically(Header, pchHeaderText(Includes))) {
        if (Verbose)
          *Verbose << "tensorplace: no PCH for " << Names << ": "
                   << llvm::toString(std::move(E)) << "\n";
        continue;
      }
    } else {
      std::string Stem =
          (Set->Dir + "/preamble-" + llvm::Twine(Set->Entries.size())).str();
      Header = Stem + ".h";
      Output = Built = Stem + ".pch";
      llvm::sys::RemoveFileOnSignal(Header);
      std::error_code EC;
      llvm::raw_fd_ostream OS(Header, EC);
      OS << pchHeaderText(Includes);
      OS.close();
      if (EC || OS.has_error()) {
        OS.clear_error();
        if (Verbose)
          *Verbose << "tensorplace: no PCH for " << Names << ": cannot write '"
                   << Header << "'\n";
        continue;
      }
    }
    llvm::sys::RemoveFileOnSignal(Built);
    std::vector<std::string> Read;
    std::string Why = buildPch(G.Command, Options, Header, Built, &Read);
    if (Why.empty() && Cache) {
      if (std::error_code EC = llvm::sys::fs::rename(Built, Output))
        Why = "cannot rename it into the cache: " + EC.message();
      else if (llvm::Error E = writeFileAtomically(
                   Meta,
                   llvm::formatv("{0}", llvm::json::Value(toJSON(
                                            Cache->Hashes->stateOf(Read))))
                       .str()))
        Why = llvm::toString(std::move(E));
    }
    if (Cache)
      llvm::sys::DontRemoveFileOnSignal(Built);
    if (!Why.empty()) {
      llvm::sys::fs::remove(Built);
      if (Verbose)
        *Verbose << "tensorplace: no PCH for " << Names << ": " << Why << "\n";
      continue;
    }
    if (Verbose)
      *Verbose << "tensorplace: built PCH '" << Output << "' of " << Names
               << " for " << G.Files << " files\n";
    Set->Entries.push_back({Key, Includes, Output, G.Files, false});
  }
  return Set;
}

} // namespace driver
} // namespace tensorplace
