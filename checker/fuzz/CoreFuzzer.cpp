//===- CoreFuzzer.cpp - libFuzzer harness for the analysis core -----------===//
//
// Feeds each input as a C++ main file, compiled against the stand-in
// <torch/torch.h>, through every rule of the analysis core in-process (as a
// CUDA source, host side with tensorplace's CUDA headers as the CLI parses a
// .cu file, when the input looks like CUDA), and
// turns the findings into what the front ends make of them: expansion
// locations, offsets, rendered text and tooling::Replacements applied to the
// input. Crashes, sanitizer reports and broken invariants (a finding with no
// location, a fix-it that cannot be applied) are failures.
//
// Built only with -DTENSORPLACE_BUILD_FUZZER=ON and clang (see tests/fuzz/run).
//
//===----------------------------------------------------------------------===//

#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/Finding.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "tensorplace/checker/LLVMCompat.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace clang;

namespace {

const char *const MainFile = "/tensorplace-fuzz/input.cpp";
const char *const PrefixFile = "/tensorplace-fuzz/prefix.h";
const char *const PrefixCode = "#include <torch/torch.h>\n";

/// The stand-in header and the standard headers it includes, precompiled
/// once for C++ and once for CUDA: parsing them is most of an input's time
/// otherwise. The input's own #include <torch/torch.h> then finds the header
/// already included.
std::string CxxPCHPath, CudaPCHPath;

/// Code that only a CUDA compiler accepts: a kernel, a launch, the runtime's
/// launch functions. Parsed as C++, such an input stops at the first error
/// and never reaches the launch rule's code for launches.
bool looksLikeCuda(llvm::StringRef Code) {
  for (llvm::StringRef Marker :
       {"__global__", "<<<", "cudaLaunch", "__device__", "#include <cuda"})
    if (Code.contains(Marker))
      return true;
  return false;
}

class WritePCH : public GeneratePCHAction {
public:
  explicit WritePCH(std::string Path) : Path(std::move(Path)) {}
  bool BeginInvocation(CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Path;
    return true;
  }

private:
  std::string Path;
};

[[noreturn]] void fail(const char *What) {
  fprintf(stderr, "tensorplace-fuzz: invariant broken: %s\n", What);
  abort();
}

/// Does with each finding what the CLI's driver does, and checks that it can.
class Sink : public tensorplace::FindingSink {
public:
  explicit Sink(llvm::StringRef Code) : Code(Code) {}

  unsigned Count = 0;

  void report(const tensorplace::Finding &F, ASTContext &Ctx) override {
    ++Count;
    const SourceManager &SM = Ctx.getSourceManager();
    if (F.Loc.isInvalid())
      fail("a finding without a location");
    if (F.Rule.empty() || F.Message.empty())
      fail("a finding without a rule or a message");
    SourceLocation Loc = SM.getExpansionLoc(F.Loc);
    (void)SM.getExpansionLineNumber(Loc);
    (void)SM.getExpansionColumnNumber(Loc);
    (void)SM.getFileOffset(Loc);
    for (const tensorplace::FindingNote &N : F.Notes) {
      SourceLocation NL = SM.getExpansionLoc(N.Loc);
      (void)SM.getExpansionLineNumber(NL);
      (void)SM.getExpansionColumnNumber(NL);
    }

    std::string Rendered;
    llvm::raw_string_ostream OS(Rendered);
    TextDiagnostic Renderer(OS, Ctx.getLangOpts(), DiagOpts.forRenderer());
    Renderer.emitDiagnostic(FullSourceLoc(F.Loc, SM),
                            DiagnosticsEngine::Warning, F.Message, {}, F.Fixes);
    for (const tensorplace::FindingNote &N : F.Notes)
      Renderer.emitDiagnostic(FullSourceLoc(N.Loc, SM), DiagnosticsEngine::Note,
                              N.Message, {}, {});

    // The rules promise fix-its only where the edit is safe: in the file,
    // never in a macro, and consistent with each other.
    tooling::Replacements Fixes;
    for (const FixItHint &Fix : F.Fixes) {
      if (Fix.RemoveRange.getBegin().isMacroID() ||
          Fix.RemoveRange.getEnd().isMacroID())
        fail("a fix-it inside a macro expansion");
      tooling::Replacement R(SM, Fix.RemoveRange, Fix.CodeToInsert,
                             Ctx.getLangOpts());
      if (R.getFilePath().empty())
        fail("a fix-it whose range is not in a file");
      if (R.getFilePath() != MainFile)
        continue; // The stand-in header is not ours to edit.
      if (R.getOffset() + R.getLength() > Code.size())
        fail("a fix-it past the end of the file");
      if (llvm::Error E = Fixes.add(R)) {
        llvm::consumeError(std::move(E));
        fail("one finding's fix-its overlap each other");
      }
    }
    llvm::Expected<std::string> Fixed =
        tooling::applyAllReplacements(Code, Fixes);
    if (!Fixed) {
      llvm::consumeError(Fixed.takeError());
      fail("a finding's fix-its cannot be applied");
    }
  }

private:
  llvm::StringRef Code;
  tensorplace::compat::OwnedDiagnosticOptions DiagOpts;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(tensorplace::Analysis &A) : A(A) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return A.newASTConsumer();
  }

private:
  tensorplace::Analysis &A;
};

