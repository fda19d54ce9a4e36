// tensorplace's CUDA headers: the execution-space attributes (__global__,
// __device__, __host__, ...), as the toolkit's crt/host_defines.h gives them:
// Clang's attributes in CUDA, nothing in a host C++ file that includes
// vector_types.h or cuda_runtime.h (a C++ compiler knows none of them).
#pragma once

#ifdef __CUDA__
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif
#define __forceinline__ inline __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __cudart_builtin__
#define CUDART_CB
