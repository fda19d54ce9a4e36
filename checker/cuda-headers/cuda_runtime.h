// tensorplace's CUDA headers: declarations only, for analysing the host side
// of CUDA sources without a toolkit that the Clang in use can parse. Like
// nvcc's cuda_runtime.h, this is included first (-include cuda_runtime.h):
// the execution-space attributes, the vector types, the built-in variables,
// the device functions kernels call, and the runtime API. Nothing here is
// compiled into code.
#pragma once
#include <stddef.h>
#include <stdlib.h>

// Compiled as CUDA (Clang defines __CUDA__), the device side is declared
// too. A host C++ file that includes cuda_runtime.h for the runtime API gets
// what nvcc's header gives a host compiler: the types and the runtime API.
#ifdef __CUDA__
// Clang's runtime wrapper defines __CUDACC__; LibTorch's headers test it.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 12000
#endif
#include <host_defines.h>
#include <vector_types.h>

#ifdef __CUDA__
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// --- Device functions ------------------------------------------------------
__device__ void __syncthreads();
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ int __popc(unsigned x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __ffs(int x);
__device__ unsigned __brev(unsigned x);
__device__ long long clock64();
__device__ int clock();
__device__ void __nanosleep(unsigned ns);

template <typename T>
__device__ T __shfl_sync(unsigned mask, T var, int src, int width = 32);
template <typename T>
__device__ T __shfl_up_sync(unsigned mask, T var, unsigned delta,
                            int width = 32);
template <typename T>
__device__ T __shfl_down_sync(unsigned mask, T var, unsigned delta,
                              int width = 32);
template <typename T>
__device__ T __shfl_xor_sync(unsigned mask, T var, int lane_mask,
                             int width = 32);
template <typename T> __device__ T __ldg(const T *ptr);

#define TP_CUDA_ATOMIC(Name)                                                   \
  __device__ int Name(int *address, int val);                                  \
  __device__ unsigned Name(unsigned *address, unsigned val);                   \
  __device__ unsigned long long Name(unsigned long long *address,              \
                                     unsigned long long val);
TP_CUDA_ATOMIC(atomicAdd)
TP_CUDA_ATOMIC(atomicSub)
TP_CUDA_ATOMIC(atomicExch)
TP_CUDA_ATOMIC(atomicMin)
TP_CUDA_ATOMIC(atomicMax)
TP_CUDA_ATOMIC(atomicAnd)
TP_CUDA_ATOMIC(atomicOr)
TP_CUDA_ATOMIC(atomicXor)
#undef TP_CUDA_ATOMIC
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ float atomicExch(float *address, float val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned atomicCAS(unsigned *address, unsigned compare,
                              unsigned val);
__device__ unsigned long long atomicCAS(unsigned long long *address,
                                        unsigned long long compare,
                                        unsigned long long val);
__device__ unsigned atomicInc(unsigned *address, unsigned val);
__device__ unsigned atomicDec(unsigned *address, unsigned val);

// Single-precision intrinsics (the standard math functions come from
// <math.h>/<cmath>, which Clang also accepts in device code).
__device__ float __expf(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __powf(float x, float y);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float __fdividef(float x, float y);
__device__ float __frcp_rn(float x);
__device__ float __fsqrt_rn(float x);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ float __fmul_rn(float x, float y);
__device__ float __fadd_rn(float x, float y);
__device__ float __saturatef(float x);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rd(float x);
__device__ int __float2int_ru(float x);
__device__ int __float2int_rz(float x);
__device__ unsigned __float2uint_rn(float x);
__device__ float __int2float_rn(int x);
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);
__device__ unsigned __float_as_uint(float x);
__device__ float __uint_as_float(unsigned x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __mul24(int x, int y);
__device__ int __mulhi(int x, int y);
// The C library's math in device code: CUDA declares a __device__ version
// of each function (and float/double overloads, as <cmath> has) beside the
// host one; Clang lets a __device__ overload sit next to the C library's host
// declaration of the same signature.
#include <math.h>
#define TP_CUDA_MATH1(name)                                                    \
  __device__ float name(float);                                                \
  __device__ double name(double);                                              \
  __device__ float name##f(float);
#define TP_CUDA_MATH2(name)                                                    \
  __device__ float name(float, float);                                         \
  __device__ double name(double, double);                                      \
  __device__ float name##f(float, float);
TP_CUDA_MATH1(acos)
TP_CUDA_MATH1(acosh)
TP_CUDA_MATH1(asin)
TP_CUDA_MATH1(asinh)
TP_CUDA_MATH1(atan)
TP_CUDA_MATH1(atanh)
TP_CUDA_MATH1(cbrt)
TP_CUDA_MATH1(ceil)
TP_CUDA_MATH1(cos)
TP_CUDA_MATH1(cosh)
TP_CUDA_MATH1(cospi)
TP_CUDA_MATH1(erf)
TP_CUDA_MATH1(erfc)
TP_CUDA_MATH1(exp)
TP_CUDA_MATH1(exp2)
TP_CUDA_MATH1(expm1)
TP_CUDA_MATH1(fabs)
TP_CUDA_MATH1(floor)
TP_CUDA_MATH1(lgamma)
TP_CUDA_MATH1(log)
TP_CUDA_MATH1(log10)
TP_CUDA_MATH1(log1p)
TP_CUDA_MATH1(log2)
TP_CUDA_MATH1(logb)
TP_CUDA_MATH1(nearbyint)
TP_CUDA_MATH1(rint)
TP_CUDA_MATH1(round)
TP_CUDA_MATH1(sin)
TP_CUDA_MATH1(sinh)
TP_CUDA_MATH1(sinpi)
TP_CUDA_MATH1(sqrt)
TP_CUDA_MATH1(tan)
TP_CUDA_MATH1(tanh)
TP_CUDA_MATH1(tgamma)
TP_CUDA_MATH1(trunc)
TP_CUDA_MATH1(rsqrt)
TP_CUDA_MATH1(rcbrt)
TP_CUDA_MATH1(normcdf)
TP_CUDA_MATH1(normcdfinv)
TP_CUDA_MATH1(erfinv)
TP_CUDA_MATH1(erfcinv)
TP_CUDA_MATH1(erfcx)
TP_CUDA_MATH1(exp10)
TP_CUDA_MATH2(atan2)
TP_CUDA_MATH2(copysign)
TP_CUDA_MATH2(fdim)
TP_CUDA_MATH2(fmax)
TP_CUDA_MATH2(fmin)
TP_CUDA_MATH2(fmod)
TP_CUDA_MATH2(hypot)
TP_CUDA_MATH2(nextafter)
TP_CUDA_MATH2(pow)
TP_CUDA_MATH2(remainder)
#undef TP_CUDA_MATH1
#undef TP_CUDA_MATH2
__device__ float fma(float, float, float);
__device__ double fma(double, double, double);
__device__ float fmaf(float, float, float);
__device__ float pow(float, int);
__device__ double pow(double, int);
__device__ float ldexp(float, int);
__device__ double ldexp(double, int);
__device__ float ldexpf(float, int);
__device__ float frexp(float, int *);
__device__ double frexp(double, int *);
__device__ float frexpf(float, int *);
__device__ float modf(float, float *);
__device__ double modf(double, double *);
__device__ float modff(float, float *);
__device__ long lround(float);
__device__ long lround(double);
__device__ long lroundf(float);
__device__ long long llround(float);
__device__ long long llround(double);
__device__ long long llroundf(float);
__device__ long lrint(float);
__device__ long lrint(double);
__device__ long lrintf(float);
__device__ int abs(int);
__device__ long abs(long);
__device__ long long abs(long long);
__device__ float abs(float);
__device__ double abs(double);
__device__ long labs(long);
__device__ long long llabs(long long);
// min and max: CUDA's overloads, usable on the host too.
#define TP_CUDA_MINMAX(R, A, B)                                                \
  __host__ __device__ R min(A, B);                                             \
  __host__ __device__ R max(A, B);
TP_CUDA_MINMAX(int, int, int)
TP_CUDA_MINMAX(unsigned, unsigned, unsigned)
TP_CUDA_MINMAX(unsigned, int, unsigned)
TP_CUDA_MINMAX(unsigned, unsigned, int)
TP_CUDA_MINMAX(long, long, long)
TP_CUDA_MINMAX(unsigned long, unsigned long, unsigned long)
TP_CUDA_MINMAX(long long, long long, long long)
TP_CUDA_MINMAX(unsigned long long, unsigned long long, unsigned long long)
TP_CUDA_MINMAX(unsigned long long, long long, unsigned long long)
TP_CUDA_MINMAX(unsigned long long, unsigned long long, long long)
TP_CUDA_MINMAX(float, float, float)
TP_CUDA_MINMAX(double, double, double)
TP_CUDA_MINMAX(double, float, double)
TP_CUDA_MINMAX(double, double, float)
#undef TP_CUDA_MINMAX
__device__ int llmin(long long, long long);
__device__ long long llmax(long long, long long);
__device__ unsigned umin(unsigned, unsigned);
__device__ unsigned umax(unsigned, unsigned);
// printf, malloc, free and assert() work in device code.
extern "C" {
__device__ int printf(const char *, ...);
__device__ void *malloc(size_t);
__device__ void free(void *);
__device__ void __assert_fail(const char *, const char *, unsigned,
                              const char *);
}
__device__ void __trap();
// Address-space conversions (cp.async and ldmatrix code uses them).
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
__device__ void *__cvta_shared_to_generic(size_t addr);
__device__ void *__cvta_global_to_generic(size_t addr);
__device__ void __brkpt();

// CUDA's own math functions (rsqrt, normcdf, ... are among the one-argument
// functions above), with the float overloads of its C++ API.
__device__ void sincosf(float x, float *s, float *c);
__device__ void sincos(float x, float *s, float *c);
__device__ void sincos(double x, double *s, double *c);
__device__ void sincospif(float x, float *s, float *c);
__device__ void sincospi(float x, float *s, float *c);
__device__ void sincospi(double x, double *s, double *c);

#endif // __CUDA__

// --- Runtime API -------------------------------------------------------------
#include <cuda_runtime_api.h>
