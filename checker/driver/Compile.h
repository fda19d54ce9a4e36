//===- Compile.h - Running Clang on one compile command -------------------===//
//
// What the analysis of a file and the building of a PCH share: the compile
// command as tensorplace runs it, the file manager of its directory, the
// files a compilation reads, and the compiler errors it keeps.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_COMPILE_H
#define TENSORPLACE_DRIVER_COMPILE_H

#include "tensorplace/driver/Driver.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Frontend/Utils.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {
namespace driver {

/// A header of LibTorch itself (torch/, ATen/ or c10/), whose absence means
/// the include paths miss LibTorch: not one of its CUDA, ROCm or other
/// backend headers, which a CPU-only LibTorch lacks by design.
bool isLibTorchHeader(llvm::StringRef Name);

/// The message of a file whose LibTorch headers were not found: which
/// header, and which include paths to pass.
std::string missingLibTorchMessage(llvm::StringRef Header);

/// Keeps compiler errors (and the notes that belong to them) as text; the
/// user's own warnings are not ours to repeat.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  ErrorCollector(bool Color) : OS(Text) {
    Options->ShowColors = Color;
    Printer = std::make_unique<clang::TextDiagnosticPrinter>(
        OS, Options.forRenderer());
  }
  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    SourceBegan = true;
    Printer->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer->EndSourceFile(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    if (Level >= clang::DiagnosticsEngine::Error)
      ++Errors;
    if (Info.getID() == clang::diag::err_pp_file_not_found &&
        MissingLibTorch.empty() && isLibTorchHeader(Info.getArgStdStr(0)))
      MissingLibTorch = Info.getArgStdStr(0);
    bool Keep = Level >= clang::DiagnosticsEngine::Error ||
                (Level == clang::DiagnosticsEngine::Note && LastKept);
    if (Level != clang::DiagnosticsEngine::Note)
      LastKept = Keep;
    if (Keep)
      Printer->HandleDiagnostic(Level, Info);
  }
  unsigned Errors = 0;
  bool SourceBegan = false;
  std::string Text;
  /// The first LibTorch header that was not found (isLibTorchHeader).
  std::string MissingLibTorch;

private:
  llvm::raw_string_ostream OS;
  compat::OwnedDiagnosticOptions Options;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
  bool LastKept = false;
};

/// Every file a compilation reads: the main file, every header, and the
/// headers a PCH it loads was built from (system headers included, since a
/// LibTorch upgrade changes them). What the persistent cache checks.
class FilesRead : public clang::DependencyCollector {
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
void validatePchByContent(clang::CompilerInstance &CI);

/// An argument of Args starts with Prefix.
bool hasArgument(const clang::tooling::CommandLineArguments &Args,
                 llvm::StringRef Prefix);

/// The command compiles File as CUDA.
bool isCudaCommand(const clang::tooling::CommandLineArguments &Args,
                   llvm::StringRef File);

/// A compile command as the analysis runs it: output, dependency files and
/// code generation stripped, the user's extra arguments added.
struct PreparedCommand {
  clang::tooling::CommandLineArguments Args;
  /// Where the file is in Args; Args.size() when it is not there as such.
  size_t FileIndex = 0;
  std::string Directory;
};

PreparedCommand prepareCommand(const clang::tooling::CompileCommand &Command,
                               const RunOptions &Options);

/// The key of the PCH the prepared command's file can share with others
/// (its flags and its leading LibTorch includes, given in IncludesOut), or ""
/// when it can share none.
std::string pchKeyOf(const clang::tooling::CompileCommand &Command,
                     const PreparedCommand &Prepared,
                     std::vector<std::string> *IncludesOut = nullptr);

/// A file manager whose relative paths are the command's directory's.
llvm::IntrusiveRefCntPtr<clang::FileManager>
filesFor(llvm::StringRef Directory);

} // namespace driver
} // namespace tensorplace

#endif
