// tensorplace's CUDA headers: half precision, declarations only (see
// cuda_runtime.h). c10/util/Half.h converts from __half in CUDA mode.
#pragma once
#include <cuda_runtime.h>
struct __half_raw {
  unsigned short x;
};
struct __half {
  unsigned short x;
  __half() = default;
  __host__ __device__ __half(const __half_raw &r) : x(r.x) {}
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(int i);
  __host__ __device__ operator __half_raw() const;
  __host__ __device__ operator float() const;
  __host__ __device__ __half &operator=(float f);
};
struct __half2 {
  __half x, y;
};
typedef __half half;
typedef __half2 half2;
__host__ __device__ __half __float2half(float f);
__host__ __device__ __half __float2half_rn(float f);
__host__ __device__ float __half2float(__half h);
__host__ __device__ __half2 __float2half2_rn(float f);
__host__ __device__ __half2 __floats2half2_rn(float lo, float hi);
__host__ __device__ float2 __half22float2(__half2 h);
__host__ __device__ __half2 __halves2half2(__half lo, __half hi);
__host__ __device__ __half2 __half2half2(__half h);
__host__ __device__ float __low2float(__half2 h);
__host__ __device__ float __high2float(__half2 h);
__host__ __device__ __half __low2half(__half2 h);
__host__ __device__ __half __high2half(__half2 h);
__device__ __half __int2half_rn(int i);
__device__ int __half2int_rn(__half h);
__device__ __half __ldg(const __half *ptr);
__device__ __half2 __ldg(const __half2 *ptr);
__device__ __half __shfl_down_sync(unsigned mask, __half var, unsigned delta,
                                   int width = 32);
__device__ __half __shfl_xor_sync(unsigned mask, __half var, int lane_mask,
                                  int width = 32);
__device__ __half hexp(__half h);
__device__ __half hlog(__half h);
__device__ __half hsqrt(__half h);
__device__ __half hrsqrt(__half h);
__device__ __half2 h2exp(__half2 h);
__device__ __half2 h2sqrt(__half2 h);
__device__ __half2 h2rsqrt(__half2 h);
#define TP_HALF_BINARY(Name)                                                   \
  __device__ __half Name(__half a, __half b);                                  \
  __device__ __half2 Name##2(__half2 a, __half2 b);
TP_HALF_BINARY(__hadd)
TP_HALF_BINARY(__hsub)
TP_HALF_BINARY(__hmul)
TP_HALF_BINARY(__hdiv)
TP_HALF_BINARY(__hmax)
TP_HALF_BINARY(__hmin)
#undef TP_HALF_BINARY
__device__ __half __hfma(__half a, __half b, __half c);
__device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c);
__device__ __half __hneg(__half a);
__device__ __half2 __hneg2(__half2 a);
__device__ bool __hgt(__half a, __half b);
__device__ bool __hlt(__half a, __half b);
__device__ bool __heq(__half a, __half b);
__device__ __half atomicAdd(__half *address, __half val);
__device__ __half2 atomicAdd(__half2 *address, __half2 val);
__device__ __half operator+(const __half &a, const __half &b);
__device__ __half operator-(const __half &a, const __half &b);
__device__ __half operator*(const __half &a, const __half &b);
__device__ __half operator/(const __half &a, const __half &b);
__device__ __half2 operator+(const __half2 &a, const __half2 &b);
__device__ __half2 operator-(const __half2 &a, const __half2 &b);
__device__ __half2 operator*(const __half2 &a, const __half2 &b);
__device__ __half2 operator/(const __half2 &a, const __half2 &b);
__host__ __device__ unsigned short __half_as_ushort(__half h);
__host__ __device__ short __half_as_short(__half h);
__host__ __device__ __half __ushort_as_half(unsigned short i);
__host__ __device__ __half __short_as_half(short i);
__device__ __half &operator+=(__half &a, const __half &b);
__device__ __half &operator-=(__half &a, const __half &b);
__device__ __half &operator*=(__half &a, const __half &b);
__device__ __half &operator/=(__half &a, const __half &b);
__device__ __half2 &operator+=(__half2 &a, const __half2 &b);
__device__ __half2 &operator-=(__half2 &a, const __half2 &b);
__device__ __half2 &operator*=(__half2 &a, const __half2 &b);
__device__ __half2 &operator/=(__half2 &a, const __half2 &b);
