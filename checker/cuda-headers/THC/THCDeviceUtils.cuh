// tensorplace's CUDA headers: THC's device helpers that extensions of
// PyTorch 1.10 and before use: THCCeilDiv for grid sizes, and the WARP_SHFL
// wrappers of reductions, which PyTorch moved to ATen/cuda/DeviceUtils.cuh
// (LibTorch still ships it, also in a CPU-only build).
#pragma once
#include <ATen/cuda/DeviceUtils.cuh>
#include <cuda_runtime.h>

template <typename T>
__host__ __device__ __forceinline__ T THCCeilDiv(T a, T b) {
  return (a + b - 1) / b;
}
template <typename T>
__host__ __device__ __forceinline__ T THCRoundUp(T a, T b) {
  return THCCeilDiv(a, b) * b;
}
