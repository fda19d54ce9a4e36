// Property tests of the operators: bias_act (forward and backward) and normalize_images over
// random shapes (empty ones included), dtypes and strided views (transposed, sliced, expanded),
// against the plain ATen compositions of kernel_test_utils.h; both operators from several
// threads at once; FusedLinear through torch::save and torch::load.
//
// Each case draws from its own seed, printed when it fails. TENSORPLACE_PROPERTY_SEED and
// TENSORPLACE_PROPERTY_CASES change the first seed and the number of cases (docs/reliability.md).

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch.h"
#include "kernel_test_utils.h"
#include "tensorplace/ops.h"

using tensorplace_test::activations;
using tensorplace_test::reference_bias_act;
using tensorplace_test::reference_normalize_images;
using tensorplace_test::tolerance;

namespace {

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 10) : fallback;
}

uint64_t first_seed() {
  return env_or("TENSORPLACE_PROPERTY_SEED", 20261121);
}

int property_cases() {
  return static_cast<int>(env_or("TENSORPLACE_PROPERTY_CASES", 300));
}

std::string case_seed(uint64_t seed) {
  return "seed " + std::to_string(seed) +
         " (rerun one case: TENSORPLACE_PROPERTY_SEED=" + std::to_string(seed) +
         " TENSORPLACE_PROPERTY_CASES=1)";
}

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed), generator_(at::detail::createCPUGenerator(seed)) {}

  int64_t integer(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool chance(double p) {
    return std::bernoulli_distribution(p)(rng_);
  }
  double real(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  at::Generator& generator() {
    return generator_;
  }

  // A tensor of `sizes` holding `make(shape)`'s values, laid out as one of: contiguous,
  // transposed (memory order of two dimensions swapped), sliced with a step and an offset, or
  // expanded (stride 0 along some size-1 source dimensions).
  template <typename Make>
  torch::Tensor view_of(const std::vector<int64_t>& sizes, Make make, std::string& how) {
    const int64_t kind = integer(0, 3);
    const auto rank = static_cast<int64_t>(sizes.size());
    if (kind == 1 && rank >= 2) {
      const int64_t a = integer(0, rank - 1);
      const int64_t b = integer(0, rank - 1);
      auto swapped = sizes;
      std::swap(swapped[a], swapped[b]);
      how = "transposed " + std::to_string(a) + "," + std::to_string(b);
      return make(swapped).transpose(a, b);
    }
    if (kind == 2 && rank >= 1) {
      auto larger = sizes;
      const int64_t step = integer(2, 3);
      for (auto& size : larger) {
        size = step * size + 1;
      }
      torch::Tensor result = make(larger);
      for (int64_t d = 0; d < rank; ++d) {
        result = result.slice(d, 1, step * sizes[d] + 1, step);
      }
      how = "sliced by " + std::to_string(step);
      return result;
    }
    if (kind == 3 && rank >= 1) {
      auto base = sizes;
      for (auto& size : base) {
        size = chance(0.5) ? 1 : size;
      }
      how = "expanded";
      return make(base).expand(sizes);
    }
    how = "contiguous";
    return make(sizes);
  }

 private:
  std::mt19937_64 rng_;
  at::Generator generator_;
};

std::string describe(const torch::Tensor& t, const std::string& how) {
  std::ostringstream out;
  out << how << " " << t.scalar_type() << " " << t.sizes() << " strides " << t.strides();
  return out.str();
}

}  // namespace

