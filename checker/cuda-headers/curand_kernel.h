// tensorplace's CUDA headers: cuRAND's device API, declarations only (see
// cuda_runtime.h).
#pragma once
#include <cuda_runtime.h>
struct curandStateXORWOW {
  unsigned d, v[5];
  int boxmuller_flag;
  float boxmuller_extra;
};
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;
struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned state;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
struct curandStateMRG32k3a {
  unsigned s1[3], s2[3];
};
typedef curandStateMRG32k3a curandStateMRG32k3a_t;
template <typename State>
__device__ void curand_init(unsigned long long seed,
                            unsigned long long subsequence,
                            unsigned long long offset, State *state);
template <typename State> __device__ unsigned curand(State *state);
template <typename State> __device__ float curand_uniform(State *state);
template <typename State> __device__ double curand_uniform_double(State *state);
template <typename State> __device__ float curand_normal(State *state);
template <typename State> __device__ double curand_normal_double(State *state);
template <typename State> __device__ float2 curand_normal2(State *state);
template <typename State>
__device__ float curand_log_normal(State *state, float mean, float stddev);
template <typename State>
__device__ unsigned curand_poisson(State *state, double lambda);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
