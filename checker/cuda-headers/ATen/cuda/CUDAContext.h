// tensorplace's CUDA headers: in front of LibTorch's ATen/cuda/CUDAContext.h
// (see c10/cuda/CUDAStream.h): the at::cuda spellings, declarations only.
#pragma once
#include <ATen/cuda/Exceptions.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <stdint.h>

namespace at {
namespace cuda {
// As c10/macros/Macros.h makes every c10::cuda name an at::cuda one.
using namespace c10::cuda;
int64_t getNumGPUs();
bool is_available();
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int64_t device);
int warp_size();
bool canDeviceAccessPeer(int64_t device, int64_t peer_device);
} // namespace cuda
} // namespace at
