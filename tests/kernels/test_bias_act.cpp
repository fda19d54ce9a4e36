#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "catch.h"
#include "kernel_test_utils.h"
#include "tensorplace/ops.h"

using tensorplace_test::activations;
using tensorplace_test::check_gradients;
using tensorplace_test::reference_bias_act;
using tensorplace_test::tolerance;

namespace {

// x of the requested shape and a matching bias, both contiguous.
std::pair<torch::Tensor, torch::Tensor> random_inputs(const std::vector<int64_t>& shape,
                                                      torch::ScalarType dtype) {
  const auto options = torch::TensorOptions().dtype(dtype);
  return {torch::randn(shape, options) * 3, torch::randn({shape.back()}, options)};
}

}  // namespace

TEST_CASE("bias_act matches x + bias followed by the LibTorch activation", "[ops][bias_act]") {
  const std::string act = GENERATE(from_range(activations()));
  const torch::ScalarType dtype = GENERATE(torch::kFloat32, torch::kFloat64);
  const std::vector<int64_t> shape = GENERATE(values<std::vector<int64_t>>({{0, 5},
                                                                            {5, 0},
                                                                            {1},
                                                                            {7},
                                                                            {3, 5},
                                                                            {2, 3, 17},
                                                                            {4, 64},
                                                                            {33, 1},
                                                                            {129, 31},
                                                                            {1000, 67},
                                                                            {64, 4099},
                                                                            {3, 70000}}));
  CAPTURE(act, dtype, shape);
  const auto [x, bias] = random_inputs(shape, dtype);
  const torch::Tensor y = tensorplace::bias_act(x, bias, act);
  CHECK(y.is_contiguous());
  TENSORPLACE_CHECK_CLOSE(y, reference_bias_act(x, bias, act), tolerance(dtype));
}

TEST_CASE("bias_act handles non-contiguous and broadcast inputs", "[ops][bias_act]") {
  const std::string act = GENERATE(from_range(activations()));
  CAPTURE(act);
  const torch::Tensor bias = torch::randn({9});
  SECTION("transposed x") {
    const torch::Tensor x = torch::randn({9, 17}).t();
    REQUIRE_FALSE(x.is_contiguous());
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x, bias, act), reference_bias_act(x, bias, act),
                            tolerance(torch::kFloat32));
  }
  SECTION("strided last dimension and strided bias") {
    const torch::Tensor x = torch::randn({5, 18}).slice(1, 0, 18, 2);
    const torch::Tensor strided_bias = torch::randn({18}).slice(0, 0, 18, 2);
    REQUIRE_FALSE(strided_bias.is_contiguous());
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x, strided_bias, act),
                            reference_bias_act(x, strided_bias, act), tolerance(torch::kFloat32));
  }
  SECTION("x expanded from one row (stride 0)") {
    const torch::Tensor x = torch::randn({1, 9}).expand({6, 9});
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x, bias, act), reference_bias_act(x, bias, act),
                            tolerance(torch::kFloat32));
  }
  SECTION("x with size-1 leading dimensions") {
    const torch::Tensor x = torch::randn({1, 1, 3, 9});
    TENSORPLACE_CHECK_CLOSE(tensorplace::bias_act(x, bias, act), reference_bias_act(x, bias, act),
                            tolerance(torch::kFloat32));
  }
}

TEST_CASE("bias_act keeps NaN and infinities where the activation does", "[ops][bias_act]") {
  const std::string act = GENERATE(from_range(activations()));
  CAPTURE(act);
  const double inf = std::numeric_limits<double>::infinity();
  const torch::Tensor x =
      torch::tensor({std::nan(""), inf, -inf, 0.0, -0.0, 1e30, -1e30}, torch::kFloat64)
          .view({1, 7});
  const torch::Tensor bias = torch::zeros({7}, torch::kFloat64);
  const torch::Tensor y = tensorplace::bias_act(x, bias, act);
  const torch::Tensor expected = reference_bias_act(x, bias, act);
  CHECK(torch::allclose(y, expected, 1e-12, 1e-12, /*equal_nan=*/true));
}

TEST_CASE("bias_act gradients match finite differences in float64", "[ops][bias_act][autograd]") {
  const std::string act = GENERATE(from_range(activations()));
  const std::vector<int64_t> shape =
      GENERATE(values<std::vector<int64_t>>({{1}, {3, 5}, {2, 3, 4}, {4, 9}}));
  CAPTURE(act, shape);
  auto [x, bias] = random_inputs(shape, torch::kFloat64);
  // Keep x + bias away from relu's kink, where a central difference is meaningless.
  const torch::Tensor z = x + bias;
  x = torch::where(z.abs() < 1e-2, x + 0.5, x).detach().requires_grad_(true);
  bias = bias.detach().requires_grad_(true);
  check_gradients(
      [&](const std::vector<torch::Tensor>& in) {
        return tensorplace::bias_act(in[0], in[1], act);
      },
      {x, bias});
}

