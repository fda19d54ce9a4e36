// tensorplace's CUDA headers: in front of LibTorch's
// c10/cuda/CUDACachingAllocator.h (see c10/cuda/CUDAStream.h), declarations
// only.
#pragma once
#include <c10/cuda/CUDAStream.h>
#include <stddef.h>
namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void *raw_alloc(size_t nbytes);
void *raw_alloc_with_stream(size_t nbytes, cudaStream_t stream);
void raw_delete(void *ptr);
void emptyCache();
void recordStream(const void *ptr, CUDAStream stream);
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
