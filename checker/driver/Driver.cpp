//===- Driver.cpp ---------------------------------------------------------===//

#include "tensorplace/driver/Driver.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/Rule.h"
#include "tensorplace/checker/TorchModel.h"
#include "tensorplace/driver/ConfigFiles.h"
#include "tensorplace/driver/ContentHash.h"
#include "tensorplace/driver/NvccCommand.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <algorithm>
#include <chrono>
#include <unistd.h>

using namespace clang;

namespace tensorplace {
namespace driver {

std::string defaultResourceDir() { return TENSORPLACE_CLANG_RESOURCE_DIR; }

bool checkEnabled(llvm::StringRef ChecksGlob, llvm::StringRef Check) {
  // Later entries win, as in clang-tidy.
  bool Enabled = false;
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  ChecksGlob.split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs) {
    Glob = Glob.trim();
    bool Negative = Glob.consume_front("-");
    if (matchesGlob(Glob, Check))
      Enabled = !Negative;
  }
  return Enabled;
}

namespace {

/// Keeps compiler errors (and the notes that belong to them) as text; the
/// user's own warnings are not ours to repeat.
class ErrorCollector : public DiagnosticConsumer {
public:
  ErrorCollector(bool Color) : OS(Text) {
    Options->ShowColors = Color;
    Printer =
        std::make_unique<TextDiagnosticPrinter>(OS, Options.forRenderer());
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    SourceBegan = true;
    Printer->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer->EndSourceFile(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (Level >= DiagnosticsEngine::Error)
      ++Errors;
    bool Keep = Level >= DiagnosticsEngine::Error ||
                (Level == DiagnosticsEngine::Note && LastKept);
    if (Level != DiagnosticsEngine::Note)
      LastKept = Keep;
    if (Keep)
      Printer->HandleDiagnostic(Level, Info);
  }
  unsigned Errors = 0;
  bool SourceBegan = false;
  std::string Text;

private:
  llvm::raw_string_ostream OS;
  compat::OwnedDiagnosticOptions Options;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
  bool LastKept = false;
};

/// Turns findings into plain data while the AST is alive.
class Collector : public FindingSink {
public:
  Collector(const RunOptions &Options, std::vector<PlainFinding> &Out)
      : Out(Out), HeaderFilter(Options.HeaderFilter.empty()
                                   ? nullptr
                                   : std::make_unique<llvm::Regex>(
                                         Options.HeaderFilter)) {
    DiagOpts->ShowColors = Options.Color;
    DiagOpts->AbsolutePath = true;
  }

  void report(const Finding &F, ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    // Where the code is written (a macro argument's spelling), as clang's
    // text output and clang-tidy show it; a macro body's code is shown at
    // the macro's use.
    SourceLocation Loc = SM.getFileLoc(F.Loc);
    PlainFinding P;
    P.Rule = F.Rule;
    P.File = absolute(SM.getFilename(Loc));
    if (!SM.isInMainFile(Loc) && !(HeaderFilter && HeaderFilter->match(P.File)))
      return;
    P.Line = SM.getExpansionLineNumber(Loc);
    P.Column = SM.getExpansionColumnNumber(Loc);
    P.Offset = SM.getFileOffset(Loc);
    P.Message = F.Message;
    for (const FindingNote &N : F.Notes) {
      SourceLocation NL = SM.getFileLoc(N.Loc);
      P.Notes.push_back({absolute(SM.getFilename(NL)),
                         SM.getExpansionLineNumber(NL),
                         SM.getExpansionColumnNumber(NL), N.Message});
    }
    for (const FixItHint &Fix : F.Fixes)
      P.Fixes.emplace_back(SM, Fix.RemoveRange, Fix.CodeToInsert,
                           Ctx.getLangOpts());

    llvm::raw_string_ostream OS(P.Rendered);
    TextDiagnostic Renderer(OS, Ctx.getLangOpts(), DiagOpts.forRenderer());
    Renderer.emitDiagnostic(FullSourceLoc(F.Loc, SM),
                            DiagnosticsEngine::Warning,
                            F.Message + " [" + F.Rule + "]", {}, F.Fixes);
    for (const FindingNote &N : F.Notes)
      Renderer.emitDiagnostic(FullSourceLoc(N.Loc, SM), DiagnosticsEngine::Note,
                              N.Message, {}, {});
    OS.flush();
    Out.push_back(std::move(P));
  }

private:
  static std::string absolute(llvm::StringRef Path) {
    llvm::SmallString<256> Abs(Path);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    return std::string(Abs);
  }

