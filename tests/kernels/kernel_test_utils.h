// Shared by the kernel tests: the unfused LibTorch compositions the fused operators must
// match, tolerances per dtype, and a finite-difference gradient check.
#pragma once

#include <torch/torch.h>

#include "catch.h"

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace tensorplace_test {

inline const std::vector<std::string>& activations() {
  static const std::vector<std::string> names{"none", "relu", "gelu", "gelu_tanh", "silu"};
  return names;
}

inline torch::Tensor reference_bias_act(const torch::Tensor& x,
                                        const torch::Tensor& bias,
                                        const std::string& act) {
  const torch::Tensor z = x + bias;
  if (act == "relu") {
    return torch::relu(z);
  }
  if (act == "gelu") {
    return torch::gelu(z, "none");
  }
  if (act == "gelu_tanh") {
    return torch::gelu(z, "tanh");
  }
  if (act == "silu") {
    return torch::silu(z);
  }
  return z;
}

inline torch::Tensor reference_normalize_images(const torch::Tensor& images,
                                                const std::vector<double>& mean,
                                                const std::vector<double>& std,
                                                const std::string& layout,
                                                torch::ScalarType out_dtype) {
  const torch::Tensor nchw = layout == "NHWC" ? images.permute({0, 3, 1, 2}) : images;
  const auto per_channel = [&](const std::vector<double>& values) {
    return torch::tensor(values, torch::kFloat64).view({1, -1, 1, 1}).to(images.device());
  };
  return nchw.to(torch::kFloat64)
      .div(255)
      .sub(per_channel(mean))
      .div(per_channel(std))
      .to(out_dtype)
      .contiguous();
}

struct Tolerance {
  double rtol;
  double atol;
};

// float32 and float64 are compared with results LibTorch computed in the same precision, the
// reduced types with a float computation rounded once: one unit in the last place.
inline Tolerance tolerance(torch::ScalarType dtype) {
  switch (dtype) {
    case torch::kFloat64:
      return {1e-12, 1e-12};
    case torch::kFloat16:
      return {2e-3, 2e-3};
    case torch::kBFloat16:
      return {1.6e-2, 1.6e-2};
    default:
      return {1e-5, 1e-5};
  }
}

inline std::string describe_mismatch(const torch::Tensor& actual, const torch::Tensor& expected) {
  std::ostringstream out;
  out << "shape " << actual.sizes() << " vs " << expected.sizes();
  if (actual.sizes() == expected.sizes() && actual.numel() > 0) {
    out << ", max abs diff "
        << (actual.to(torch::kFloat64) - expected.to(torch::kFloat64)).abs().max().item<double>();
  }
  return out.str();
}

inline bool all_close(const torch::Tensor& actual, const torch::Tensor& expected, Tolerance tol) {
  if (actual.sizes() != expected.sizes() || actual.scalar_type() != expected.scalar_type()) {
    return false;
  }
  return torch::allclose(actual.to(torch::kFloat64).cpu(), expected.to(torch::kFloat64).cpu(),
                         tol.rtol, tol.atol, /*equal_nan=*/true);
}

#define TENSORPLACE_CHECK_CLOSE(actual, expected, tol)                     \
  do {                                                                     \
    const torch::Tensor tp_actual_ = (actual);                             \
    const torch::Tensor tp_expected_ = (expected);                         \
    INFO(::tensorplace_test::describe_mismatch(tp_actual_, tp_expected_)); \
    CHECK(::tensorplace_test::all_close(tp_actual_, tp_expected_, (tol))); \
  } while (false)

// Central differences of sum(f(inputs) * weights) for each element of each input, against the
// gradients autograd computes for the same weights: the vector-Jacobian products gradcheck
// compares, one random vector at a time. Inputs must be float64 leaves requiring grad.
inline void check_gradients(
    const std::function<torch::Tensor(const std::vector<torch::Tensor>&)>& f,
    std::vector<torch::Tensor> inputs,
    double eps = 1e-6,
    double atol = 1e-7,
    double rtol = 1e-5) {
  const torch::Tensor output = f(inputs);
  const torch::Tensor weights = torch::randn_like(output);
  const std::vector<torch::Tensor> analytic = torch::autograd::grad(
      {output}, inputs, {weights}, /*retain_graph=*/false, /*create_graph=*/false,
      /*allow_unused=*/true);
  torch::NoGradGuard no_grad;
  const auto objective = [&] { return (f(inputs) * weights).sum().item<double>(); };
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor flat = inputs[i].view(-1);
    torch::Tensor numeric = torch::zeros_like(flat);
    for (int64_t k = 0; k < flat.numel(); ++k) {
      const double original = flat[k].item<double>();
      flat[k] = original + eps;
      const double plus = objective();
      flat[k] = original - eps;
      const double minus = objective();
      flat[k] = original;
      numeric[k] = (plus - minus) / (2 * eps);
    }
    const torch::Tensor expected = numeric.view_as(inputs[i]);
    const torch::Tensor actual = analytic[i].defined() ? analytic[i] : torch::zeros_like(inputs[i]);
    INFO("input " << i << ": " << describe_mismatch(actual, expected));
    CHECK(torch::allclose(actual, expected, rtol, atol));
  }
}

}  // namespace tensorplace_test
