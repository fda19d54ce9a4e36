//===- Driver.cpp ---------------------------------------------------------===//

#include "tensorplace/driver/Driver.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/Rule.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/VirtualFileSystem.h"

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
    Options = new DiagnosticOptions();
    Options->ShowColors = Color;
    Printer = std::make_unique<TextDiagnosticPrinter>(OS, Options.get());
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
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
  std::string Text;

private:
  llvm::raw_string_ostream OS;
  IntrusiveRefCntPtr<DiagnosticOptions> Options;
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
    DiagOpts = new DiagnosticOptions();
    DiagOpts->ShowColors = Options.Color;
    DiagOpts->AbsolutePath = true;
  }

  void report(const Finding &F, ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(F.Loc);
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
      SourceLocation NL = SM.getExpansionLoc(N.Loc);
      P.Notes.push_back({absolute(SM.getFilename(NL)),
                         SM.getExpansionLineNumber(NL),
                         SM.getExpansionColumnNumber(NL), N.Message});
    }
    for (const FixItHint &Fix : F.Fixes)
      P.Fixes.emplace_back(SM, Fix.RemoveRange, Fix.CodeToInsert,
                           Ctx.getLangOpts());

    llvm::raw_string_ostream OS(P.Rendered);
    TextDiagnostic Renderer(OS, Ctx.getLangOpts(), DiagOpts.get());
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
  IntrusiveRefCntPtr<DiagnosticOptions> DiagOpts;
};

class AnalysisAction : public ASTFrontendAction {
public:
  explicit AnalysisAction(Analysis &A) : A(A) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return A.newASTConsumer();
  }

private:
  Analysis &A;
};

bool hasArgument(const tooling::CommandLineArguments &Args,
                 llvm::StringRef Prefix) {
  for (const std::string &Arg : Args)
    if (llvm::StringRef(Arg).startswith(Prefix))
      return true;
  return false;
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
  Adjust = tooling::combineAdjusters(
      Adjust, tooling::getInsertArgumentAdjuster(
                  AppendedArgs, tooling::ArgumentInsertPosition::END));

  Result.Ok = true;
  for (const tooling::CompileCommand &Command : Commands) {
    tooling::CommandLineArguments Args =
        Adjust(Command.CommandLine, Command.Filename);
    if (!Options.ResourceDir.empty() && !hasArgument(Args, "-resource-dir"))
      Args.insert(Args.begin() + 1, "-resource-dir=" + Options.ResourceDir);

    // A file system of its own, so that relative paths in the command are
    // resolved against the command's directory without chdir() (files may
    // be analysed on several threads).
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
        llvm::vfs::createPhysicalFileSystem();
    FS->setCurrentWorkingDirectory(Command.Directory);
    llvm::IntrusiveRefCntPtr<FileManager> Files(
        new FileManager(FileSystemOptions(), FS));

    ErrorCollector Errors(Options.Color);
    Collector Sink(Options, Result.Findings);
    Analysis TheAnalysis(Sink, Options.IsEnabled);
    tooling::ToolInvocation Invocation(
        Args, std::make_unique<AnalysisAction>(TheAnalysis), Files.get());
    Invocation.setDiagnosticConsumer(&Errors);
    bool Success = Invocation.run();
    Result.ErrorCount += Errors.Errors;
    Result.Errors += Errors.Text;
    if (!Success || Errors.Errors > 0) {
      Result.Ok = false;
      if (Errors.Text.empty())
        Result.Errors += "the compiler could not process the file\n";
    }
  }
  return Result;
}

} // namespace driver
} // namespace tensorplace
