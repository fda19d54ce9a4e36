// CUDA extension sources as public extension libraries write them: memory
// their callers allocate.
#include "TestSupport.h"

#include "catch.h"

#include <vector>

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);
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
