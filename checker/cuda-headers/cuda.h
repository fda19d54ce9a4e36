// tensorplace's CUDA headers: the driver API header, declarations only (see
// cuda_runtime.h). LibTorch includes it when __CUDACC__ is set.
#pragma once
#include <cuda_runtime.h>
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
typedef int CUresult;
typedef int CUdevice;
struct CUctx_st;
typedef CUctx_st *CUcontext;
typedef CUstream_st *CUstream;
#define CUDA_SUCCESS 0