TEST_CASE("bias_act and its gradients match the ATen composition on random inputs",
          "[ops][bias_act][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, property_cases()));
  INFO(case_seed(seed));
  Random random(seed);
  const std::string act = activations()[random.integer(0, activations().size() - 1)];
  const torch::ScalarType dtype = random.chance(0.5) ? torch::kFloat32 : torch::kFloat64;
  std::vector<int64_t> shape(random.integer(1, 4));
  for (auto& size : shape) {
    size = random.chance(0.05) ? 0 : random.integer(1, random.chance(0.1) ? 300 : 12);
  }
  // At most ~100k elements, so that a few hundred cases stay fast under the sanitizers.
  while (c10::multiply_integers(shape) > 100000) {
    auto& largest = *std::max_element(shape.begin(), shape.end());
    largest = (largest + 1) / 2;
  }
  // Mostly moderate values, now and then ones far out in the activations' tails.
  const double scale = random.chance(0.2) ? 40.0 : 3.0;
  const auto options = torch::TensorOptions().dtype(dtype);
  auto make = [&](const std::vector<int64_t>& sizes) {
    return torch::randn(sizes, random.generator(), options) * scale;
  };
  std::string x_how;
  std::string bias_how;
  const torch::Tensor x = random.view_of(shape, make, x_how);
  const torch::Tensor bias = random.view_of({shape.back()}, make, bias_how);
  INFO("act " << act << ", x " << describe(x, x_how) << ", bias " << describe(bias, bias_how));

  const torch::Tensor y = tensorplace::bias_act(x, bias, act);
  REQUIRE(y.is_contiguous());
  TENSORPLACE_CHECK_CLOSE(y, reference_bias_act(x, bias, act), tolerance(dtype));

  const torch::Tensor grad_out = torch::randn(shape, random.generator(), options);
  const auto [grad_x, grad_bias] = tensorplace::bias_act_backward(grad_out, x, bias, act);
  const torch::Tensor x_ref = x.detach().clone().requires_grad_(true);
  const torch::Tensor bias_ref = bias.detach().clone().requires_grad_(true);
  reference_bias_act(x_ref, bias_ref, act).backward(grad_out);
  const auto tol = tolerance(dtype);
  TENSORPLACE_CHECK_CLOSE(grad_x, x_ref.grad(), tol);
  // A sum over up to ~100k rows, rounded in another order than LibTorch's.
  TENSORPLACE_CHECK_CLOSE(grad_bias, bias_ref.grad(),
                          (tensorplace_test::Tolerance{tol.rtol * 50, tol.atol * 50}));
}

TEST_CASE("normalize_images matches the ATen composition on random images",
          "[ops][normalize][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, property_cases()));
  INFO(case_seed(seed));
  Random random(seed);
  const std::string layout = random.chance(0.5) ? "NHWC" : "NCHW";
  const std::vector<torch::ScalarType> out_dtypes = {torch::kFloat32, torch::kFloat16,
                                                     torch::kBFloat16};
  const torch::ScalarType out_dtype = out_dtypes[random.integer(0, 2)];
  const int64_t batch = random.chance(0.05) ? 0 : random.integer(1, 3);
  const int64_t height = random.chance(0.05) ? 0 : random.integer(1, 9);
  // Rows longer than the kernel's 256-element chunk now and then.
  const int64_t width = random.integer(1, random.chance(0.2) ? 600 : 20);
  const int64_t channels = random.integer(1, 5);
  const std::vector<int64_t> shape = layout == "NHWC"
                                         ? std::vector<int64_t>{batch, height, width, channels}
                                         : std::vector<int64_t>{batch, channels, height, width};
  std::vector<double> mean;
  std::vector<double> std;
  for (int64_t c = 0; c < channels; ++c) {
    mean.push_back(random.real(-1.0, 1.0));
    std.push_back((random.chance(0.2) ? -1.0 : 1.0) * random.real(0.05, 2.0));
  }
  auto make = [&](const std::vector<int64_t>& sizes) {
    return torch::randint(0, 256, sizes, random.generator(), torch::kUInt8);
  };
  std::string how;
  const torch::Tensor images = random.view_of(shape, make, how);
  INFO(layout << " images " << describe(images, how) << " to " << out_dtype);

  const torch::Tensor out = tensorplace::normalize_images(images, mean, std, layout, out_dtype);
  REQUIRE(out.is_contiguous());
  TENSORPLACE_CHECK_CLOSE(out, reference_normalize_images(images, mean, std, layout, out_dtype),
                          tolerance(out_dtype));
}

