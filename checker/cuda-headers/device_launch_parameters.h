// tensorplace's CUDA headers: threadIdx and the other built-in variables are
// declared by cuda_runtime.h, which is always included first.
#pragma once
#include <cuda_runtime.h>
