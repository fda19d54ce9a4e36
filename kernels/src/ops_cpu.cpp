// CPU kernels of the tensorplace operators: argument checks, contiguity, then the vectorised
// kernels of cpu_kernels.cpp for the best CPU capability available.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <torch/library.h>

#include <cstdlib>
#include <cstring>
#include <tuple>
#include <vector>

#include "cpu_kernels.h"
#include "op_checks.h"

namespace tensorplace {
namespace detail {

const CpuKernels& cpu_kernels() {
  static const CpuKernels& chosen = []() -> const CpuKernels& {
#ifdef TENSORPLACE_HAVE_CPU_AVX2
    // ATen's own override: ATEN_CPU_CAPABILITY=default forces the baseline kernels.
    const char* requested = std::getenv("ATEN_CPU_CAPABILITY");
    const bool forced_default = requested != nullptr && std::strcmp(requested, "default") == 0;
    if (!forced_default && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("f16c")) {
      return cpu_kernels_avx2();
    }
#endif
    return cpu_kernels_default();
  }();
  return chosen;
}

namespace {

void check_cpu(const at::Tensor& tensor, const char* name) {
  TORCH_CHECK(tensor.device().is_cpu(), name, " should be a CPU tensor, got one on ",
              tensor.device());
}

void check_cpu_float(const at::Tensor& x) {
  TORCH_CHECK(x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble,
              "x should be float32 or float64 on the CPU, got ", x.scalar_type());
}

BiasActForwardFn<float> forward_kernel(const CpuKernels& k, float*) {
  return k.bias_act_forward_float;
}
BiasActForwardFn<double> forward_kernel(const CpuKernels& k, double*) {
  return k.bias_act_forward_double;
}
BiasActBackwardFn<float> backward_kernel(const CpuKernels& k, float*) {
  return k.bias_act_backward_float;
}
BiasActBackwardFn<double> backward_kernel(const CpuKernels& k, double*) {
  return k.bias_act_backward_double;
}
NormalizeImagesFn<float> normalize_kernel(const CpuKernels& k, float*) {
  return k.normalize_images_float;
}
NormalizeImagesFn<c10::Half> normalize_kernel(const CpuKernels& k, c10::Half*) {
  return k.normalize_images_half;
}
NormalizeImagesFn<c10::BFloat16> normalize_kernel(const CpuKernels& k, c10::BFloat16*) {
  return k.normalize_images_bfloat16;
}

template <typename scalar_t>
void bias_act_forward_impl(const at::Tensor& x,
                           const at::Tensor& bias,
                           at::Tensor& y,
                           Activation act) {
  const int64_t cols = x.size(-1);
  forward_kernel(cpu_kernels(), static_cast<scalar_t*>(nullptr))(
      x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), x.numel() / cols,
      cols, act);
}

template <typename scalar_t>
void bias_act_backward_impl(const at::Tensor& grad_out,
                            const at::Tensor& x,
                            const at::Tensor& bias,
                            at::Tensor& grad_x,
                            at::Tensor& grad_bias,
                            Activation act) {
  const int64_t cols = x.size(-1);
  backward_kernel(cpu_kernels(), static_cast<scalar_t*>(nullptr))(
      grad_out.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(),
      grad_x.data_ptr<scalar_t>(), grad_bias.data_ptr<scalar_t>(), x.numel() / cols, cols, act);
}

template <typename out_t>
void normalize_images_impl(const at::Tensor& images,
                           at::Tensor& out,
                           bool nhwc,
                           const std::vector<ChannelAffine>& affine) {
  normalize_kernel(cpu_kernels(), static_cast<out_t*>(nullptr))(
      images.data_ptr<uint8_t>(), out.data_ptr<out_t>(), out.size(0), out.size(1), out.size(2),
      out.size(3), nhwc, affine.data());
}

at::Tensor bias_act_cpu(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  check_cpu(x, "x");
  check_cpu(bias, "bias");
  const Activation activation = check_bias_act_args(x, bias, act);
  check_cpu_float(x);
  const at::Tensor x_contig = x.contiguous();
  const at::Tensor bias_contig = bias.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() == 0) {
    return y;
  }
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "bias_act_cpu", [&] {
    bias_act_forward_impl<scalar_t>(x_contig, bias_contig, y, activation);
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> bias_act_backward_cpu(const at::Tensor& grad_out,
                                                         const at::Tensor& x,
                                                         const at::Tensor& bias,
                                                         c10::string_view act) {
  check_cpu(grad_out, "grad_out");
  check_cpu(x, "x");
  check_cpu(bias, "bias");
  const Activation activation = check_bias_act_backward_args(grad_out, x, bias, act);
  check_cpu_float(x);
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) {
    return {grad_x, at::zeros(bias.sizes(), bias.options())};
  }
  at::Tensor grad_bias = at::empty(bias.sizes(), bias.options());
  const at::Tensor grad_contig = grad_out.contiguous();
  const at::Tensor x_contig = x.contiguous();
  const at::Tensor bias_contig = bias.contiguous();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "bias_act_backward_cpu", [&] {
    bias_act_backward_impl<scalar_t>(grad_contig, x_contig, bias_contig, grad_x, grad_bias,
                                     activation);
  });
  return {grad_x, grad_bias};
}

at::Tensor normalize_images_cpu(const at::Tensor& images,
                                c10::ArrayRef<double> mean,
                                c10::ArrayRef<double> std,
                                c10::string_view layout,
                                at::ScalarType out_dtype) {
  check_cpu(images, "images");
  const bool nhwc = check_normalize_images_args(images, mean, std, layout, out_dtype);
  const int64_t batch = images.size(0);
  const int64_t channels = images.size(nhwc ? 3 : 1);
  const int64_t height = images.size(nhwc ? 1 : 2);
  const int64_t width = images.size(nhwc ? 2 : 3);
  at::Tensor out = at::empty({batch, channels, height, width}, images.options().dtype(out_dtype));
  if (out.numel() == 0) {
    return out;
  }
  std::vector<ChannelAffine> affine;
  affine.reserve(channels);
  for (int64_t c = 0; c < channels; ++c) {
    affine.push_back(channel_affine(mean[c], std[c]));
  }
  const at::Tensor images_contig = images.contiguous();
  AT_DISPATCH_SWITCH(out_dtype, "normalize_images_cpu", AT_DISPATCH_CASE(at::kFloat, [&] {
                       normalize_images_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }) AT_DISPATCH_CASE(at::kHalf, [&] {
                       normalize_images_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }) AT_DISPATCH_CASE(at::kBFloat16, [&] {
                       normalize_images_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }));
  return out;
}

}  // namespace
}  // namespace detail
}  // namespace tensorplace

TORCH_LIBRARY_IMPL(tensorplace, CPU, m) {
  m.impl("bias_act", TORCH_FN(tensorplace::detail::bias_act_cpu));
  m.impl("bias_act_backward", TORCH_FN(tensorplace::detail::bias_act_backward_cpu));
  m.impl("normalize_images", TORCH_FN(tensorplace::detail::normalize_images_cpu));
}