TEST_CASE("bias_act and normalize_images give correct results from several threads",
          "[ops][threads]") {
  constexpr int kThreads = 6;
  constexpr int kRounds = 5;
  struct Work {
    torch::Tensor x, bias, grad_out, images;
    std::string act;
    torch::Tensor expected_y, expected_grad_x, expected_grad_bias, expected_images;
  };
  std::vector<Work> work;
  for (int k = 0; k < kThreads; ++k) {
    Random random(first_seed() + 7000 + k);
    Work w;
    w.act = activations()[k % activations().size()];
    // Large enough that each call splits its rows over LibTorch's intra-op threads too.
    w.x = torch::randn({300 + 50 * k, 129}, random.generator(), torch::kFloat64);
    w.bias = torch::randn({129}, random.generator(), torch::kFloat64);
    w.grad_out = torch::randn_like(w.x);
    w.images = torch::randint(0, 256, {2, 40, 70 + k, 3}, random.generator(), torch::kUInt8);
    const torch::Tensor z = (w.x + w.bias).requires_grad_(true);
    w.expected_y = reference_bias_act(z, torch::zeros({129}, torch::kFloat64), w.act);
    w.expected_y.backward(w.grad_out);
    w.expected_y = w.expected_y.detach();
    w.expected_grad_x = z.grad();
    w.expected_grad_bias = z.grad().sum(0);
    w.expected_images = reference_normalize_images(w.images, {0.5, 0.4, 0.3}, {0.2, 0.3, 0.4},
                                                   "NHWC", torch::kFloat32);
    work.push_back(std::move(w));
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&, k] {
      const Work& w = work[k];
      const auto tol = tolerance(torch::kFloat64);
      for (int round = 0; round < kRounds; ++round) {
        const torch::Tensor y = tensorplace::bias_act(w.x, w.bias, w.act);
        const auto grads = tensorplace::bias_act_backward(w.grad_out, w.x, w.bias, w.act);
        const torch::Tensor images = tensorplace::normalize_images(
            w.images, {0.5, 0.4, 0.3}, {0.2, 0.3, 0.4}, "NHWC", torch::kFloat32);
        const bool good =
            tensorplace_test::all_close(y, w.expected_y, tol) &&
            tensorplace_test::all_close(std::get<0>(grads), w.expected_grad_x, tol) &&
            tensorplace_test::all_close(std::get<1>(grads), w.expected_grad_bias,
                                        {tol.rtol * 50, tol.atol * 50}) &&
            tensorplace_test::all_close(images, w.expected_images, tolerance(torch::kFloat32));
        if (!good) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  REQUIRE(failures.load() == 0);
}

TEST_CASE("FusedLinear round-trips through torch::save into a fresh module",
          "[ops][fused_linear][serialize]") {
  const bool with_bias = GENERATE(false, true);
  CAPTURE(with_bias);
  const auto options = tensorplace::nn::FusedLinearOptions(5, 3).bias(with_bias).activation("silu");
  tensorplace::nn::FusedLinear saved(options);
  std::stringstream stream;
  torch::save(saved, stream);
  tensorplace::nn::FusedLinear fresh(options);
  torch::load(fresh, stream);
  REQUIRE(fresh->named_parameters().keys() == saved->named_parameters().keys());
  REQUIRE(torch::equal(fresh->weight, saved->weight));
  REQUIRE(fresh->bias.defined() == with_bias);
  if (with_bias) {
    REQUIRE(torch::equal(fresh->bias, saved->bias));
  }
  const torch::Tensor x = torch::randn({4, 5});
  REQUIRE(torch::equal(fresh(x), saved(x)));
}
