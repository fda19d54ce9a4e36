// An extension written for PyTorch 1.10 and before: THC's atomics on half
// precision, its error check, its ceil-div and its scratch allocator.
#include <ATen/cuda/CUDAContext.h>
#include <THC/THC.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/torch.h>
#include <THC/THCAtomics.cuh>
#include <THC/THCDeviceUtils.cuh>

template <typename scalar_t>
__global__ void scatter_add_kernel(const scalar_t* src,
                                   const int64_t* index,
                                   scalar_t* out,
                                   int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out + index[i], src[i]);
}

__global__ void count_kernel(const int64_t* index, int64_t* counts, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(counts + index[i], int64_t(1));
    gpuAtomicAdd(counts, int64_t(0));
  }
}

torch::Tensor scatter_add(const torch::Tensor& src, const torch::Tensor& index, int64_t size) {
  TORCH_CHECK(src.is_cuda(), "src must be a CUDA tensor, got ", src.device());
  const c10::cuda::OptionalCUDAGuard guard(src.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  auto out = torch::zeros({size}, src.options());
  const int64_t n = src.numel();
  const int64_t blocks = THCCeilDiv(n, int64_t(256));
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(src.scalar_type(), "scatter_add", [&] {
    scatter_add_kernel<scalar_t><<<blocks, 256, 0, stream>>>(
        src.data_ptr<scalar_t>(), index.data_ptr<int64_t>(), out.data_ptr<scalar_t>(), n);
  });
  THCudaCheck(cudaGetLastError());
  return out;
}

torch::Tensor count(const torch::Tensor& index, int64_t size, THCState* state) {
  const c10::cuda::OptionalCUDAGuard guard(index.device());
  auto counts = torch::zeros({size}, index.options());
  int64_t* scratch = static_cast<int64_t*>(THCudaMalloc(state, size * sizeof(int64_t)));
  count_kernel<<<THCCeilDiv(index.numel(), int64_t(256)), 256, 0,
                 THCState_getCurrentStream(state)>>>(index.data_ptr<int64_t>(),
                                                     counts.data_ptr<int64_t>(), index.numel());
  THCudaFree(state, scratch);
  return counts;
}