  std::vector<PlainFinding> &Out;
  std::unique_ptr<llvm::Regex> HeaderFilter;
  compat::OwnedDiagnosticOptions DiagOpts;
};

/// Forwards to the analysis's consumer what it needs of the library code:
/// no function bodies outside the user's code, and, when the library comes
/// from a PCH, none of the PCH's declarations to match.
class LibraryAwareConsumer : public MultiplexConsumer {
public:
  LibraryAwareConsumer(std::unique_ptr<ASTConsumer> Inner, bool SkipBodies,
                       bool UsesPch)
      : MultiplexConsumer(consumers(std::move(Inner))), SkipBodies(SkipBodies),
        UsesPch(UsesPch) {}
  void Initialize(ASTContext &Ctx) override {
    Filter = std::make_unique<UserCodeFilter>(Ctx.getSourceManager());
    MultiplexConsumer::Initialize(Ctx);
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    // Rules report in the main file and in the user's headers and follow
    // calls into the user's helpers; system and LibTorch bodies they never
    // look into.
    return SkipBodies && !Filter->isUserCode(D->getLocation());
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The PCH holds system and LibTorch headers only (preparePchs makes
    // sure), where no finding is ever reported. Matching the translation
    // unit's declarations that were parsed from text leaves them out;
    // matching all of it would read every declaration back from the PCH,
    // which costs more than parsing the headers. noload_decls() lists those
    // in the order the traversal of the whole unit visits them.
    if (UsesPch) {
      std::vector<Decl *> Parsed;
      for (Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
        if (!D->isFromASTFile())
          Parsed.push_back(D);
      Ctx.setTraversalScope(Parsed);
    }
    MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  consumers(std::unique_ptr<ASTConsumer> Inner) {
    std::vector<std::unique_ptr<ASTConsumer>> All;
    All.push_back(std::move(Inner));
    return All;
  }
  bool SkipBodies, UsesPch;
  std::unique_ptr<UserCodeFilter> Filter;
};

/// Every file a compilation reads: the main file, every header, and the
/// headers a PCH it loads was built from (system headers included, since a
/// LibTorch upgrade changes them). What the persistent cache checks.
class FilesRead : public DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef Filename, bool FromModule, bool IsSystem,
                     bool IsModuleFile, bool IsMissing) override {
    return !IsModuleFile && !IsMissing && Filename != "<built-in>";
  }
  /// The files as absolute paths, the compile command's directory being
  /// where relative ones are.
  std::vector<std::string> absolute(llvm::StringRef Directory) const {
    std::vector<std::string> Paths;
    for (const std::string &Dep : getDependencies()) {
      llvm::SmallString<256> Path(Dep);
      compat::makeAbsolute(Directory, Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      Paths.push_back(std::string(Path));
    }
    return Paths;
  }
};

/// Lets a PCH be used, and rebuilt, by content: a header whose modification
/// time changed but whose text did not (a fresh checkout, a reinstalled
/// package) does not make Clang refuse the PCH.
void validatePchByContent(CompilerInstance &CI) {
  CI.getHeaderSearchOpts().ValidateASTInputFilesContent = true;
}

class AnalysisAction : public ASTFrontendAction {
public:
  AnalysisAction(Analysis &A, bool SkipLibraryBodies, bool UsesPch,
                 std::shared_ptr<FilesRead> Files)
      : A(A), SkipBodies(SkipLibraryBodies), UsesPch(UsesPch),
        Files(std::move(Files)) {}
  bool BeginInvocation(CompilerInstance &CI) override {
    // Before the preprocessor and the PCH reader exist, which is when
    // the compiler instance attaches its collectors to them.
    CI.addDependencyCollector(Files);
    validatePchByContent(CI);
    return ASTFrontendAction::BeginInvocation(CI);
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // A missing header (a third-party library not installed) is an error
    // like any other: parsing goes on, and what follows it is analysed.
    CI.getDiagnostics().setFatalsAsError(true);
    if (!SkipBodies && !UsesPch)
      return A.newASTConsumer();
    CI.getFrontendOpts().SkipFunctionBodies = SkipBodies;
    return std::make_unique<LibraryAwareConsumer>(A.newASTConsumer(),
                                                  SkipBodies, UsesPch);
  }

private:
  Analysis &A;
  bool SkipBodies, UsesPch;
  std::shared_ptr<FilesRead> Files;
};

bool hasArgument(const tooling::CommandLineArguments &Args,
                 llvm::StringRef Prefix) {
  for (const std::string &Arg : Args)
    if (tensorplace::compat::startsWith(llvm::StringRef(Arg), Prefix))
      return true;
  return false;
}

bool isCudaCommand(const tooling::CommandLineArguments &Args,
                   llvm::StringRef File) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x")
      return Args[I + 1] == "cuda";
  return hasArgument(Args, "-xcuda") ||
         tensorplace::compat::endsWith(File, ".cu");
}

/// A compile command as the analysis runs it: output, dependency files and
/// code generation stripped, the user's extra arguments added.
struct PreparedCommand {
  tooling::CommandLineArguments Args;
  /// Where the file is in Args; Args.size() when it is not there as such.
  size_t FileIndex = 0;
  std::string Directory;
};

PreparedCommand prepareCommand(const tooling::CompileCommand &Command,
                               const RunOptions &Options) {
  tooling::ArgumentsAdjuster Adjust = tooling::combineAdjusters(
      tooling::getClangStripOutputAdjuster(),
      tooling::combineAdjusters(
          tooling::getClangSyntaxOnlyAdjuster(),
          tooling::getClangStripDependencyFileAdjuster()));
  Adjust = tooling::combineAdjusters(
      Adjust,
      tooling::getInsertArgumentAdjuster(
          Options.ExtraArgsBefore, tooling::ArgumentInsertPosition::BEGIN));
  // The user's warnings are not ours to report, and -Werror or a gcc-only
  // warning flag must not make a file fail to analyse.
  std::vector<std::string> AppendedArgs = Options.ExtraArgs;
  AppendedArgs.push_back("-w");
  // After Clang's default 20 errors it stops, and the rest of the file would
  // yield nothing.
  AppendedArgs.push_back("-ferror-limit=0");
  Adjust = tooling::combineAdjusters(
      Adjust, tooling::getInsertArgumentAdjuster(
                  AppendedArgs, tooling::ArgumentInsertPosition::END));

  PreparedCommand Prepared;
  Prepared.Directory = Command.Directory;
  // nvcc commands (CMake's CUDA language) become the equivalent Clang ones.
  Prepared.Args =
      Adjust(clangCommandFromNvcc(Command.CommandLine), Command.Filename);
  // A CUDA source compiles for the host and for each GPU architecture; the
  // rules read host code (kernel launches are host code), and LibTooling runs
  // one compiler job.
  if (isCudaCommand(Prepared.Args, Command.Filename) &&
      !hasArgument(Prepared.Args, "--cuda-host-only") &&
      !hasArgument(Prepared.Args, "--cuda-device-only"))
    Prepared.Args.push_back("--cuda-host-only");
  if (!Options.ResourceDir.empty() &&
      !hasArgument(Prepared.Args, "-resource-dir"))
    Prepared.Args.insert(Prepared.Args.begin() + 1,
                         "-resource-dir=" + Options.ResourceDir);

  llvm::SmallString<256> Wanted(Command.Filename);
  compat::makeAbsolute(Command.Directory, Wanted);
  llvm::sys::path::remove_dots(Wanted, true);
  Prepared.FileIndex = Prepared.Args.size();
  for (size_t I = Prepared.Args.size(); I-- > 1;) {
    llvm::SmallString<256> Arg(Prepared.Args[I]);
    compat::makeAbsolute(Command.Directory, Arg);
    llvm::sys::path::remove_dots(Arg, true);
    if (Arg == Wanted) {
      Prepared.FileIndex = I;
      break;
    }
  }
  return Prepared;
}

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

/// The PCH key of a command already prepared for analysis.
std::string pchKeyOf(const tooling::CompileCommand &Command,
                     const PreparedCommand &Prepared,
                     std::vector<std::string> *IncludesOut = nullptr) {
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

llvm::IntrusiveRefCntPtr<FileManager> filesFor(llvm::StringRef Directory) {
  // A file system of its own, so that relative paths in the command are
  // resolved against the command's directory without chdir() (files may
  // be analysed on several threads).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
      llvm::vfs::createPhysicalFileSystem();
  FS->setCurrentWorkingDirectory(Directory);
  return new FileManager(FileSystemOptions(), FS);
}

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

namespace {

struct RunOutcome {
  bool Success = false;
  unsigned Errors = 0;
  std::string ErrorText;
  std::vector<PlainFinding> Findings;
  /// Clang got as far as the source file (see FileResult::Parsed).
  bool SourceBegan = false;
  std::vector<std::string> Read;
};

RunOutcome runAnalysis(const tooling::CommandLineArguments &Args,
                       llvm::StringRef Directory, const RunOptions &Options,
                       llvm::function_ref<Config(llvm::StringRef)> ConfigFor,
                       bool UsesPch) {
  RunOutcome Outcome;
  llvm::IntrusiveRefCntPtr<FileManager> Files = filesFor(Directory);
  ErrorCollector Errors(Options.Color);
  Collector Sink(Options, Outcome.Findings);
  Analysis TheAnalysis(Sink, Options.IsEnabled, ConfigFor);
  auto Read = std::make_shared<FilesRead>();
  tooling::ToolInvocation Invocation(
      Args,
      std::make_unique<AnalysisAction>(TheAnalysis, Options.SkipLibraryBodies,
                                       UsesPch, Read),
      Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  Outcome.Success = Invocation.run();
  Outcome.SourceBegan = Errors.SourceBegan;
  Outcome.Errors = Errors.Errors;
  Outcome.ErrorText = std::move(Errors.Text);
  Outcome.Read = Read->absolute(Directory);
  return Outcome;
}

} // namespace

FileResult analyzeFile(const tooling::CompilationDatabase &Database,
                       llvm::StringRef File, const RunOptions &Options) {
  FileResult Result;
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, true);
  Result.File = std::string(Path);

  if (!llvm::sys::fs::exists(Path)) {
    Result.Errors = "no such file";
    return Result;
  }
  // A FIFO or a device would block the compiler or feed it forever.
  if (!llvm::sys::fs::is_regular_file(Path)) {
    Result.Errors = "not a regular file";
    return Result;
  }
  {
    int FD;
    if (std::error_code EC = llvm::sys::fs::openFileForRead(Path, FD)) {
      Result.Errors = EC.message();
      return Result;
    }
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  std::vector<tooling::CompileCommand> Commands =
      Database.getCompileCommands(Path);
  if (Commands.empty()) {
    Result.Errors = "no compile command for this file in the compilation "
                    "database";
    return Result;
  }

  RunOptions Effective = Options;
  std::function<Config(llvm::StringRef)> ConfigFor = [](llvm::StringRef) {
    return Config();
  };
  if (Options.UseConfigFiles) {
    llvm::Expected<ConfigFileSettings> Settings = configForFile(Path);
    if (!Settings) {
      Result.Errors = llvm::toString(Settings.takeError());
      return Result;
    }
    Result.Warnings = Settings->Warnings;
    std::string Checks =
        "torch-*," + Settings->TorchChecks + "," + Options.CommandLineChecks;
    Effective.IsEnabled = [Checks](llvm::StringRef Name) {
      return checkEnabled(Checks, Name);
    };
    if (!Options.HeaderFilterGiven && Settings->HeaderFilterRegex)
      Effective.HeaderFilter = *Settings->HeaderFilterRegex;
    ConfigFor = [Settings = std::move(*Settings)](llvm::StringRef Check) {
      return Settings.configFor(Check);
    };
  }

  Result.Ok = true;
  for (const tooling::CompileCommand &Command : Commands) {
    PreparedCommand Prepared = prepareCommand(Command, Options);
    const PchSet::Entry *Pch = nullptr;
    if (Options.Pchs) {
      std::string Key = pchKeyOf(Command, Prepared);
      if (!Key.empty())
        Pch = Options.Pchs->find(Key);
    }
    RunOutcome Outcome;
    if (Pch) {
      tooling::CommandLineArguments Args = Prepared.Args;
      Args.insert(Args.begin() + Prepared.FileIndex,
                  {"-include-pch", Pch->Path});
      Outcome =
          runAnalysis(Args, Prepared.Directory, Effective, ConfigFor, true);
      // A PCH that no longer loads (a header changed since it was built)
      // or that does not fit the file: parse the file as if there were
      // none, so that the PCH never changes a result.
      if (Outcome.Success && Outcome.Errors == 0)
        Result.PchUsed = Pch->Path;
      else
        Pch = nullptr;
    }
    if (!Pch)
      Outcome = runAnalysis(Prepared.Args, Prepared.Directory, Effective,
                            ConfigFor, false);
    Result.Parsed |= Outcome.SourceBegan;
    Result.ErrorCount += Outcome.Errors;
    Result.Errors += Outcome.ErrorText;
    for (PlainFinding &F : Outcome.Findings)
      Result.Findings.push_back(std::move(F));
    // The header a PCH was built from is the PCH's, not the file's: the
    // file reads the same headers, parsed from their text, without it.
    llvm::StringRef PchDir = Options.Pchs ? Options.Pchs->dir() : "";
    for (std::string &Path : Outcome.Read)
      if (PchDir.empty() || !compat::startsWith(Path, (PchDir + "/").str()))
        Result.Dependencies.push_back(std::move(Path));
    if (!Outcome.Success || Outcome.Errors > 0) {
      Result.Ok = false;
      if (Outcome.ErrorText.empty())
        Result.Errors += "the compiler could not process the file\n";
    }
  }
  std::sort(Result.Dependencies.begin(), Result.Dependencies.end());
  Result.Dependencies.erase(
      std::unique(Result.Dependencies.begin(), Result.Dependencies.end()),
      Result.Dependencies.end());
  return Result;
}

} // namespace driver
} // namespace tensorplace
