//===- Compile.cpp --------------------------------------------------------===//

#include "Compile.h"
#include "tensorplace/driver/NvccCommand.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace tensorplace {
namespace driver {

/// Lets a PCH be used, and rebuilt, by content: a header whose modification
/// time changed but whose text did not (a fresh checkout, a reinstalled
/// package) does not make Clang refuse the PCH.
void validatePchByContent(CompilerInstance &CI) {
  CI.getHeaderSearchOpts().ValidateASTInputFilesContent = true;
}

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
  bool Cuda = isCudaCommand(Prepared.Args, Command.Filename);
  if (Cuda && !hasArgument(Prepared.Args, "--cuda-host-only") &&
      !hasArgument(Prepared.Args, "--cuda-device-only"))
    Prepared.Args.push_back("--cuda-host-only");
  // tensorplace's CUDA headers instead of the toolkit's, in front of every
  // include directory (they stand in for LibTorch's c10/cuda and ATen/cuda
  // headers too), unless the command brings CUDA headers of its own.
  if (Cuda && !Options.CudaHeadersDir.empty() &&
      !hasArgument(Prepared.Args, "-nocudainc"))
    Prepared.Args.insert(Prepared.Args.begin() + 1,
                         {"-nocudainc", "-nocudalib",
                          "-I" + Options.CudaHeadersDir, "-include",
                          "cuda_runtime.h"});
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

llvm::IntrusiveRefCntPtr<FileManager> filesFor(llvm::StringRef Directory) {
  // A file system of its own, so that relative paths in the command are
  // resolved against the command's directory without chdir() (files may
  // be analysed on several threads).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS =
      llvm::vfs::createPhysicalFileSystem();
  FS->setCurrentWorkingDirectory(Directory);
  return new FileManager(FileSystemOptions(), FS);
}

} // namespace driver
} // namespace tensorplace
