//===- Driver.cpp - Analysing one file and collecting its findings --------===//
//
// The compile command is prepared in Compile.cpp and the shared PCHs are
// built in Pch.cpp; this runs the analysis on one file and turns what it
// finds into plain data (FileResult).
//
//===----------------------------------------------------------------------===//

#include "tensorplace/driver/Driver.h"
#include "Compile.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/ProjectFacts.h"
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

void addSummaries(ProjectSummaries &Project,
                  llvm::ArrayRef<PlainSummary> Summaries) {
  // A function defined in several files (an inline function of a header
  // every file includes, or two definitions): what any of them names counts,
  // once.
  auto Union = [](std::vector<std::string> &Into,
                  const std::vector<std::string> &From) {
    for (const std::string &Item : From)
      if (!llvm::is_contained(Into, Item))
        Into.push_back(Item);
  };
  for (const PlainSummary &S : Summaries) {
    SettledFunction &F = Project[S.Key];
    Union(F.MemberNames, S.MemberNames);
    Union(F.Calls, S.Calls);
    F.Opaque |= S.Opaque;
    F.Registers |= S.Registers;
    F.ForwardRoot |= S.ForwardRoot;
    F.DeviceCalls.insert(F.DeviceCalls.end(), S.DeviceCalls.begin(),
                         S.DeviceCalls.end());
  }
}

/// Puts the name of the forward() that reaches a finding's function in the
/// place its message left for it (ForwardElsewhere), in the message and in
/// the rendered text.
static void nameForward(PlainFinding &F, const std::string &Root) {
  std::string Old = F.Message;
  size_t At = F.Message.find(ForwardElsewhere.data());
  if (At == std::string::npos)
    return;
  F.Message.replace(At, ForwardElsewhere.size(),
                    "'" + Root + "' (in another file)");
  size_t Rendered = F.Rendered.find(Old);
  if (Rendered != std::string::npos)
    F.Rendered.replace(Rendered, Old.size(), F.Message);
}

bool isPending(const PlainFinding &F) {
  return !F.PendingOn.empty() || !F.PendingCallersOf.empty() ||
         !F.PendingStateOf.empty() || !F.PendingReachOf.empty() ||
         !F.PendingDataOf.empty();
}

PendingSettler::PendingSettler(const ProjectSummaries &Project)
    : Project(Project), DeviceCalls(indexDeviceCalls(Project)),
      OnForward(forwardReach(Project)) {}

bool PendingSettler::settle(PlainFinding &F) const {
  if (!F.PendingOn.empty() &&
      !unsettledBy(F.PendingMember, F.PendingOn, Project).empty())
    return false;
  if (!F.PendingCallersOf.empty() &&
      !calledWithoutGuard(F.PendingCallersOf, DeviceCalls))
    return false;
  if (!F.PendingStateOf.empty() && !registersState(F.PendingStateOf, Project))
    return false;
  if (!F.PendingDataOf.empty() &&
      !passedTensorMemory(F.PendingDataOf, DeviceCalls))
    return false;
  if (!F.PendingReachOf.empty()) {
    std::string Root = forwardReaching(F.PendingReachOf, OnForward);
    if (Root.empty())
      return false;
    nameForward(F, forwardName(Root));
  }
  F.PendingOn.clear();
  F.PendingMember.clear();
  F.PendingCallersOf.clear();
  F.PendingStateOf.clear();
  F.PendingReachOf.clear();
  F.PendingDataOf = PendingData();
  return true;
}

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

