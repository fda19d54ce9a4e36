// tensorplace's CUDA headers: bfloat16, declarations only (see
// cuda_runtime.h). c10/util/BFloat16.h (torch/headeronly/util/BFloat16.h in
// LibTorch 2.x) converts from __nv_bfloat16 in CUDA mode.
#pragma once
#include <cuda_runtime.h>
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ operator float() const;
};
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
// LibTorch 2.x converts to float through it on the host side as well.
__host__ __device__ float __bfloat162float(__nv_bfloat16 value);
__host__ __device__ __nv_bfloat16 __float2bfloat16(float value);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(float value);
__host__ __device__ float2 __bfloat1622float2(__nv_bfloat162 value);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
