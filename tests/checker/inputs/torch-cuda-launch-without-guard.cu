// Not reformatted: each expected finding sits on the line it is about.
// clang-format off
//
// Parsed as CUDA (host side) with tensorplace's CUDA headers
// (checker/cuda-headers), against the stand-in and the real LibTorch.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <optional>

template <typename scalar_t>
__global__ void scale_kernel(scalar_t* out, const scalar_t* in, scalar_t factor, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

__global__ void fill_kernel(float* out, float value, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

constexpr int kThreads = 256;
inline int blocks_for(int64_t n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

// ---- Must warn -------------------------------------------------------------

// No guard and the default stream: two findings on the launch.
torch::Tensor fill_naive(torch::Tensor out, float value) {
  fill_kernel<<<blocks_for(out.numel()), kThreads>>>(out.data_ptr<float>(), value, out.numel());  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_naive' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // message: kernel launch on tensor data in 'fill_naive' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
  return out;
}

// A guard, but stream 0.
torch::Tensor fill_stream_zero(torch::Tensor out, float value) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
  fill_kernel<<<blocks_for(out.numel()), kThreads, 0, 0>>>(out.data_ptr<float>(), value, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_stream_zero' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
  return out;
}

// The current stream, but no guard: the stream of the wrong device.
torch::Tensor scale_no_guard(const torch::Tensor& in, double factor) {
  auto out = torch::empty_like(in);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "scale", [&] {
    scale_kernel<scalar_t><<<blocks_for(in.numel()), kThreads, 0, stream>>>(  // expect: torch-cuda-launch-without-guard
    // message: kernel launch on tensor data in 'scale_no_guard' without a device guard; the kernel runs on the current device, which need not be the tensors' device
    // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
        out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), static_cast<scalar_t>(factor), in.numel());
  });
  return out;
}

// The runtime API, with a null stream and no guard.
void fill_runtime_api(torch::Tensor out, float value) {
  float* data = out.data_ptr<float>();
  int64_t n = out.numel();
  void* args[] = {&data, &value, &n};
  cudaLaunchKernel((const void*)fill_kernel, dim3(blocks_for(n)), dim3(kThreads), args, 0, nullptr);  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_runtime_api' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // message: kernel launch on tensor data in 'fill_runtime_api' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
}

// A launcher whose only caller holds no guard either.
void launch_fill_unguarded(torch::Tensor& out, float value, cudaStream_t stream) {
  fill_kernel<<<blocks_for(out.numel()), kThreads, 0, stream>>>(out.data_ptr<float>(), value, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'launch_fill_unguarded' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
}
void fill_through_launcher(torch::Tensor out, float value) {
  launch_fill_unguarded(out, value, at::cuda::getCurrentCUDAStream());
}

// A guard declared after the launch does not cover it.
void guard_too_late(torch::Tensor out) {
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'guard_too_late' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  const at::cuda::CUDAGuard guard(out.device());
}

// A launch written through a macro.
#define TP_LAUNCH_1D(kernel, n, ...) kernel<<<blocks_for(n), kThreads>>>(__VA_ARGS__)
void fill_macro(torch::Tensor out) {
  TP_LAUNCH_1D(fill_kernel, out.numel(), out.data_ptr<float>(), 1.f, out.numel());  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_macro' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // message: kernel launch on tensor data in 'fill_macro' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
}

// In a function template.
template <typename scalar_t>
void scale_template(torch::Tensor out, const torch::Tensor& in, scalar_t factor) {
  scale_kernel<scalar_t><<<blocks_for(in.numel()), kThreads>>>(  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'scale_template' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // message: kernel launch on tensor data in 'scale_template' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
      out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), factor, in.numel());
}
template void scale_template<float>(torch::Tensor, const torch::Tensor&, float);

// PyTorch's default stream, by name or through a constant.
void fill_default_stream(torch::Tensor out) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
  fill_kernel<<<1, kThreads, 0, at::cuda::getDefaultCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_default_stream' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
  const cudaStream_t legacy = 0;
  fill_kernel<<<1, kThreads, 0, legacy>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_default_stream' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
}

