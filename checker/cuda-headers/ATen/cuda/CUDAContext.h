// Stand-in for ATen/cuda/CUDAContext.h: the at::cuda spellings.
#pragma once
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

// As c10/macros/Macros.h makes every c10::cuda name an at::cuda one.
namespace at {
namespace cuda {
using namespace c10::cuda;
}  // namespace cuda
}  // namespace at
