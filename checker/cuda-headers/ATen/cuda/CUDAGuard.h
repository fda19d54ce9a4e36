// Stand-in for ATen/cuda/CUDAGuard.h.
#pragma once
#include <ATen/cuda/CUDAContext.h>
