// Not reformatted: the spaced chevrons are what this input is about.
// clang-format off
//
// Launches written with spaces inside their chevrons, as a formatter that
// does not know CUDA writes them and nvcc accepts: read as launches, with
// the same findings as when written `<<<` ... `>>>`. Parsed as CUDA with
// tensorplace's CUDA headers; the file has no compiler error.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <ostream>

__global__ void fill_kernel(float* out, float value, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
template <typename T, int Threads>
__global__ void scale_kernel(T* out, T factor, int64_t n) {
  int64_t i = blockIdx.x * Threads + threadIdx.x;
  if (i < n) out[i] *= factor;
}

// ---- Must warn -------------------------------------------------------------

void fill_spaced(torch::Tensor out) {
  fill_kernel << <1, 256 >> > (out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard, torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_spaced' without a device guard
  // message: kernel launch on tensor data in 'fill_spaced' uses the default stream
}

void fill_spaced_stream_zero(torch::Tensor out) {
  const c10::cuda::OptionalCUDAGuard guard(out.device());
  fill_kernel << <dim3(1), dim3(256), 0, 0 >> > (out.data_ptr<float>(), 0.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'fill_spaced_stream_zero' uses the default stream
}

// Only the closing chevrons spaced, and chevrons split over lines with a
// comment between them.
void scale_half_spaced(torch::Tensor out, cudaStream_t stream) {
  scale_kernel<float, 256><<<1, 256, 0, stream >> > (out.data_ptr<float>(), 2.f, out.numel());  // expect: torch-cuda-launch-without-guard
  // message: kernel launch on tensor data in 'scale_half_spaced' without a device guard
  scale_kernel<float, 256> <<  // expect: torch-cuda-launch-without-guard
      <std::min<int>(4, out.numel()), 256, 0, stream>>
      > (out.data_ptr<float>(), 2.f, out.numel());
}

// ---- Must not warn ---------------------------------------------------------

void fill_spaced_guarded(torch::Tensor out) {
  const c10::cuda::OptionalCUDAGuard guard(out.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill_kernel << <dim3{1, 1, 1}, 256, 0, stream >> > (out.data_ptr<float>(), 0.f, out.numel());
  scale_kernel<float, 128> << <(out.numel() + 127) / 128, 128, 0, stream >> > (out.data_ptr<float>(), 0.5f, out.numel());
}

// C++ that reads like spaced chevrons and is not a launch: an explicit
// template argument list of operator<<, and nested template arguments.
template <typename T> struct Box { T value; };
template <typename T> std::ostream& operator<<(std::ostream& os, const Box<T>& b) { return os << b.value; }
void print(std::ostream& os, const Box<int>& b) {
  operator<< <int>(os, b);
  std::vector<std::vector<std::pair<int, int>> > nested;
  int shifted = 1 << 2;
  (void)nested;
  (void)shifted;
}