// A multi-stream guard sets the current stream of each stream's device and
// leaves the current device as it was: it is not a device guard.
void fill_multi_stream(torch::Tensor out) {
  auto side = c10::cuda::getStreamFromPool(false, out.device().index());
  c10::cuda::CUDAMultiStreamGuard streams({side});
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_multi_stream' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
}

// A tensor allocated here on the current device, launched on together with
// an input, or allocated on a device named by index: the current device need
// not be theirs.
torch::Tensor fill_from_input(const torch::Tensor& in) {
  auto out = torch::empty({in.numel()}, torch::kCUDA);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale_kernel<float><<<blocks_for(in.numel()), kThreads, 0, stream>>>(out.data_ptr<float>(), in.data_ptr<float>(), 2.f, in.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_from_input' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  auto second = torch::zeros({16}, torch::Device(torch::kCUDA, 1));
  fill_kernel<<<1, kThreads, 0, stream>>>(second.data_ptr<float>(), 1.f, 16);  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_from_input' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  return out;
}

// A tensor converted to the kernel's parameter type by the project's own
// view type, whose constructor takes the memory out of it.
struct DeviceView {
  float* data;
  int64_t size;
  DeviceView(const torch::Tensor& t) : data(t.data_ptr<float>()), size(t.numel()) {}
};
__global__ void view_kernel(DeviceView out, float value) {}
void fill_view(torch::Tensor out) {
  view_kernel<<<blocks_for(out.numel()), kThreads>>>(out, 1.f);  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_view' without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // message: kernel launch on tensor data in 'fill_view' uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
}

// Raw pointers that the caller takes out of tensors (the shape of many
// extensions: the op pulls data_ptr()s and calls a helper that launches).
// The finding is on the launch, with a note at the call.
void launch_scale_ptrs(const float* in, float* out, int64_t n, cudaStream_t stream) {
  scale_kernel<float><<<blocks_for(n), kThreads, 0, stream>>>(out, in + 0, 2.f, n);  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data passed to 'launch_scale_ptrs' as pointers without a device guard; the kernel runs on the current device, which need not be the tensors' device
  // note@+0: declare 'const c10::cuda::OptionalCUDAGuard guard(device_of(<tensor>));' before the launch (or silence with //
  // note@+9: 'scale_ptrs_op' hands it a tensor's memory here
}
torch::Tensor scale_ptrs_op(const torch::Tensor& in) {
  TORCH_CHECK(in.is_cuda(), "in must be a CUDA tensor");
  auto out = torch::empty_like(in);
  const float* src = in.data_ptr<float>();
  launch_scale_ptrs(src, out.data_ptr<float>(), in.numel(), at::cuda::getCurrentCUDAStream());
  return out;
}
// An array of data pointers (retinanet-examples' shape): the launch reads
// the memory its elements point to.
void launch_scale_arrays(const void* const* inputs, void* const* outputs, int64_t n, cudaStream_t stream) {
  auto in = static_cast<const float*>(inputs[0]);
  scale_kernel<float><<<blocks_for(n), kThreads, 0, stream>>>(static_cast<float*>(outputs[0]), in, 2.f, n);  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data passed to 'launch_scale_arrays' as pointers without a device guard; the kernel runs on the current device, which need not be the tensors' device
}
torch::Tensor scale_arrays_op(const torch::Tensor& in) {
  auto out = torch::empty_like(in);
  std::vector<const void*> inputs = {in.data_ptr()};
  std::vector<void*> outputs = {out.data_ptr()};
  launch_scale_arrays(inputs.data(), outputs.data(), in.numel(), at::cuda::getCurrentCUDAStream());
  return out;
}
// Through a local and &p[i], on the default stream, called under a guard:
// only the stream is wrong.
void launch_fill_ptr_default(float* data, int64_t offset, int64_t n) {
  float* first = &data[offset];
  fill_kernel<<<blocks_for(n), kThreads>>>(first, 0.f, n);  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data passed to 'launch_fill_ptr_default' as pointers uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+6: 'fill_ptr_guarded' hands it a tensor's memory here
}
void fill_ptr_guarded(torch::Tensor out) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
  launch_fill_ptr_default(out.data_ptr<float>(), 0, out.numel());
}
// Memory the caller allocated itself on the current device, handed to a
// pointer helper on the default stream: no guard is missing (the memory is
// where the kernel runs), but the stream is still the wrong one.
void launch_ramp_ptr_default(float* ramp, int64_t n) {
  fill_kernel<<<blocks_for(n), kThreads>>>(ramp, 1.f, n);  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data passed to 'launch_ramp_ptr_default' as pointers uses the default stream; it is not ordered with the work PyTorch queued on the tensors' current stream
  // note@+0: launch on at::cuda::getCurrentCUDAStream() (from <ATen/cuda/CUDAContext.h>)
  // note@+7: 'make_ramp_ptr' hands it a tensor's memory here
}
torch::Tensor make_ramp_ptr(int64_t n) {
  auto ramp = at::empty({n}, at::device(at::kCUDA).dtype(at::kFloat));
  launch_ramp_ptr_default(ramp.data_ptr<float>(), n);
  return ramp;
}

