// tensorplace's CUDA headers: THC's state and error checks, as extensions of
// PyTorch 1.10 and before use them (THCudaCheck(cudaGetLastError()),
// THCudaMalloc(state, n) and THCudaFree(state, p) for scratch memory).
#pragma once
#include <cuda_runtime_api.h>
#include <stddef.h>

struct THCState;
typedef struct THCState THCState;

void __THCudaCheck(cudaError_t err, const char *file, const int line);
void __THCudaCheckWarn(cudaError_t err, const char *file, const int line);
#define THCudaCheck(err) __THCudaCheck(err, __FILE__, __LINE__)
#define THCudaCheckWarn(err) __THCudaCheckWarn(err, __FILE__, __LINE__)

void *THCudaMalloc(THCState *state, size_t size);
void THCudaFree(THCState *state, void *ptr);
/// The current stream of the current device (PyTorch's, not the default
/// stream).
cudaStream_t THCState_getCurrentStream(THCState *state);
