//===- NvccCommand.cpp ----------------------------------------------------===//

#include "tensorplace/driver/NvccCommand.h"
#include "tensorplace/checker/LLVMCompat.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Basic/Cuda.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace tensorplace {
namespace driver {

bool isNvccCommand(const clang::tooling::CommandLineArguments &Args) {
  return !Args.empty() && llvm::sys::path::filename(Args.front()) == "nvcc";
}

namespace {

/// nvcc options that take a separate value and mean nothing to the analysis.
bool dropsNextArgument(llvm::StringRef Arg) {
  return tensorplace::compat::isOneOf(Arg, {"-ccbin",
                                            "--compiler-bindir",
                                            "-Xcudafe",
                                            "-Xptxas",
                                            "-Xnvlink",
                                            "-Xfatbin",
                                            "-Xarchive",
                                            "-Xlinker",
                                            "--linker-options",
                                            "-maxrregcount",
                                            "--maxrregcount",
                                            "-t",
                                            "--threads",
                                            "-diag-suppress",
                                            "--diag-suppress",
                                            "-code",
                                            "--gpu-code",
                                            "--resource-usage",
                                            "-MF",
                                            "-MT",
                                            "-MQ"});
}

/// "sm_80", "compute_80" or "80" from an nvcc architecture value.
std::string smArchitecture(llvm::StringRef Value) {
  Value.consume_front("sm_") || Value.consume_front("compute_");
  Value = Value.take_while([](char C) { return llvm::isDigit(C); });
  return Value.empty() ? std::string() : "sm_" + Value.str();
}

/// The architecture of a --generate-code value ("arch=compute_80,code=...").
void addGencodeArchitecture(llvm::StringRef Value,
                            std::vector<std::string> &Architectures) {
  size_t At = Value.find("arch=");
  if (At == llvm::StringRef::npos)
    return;
  std::string Sm = smArchitecture(Value.substr(At + 5));
  if (!Sm.empty())
    Architectures.push_back(Sm);
}

/// Host compiler flags passed through -Xcompiler / --compiler-options
/// ("-fPIC,-fopenmp"): the ones that change how the source parses.
void addHostFlags(llvm::StringRef Value,
                  clang::tooling::CommandLineArguments &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Flags;
  Value.split(Flags, ',', -1, false);
  for (llvm::StringRef Flag : Flags)
    if (tensorplace::compat::startsWith(Flag, "-D") ||
        tensorplace::compat::startsWith(Flag, "-U") ||
        tensorplace::compat::startsWith(Flag, "-I") ||
        tensorplace::compat::startsWith(Flag, "-std=") || Flag == "-fopenmp" ||
        Flag == "-pthread")
      Out.push_back(Flag.str());
}

} // namespace

clang::tooling::CommandLineArguments
clangCommandFromNvcc(const clang::tooling::CommandLineArguments &Args) {
  if (!isNvccCommand(Args))
    return Args;
  clang::tooling::CommandLineArguments Out;
  // The toolkit is the directory above nvcc's bin/.
  llvm::StringRef Nvcc = Args.front();
  llvm::SmallString<256> Toolkit(llvm::sys::path::parent_path(Nvcc));
  llvm::sys::path::remove_filename(Toolkit);
  Out.push_back("clang++");
  std::vector<std::string> Architectures;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    auto Next = [&]() -> llvm::StringRef {
      return I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "";
    };
    // Paths, macros, forced includes, the language standard: as Clang spells
    // them (nvcc also accepts "-isystem=<dir>").
    if (Arg.consume_front("-isystem=") ||
        Arg.consume_front("--system-include=")) {
      Out.push_back("-isystem");
      Out.push_back(Arg.str());
      continue;
    }
    if (Arg == "-x" || Arg == "--x") {
      llvm::StringRef Language = Next();
      Out.push_back("-x");
      Out.push_back(Language == "cu" ? "cuda" : Language.str());
      continue;
    }
    // --generate-code=arch=compute_80,code=[compute_80,sm_80]
    if (tensorplace::compat::startsWith(Arg, "--generate-code=") ||
        tensorplace::compat::startsWith(Arg, "-gencode=")) {
      addGencodeArchitecture(Arg.split('=').second, Architectures);
      continue;
    }
    if (Arg == "-gencode" || Arg == "--generate-code") {
      addGencodeArchitecture(Next(), Architectures);
      continue;
    }
    if (Arg.consume_front("-arch=") ||
        Arg.consume_front("--gpu-architecture=")) {
      std::string Sm = smArchitecture(Arg);
      if (!Sm.empty())
        Architectures.push_back(Sm);
      continue;
    }
    if (Arg == "-arch" || Arg == "--gpu-architecture") {
      std::string Sm = smArchitecture(Next());
      if (!Sm.empty())
        Architectures.push_back(Sm);
      continue;
    }
    if (Arg.consume_front("-Xcompiler=") ||
        Arg.consume_front("--compiler-options=")) {
      addHostFlags(Arg, Out);
      continue;
    }
    if (Arg == "-Xcompiler" || Arg == "--compiler-options") {
      addHostFlags(Next(), Out);
      continue;
    }
    if (Arg == "-rdc=true" || Arg == "--relocatable-device-code=true" ||
        Arg == "-dc") {
      Out.push_back("-fgpu-rdc");
      continue;
    }
    if (dropsNextArgument(Arg)) {
      Next();
      continue;
    }
    // What Clang understands the same way: kept.
    if (tensorplace::compat::startsWith(Arg, "-D") ||
        tensorplace::compat::startsWith(Arg, "-U") ||
        tensorplace::compat::startsWith(Arg, "-I") || Arg == "-isystem" ||
        Arg == "-include" || Arg == "-o" || Arg == "-c" ||
        tensorplace::compat::startsWith(Arg, "-std=") ||
        tensorplace::compat::startsWith(Arg, "-O") ||
        !tensorplace::compat::startsWith(Arg, "-")) {
      Out.push_back(Arg.str());
      if ((Arg == "-isystem" || Arg == "-include" || Arg == "-o" ||
           Arg == "-I" || Arg == "-D" || Arg == "-U") &&
          I + 1 < Args.size())
        Out.push_back(Args[++I]);
      continue;
    }
    // Everything else is nvcc's own (-forward-unknown-to-host-compiler,
    // --expt-relaxed-constexpr, --use_fast_math, -lineinfo, -G, ...): dropped.
  }
  // Only the host side is analysed; an architecture newer than this Clang
  // knows would only make the command fail.
  for (const std::string &Sm : Architectures)
    if (tensorplace::compat::isKnownCudaArch(Sm) &&
        !llvm::is_contained(Out, "--cuda-gpu-arch=" + Sm))
      Out.push_back("--cuda-gpu-arch=" + Sm);
  if (!Toolkit.empty())
    Out.push_back(("--cuda-path=" + Toolkit.str()).str());
  return Out;
}

} // namespace driver
} // namespace tensorplace