std::vector<std::string> unknownTorchChecks(llvm::StringRef ChecksGlob) {
  std::vector<std::string> Unknown;
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  ChecksGlob.split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs) {
    Glob = Glob.trim();
    Glob.consume_front("-");
    if (!compat::startsWith(Glob, "torch-"))
      continue;
    if (llvm::any_of(allRules(), [&](const RuleInfo &Info) {
          return matchesGlob(Glob, Info.Name);
        }))
      continue;
    std::string Entry = "'" + Glob.str() + "'";
    const RuleInfo *Nearest = nullptr;
    unsigned Best = 4; // More edits than this is not a typo.
    for (const RuleInfo &Info : allRules()) {
      unsigned Distance = Glob.edit_distance(Info.Name, true, Best);
      if (Distance < Best) {
        Best = Distance;
        Nearest = &Info;
      }
    }
    if (Nearest)
      Entry += " (did you mean '" + std::string(Nearest->Name) + "'?)";
    Unknown.push_back(std::move(Entry));
  }
  return Unknown;
}

namespace {

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
    // Clang shows a fix-it only under the line it is reported on: one on
    // another line (a member registered in the constructor) gets a note of
    // its own, with the line and the change.
    for (const FixItHint &Fix : F.Fixes) {
      SourceLocation At = SM.getFileLoc(Fix.RemoveRange.getBegin());
      if (SM.getFileID(At) == SM.getFileID(Loc) &&
          SM.getExpansionLineNumber(At) == P.Line)
        continue;
      Renderer.emitDiagnostic(FullSourceLoc(At, SM), DiagnosticsEngine::Note,
                              "the fix-it changes this line", {}, Fix);
    }
    OS.flush();
    P.PendingMember = F.PendingMember;
    P.PendingOn = F.PendingOn;
    P.PendingCallersOf = F.PendingCallersOf;
    P.PendingStateOf = F.PendingStateOf;
    P.PendingReachOf = F.PendingReachOf;
    P.PendingDataOf = F.PendingDataOf;
    Out.push_back(std::move(P));
  }

  bool acceptsPending() const override { return SettlePending; }

  void summaries(const std::vector<FunctionSummary> &All,
                 ASTContext &Ctx) override {
    if (!SummariesOut)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const FunctionSummary &S : All) {
      PlainSummary P;
      P.Key = S.Key;
      SourceLocation Loc = SM.getFileLoc(S.Loc);
      P.File = absolute(SM.getFilename(Loc));
      P.Line = SM.getExpansionLineNumber(Loc);
      P.MemberNames = S.MemberNames;
      P.Calls = S.Calls;
      P.Opaque = S.Opaque;
      P.Registers = S.Registers;
      P.ForwardRoot = S.ForwardRoot;
      P.DeviceCalls = S.DeviceCalls;
      SummariesOut->push_back(std::move(P));
    }
  }

  bool SettlePending = false;
  std::vector<PlainSummary> *SummariesOut = nullptr;

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

} // namespace

namespace {

struct RunOutcome {
  bool Success = false;
  unsigned Errors = 0;
  std::string ErrorText;
  std::vector<PlainFinding> Findings;
  std::vector<PlainSummary> Summaries;
  /// Clang got as far as the source file (see FileResult::Parsed).
  bool SourceBegan = false;
  /// A LibTorch header that was not found (ErrorCollector::MissingLibTorch).
  std::string MissingLibTorch;
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
  Sink.SettlePending = Options.SettlePending;
  Sink.SummariesOut = &Outcome.Summaries;
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
  Outcome.MissingLibTorch = std::move(Errors.MissingLibTorch);
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
    // What a file with compiler errors seems to name is not to be trusted:
    // nothing waiting on its functions is settled by it.
    for (PlainSummary &S : Outcome.Summaries) {
      S.Opaque |= !Outcome.Success || Outcome.Errors > 0;
      Result.Summaries.push_back(std::move(S));
    }
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
    // Without LibTorch no module, tensor or launch is recognised: what is
    // left would pass for a clean file. An optional third-party header
    // missing keeps the partial analysis.
    if (!Outcome.MissingLibTorch.empty()) {
      Result.Ok = Result.Parsed = false;
      Result.Errors = missingLibTorchMessage(Outcome.MissingLibTorch);
      Result.Findings.clear();
      Result.Summaries.clear();
      break;
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
