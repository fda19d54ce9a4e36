// Stand-in, declarations only: c10/util/complex.h converts to and from
// thrust::complex when __CUDACC__ is defined.
#pragma once
// Thrust's own complex.h reaches <cfloat> (FLT_MAX and kin), which .cu
// files then use without including it.
#include <cfloat>
namespace thrust {
template <typename T> struct complex {
  __host__ __device__ complex(const T &re = T(), const T &im = T())
      : re(re), im(im) {}
  __host__ __device__ T real() const { return re; }
  __host__ __device__ T imag() const { return im; }
  T re, im;
};
template <typename T> __host__ __device__ T abs(const complex<T> &z);
template <typename T>
__host__ __device__ complex<T> polar(const T &m, const T &theta = T());
template <typename T>
__host__ __device__ complex<T> pow(const complex<T> &x, const complex<T> &y);
template <typename T>
__host__ __device__ complex<T> pow(const complex<T> &x, const T &y);
template <typename T>
__host__ __device__ complex<T> pow(const T &x, const complex<T> &y);
template <typename T, typename U>
__host__ __device__ complex<T> pow(const complex<T> &x, const complex<U> &y);
template <typename T, typename U>
__host__ __device__ complex<T> pow(const complex<T> &x, const U &y);
template <typename T, typename U>
__host__ __device__ complex<T> pow(const T &x, const complex<U> &y);
template <typename T> __host__ __device__ complex<T> acos(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> acosh(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> asin(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> asinh(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> atan(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> atanh(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> cos(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> cosh(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> exp(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> log(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> log10(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> proj(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> sin(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> sinh(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> sqrt(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> tan(const complex<T> &z);
template <typename T> __host__ __device__ complex<T> tanh(const complex<T> &z);
} // namespace thrust
