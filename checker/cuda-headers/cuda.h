// Stand-in: only needs to be found (LibTorch includes it when __CUDACC__ is set).
#pragma once
#include <cuda_runtime.h>
