// Stand-in for c10/cuda/CUDAGuard.h: RAII guards that make a device current.
#pragma once
#include <c10/cuda/CUDAStream.h>

namespace c10 {
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard(signed char device_index);
  explicit CUDAGuard(Device device);
  ~CUDAGuard();
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device);
  ~OptionalCUDAGuard();
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream stream);
  ~CUDAStreamGuard();
};
}  // namespace cuda
}  // namespace c10
