// tensorplace's CUDA headers: in front of LibTorch's ATen/cuda/Exceptions.h
// (see c10/cuda/CUDAStream.h).
#pragma once
#include <c10/cuda/CUDAException.h>
#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)
