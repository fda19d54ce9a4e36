// Fuzzer seed: each way a kernel is launched, on tensor memory and on
// pointers, with and without a guard and a stream.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void fill(float* out, float v, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}

void two(torch::Tensor t) { fill<<<1, 256>>>(t.data_ptr<float>(), 1.f, t.numel()); }
void three(torch::Tensor t) { fill<<<1, 256, 0>>>(t.data_ptr<float>(), 1.f, t.numel()); }
void four(torch::Tensor t) {
  const c10::cuda::OptionalCUDAGuard guard(t.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill<<<dim3(1), dim3(256), 0, stream>>>(t.data_ptr<float>(), 1.f, t.numel());
}
void spaced(torch::Tensor t) { fill << <1, 256 >> > (t.data_ptr<float>(), 1.f, t.numel()); }
void runtime_api(torch::Tensor t) {
  float* p = t.data_ptr<float>();
  float v = 1.f;
  int64_t n = t.numel();
  void* args[] = {&p, &v, &n};
  cudaLaunchKernel((const void*)fill, dim3(1), dim3(256), args, 0, cudaStreamLegacy);
}
void on_pointer(float* out, int64_t n, cudaStream_t s) { fill<<<1, 256, 0, s>>>(out + 1, 0.f, n); }
void caller(torch::Tensor t) { on_pointer(t.data_ptr<float>(), t.numel(), 0); }
void dispatched(torch::Tensor t) {
  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "d", [&] {
    auto launch = [&](cudaStream_t s) { fill<<<1, 256, 0, s>>>(t.data_ptr<float>(), 0.f, t.numel()); };
    launch(at::cuda::getDefaultCUDAStream());
  });
}