TEST_CASE("bias_act backward matches autograd through the LibTorch composition",
          "[ops][bias_act][autograd]") {
  const std::string act = GENERATE(from_range(activations()));
  const torch::ScalarType dtype = GENERATE(torch::kFloat32, torch::kFloat64);
  const std::vector<int64_t> shape = GENERATE(values<std::vector<int64_t>>(
      {{0, 5}, {7}, {3, 5}, {2, 3, 17}, {1000, 67}, {4096, 3}, {3, 70000}}));
  CAPTURE(act, dtype, shape);
  const auto [x_data, bias_data] = random_inputs(shape, dtype);
  const torch::Tensor grad_out = torch::randn(shape, torch::TensorOptions().dtype(dtype));

  const torch::Tensor x = x_data.clone().requires_grad_(true);
  const torch::Tensor bias = bias_data.clone().requires_grad_(true);
  tensorplace::bias_act(x, bias, act).backward(grad_out);

  const torch::Tensor x_ref = x_data.clone().requires_grad_(true);
  const torch::Tensor bias_ref = bias_data.clone().requires_grad_(true);
  reference_bias_act(x_ref, bias_ref, act).backward(grad_out);

  // The bias gradient is a sum over up to 4096 rows: its rounding differs from LibTorch's.
  const auto tol = tolerance(dtype);
  TENSORPLACE_CHECK_CLOSE(x.grad(), x_ref.grad(), tol);
  TENSORPLACE_CHECK_CLOSE(bias.grad(), bias_ref.grad(),
                          (tensorplace_test::Tolerance{tol.rtol * 20, tol.atol * 20}));
}

TEST_CASE("bias_act computes only the gradients that are needed", "[ops][bias_act][autograd]") {
  const torch::Tensor x = torch::randn({4, 3}, torch::requires_grad());
  const torch::Tensor bias = torch::randn({3});
  tensorplace::bias_act(x, bias, "silu").sum().backward();
  CHECK(x.grad().defined());
  CHECK_FALSE(bias.grad().defined());
  SECTION("no graph without inputs that require grad") {
    const torch::Tensor y = tensorplace::bias_act(torch::randn({2, 3}), bias, "relu");
    CHECK_FALSE(y.requires_grad());
  }
}

