// tensorplace's custom operators, registered with the dispatcher as `tensorplace::<name>` and
// callable from C++ (these functions), TorchScript and Python (torch.ops.tensorplace.<name>, or
// the wrappers in tensorplace.ops, after `import tensorplace`). The defaults here are the
// schemas' (kernels/src/ops.cpp). Every operator has a CPU and a Meta kernel; the CUDA kernels
// are registered when LibTorch itself was built with CUDA.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/string_view.h>
#include <torch/arg.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>

namespace tensorplace {

/// act(x + bias), bias broadcast over the last dimension of x (bias.size(0) == x.size(-1)).
/// act is one of "none", "relu" (the default), "gelu" (erf), "gelu_tanh", "silu". Differentiable in
/// x and bias. dtypes: float32, float64 on the CPU; float32, float64, float16, bfloat16 on CUDA
/// (computed in float, in double for float64). The result is contiguous.
at::Tensor bias_act(const at::Tensor& x, const at::Tensor& bias, c10::string_view act = "relu");

/// The gradients of bias_act with respect to x and bias, in one pass: grad_x =
/// grad_out * act'(x + bias), grad_bias = grad_x summed over every dimension but the last.
std::tuple<at::Tensor, at::Tensor> bias_act_backward(const at::Tensor& grad_out,
                                                     const at::Tensor& x,
                                                     const at::Tensor& bias,
                                                     c10::string_view act);

/// uint8 images, N x H x W x C (layout "NHWC") or N x C x H x W ("NCHW"), to a contiguous
/// N x C x H x W tensor of out_dtype (float32, float16 or bfloat16) on the same device, equal to
/// (x / 255 - mean[c]) / std[c], in one pass over the images.
at::Tensor normalize_images(const at::Tensor& images,
                            c10::ArrayRef<double> mean,
                            c10::ArrayRef<double> std,
                            c10::string_view layout = "NHWC",
                            at::ScalarType out_dtype = at::kFloat);

/// normalize_images on `device`: CPU images are staged in pinned memory and sent as uint8 with
/// one asynchronous copy on the device's current stream (4x fewer bytes than float32), then
/// normalised there. Images already on `device` are normalised in place of the copy.
at::Tensor to_device_normalized(const at::Tensor& images,
                                c10::Device device,
                                c10::ArrayRef<double> mean,
                                c10::ArrayRef<double> std,
                                c10::string_view layout = "NHWC",
                                at::ScalarType out_dtype = at::kFloat);

/// Which build of the CPU kernels runs on this machine: "AVX2" or "DEFAULT" (set
/// ATEN_CPU_CAPABILITY=default to force the latter).
const char* cpu_kernel_capability();

namespace nn {

struct FusedLinearOptions {
  FusedLinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}

  /// Size of each input sample's last dimension.
  TORCH_ARG(int64_t, in_features);
  /// Size of each output sample's last dimension.
  TORCH_ARG(int64_t, out_features);
  /// Whether to learn an additive bias. Default: true.
  TORCH_ARG(bool, bias) = true;
  /// The activation applied after the bias: "none", "relu", "gelu", "gelu_tanh" or "silu".
  /// Default: "relu".
  TORCH_ARG(std::string, activation) = "relu";
};

/// act(x W^T + b): the matmul through LibTorch (MKL/BLAS or cuBLAS), the bias and activation in
/// the fused bias_act kernel. A drop-in for torch::nn::Linear followed by the activation, with
/// the same parameter names, shapes and initialisation.
class FusedLinearImpl : public torch::nn::Cloneable<FusedLinearImpl> {
 public:
  FusedLinearImpl(int64_t in_features, int64_t out_features)
      : FusedLinearImpl(FusedLinearOptions(in_features, out_features)) {}
  explicit FusedLinearImpl(const FusedLinearOptions& options);

  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  torch::Tensor forward(const torch::Tensor& input);

  FusedLinearOptions options;
  /// out_features x in_features.
  torch::Tensor weight;
  /// out_features; registered as an undefined tensor when options.bias() is false.
  torch::Tensor bias;
};

TORCH_MODULE(FusedLinear);

}  // namespace nn
}  // namespace tensorplace
