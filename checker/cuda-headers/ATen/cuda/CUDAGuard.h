// tensorplace's CUDA headers: in front of LibTorch's ATen/cuda/CUDAGuard.h.
#pragma once
#include <ATen/cuda/CUDAContext.h>
