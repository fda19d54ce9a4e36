// The CUDA kernels against the CPU kernels. Every test passes with a warning where no GPU is
// present; the stream and device tests need a LibTorch with CUDA to compile
// (TENSORPLACE_TEST_CUDA_STREAMS).

#include <torch/cuda.h>
#include <torch/torch.h>

#ifdef TENSORPLACE_TEST_CUDA_STREAMS
#include <ATen/cuda/Sleep.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include <string>
#include <vector>

#include "catch.h"
#include "kernel_test_utils.h"
#include "tensorplace/ops.h"

using tensorplace_test::activations;
using tensorplace_test::tolerance;

namespace {

const std::vector<double> kMean3{0.485, 0.456, 0.406};
const std::vector<double> kStd3{0.229, 0.224, 0.225};

// The CPU result the CUDA kernel must reproduce: computed in float64 on the CPU from the same
// (already rounded) inputs, then rounded once to dtype.
torch::Tensor cpu_bias_act(const torch::Tensor& x,
                           const torch::Tensor& bias,
                           const std::string& act) {
  return tensorplace::bias_act(x.cpu().to(torch::kFloat64), bias.cpu().to(torch::kFloat64), act)
      .to(x.scalar_type());
}

}  // namespace

TEST_CASE("CUDA bias_act matches the CPU kernel", "[cuda][bias_act]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  const std::string act = GENERATE(from_range(activations()));
  const torch::ScalarType dtype =
      GENERATE(torch::kFloat32, torch::kFloat16, torch::kBFloat16, torch::kFloat64);
  const std::vector<int64_t> shape = GENERATE(values<std::vector<int64_t>>(
      {{0, 5}, {1}, {7}, {3, 5}, {2, 3, 17}, {4, 64}, {33, 1}, {129, 31}, {1000, 67}, {64, 4099}}));
  CAPTURE(act, dtype, shape);
  const auto options = torch::TensorOptions().dtype(dtype).device(torch::kCUDA);
  const torch::Tensor x = torch::randn(shape, options) * 3;
  const torch::Tensor bias = torch::randn({shape.back()}, options);
  const torch::Tensor y = tensorplace::bias_act(x, bias, act);
  CHECK(y.device() == x.device());
  TENSORPLACE_CHECK_CLOSE(y.cpu(), cpu_bias_act(x, bias, act), tolerance(dtype));

  SECTION("non-contiguous and unaligned x") {
    const torch::Tensor x_t = torch::randn({shape.back(), 5}, options).t();
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x_t, bias, act).cpu(),
                            cpu_bias_act(x_t, bias, act), tolerance(dtype));
    // A contiguous view one element into its storage: not 16-byte aligned.
    const torch::Tensor x_offset = torch::randn({x.numel() + 1}, options).slice(0, 1).view_as(x);
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x_offset, bias, act).cpu(),
                            cpu_bias_act(x_offset, bias, act), tolerance(dtype));
    // Aligned x with a bias that is not: vector loads of x, scalar loads of the bias.
    const torch::Tensor bias_offset = torch::randn({shape.back() + 1}, options).slice(0, 1);
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x, bias_offset, act).cpu(),
                            cpu_bias_act(x, bias_offset, act), tolerance(dtype));
  }
}

TEST_CASE("CUDA bias_act gradients match the CPU kernel", "[cuda][bias_act][autograd]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  const std::string act = GENERATE(from_range(activations()));
  const torch::ScalarType dtype = GENERATE(torch::kFloat32, torch::kFloat16, torch::kBFloat16);
  const std::vector<int64_t> shape = GENERATE(values<std::vector<int64_t>>(
      {{0, 5}, {7}, {3, 5}, {2, 3, 17}, {1000, 67}, {4096, 3}, {8, 70000}}));
  CAPTURE(act, dtype, shape);
  const auto options = torch::TensorOptions().dtype(dtype).device(torch::kCUDA);
  const torch::Tensor x = torch::randn(shape, options);
  const torch::Tensor bias = torch::randn({shape.back()}, options);
  const torch::Tensor grad_out = torch::randn(shape, options);
  const auto [grad_x, grad_bias] = tensorplace::bias_act_backward(grad_out, x, bias, act);
  const auto to64 = [](const torch::Tensor& t) { return t.cpu().to(torch::kFloat64); };
  const auto [ref_x, ref_bias] =
      tensorplace::bias_act_backward(to64(grad_out), to64(x), to64(bias), act);
  TENSORPLACE_CHECK_CLOSE(grad_x.cpu(), ref_x.to(dtype), tolerance(dtype));
  // A float sum over up to 4096 rows, rounded once.
  const double scale =
      std::sqrt(static_cast<double>(std::max<int64_t>(1, x.numel() / shape.back())));
  const auto tol = tolerance(dtype);
  TENSORPLACE_CHECK_CLOSE(grad_bias.cpu(), ref_bias.to(dtype),
                          (tensorplace_test::Tolerance{tol.rtol * 4, tol.atol * scale}));
}

