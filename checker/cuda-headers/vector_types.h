// tensorplace's CUDA headers: the vector types (float2, int4, ...), dim3
// and the make_* functions, declarations only (see cuda_runtime.h). Also
// included by host C++ files, where __host__ and __device__ mean nothing.
#pragma once
#include <host_defines.h>

// One family per element type: name1 ... name4 and make_name1 ...
// make_name4, as CUDA declares them.
#define TP_CUDA_VECTOR_TYPES(name, T)                                          \
  struct name##1 {                                                             \
    T x;                                                                       \
  };                                                                           \
  struct name##2 {                                                             \
    T x, y;                                                                    \
  };                                                                           \
  struct name##3 {                                                             \
    T x, y, z;                                                                 \
  };                                                                           \
  struct name##4 {                                                             \
    T x, y, z, w;                                                              \
  };                                                                           \
  __host__ __device__ inline name##1 make_##name##1(T x) { return {x}; }       \
  __host__ __device__ inline name##2 make_##name##2(T x, T y) {                \
    return {x, y};                                                             \
  }                                                                            \
  __host__ __device__ inline name##3 make_##name##3(T x, T y, T z) {           \
    return {x, y, z};                                                          \
  }                                                                            \
  __host__ __device__ inline name##4 make_##name##4(T x, T y, T z, T w) {      \
    return {x, y, z, w};                                                       \
  }

TP_CUDA_VECTOR_TYPES(char, char)
TP_CUDA_VECTOR_TYPES(uchar, unsigned char)
TP_CUDA_VECTOR_TYPES(short, short)
TP_CUDA_VECTOR_TYPES(ushort, unsigned short)
TP_CUDA_VECTOR_TYPES(int, int)
TP_CUDA_VECTOR_TYPES(uint, unsigned int)
TP_CUDA_VECTOR_TYPES(long, long)
TP_CUDA_VECTOR_TYPES(ulong, unsigned long)
TP_CUDA_VECTOR_TYPES(longlong, long long)
TP_CUDA_VECTOR_TYPES(ulonglong, unsigned long long)
TP_CUDA_VECTOR_TYPES(float, float)
TP_CUDA_VECTOR_TYPES(double, double)
#undef TP_CUDA_VECTOR_TYPES

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1,
                                     unsigned z = 1)
      : x(x), y(y), z(z) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};