// ---- Must not warn ---------------------------------------------------------

// Scratch memory allocated here on the current device, with no index: the
// kernel runs on the current device too, so the two cannot differ.
torch::Tensor make_ramp(int64_t n) {
  auto ramp = at::zeros({n}, at::device(at::kCUDA).dtype(at::kFloat));
  const auto scratch = torch::empty({n}, torch::kCUDA);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(ramp.data_ptr<float>(), 1.f, n);
  float* raw = scratch.data_ptr<float>();
  scale_kernel<float><<<blocks_for(n), kThreads, 0, stream>>>(raw, ramp.data_ptr<float>(), 0.5f, n);
  return ramp;
}

// The same memory handed to a pointer helper that launches on the current
// stream: nothing to report.
void launch_ramp_ptr(float* ramp, int64_t n, cudaStream_t stream) {
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(ramp, 1.f, n);
}
torch::Tensor make_ramp_ptr_on_stream(int64_t n) {
  auto ramp = at::empty({n}, at::device(at::kCUDA).dtype(at::kFloat));
  launch_ramp_ptr(ramp.data_ptr<float>(), n, at::cuda::getCurrentCUDAStream());
  return ramp;
}

// torchvision's shape: guard on the input's device, launch on its current stream.
torch::Tensor scale_cuda(const torch::Tensor& in, double factor) {
  TORCH_CHECK(in.is_cuda(), "in must be a CUDA tensor");
  at::cuda::CUDAGuard device_guard(in.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto out = torch::empty_like(in);
  if (in.numel() == 0) return out;
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "scale_cuda", [&] {
    scale_kernel<scalar_t><<<blocks_for(in.numel()), kThreads, 0, stream>>>(
        out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), static_cast<scalar_t>(factor), in.numel());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

// A launcher without its own guard, called only under a guard.
void launch_fill_checked(float* data, float value, int64_t n, cudaStream_t stream) {
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(data, value, n);
}
void launch_fill_on(torch::Tensor& out, float value, cudaStream_t stream) {
  fill_kernel<<<blocks_for(out.numel()), kThreads, 0, stream>>>(out.data_ptr<float>(), value, out.numel());
}
void fill_guarded(torch::Tensor out, float value) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
  auto stream = c10::cuda::getCurrentCUDAStream(out.device().index());
  launch_fill_checked(out.data_ptr<float>(), value, out.numel(), stream);
  launch_fill_on(out, value, stream);
}

// The view of a tensor, under a guard and on the current stream.
void fill_view_guarded(torch::Tensor out) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
  view_kernel<<<blocks_for(out.numel()), kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(DeviceView(out), 1.f);
}