/// Compiler errors are expected from mutated input; they are not ours.
class IgnoreDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }
};

std::vector<std::string> commonArgs(bool Cuda) {
  std::vector<std::string> Args = {
      "tensorplace-fuzz", "-fsyntax-only", "-std=c++17", "-w",
      // Also keeps CompilerInstance from printing "N errors generated".
      "-fno-caret-diagnostics", "-isystem", TENSORPLACE_STAND_IN_DIR,
      "-resource-dir=" TENSORPLACE_CLANG_RESOURCE_DIR};
  // What the CLI adds to a CUDA command (checker/driver/Compile.cpp).
  if (Cuda)
    Args.insert(Args.end(), {"-x", "cuda", "--cuda-host-only", "-nocudainc",
                             "-nocudalib", "-I" TENSORPLACE_CUDA_HEADERS_DIR,
                             "-include", "cuda_runtime.h"});
  return Args;
}

/// The real file system, with the prefix header and Code as the main file.
llvm::IntrusiveRefCntPtr<FileManager> filesWith(llvm::StringRef Code) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(PrefixFile, 0, llvm::MemoryBuffer::getMemBuffer(PrefixCode));
  Memory->addFile(MainFile, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  return llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Overlay);
}

/// The prefix precompiled for C++ or CUDA inputs; "" when it fails.
std::string writePCH(bool Cuda) {
  llvm::SmallString<128> Path;
  if (llvm::sys::fs::createTemporaryFile(Cuda ? "tensorplace-fuzz-stand-in-cuda"
                                              : "tensorplace-fuzz-stand-in",
                                         "pch", Path))
    return "";
  llvm::sys::RemoveFileOnSignal(Path);
  auto Files = filesWith("");
  std::vector<std::string> Args = commonArgs(Cuda);
  // CUDA has no header language of its own: the prefix is precompiled as a
  // CUDA source, which a PCH may be built from as well.
  if (!Cuda)
    Args.insert(Args.end(), {"-x", "c++-header"});
  Args.push_back(PrefixFile);
  IgnoreDiagnostics Ignore;
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<WritePCH>(std::string(Path)), Files.get());
  Invocation.setDiagnosticConsumer(&Ignore);
  if (Invocation.run() && Ignore.getNumErrors() == 0)
    return std::string(Path);
  fprintf(stderr,
          "tensorplace-fuzz: no precompiled stand-in header for %s; each "
          "such input parses it\n",
          Cuda ? "CUDA" : "C++");
  return "";
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (std::getenv("TENSORPLACE_FUZZ_NO_PCH"))
    return 0;
  CxxPCHPath = writePCH(/*Cuda=*/false);
  CudaPCHPath = writePCH(/*Cuda=*/true);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Code(reinterpret_cast<const char *>(Data), Size);
  auto Files = filesWith(Code);
  bool Cuda = looksLikeCuda(Code);
  std::vector<std::string> Args = commonArgs(Cuda);
  const std::string &PCHPath = Cuda ? CudaPCHPath : CxxPCHPath;
  if (!PCHPath.empty())
    Args.insert(Args.end(), {"-include-pch", PCHPath});
  Args.push_back(MainFile);
  Sink TheSink(Code);
  tensorplace::Analysis TheAnalysis(TheSink, [](llvm::StringRef Name) {
    return tensorplace::compat::startsWith(Name, "torch-");
  });
  IgnoreDiagnostics Ignore;
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<Action>(TheAnalysis), Files.get());
  Invocation.setDiagnosticConsumer(&Ignore);
  Invocation.run();
  // TENSORPLACE_FUZZ_VERBOSE=1 with inputs as arguments: what each one gave.
  static const bool Verbose = std::getenv("TENSORPLACE_FUZZ_VERBOSE");
  if (Verbose)
    fprintf(stderr, "tensorplace-fuzz: %s, %u findings, %u compiler errors\n",
            Cuda ? "CUDA" : "C++", TheSink.Count, Ignore.getNumErrors());
  return 0;
}
