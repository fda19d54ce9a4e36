// CUDA extension sources as public extension libraries write them: memory
// their callers allocate, kernel launches written with spaced chevrons, the
// headers they include, and launchers reached through a table of registered
// functions.
#include "TestSupport.h"
#include "tensorplace/driver/Driver.h"

#include "catch.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "tensorplace/checker/LLVMCompat.h"

#include <vector>

using namespace tensorplace;
using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);
const std::string sources = std::string(TENSORPLACE_CHECKER_TEST_SOURCE) + "/cuda";

// The flags the clang-tidy plugin's users give for a CUDA source (see
// docs/checker.md); the CLI adds the same to a .cu file itself.
std::vector<std::string> cudaFlags(std::vector<std::string> flags) {
  for (const char* flag : {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                           "-I" TENSORPLACE_CUDA_HEADERS_DIR, "-include", "cuda_runtime.h"})
    flags.push_back(flag);
  return flags;
}

driver::FileResult analyseWithCore(const std::string& path, const std::vector<std::string>& flags) {
  clang::tooling::FixedCompilationDatabase db(".", flags);
  driver::RunOptions options;
  options.IsEnabled = [](llvm::StringRef name) {
    return tensorplace::compat::startsWith(name, "torch-");
  };
  options.ResourceDir = driver::defaultResourceDir();
  return driver::analyzeFile(db, path, options);
}
}  // namespace

TEST_CASE("memory a caller allocated on the current device keeps a pointer helper's stream finding",
          "[checker][cli][cuda]") {
  // The helper's launch needs no guard for memory the op allocated itself
  // on the current device, but the default stream is still the wrong one,
  // also when the op is in another file.
  std::string dir = scratchDir("cuda-own-allocation");
  writeFile(dir + "/kernels.cu",
            "#include <torch/torch.h>\n"
            "__global__ void fill_kernel(float* out, float v, int64_t n);\n"
            "void ramp_launch(float* out, int64_t n) {\n"
            "  fill_kernel<<<1, 256>>>(out, 1.f, n);\n"
            "}\n"
            "void ramp_launch_on(float* out, int64_t n, cudaStream_t stream) {\n"
            "  fill_kernel<<<1, 256, 0, stream>>>(out, 1.f, n);\n"
            "}\n");
  writeFile(dir + "/ops.cpp",
            "#include <torch/torch.h>\n"
            "#include <ATen/cuda/CUDAContext.h>\n"
            "void ramp_launch(float* out, int64_t n);\n"
            "void ramp_launch_on(float* out, int64_t n, cudaStream_t stream);\n"
            "torch::Tensor make_ramp(int64_t n) {\n"
            "  auto ramp = at::empty({n}, at::device(at::kCUDA).dtype(at::kFloat));\n"
            "  ramp_launch(ramp.data_ptr<float>(), n);\n"
            "  ramp_launch_on(ramp.data_ptr<float>(), n, at::cuda::getCurrentCUDAStream());\n"
            "  return ramp;\n"
            "}\n");
  CommandResult r = runCommand(cli + " --no-cache " + quote(dir + "/kernels.cu") + " " +
                               quote(dir + "/ops.cpp") + " --" + joinFlags(standInFlags()));
  INFO(r.out << r.err);
  CHECK(r.err.find("partially") == std::string::npos);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("kernels.cu:4:3: warning: kernel launch on tensor data passed to "
                   "'ramp_launch' as pointers uses the default stream") != std::string::npos);
  CHECK(warningsIn(r.out, "/kernels.cu") == Findings{{4, "torch-cuda-launch-without-guard"}});
  CHECK(warningsIn(r.out, "/ops.cpp").empty());
}

TEST_CASE("launches written with spaced chevrons are read as launches",
          "[checker][core][cli][cuda]") {
  std::string path = sources + "/spaced_chevrons.cu";
  Findings expected = expectationsIn(path);

  SECTION("by the analysis core, with no compiler error") {
    driver::FileResult result = analyseWithCore(path, cudaFlags(standInFlags()));
    INFO(result.Errors);
    CHECK(result.Ok);
    Findings actual;
    for (const auto& f : result.Findings)
      actual.emplace(f.Line, f.Rule);
    INFO(describeMismatch(expected, actual));
    CHECK(actual == expected);
    for (const Detail& d : detailsIn(path)) {
      bool seen = false;
      for (const auto& f : result.Findings)
        seen |= f.Line == d.line && f.Message.find(d.text) != std::string::npos;
      INFO(path << ":" << d.line << ": " << d.text);
      CHECK(seen);
    }
  }
  SECTION("by the CLI, against the real LibTorch headers") {
    CommandResult r =
        runCommand(cli + " --no-cache " + quote(path) + " --" + joinFlags(realTorchFlags()));
    INFO(r.out << r.err);
    CHECK(r.err.find("partially") == std::string::npos);
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "/spaced_chevrons.cu") == expected);
  }
}

