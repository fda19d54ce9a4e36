//===- Compile.cpp --------------------------------------------------------===//

#include "Compile.h"
#include "tensorplace/driver/NvccCommand.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace tensorplace {
namespace driver {

/// Lets a PCH be used, and rebuilt, by content: a header whose modification
/// time changed but whose text did not (a fresh checkout, a reinstalled
/// package) does not make Clang refuse the PCH.
bool isLibTorchHeader(llvm::StringRef Name) {
  static const llvm::StringRef Roots[] = {"torch", "ATen", "c10"};
  // GPU backends' headers: a CPU-only LibTorch has none of them.
  static const llvm::StringRef Backends[] = {
      "cuda", "cudnn", "hip", "miopen", "mps", "xpu", "vulkan", "metal"};
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Name.split(Parts, '/', -1, false);
  if (Parts.size() < 2 || !llvm::is_contained(Roots, Parts.front()))
    return false;
  return llvm::none_of(Parts, [](llvm::StringRef Part) {
    return llvm::is_contained(Backends, Part);
  });
}

std::string missingLibTorchMessage(llvm::StringRef Header) {
  return ("LibTorch's headers are not on the include path ('" + Header +
          "' file not found), so nothing could be analysed: use the "
          "compile_commands.json of a build that finds LibTorch (CMake's "
          "find_package(Torch)), or pass its include directories after '--' "
          "(-isystem <libtorch>/include -isystem "
          "<libtorch>/include/torch/csrc/api/include; Debian's libtorch-dev: "
          "-isystem /usr/include/torch/csrc/api/include)")
      .str();
}

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

/// Some include directory of the command, or of the system, holds the CUDA
/// runtime's cuda_runtime.h (a toolkit, or a distribution's CUDA packages).
static bool reachesCudaRuntime(const tooling::CommandLineArguments &Args,
                               llvm::StringRef Directory) {
  auto Holds = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> Path(Dir);
    compat::makeAbsolute(Directory, Path);
    llvm::sys::path::append(Path, "cuda_runtime.h");
    return llvm::sys::fs::exists(Path);
  };
  if (Holds("/usr/include") || Holds("/usr/local/include"))
    return true;
  for (size_t I = 1; I < Args.size(); ++I)
    for (llvm::StringRef Flag : {"-I", "-isystem", "-idirafter", "-iquote"}) {
      llvm::StringRef Arg = Args[I];
      if (!Arg.consume_front(Flag))
        continue;
      if (Arg.empty() && I + 1 < Args.size())
        Arg = Args[I + 1];
      if (!Arg.empty() && Holds(Arg))
        return true;
      break;
    }
  return false;
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
  // With no error limit, Clang's delayed typo correction can try every
  // combination of candidates for nested calls that do not resolve, for
  // minutes on a few lines of broken code. A guessed spelling is nothing a
  // finding should rest on: the rules skip what Clang had to recover anyway.
  AppendedArgs.push_back("-fno-spell-checking");
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
  // A C++ file of a CUDA extension (the op that holds the guard and calls
  // the launcher) includes <cuda_runtime.h> or <c10/cuda/CUDAGuard.h>, which
  // a machine without the toolkit cannot give it: the same headers serve,
  // as system headers, unless the command reaches a toolkit's.
  if (!Cuda && !Options.CudaHeadersDir.empty() &&
      !reachesCudaRuntime(Prepared.Args, Command.Directory))
    Prepared.Args.insert(Prepared.Args.begin() + 1,
                         {"-isystem", Options.CudaHeadersDir});
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
