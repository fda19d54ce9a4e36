// tensorplace's CUDA headers: in front of LibTorch's c10/cuda/CUDAFunctions.h
// (see c10/cuda/CUDAStream.h), declarations only.
#pragma once
#include <c10/core/Device.h>
#include <cuda_runtime_api.h>
namespace c10 {
namespace cuda {
DeviceIndex device_count() noexcept;
DeviceIndex device_count_ensure_non_zero();
DeviceIndex current_device();
void set_device(DeviceIndex device);
void device_synchronize();
void MaybeSetDevice(DeviceIndex device);
cudaError_t GetDevice(DeviceIndex *device);
cudaError_t SetDevice(DeviceIndex device);
} // namespace cuda
} // namespace c10
