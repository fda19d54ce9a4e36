// Stand-in for the CUDA runtime API, as Clang's CUDA wrapper header would
// provide it: the launch attributes, dim3, streams and launch functions.
#pragma once
#include <stddef.h>
#include <stdlib.h>

// Clang's runtime wrapper defines __CUDACC__; LibTorch's headers test it.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ inline __attribute__((always_inline))

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
struct uint3 {
  unsigned x, y, z;
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;

struct CUstream_st;
typedef CUstream_st* cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
typedef cudaError cudaError_t;

extern "C" {
// What Clang calls for kernel<<<grid, block, shmem, stream>>>(...).
unsigned __cudaPushCallConfiguration(dim3 grid,
                                     dim3 block,
                                     size_t shmem = 0,
                                     cudaStream_t stream = 0);
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0);
cudaError_t cudaLaunchKernel(
    const void* func, dim3 grid, dim3 block, void** args, size_t shmem, cudaStream_t stream);
cudaError_t cudaLaunchCooperativeKernel(
    const void* func, dim3 grid, dim3 block, void** args, size_t shmem, cudaStream_t stream);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetLastError();
cudaError_t cudaMalloc(void** ptr, size_t size);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream);
}
