// Stand-in: the bfloat16 type that c10/util/BFloat16.h converts from in CUDA mode.
#pragma once
#include <cuda_runtime.h>
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat16 {
  unsigned short x;
};
