// tensorplace's CUDA headers: cuRAND's host API, declarations only (see
// cuda_runtime.h).
#pragma once
#include <cuda_runtime.h>
enum curandStatus { CURAND_STATUS_SUCCESS = 0 };
typedef curandStatus curandStatus_t;
enum curandRngType {
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 106
};
typedef curandRngType curandRngType_t;
struct curandGenerator_st;
typedef curandGenerator_st *curandGenerator_t;
extern "C" {
curandStatus_t curandCreateGenerator(curandGenerator_t *generator,
                                     curandRngType_t type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed);
curandStatus_t curandSetStream(curandGenerator_t generator,
                               cudaStream_t stream);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *out,
                                     size_t n);
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *out,
                                    size_t n, float mean, float stddev);
}