TEST_CASE("a spaced launch that cannot be read is the reason given for a partial file",
          "[checker][cli][cuda]") {
  std::string dir = scratchDir("spaced-chevrons-unread");
  writeFile(dir + "/launch.cuh",
            "#pragma once\n"
            "__global__ void fill_kernel(float* out, float v, long n);\n"
            "inline void fill_in_header(float* out, long n, cudaStream_t s) {\n"
            "  fill_kernel << <1, 256, 0, s >> > (out, 0.f, n);\n"
            "}\n");
  writeFile(dir + "/op.cu",
            "#include <torch/torch.h>\n"
            "#include \"launch.cuh\"\n"
            "void fill(torch::Tensor t, cudaStream_t s) {\n"
            "  fill_in_header(t.data_ptr<float>(), t.numel(), s);\n"
            "}\n");
  writeFile(dir + "/unclosed.cu",
            "#include <torch/torch.h>\n"
            "__global__ void fill_kernel(float* out, float v, long n);\n"
            "void fill(torch::Tensor t) {\n"
            "  fill_kernel << <1, 256 > > (t.data_ptr<float>(), 0.f, t.numel());\n"
            "}\n");
  std::string flags = " --" + joinFlags(standInFlags());

  SECTION("in a header, which is lexed from its own text") {
    CommandResult r = runCommand(cli + " --no-cache " + quote(dir + "/op.cu") + flags);
    INFO(r.out << r.err);
    CHECK(r.err.find("'" + dir + "/op.cu' was analysed partially") != std::string::npos);
    CHECK(r.err.find("launch.cuh:4:15: error: kernel launch written with spaces inside its "
                     "chevrons ('<< <') that tensorplace cannot read as a launch (it is in a "
                     "header, and only the main file's are read); write '<<<' and '>>>'") !=
          std::string::npos);
  }
  SECTION("without its closing chevrons") {
    CommandResult r = runCommand(cli + " --no-cache " + quote(dir + "/unclosed.cu") + flags);
    INFO(r.out << r.err);
    // The first error, which the partial-file warning repeats, names it.
    size_t partial = r.err.find("was analysed partially");
    REQUIRE(partial != std::string::npos);
    CHECK(r.err.find("unclosed.cu:4:15: error: kernel launch written with spaces inside its "
                     "chevrons ('<< <') that tensorplace cannot read as a launch (it has no "
                     "closing '>> >' before the kernel's arguments)",
                     partial) != std::string::npos);
  }
}

TEST_CASE("extension sources of each CUDA header family parse whole through the CLI",
          "[checker][cli][cuda][cuda-headers]") {
  // One source per family that public extensions include: THC's atomics and
  // helpers, vector functions, math constants, Thrust's tuples and sort,
  // CUB's block reduction, and a C++ file that includes vector_types.h. All
  // of them guard and launch on the current stream: no finding either.
  std::vector<std::string> files = {"thc_atomics.cu",      "vector_functions.cu",
                                    "math_constants.cu",   "thrust_tuple.cu",
                                    "cub_block_reduce.cu", "vector_types_host.cpp"};
  std::string args;
  for (const std::string& file : files)
    args += " " + quote(sources + "/headers/" + file);
  CommandResult r = runCommand(cli + " --no-cache" + args + " --" + joinFlags(realTorchFlags()));
  INFO(r.out << r.err);
  CHECK(r.err.find("partially") == std::string::npos);
  CHECK(r.err.find("could not be analysed") == std::string::npos);
  CHECK(r.err.find("error:") == std::string::npos);
  CHECK(r.out.find("warning:") == std::string::npos);
  CHECK(r.exit_code == 0);
}

TEST_CASE(
    "a launcher reached through a table of registered functions counts the dispatcher's guard",
    "[checker][cli][cuda]") {
  // kernels.cu registers its launchers with a macro's static initializer;
  // dispatch.cpp calls them through the table, one table under a guard. A
  // table no code calls through claims nothing.
  std::string dir = sources + "/registry";
  std::string flags = " --" + joinFlags(standInFlags());
  Findings expected = expectationsIn(dir + "/kernels.cu");

  SECTION("with the dispatcher in the run, as for a direct call") {
    CommandResult r = runCommand(cli + " --no-cache " + quote(dir + "/kernels.cu") + " " +
                                 quote(dir + "/dispatch.cpp") + flags);
    INFO(r.out << r.err);
    CHECK(r.err.find("partially") == std::string::npos);
    CHECK(warningsIn(r.out, "/kernels.cu") == expected);
    CHECK(warningsIn(r.out, "/dispatch.cpp").empty());
  }
  SECTION("without it, no call shows a guard") {
    CommandResult r = runCommand(cli + " --no-cache " + quote(dir + "/kernels.cu") + flags);
    INFO(r.out << r.err);
    Findings unsettled = expected;
    unsettled.emplace(12, "torch-cuda-launch-without-guard");
    unsettled.emplace(25, "torch-cuda-launch-without-guard");
    CHECK(warningsIn(r.out, "/kernels.cu") == unsettled);
  }
}