// Guards of other kinds, and the device set by hand.
void fill_device_guard(torch::Tensor out) {
  c10::DeviceGuard guard(out.device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_set_device(torch::Tensor out) {
  cudaSetDevice(out.get_device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_on_side_stream(torch::Tensor out) {
  auto side = c10::cuda::getStreamFromPool(false, out.device().index());
  c10::cuda::CUDAStreamGuard stream_guard(side);
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}

// The same guards under their other names, and LibTorch 2.x's
// device-generic ones: a stream guard makes the stream's device current.
void fill_optional_device_guard(torch::Tensor out) {
  const c10::OptionalDeviceGuard guard(at::device_of(out));
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_at_device_guard(torch::Tensor out) {
  const at::DeviceGuard guard(out.device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_stream_guard(torch::Tensor out) {
  auto side = c10::cuda::getStreamFromPool(false, out.device().index());
  c10::StreamGuard stream_guard(side);
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_optional_stream_guard(torch::Tensor out) {
  auto side = c10::cuda::getStreamFromPool(false, out.device().index());
  const c10::Stream stream = side;
  c10::OptionalStreamGuard stream_guard(stream);
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_at_cuda_stream_guard(torch::Tensor out) {
  auto side = at::cuda::getStreamFromPool(false, out.device().index());
  at::cuda::CUDAStreamGuard stream_guard(side);
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_optional_cuda_stream_guard(torch::Tensor out) {
  auto side = c10::cuda::getStreamFromPool(false, out.device().index());
  const c10::Stream stream = side;
  c10::cuda::OptionalCUDAStreamGuard stream_guard(stream);
  fill_kernel<<<1, kThreads, 0, side.stream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
// at::accelerator (absent from LibTorch 1.13 and 2.6, present in 2.14) sets
// the device for the rest of the thread's life, as cudaSetDevice does.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 14)
void fill_accelerator_device(torch::Tensor out) {
  at::accelerator::setDeviceIndex(out.get_device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_accelerator_exchange(torch::Tensor out) {
  const auto previous = at::accelerator::exchangeDevice(out.get_device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
  at::accelerator::exchangeDevice(previous);
}
#endif

// backward() of a custom autograd function: the autograd engine calls it
// under a guard for the stream forward() ran on, which sets its device.
struct ScaleFunction : public torch::autograd::Function<ScaleFunction> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor in) {
    const c10::cuda::OptionalCUDAGuard guard(at::device_of(in));
    auto out = torch::empty_like(in);
    fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
    return out;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    auto grad = torch::empty_like(grads[0]);
    fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(grad.data_ptr<float>(), 1.f, grad.numel());
    return {grad};
  }
};

// The backward pass of an extension, bound to Python and called by its
// torch.autograd.Function's backward(): no C++ caller, and the autograd engine
// holds the same guard around it. Named as a backward pass, it is not
// reported; a caller in C++ that holds no guard still makes it a finding.
torch::Tensor fill_backward_cuda(const torch::Tensor& grad_out) {
  auto grad_in = torch::empty_like(grad_out);
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(grad_in.data_ptr<float>(), 1.f, grad_in.numel());
  return grad_in;
}
torch::Tensor shiftBwd(const torch::Tensor& grad_out) {
  auto grad_in = torch::empty_like(grad_out);
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(grad_in.data_ptr<float>(), 1.f, grad_in.numel());
  return grad_in;
}
torch::Tensor clip_backward_cuda(const torch::Tensor& grad_out) {
  auto grad_in = torch::empty_like(grad_out);
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(grad_in.data_ptr<float>(), 1.f, grad_in.numel());  // expect: torch-cuda-launch-without-guard
  return grad_in;
}
torch::Tensor clip_check(const torch::Tensor& grad_out) { return clip_backward_cuda(grad_out); }
// The gradient op of an extension (`gather_points_grad`), bound for a Python
// backward(), and what it calls.
torch::Tensor gather_fill_grad(const torch::Tensor& grad_out) {
  auto grad_in = torch::empty_like(grad_out);
  launch_fill_on(grad_in, 1.f, at::cuda::getCurrentCUDAStream());
  return grad_in;
}
// Not a backward pass: "backwards" and "gradient" are other words.
void step_backwards(torch::Tensor out) {
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
}
void fill_gradient(torch::Tensor out) {
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
}

// Raw pointers that no caller here hands a tensor's memory: whose memory
// they are is not visible (with no caller in this file, the CLI asks the
// other files of the run).
void launch_fill_raw(float* data, float value, int64_t n) {
  fill_kernel<<<blocks_for(n), kThreads>>>(data, value, n);
}
void launch_fill_scratch(float* data, int64_t n, cudaStream_t stream) {
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(data, 0.f, n);
}
void fill_own_scratch(int64_t n) {
  float* scratch = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&scratch), n * sizeof(float));
  launch_fill_scratch(scratch, n, at::cuda::getCurrentCUDAStream());
}
// A tensor's memory handed under a guard, scratch memory without one: the
// call without a guard hands no tensor's memory.
void fill_mixed_callers(torch::Tensor out, int64_t n) {
  {
    const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
    launch_fill_scratch(out.data_ptr<float>(), out.numel(), at::cuda::getCurrentCUDAStream());
  }
  fill_own_scratch(n);
}
// A tensor's memory read on the host (a count kept in a CPU tensor): the
// launch reads no memory of the parameter, only a value.
void launch_fill_counted(float* scratch, const int64_t* count, cudaStream_t stream) {
  fill_kernel<<<1, kThreads, 0, stream>>>(scratch, 0.f, *count);
}
void fill_counted(const torch::Tensor& counts) {
  float* scratch = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&scratch), 16 * sizeof(float));
  launch_fill_counted(scratch, counts.data_ptr<int64_t>(), at::cuda::getCurrentCUDAStream());
}

// Found on public projects (temporal_rw, xformers) and by probing: the device
// set through c10's helpers, a guard made on one path, a launcher template
// called with dependent arguments under a guard, a helper that sets the
// device, and data() of a container that is not a tensor.
void fill_maybe_set_device(torch::Tensor out) {
  c10::cuda::MaybeSetDevice(out.get_device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
void fill_optional_guard(torch::Tensor out) {
  std::optional<at::cuda::CUDAGuard> device_guard;
  if (out.is_cuda())
    device_guard.emplace(out.device());
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
template <typename scalar_t>
void scale_launch(torch::Tensor out, const torch::Tensor& in, cudaStream_t stream) {
  scale_kernel<scalar_t><<<blocks_for(in.numel()), kThreads, 0, stream>>>(
      out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), scalar_t(2), in.numel());
}
template <typename scalar_t>
void scale_op(torch::Tensor out, const torch::Tensor& in) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(in));
  scale_launch<scalar_t>(out, in, at::cuda::getCurrentCUDAStream());
}
template void scale_op<float>(torch::Tensor, const torch::Tensor&);
static void use_device_of(const torch::Tensor& t) { cudaSetDevice(t.get_device()); }
void fill_after_helper(torch::Tensor out) {
  use_device_of(out);
  fill_kernel<<<1, kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(), 0.f, out.numel());
}
template <typename T>
struct DeviceBuffer {
  T* data() const;
  int64_t size() const;
};
template <typename T>
void fill_buffer(const DeviceBuffer<T>& buffer, cudaStream_t stream) {
  fill_kernel<<<1, kThreads, 0, stream>>>(buffer.data(), T(0), buffer.size());
}

// Memory that is not a tensor's: not PyTorch's concern.
void fill_scratch(int64_t n) {
  float* scratch = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&scratch), n * sizeof(float));
  fill_kernel<<<blocks_for(n), kThreads>>>(scratch, 0.f, n);
}

// The guard is behind the project's build switch, and a build without it
// throws before the launch: where the guard is missing, the launch never runs.
torch::Tensor fill_switched(torch::Tensor out, float value) {
#if defined(TP_WITH_CUDA)
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
#else
  TORCH_CHECK(false, "not compiled with GPU support");
#endif
  fill_kernel<<<blocks_for(out.numel()), kThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), value, out.numel());
  return out;
}
torch::Tensor fill_switched_dispatch(torch::Tensor out, float value) {
#if defined(TP_WITH_CUDA)
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(out));
#else
  TORCH_CHECK(false, "not compiled with GPU support");
#endif
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "fill", [&] {
    fill_kernel<<<blocks_for(out.numel()), kThreads, 0, stream>>>(out.data_ptr<float>(), value,
                                                                  out.numel());
  });
  return out;
}

// A program's main() picks the device for the whole process.
int main() {
  auto t = torch::zeros({16});
  fill_kernel<<<1, kThreads>>>(t.data_ptr<float>(), 1.f, t.numel());
  return 0;
}
