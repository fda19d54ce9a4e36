#include <torch/torch.h>

#include <sstream>
#include <string>
#include <vector>

#include "catch.h"
#include "kernel_test_utils.h"
#include "tensorplace/ops.h"

using tensorplace::nn::FusedLinear;
using tensorplace::nn::FusedLinearOptions;
using tensorplace_test::activations;
using tensorplace_test::reference_bias_act;
using tensorplace_test::tolerance;

TEST_CASE("FusedLinear initialises exactly like torch::nn::Linear", "[ops][fused_linear]") {
  const bool with_bias = GENERATE(true, false);
  CAPTURE(with_bias);
  torch::manual_seed(7);
  torch::nn::Linear linear(torch::nn::LinearOptions(6, 4).bias(with_bias));
  torch::manual_seed(7);
  FusedLinear fused(FusedLinearOptions(6, 4).bias(with_bias));
  CHECK(torch::equal(fused->weight, linear->weight));
  CHECK(fused->bias.defined() == with_bias);
  if (with_bias) {
    CHECK(torch::equal(fused->bias, linear->bias));
  }
  CHECK(fused->parameters().size() == linear->parameters().size());
}

TEST_CASE("FusedLinear is a drop-in for Linear followed by the activation", "[ops][fused_linear]") {
  const std::string act = GENERATE(from_range(activations()));
  const bool with_bias = GENERATE(true, false);
  const std::vector<int64_t> batch_shape =
      GENERATE(values<std::vector<int64_t>>({{0}, {1}, {5}, {2, 3}}));
  CAPTURE(act, with_bias, batch_shape);
  torch::nn::Linear linear(torch::nn::LinearOptions(7, 5).bias(with_bias));
  FusedLinear fused(FusedLinearOptions(7, 5).bias(with_bias).activation(act));
  {
    torch::NoGradGuard no_grad;
    fused->weight.copy_(linear->weight);
    if (with_bias) {
      fused->bias.copy_(linear->bias);
    }
  }
  std::vector<int64_t> shape = batch_shape;
  shape.push_back(7);
  const torch::Tensor input = torch::randn(shape);
  const torch::Tensor input_ref = input.clone().requires_grad_(true);
  const torch::Tensor input_fused = input.clone().requires_grad_(true);

  const torch::Tensor expected = reference_bias_act(linear(input_ref), torch::zeros({5}), act);
  const torch::Tensor actual = fused(input_fused);
  TENSORPLACE_CHECK_CLOSE(actual, expected, (tensorplace_test::Tolerance{1e-5, 1e-5}));

  const torch::Tensor grad = torch::randn_like(expected);
  expected.backward(grad);
  actual.backward(grad);
  TENSORPLACE_CHECK_CLOSE(input_fused.grad(), input_ref.grad(),
                          (tensorplace_test::Tolerance{1e-4, 1e-5}));
  TENSORPLACE_CHECK_CLOSE(fused->weight.grad(), linear->weight.grad(),
                          (tensorplace_test::Tolerance{1e-4, 1e-5}));
  if (with_bias) {
    TENSORPLACE_CHECK_CLOSE(fused->bias.grad(), linear->bias.grad(),
                            (tensorplace_test::Tolerance{1e-4, 1e-5}));
  }
}

namespace {
// A model holding a FusedLinear: cloning it clones the layer through Cloneable::clone_, which
// assigns the layer's clone to the model copy's own layer (by copy from LibTorch 2.2, by move
// before), not through FusedLinear::clone() alone.
struct ModelImpl : torch::nn::Cloneable<ModelImpl> {
  ModelImpl() {
    reset();
  }
  void reset() override {
    layer = register_module("layer", FusedLinear(FusedLinearOptions(3, 2).activation("gelu")));
  }
  FusedLinear layer{nullptr};
};
TORCH_MODULE(Model);
}  // namespace

TEST_CASE("FusedLinear clone() is a deep copy with the same registered state",
          "[ops][fused_linear]") {
  Model model;
  const bool through_model = GENERATE(false, true);
  INFO((through_model ? "cloned as a model's layer" : "clone()"));
  FusedLinear original = model->layer;
  original->options.activation("silu");
  std::shared_ptr<tensorplace::nn::FusedLinearImpl> copy;
  if (through_model) {
    const auto model_copy = std::dynamic_pointer_cast<ModelImpl>(model->clone());
    REQUIRE(model_copy);
    copy = model_copy->layer.ptr();
    REQUIRE(model_copy->named_parameters()["layer.weight"].is_same(copy->weight));
  } else {
    copy = std::dynamic_pointer_cast<tensorplace::nn::FusedLinearImpl>(original->clone());
  }
  REQUIRE(copy);
  REQUIRE(copy.get() != original.get());
  CHECK(copy->named_parameters().keys() == original->named_parameters().keys());
  // The members read the clone's registered tensors.
  CHECK(copy->named_parameters()["weight"].is_same(copy->weight));
  CHECK(copy->named_parameters()["bias"].is_same(copy->bias));
  CHECK(torch::equal(copy->weight, original->weight));
  CHECK(copy->weight.data_ptr() != original->weight.data_ptr());
  CHECK(copy->bias.data_ptr() != original->bias.data_ptr());
  CHECK(copy->options.activation() == "silu");
  const torch::Tensor original_weight = original->weight.clone();
  {
    torch::NoGradGuard no_grad;
    copy->weight.fill_(1);
  }
  CHECK(torch::equal(original->weight, original_weight));
  {
    torch::NoGradGuard no_grad;
    original->bias.fill_(3);
  }
  CHECK_FALSE(torch::equal(copy->bias, original->bias));
}

TEST_CASE("FusedLinear parameters follow Module::to", "[ops][fused_linear]") {
  FusedLinear fused(FusedLinearOptions(4, 3).activation("silu"));
  fused->to(torch::kFloat64);
  CHECK(fused->weight.scalar_type() == torch::kFloat64);
  CHECK(fused->bias.scalar_type() == torch::kFloat64);
  const torch::Tensor out = fused(torch::randn({2, 4}, torch::kFloat64));
  CHECK(out.scalar_type() == torch::kFloat64);
  CHECK(fused(torch::randn({0, 4}, torch::kFloat64)).sizes() == torch::IntArrayRef({0, 3}));
}

TEST_CASE("FusedLinear prints its options and rejects an unknown activation",
          "[ops][fused_linear]") {
  FusedLinear fused(FusedLinearOptions(3, 2).bias(false).activation("gelu_tanh"));
  std::ostringstream printed;
  printed << *fused;
  CHECK(printed.str() ==
        "tensorplace::nn::FusedLinear(in_features=3, out_features=2, bias=false, "
        "activation=gelu_tanh)");
  CHECK_THROWS_WITH(
      FusedLinear(FusedLinearOptions(3, 2).activation("swish")),
      Catch::Matchers::ContainsSubstring("act should be one of none, relu, gelu, gelu_tanh, silu, "
                                         "got 'swish'"));
}
