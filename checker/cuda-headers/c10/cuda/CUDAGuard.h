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
struct OptionalCUDAStreamGuard {
  OptionalCUDAStreamGuard();
  explicit OptionalCUDAStreamGuard(Stream stream);
  explicit OptionalCUDAStreamGuard(optional<Stream> stream);
  ~OptionalCUDAStreamGuard();
};
// Sets the current stream of each stream's device; the current device stays.
struct CUDAMultiStreamGuard {
  explicit CUDAMultiStreamGuard(const std::vector<CUDAStream>& streams);
  ~CUDAMultiStreamGuard();
};
}  // namespace cuda
}  // namespace c10
