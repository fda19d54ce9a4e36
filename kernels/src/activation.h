// The activations of tensorplace::bias_act, shared by every backend. Header-only and free of
// ATen so that the per-CPU-capability kernel files and the CUDA file can include it cheaply.
#pragma once

#include <c10/util/Exception.h>
#include <c10/util/string_view.h>

#include <cstdint>

namespace tensorplace {
namespace detail {

enum class Activation : int8_t { kNone, kRelu, kGelu, kGeluTanh, kSilu };

// The exact spellings accepted by the `act` argument, listed in error messages.
constexpr const char* kActivationNames = "none, relu, gelu, gelu_tanh, silu";

inline Activation parse_activation(c10::string_view act) {
  if (act == "none") {
    return Activation::kNone;
  }
  if (act == "relu") {
    return Activation::kRelu;
  }
  if (act == "gelu") {
    return Activation::kGelu;
  }
  if (act == "gelu_tanh") {
    return Activation::kGeluTanh;
  }
  if (act == "silu") {
    return Activation::kSilu;
  }
  TORCH_CHECK(false, "act should be one of ", kActivationNames, ", got '", std::string(act), "'");
}

// Constants of the tanh approximation of GELU, as in LibTorch's own kernel.
constexpr double kGeluTanhBeta = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kGeluTanhKappa = 0.044715;
constexpr double kSqrtHalf = 0.7071067811865476;    // 1 / sqrt(2)
constexpr double kInvSqrt2Pi = 0.3989422804014327;  // 1 / sqrt(2 pi)

}  // namespace detail
}  // namespace tensorplace
