// Not reformatted: each expected finding sits on the line it is about.
// clang-format off
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(float* out, const float* x, float factor, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = x[i] * factor;
}

// Called from scale.cpp's op on a CUDA tensor, which may live on any GPU.
void scale_cuda(torch::Tensor out, const torch::Tensor& x, double factor) {
  const int64_t n = x.numel();
  auto stream = at::cuda::getCurrentCUDAStream();
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(  // expect: torch-cuda-launch-without-guard
      out.data_ptr<float>(), x.data_ptr<float>(), static_cast<float>(factor), n);
}