TEST_CASE("CUDA normalize_images matches the CPU kernel", "[cuda][normalize]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  const std::string layout = GENERATE(as<std::string>{}, "NHWC", "NCHW");
  const torch::ScalarType out_dtype = GENERATE(torch::kFloat32, torch::kFloat16, torch::kBFloat16);
  const std::vector<int64_t> shape = GENERATE(values<std::vector<int64_t>>(
      {{0, 4, 4, 3}, {1, 1, 1, 3}, {2, 5, 7, 3}, {3, 17, 32, 3}, {2, 64, 64, 3}, {2, 31, 517, 3}}));
  CAPTURE(layout, out_dtype, shape);
  const torch::Tensor cpu_images =
      torch::randint(0, 256, shape, torch::TensorOptions().dtype(torch::kUInt8));
  const torch::Tensor images = cpu_images.to(torch::kCUDA);
  const torch::Tensor out = tensorplace::normalize_images(images, kMean3, kStd3, layout, out_dtype);
  CHECK(out.device() == images.device());
  TENSORPLACE_CHECK_CLOSE(
      out.cpu(), tensorplace::normalize_images(cpu_images, kMean3, kStd3, layout, out_dtype),
      tolerance(out_dtype));
}

TEST_CASE("to_device_normalized sends uint8 and normalises on the GPU", "[cuda][normalize]") {
  const torch::Tensor images = torch::randint(0, 256, {2, 16, 24, 3}, torch::kUInt8);
  if (!torch::cuda::is_available()) {
    CHECK_THROWS_WITH(
        tensorplace::to_device_normalized(images, torch::kCUDA, kMean3, kStd3),
        Catch::Matchers::ContainsSubstring("device should be an available CUDA device, got cuda"));
    WARN("no CUDA device; only the error was checked");
    return;
  }
  const torch::Tensor out = tensorplace::to_device_normalized(
      images, torch::Device(torch::kCUDA, 0), kMean3, kStd3, "NHWC", torch::kFloat16);
  CHECK(out.device() == torch::Device(torch::kCUDA, 0));
  TENSORPLACE_CHECK_CLOSE(
      out.cpu(), tensorplace::normalize_images(images, kMean3, kStd3, "NHWC", torch::kFloat16),
      tolerance(torch::kFloat16));
}

TEST_CASE("CUDA kernels refuse tensors on different devices", "[cuda][bias_act]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  const torch::Tensor x = torch::randn({2, 5}, torch::kCUDA);
  CHECK_THROWS_WITH(
      tensorplace::bias_act(x, torch::randn({5}), "relu"),
      Catch::Matchers::ContainsSubstring("bias should be on the device of x (cuda:0), got cpu"));
  CHECK_THROWS_WITH(
      tensorplace::bias_act(torch::randn({2, 5}), torch::randn({5}, torch::kCUDA), "relu"),
      Catch::Matchers::ContainsSubstring("x should be a CUDA tensor, got one on cpu"));
  CHECK_THROWS_WITH(tensorplace::bias_act(x.to(torch::kInt32),
                                          torch::ones({5}, torch::kCUDA).to(torch::kInt32), "relu"),
                    Catch::Matchers::ContainsSubstring(
                        "x should be float32, float16, bfloat16 or float64 on CUDA, got Int"));
}

#ifdef TENSORPLACE_TEST_CUDA_STREAMS
TEST_CASE("CUDA kernels run on the caller's current stream", "[cuda][stream]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  const torch::Tensor bias = torch::zeros({1024}, torch::kCUDA);
  torch::Tensor x = torch::zeros({4096, 1024}, torch::kCUDA);
  torch::cuda::synchronize();
  const c10::cuda::CUDAStream stream = c10::cuda::getStreamFromPool();
  torch::Tensor y;
  {
    const c10::cuda::CUDAStreamGuard guard(stream);
    // Keep the user stream busy, then write x on it: a kernel launched on any other stream
    // (pool streams do not synchronise with the default stream) would read the old zeros.
    at::cuda::sleep(200 * 1000 * 1000);
    x.fill_(2.0);
    y = tensorplace::bias_act(x, bias, "relu");
  }
  stream.synchronize();
  CHECK(torch::all(y == 2.0).item<bool>());
}

TEST_CASE("CUDA kernels run on the tensors' device, not the current one", "[cuda][device]") {
  if (torch::cuda::device_count() < 2) {
    WARN("fewer than two CUDA devices; skipped");
    return;
  }
  const c10::cuda::CUDAGuard current(0);
  const auto on_1 = torch::TensorOptions().device(torch::kCUDA, 1);
  const torch::Tensor x = torch::randn({300, 77}, on_1);
  const torch::Tensor bias = torch::randn({77}, on_1);
  const torch::Tensor y = tensorplace::bias_act(x, bias, "gelu");
  CHECK(y.device() == torch::Device(torch::kCUDA, 1));
  TENSORPLACE_CHECK_CLOSE(y.cpu(), cpu_bias_act(x, bias, "gelu"), tolerance(torch::kFloat32));
  const torch::Tensor images = torch::randint(0, 256, {2, 8, 8, 3}, torch::kUInt8);
  const torch::Tensor out =
      tensorplace::to_device_normalized(images, torch::Device(torch::kCUDA, 1), kMean3, kStd3);
  CHECK(out.device() == torch::Device(torch::kCUDA, 1));
  TENSORPLACE_CHECK_CLOSE(out.cpu(), tensorplace::normalize_images(images, kMean3, kStd3),
                          tolerance(torch::kFloat32));
  CHECK(c10::cuda::current_device() == 0);
}
#endif
