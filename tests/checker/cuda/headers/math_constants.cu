// Spherical harmonics and a masked softmax, with the toolkit's math constants.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <math_constants.h>
#include <torch/torch.h>

__global__ void sh_kernel(const float* dirs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float c0 = 0.5f * sqrtf(1.f / CUDART_PI_F);
  out[i] = c0 * dirs[i] + static_cast<float>(CUDART_PI / 4.0);
}

__global__ void masked_max_kernel(const float* in, const bool* mask, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = mask[i] ? in[i] : -CUDART_INF_F;
  if (isnan(out[i]))
    out[i] = CUDART_NAN_F;
}

constexpr float kTwoPi = 2.f * CUDART_PI_F;

void sh(const torch::Tensor& dirs, torch::Tensor& out, const torch::Tensor& mask) {
  const c10::cuda::OptionalCUDAGuard guard(at::device_of(dirs));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int n = dirs.numel();
  sh_kernel<<<(n + 255) / 256, 256, 0, stream>>>(dirs.data_ptr<float>(), out.data_ptr<float>(), n);
  masked_max_kernel<<<(n + 255) / 256, 256, 0, stream>>>(
      out.data_ptr<float>(), mask.data_ptr<bool>(), out.data_ptr<float>(), n);
  TORCH_CHECK(kTwoPi > CUDART_PI_F && CUDART_INF > 0.0, "constants");
}
