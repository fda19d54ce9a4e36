// Meta kernels of the tensorplace operators: the shape, dtype and device of each result, with
// the same argument checks as the CPU and CUDA kernels and no data. They serve meta tensors on
// every LibTorch version, and fake-tensor tracing (torch.compile, torch.export, opcheck) on 2.x,
// which takes a Meta kernel as the operator's fake implementation.
//
// A Meta kernel cannot tell which device the real call will run on (under a fake-tensor trace
// its inputs are meta tensors), so it accepts the dtypes of any backend: a float16 `x` passes
// here and is refused by the CPU kernel when the traced program runs.

#include <ATen/ATen.h>
#include <torch/library.h>

#include <tuple>

#include "op_checks.h"

namespace tensorplace {
namespace detail {
namespace {

void check_any_backend_float(const at::Tensor& x) {
  const at::ScalarType dtype = x.scalar_type();
  TORCH_CHECK(
      dtype == at::kFloat || dtype == at::kDouble || dtype == at::kHalf || dtype == at::kBFloat16,
      "x should be float32, float64, float16 or bfloat16, got ", dtype);
}

at::Tensor bias_act_meta(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  check_same_device(bias, "bias", x, "x");
  check_bias_act_args(x, bias, act);
  check_any_backend_float(x);
  return at::empty_symint(x.sym_sizes(), x.options());
}

std::tuple<at::Tensor, at::Tensor> bias_act_backward_meta(const at::Tensor& grad_out,
                                                          const at::Tensor& x,
                                                          const at::Tensor& bias,
                                                          c10::string_view act) {
  check_same_device(x, "x", grad_out, "grad_out");
  check_same_device(bias, "bias", grad_out, "grad_out");
  check_bias_act_backward_args(grad_out, x, bias, act);
  check_any_backend_float(x);
  return {at::empty_symint(x.sym_sizes(), x.options()),
          at::empty_symint(bias.sym_sizes(), bias.options())};
}

at::Tensor normalize_images_meta(const at::Tensor& images,
                                 c10::ArrayRef<double> mean,
                                 c10::ArrayRef<double> std,
                                 c10::string_view layout,
                                 at::ScalarType out_dtype) {
  const bool nhwc = check_normalize_images_args(images, mean, std, layout, out_dtype);
  const c10::SymInt batch = images.sym_size(0);
  const c10::SymInt channels = images.sym_size(nhwc ? 3 : 1);
  const c10::SymInt height = images.sym_size(nhwc ? 1 : 2);
  const c10::SymInt width = images.sym_size(nhwc ? 2 : 3);
  return at::empty_symint({batch, channels, height, width}, images.options().dtype(out_dtype));
}

}  // namespace
}  // namespace detail
}  // namespace tensorplace

// to_device_normalized is composite: its normalize_images call reaches the kernel above.
TORCH_LIBRARY_IMPL(tensorplace, Meta, m) {
  m.impl("bias_act", TORCH_FN(tensorplace::detail::bias_act_meta));
  m.impl("bias_act_backward", TORCH_FN(tensorplace::detail::bias_act_backward_meta));
  m.impl("normalize_images", TORCH_FN(tensorplace::detail::normalize_images_meta));
}
