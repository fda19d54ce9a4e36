// The tensorplace operator schemas (defined once, here), the C++ entry points that call them
// through the dispatcher, and the composite to_device_normalized.

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include "cpu_kernels.h"
#include "tensorplace/ops.h"

namespace tensorplace {
namespace {

at::Tensor to_device_normalized_composite(const at::Tensor& images,
                                          c10::Device device,
                                          c10::ArrayRef<double> mean,
                                          c10::ArrayRef<double> std,
                                          c10::string_view layout,
                                          at::ScalarType out_dtype) {
  TORCH_CHECK(images.scalar_type() == at::kByte, "images should be uint8, got ",
              images.scalar_type());
  if (images.device() == device || !images.device().is_cpu() || !device.is_cuda()) {
    // Nothing to stage: the images are already there, or neither end is host memory that a
    // pinned buffer could speed up. `to` is a no-op in the first case.
    return normalize_images(images.to(device), mean, std, layout, out_dtype);
  }
  TORCH_CHECK(at::hasCUDA(), "device should be an available CUDA device, got ", device,
              " (this LibTorch has no CUDA, or no GPU is present)");
  // Pinned memory makes the copy asynchronous. Freeing `staging` when this function returns is
  // safe: the caching host allocator records the copy's stream and does not reuse the block
  // until the copy has completed.
  at::Tensor staging = images;
  if (!images.is_pinned() || !images.is_contiguous()) {
    staging = at::empty(images.sizes(), images.options().pinned_memory(true));
    staging.copy_(images);
  }
  // The copy and the kernel both run on `device`'s current stream, so they are ordered.
  const at::Tensor on_device = staging.to(device, /*non_blocking=*/true);
  return normalize_images(on_device, mean, std, layout, out_dtype);
}

}  // namespace

at::Tensor bias_act(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  static const auto op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("tensorplace::bias_act", "")
          .typed<at::Tensor(const at::Tensor&, const at::Tensor&, c10::string_view)>();
  return op.call(x, bias, act);
}

std::tuple<at::Tensor, at::Tensor> bias_act_backward(const at::Tensor& grad_out,
                                                     const at::Tensor& x,
                                                     const at::Tensor& bias,
                                                     c10::string_view act) {
  static const auto op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("tensorplace::bias_act_backward", "")
          .typed<std::tuple<at::Tensor, at::Tensor>(const at::Tensor&, const at::Tensor&,
                                                    const at::Tensor&, c10::string_view)>();
  return op.call(grad_out, x, bias, act);
}

at::Tensor normalize_images(const at::Tensor& images,
                            c10::ArrayRef<double> mean,
                            c10::ArrayRef<double> std,
                            c10::string_view layout,
                            at::ScalarType out_dtype) {
  static const auto op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("tensorplace::normalize_images", "")
          .typed<at::Tensor(const at::Tensor&, c10::ArrayRef<double>, c10::ArrayRef<double>,
                            c10::string_view, at::ScalarType)>();
  return op.call(images, mean, std, layout, out_dtype);
}

at::Tensor to_device_normalized(const at::Tensor& images,
                                c10::Device device,
                                c10::ArrayRef<double> mean,
                                c10::ArrayRef<double> std,
                                c10::string_view layout,
                                at::ScalarType out_dtype) {
  static const auto op =
      c10::Dispatcher::singleton()
          .findSchemaOrThrow("tensorplace::to_device_normalized", "")
          .typed<at::Tensor(const at::Tensor&, c10::Device, c10::ArrayRef<double>,
                            c10::ArrayRef<double>, c10::string_view, at::ScalarType)>();
  return op.call(images, device, mean, std, layout, out_dtype);
}

const char* cpu_kernel_capability() {
  return detail::cpu_kernels().capability;
}

}  // namespace tensorplace

TORCH_LIBRARY(tensorplace, m) {
  // Defaults are those of include/tensorplace/ops.h, so that a call means the same from C++
  // and from Python (torch.ops.tensorplace.*, tensorplace.ops.*).
  m.def("bias_act(Tensor x, Tensor bias, str act=\"relu\") -> Tensor");
  m.def(
      "bias_act_backward(Tensor grad_out, Tensor x, Tensor bias, str act) -> "
      "(Tensor grad_x, Tensor grad_bias)");
  m.def(
      "normalize_images(Tensor images, float[] mean, float[] std, str layout=\"NHWC\", "
      "ScalarType out_dtype=float) -> Tensor");
  // Composite: made of other operators, so it needs no kernel per backend.
  m.def(
      "to_device_normalized(Tensor images, Device device, float[] mean, float[] std, "
      "str layout=\"NHWC\", ScalarType out_dtype=float) -> Tensor",
      TORCH_FN(tensorplace::to_device_normalized_composite));
}
