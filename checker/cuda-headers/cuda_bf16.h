// Stand-in: the bfloat16 type that c10/util/BFloat16.h (torch/headeronly/util/BFloat16.h in
// LibTorch 2.x) converts from in CUDA mode.
#pragma once
#include <cuda_runtime.h>
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
};
// LibTorch 2.x converts to float through it on the host side as well
// (torch/headeronly/util/BFloat16.h).
__host__ __device__ float __bfloat162float(__nv_bfloat16 value);
