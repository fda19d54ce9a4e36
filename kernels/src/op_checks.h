// Argument checks shared by the CPU, CUDA and Meta kernels of every tensorplace operator. Device
// checks are the backends' own (each knows which device it expects); everything else a caller
// can get wrong is checked here, so that every backend gives the same documented errors.
// Sizes are read as SymInts: under torch.compile with dynamic shapes the Meta kernels get
// tensors with symbolic sizes, on which sizes() throws; on real tensors they are plain ints.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/SymInt.h>
#include <c10/util/ArrayRef.h>

#include "activation.h"

namespace tensorplace {
namespace detail {

/// `tensor` (argument `name`) is on the device of `first` (argument `first_name`).
inline void check_same_device(const at::Tensor& tensor,
                              const char* name,
                              const at::Tensor& first,
                              const char* first_name) {
  TORCH_CHECK(tensor.device() == first.device(), name, " should be on the device of ", first_name,
              " (", first.device(), "), got ", tensor.device());
}

inline Activation check_bias_act_args(const at::Tensor& x,
                                      const at::Tensor& bias,
                                      c10::string_view act) {
  TORCH_CHECK(x.dim() >= 1, "x should have at least one dimension, got a 0-dimensional tensor");
  TORCH_CHECK(bias.dim() == 1 && bias.sym_size(0) == x.sym_size(-1),
              "bias should be a 1-D tensor of size x.size(-1) = ", x.sym_size(-1), ", got shape ",
              bias.sym_sizes());
  TORCH_CHECK(bias.scalar_type() == x.scalar_type(), "bias should have the dtype of x (",
              x.scalar_type(), "), got ", bias.scalar_type());
  return parse_activation(act);
}

inline Activation check_bias_act_backward_args(const at::Tensor& grad_out,
                                               const at::Tensor& x,
                                               const at::Tensor& bias,
                                               c10::string_view act) {
  const Activation activation = check_bias_act_args(x, bias, act);
  TORCH_CHECK(grad_out.sym_sizes() == x.sym_sizes(), "grad_out should have the shape of x (",
              x.sym_sizes(), "), got ", grad_out.sym_sizes());
  TORCH_CHECK(grad_out.scalar_type() == x.scalar_type(), "grad_out should have the dtype of x (",
              x.scalar_type(), "), got ", grad_out.scalar_type());
  return activation;
}

// Whether `layout` names NHWC (true) or NCHW (false) input.
inline bool check_normalize_images_args(const at::Tensor& images,
                                        c10::ArrayRef<double> mean,
                                        c10::ArrayRef<double> std,
                                        c10::string_view layout,
                                        at::ScalarType out_dtype) {
  TORCH_CHECK(images.scalar_type() == at::kByte, "images should be uint8, got ",
              images.scalar_type());
  TORCH_CHECK(images.dim() == 4,
              "images should be a 4-D batch (N, H, W, C or N, C, H, W), got shape ",
              images.sym_sizes());
  TORCH_CHECK(layout == "NHWC" || layout == "NCHW", "layout should be NHWC or NCHW, got '",
              std::string(layout), "'");
  const bool nhwc = layout == "NHWC";
  const c10::SymInt channels = images.sym_size(nhwc ? 3 : 1);
  TORCH_CHECK(channels == static_cast<int64_t>(mean.size()),
              "mean should have one value per channel (", channels, "), got ", mean.size());
  TORCH_CHECK(channels == static_cast<int64_t>(std.size()),
              "std should have one value per channel (", channels, "), got ", std.size());
  for (const double s : std) {
    TORCH_CHECK(s != 0.0, "std should have no zero, got ", std);
  }
  TORCH_CHECK(out_dtype == at::kFloat || out_dtype == at::kHalf || out_dtype == at::kBFloat16,
              "out_dtype should be float32, float16 or bfloat16, got ", out_dtype);
  return nhwc;
}

// The per-channel affine map equal to (x / 255 - mean) / std, so that kernels do one fused
// multiply-add per element.
struct ChannelAffine {
  float scale;
  float shift;
};

inline ChannelAffine channel_affine(double mean, double std) {
  return {static_cast<float>(1.0 / (255.0 * std)), static_cast<float>(-mean / std)};
}

}  // namespace detail
}  // namespace tensorplace
