// Stand-in: the half type that c10/util/Half.h converts from in CUDA mode.
#pragma once
#include <cuda_runtime.h>
struct __half_raw {
  unsigned short x;
};
struct __half {
  unsigned short x;
};
__device__ __half __ldg(const __half* ptr);
