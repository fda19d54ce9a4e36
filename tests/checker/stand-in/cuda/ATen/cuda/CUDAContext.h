// Stand-in for ATen/cuda/CUDAContext.h: the at::cuda spellings.
#pragma once
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

namespace at {
namespace cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using CUDAGuard = c10::cuda::CUDAGuard;
using OptionalCUDAGuard = c10::cuda::OptionalCUDAGuard;
}  // namespace cuda
}  // namespace at
