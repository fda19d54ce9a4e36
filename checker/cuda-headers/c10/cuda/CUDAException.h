// tensorplace's CUDA headers: in front of LibTorch's c10/cuda/CUDAException.h
// (see c10/cuda/CUDAStream.h): the error-checking macros.
#pragma once
#include <cuda_runtime_api.h>
namespace c10 {
namespace cuda {
void c10_cuda_check_implementation(int err, const char *file, int line);
}
} // namespace c10
#define C10_CUDA_CHECK(EXPR)                                                   \
  ::c10::cuda::c10_cuda_check_implementation((int)(EXPR), __FILE__, __LINE__)
#define C10_CUDA_CHECK_WARN(EXPR) C10_CUDA_CHECK(EXPR)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define C10_CUDA_ERROR_HANDLED(EXPR) EXPR