TEST_CASE("bias_act refuses a second derivative instead of returning a wrong one",
          "[ops][bias_act][autograd]") {
  const torch::Tensor x = torch::randn({3, 4}, torch::dtype(torch::kFloat64).requires_grad(true));
  const torch::Tensor bias = torch::randn({4}, torch::dtype(torch::kFloat64).requires_grad(true));
  const torch::Tensor y = tensorplace::bias_act(x, bias, "gelu");
  const torch::Tensor grad_x =
      torch::autograd::grad({y.sum()}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  REQUIRE(grad_x.requires_grad());
  // A gradient penalty: without the error node grad_x would be a constant here.
  CHECK_THROWS_WITH(
      (y.sum() + grad_x.pow(2).sum()).backward(),
      Catch::Matchers::ContainsSubstring("tensorplace::bias_act has no second derivative"));
  SECTION("first derivatives under create_graph are unaffected") {
    const torch::Tensor grads = torch::autograd::grad({y.sum()}, {x}, {}, true, true)[0];
    const torch::Tensor z = (x + bias).detach().requires_grad_(true);
    torch::gelu(z).sum().backward();
    TENSORPLACE_CHECK_CLOSE(grads.detach(), z.grad(), tolerance(torch::kFloat64));
  }
}

TEST_CASE("bias_act is callable through the dispatcher", "[ops][bias_act]") {
  const auto handle = c10::Dispatcher::singleton().findSchemaOrThrow("tensorplace::bias_act", "");
  std::ostringstream schema;
  schema << handle.schema();
  CHECK(schema.str() == "tensorplace::bias_act(Tensor x, Tensor bias, str act=\"relu\") -> Tensor");
  const auto op =
      handle.typed<at::Tensor(const at::Tensor&, const at::Tensor&, c10::string_view)>();
  const torch::Tensor x = torch::randn({3, 4});
  const torch::Tensor bias = torch::randn({4});
  TENSORPLACE_CHECK_CLOSE(op.call(x, bias, "gelu"), torch::gelu(x + bias),
                          tolerance(torch::kFloat32));
  CHECK(
      c10::Dispatcher::singleton().findSchema({"tensorplace::bias_act_backward", ""}).has_value());
}

TEST_CASE("bias_act rejects bad arguments with the documented errors", "[ops][bias_act]") {
  const torch::Tensor x = torch::randn({2, 5});
  const torch::Tensor bias = torch::randn({5});
  CHECK_THROWS_WITH(tensorplace::bias_act(x, bias, "tanh"),
                    Catch::Matchers::ContainsSubstring(
                        "act should be one of none, relu, gelu, gelu_tanh, silu, got 'tanh'"));
  CHECK_THROWS_WITH(tensorplace::bias_act(x, torch::randn({4}), "relu"),
                    Catch::Matchers::ContainsSubstring(
                        "bias should be a 1-D tensor of size x.size(-1) = 5, got shape [4]"));
  CHECK_THROWS_WITH(tensorplace::bias_act(x, torch::randn({1, 5}), "relu"),
                    Catch::Matchers::ContainsSubstring(
                        "bias should be a 1-D tensor of size x.size(-1) = 5, got shape [1, 5]"));
  CHECK_THROWS_WITH(
      tensorplace::bias_act(x, bias.to(torch::kFloat64), "relu"),
      Catch::Matchers::ContainsSubstring("bias should have the dtype of x (Float), got Double"));
  CHECK_THROWS_WITH(
      tensorplace::bias_act(x.to(torch::kInt64), bias.to(torch::kInt64), "relu"),
      Catch::Matchers::ContainsSubstring("x should be float32 or float64 on the CPU, got Long"));
  CHECK_THROWS_WITH(
      tensorplace::bias_act(x.to(torch::kHalf), bias.to(torch::kHalf), "relu"),
      Catch::Matchers::ContainsSubstring("x should be float32 or float64 on the CPU, got Half"));
  CHECK_THROWS_WITH(tensorplace::bias_act(torch::tensor(1.0f), torch::randn({1}), "relu"),
                    Catch::Matchers::ContainsSubstring("x should have at least one dimension"));
  CHECK_THROWS_WITH(tensorplace::bias_act_backward(torch::randn({2, 4}), x, bias, "relu"),
                    Catch::Matchers::ContainsSubstring(
                        "grad_out should have the shape of x ([2, 5]), got [2, 4]"));
}

TEST_CASE("bias_act refuses tensors on two devices", "[ops][bias_act]") {
  const torch::Tensor x = torch::randn({2, 5});
  const torch::Tensor meta_bias = torch::empty({5}, torch::TensorOptions().device(torch::kMeta));
  // The dispatcher picks the kernel from every tensor argument's device (here the Meta
  // kernel), which refuses the mix; nothing is copied.
  CHECK_THROWS_WITH(
      tensorplace::bias_act(x, meta_bias, "relu"),
      Catch::Matchers::ContainsSubstring("bias should be on the device of x (cpu), got meta"));
}

TEST_CASE("bias_act and its backward give shape, dtype and device on meta tensors",
          "[ops][bias_act][meta]") {
  const auto dtype = GENERATE(torch::kFloat32, torch::kFloat64, torch::kFloat16, torch::kBFloat16);
  const auto meta = torch::TensorOptions().device(torch::kMeta).dtype(dtype);
  const torch::Tensor x = torch::empty({4, 3, 7}, meta);
  const torch::Tensor bias = torch::empty({7}, meta);
  const torch::Tensor y = tensorplace::bias_act(x, bias);
  CHECK(y.device().is_meta());
  CHECK(y.sizes() == x.sizes());
  CHECK(y.scalar_type() == dtype);
  const auto [grad_x, grad_bias] = tensorplace::bias_act_backward(y, x, bias, "gelu");
  CHECK(grad_x.sizes() == x.sizes());
  CHECK(grad_bias.sizes() == bias.sizes());
  CHECK(grad_bias.device().is_meta());
  CHECK_THROWS_WITH(tensorplace::bias_act(x, torch::empty({6}, meta)),
                    Catch::Matchers::ContainsSubstring(
                        "bias should be a 1-D tensor of size x.size(-1) = 7, got shape [6]"));
}

TEST_CASE("the CPU kernels in use are reported", "[ops]") {
  const std::string capability = tensorplace::cpu_kernel_capability();
  CHECK((capability == "AVX2" || capability == "DEFAULT"));
}

TEST_CASE("bias_act backward sums the bias gradient across threads", "[ops][bias_act][autograd]") {
  // The reduction splits rows (and, with few rows, columns) into per-thread blocks; a machine
  // with one core would otherwise only ever run one block.
  const int threads = GENERATE(2, 3, 8);
  const std::vector<int64_t> shape =
      GENERATE(values<std::vector<int64_t>>({{1000, 67}, {3, 70000}, {2, 40000}, {4099, 33}}));
  CAPTURE(threads, shape);
  const int previous_threads = at::get_num_threads();
  at::set_num_threads(threads);
  const auto [x, bias] = random_inputs(shape, torch::kFloat64);
  const torch::Tensor grad_out = torch::randn(shape, torch::kFloat64);
  const auto [grad_x, grad_bias] = tensorplace::bias_act_backward(grad_out, x, bias, "gelu");
  at::set_num_threads(previous_threads);
  const torch::Tensor z = (x + bias).requires_grad_(true);
  torch::gelu(z).backward(grad_out);
  TENSORPLACE_CHECK_CLOSE(grad_x, z.grad(), tolerance(torch::kFloat64));
  TENSORPLACE_CHECK_CLOSE(grad_bias, z.grad().sum(0), (tensorplace_test::Tolerance{1e-10, 1e-10}));
}
