// tensorplace's CUDA headers: in front of LibTorch's c10/cuda/CUDAGuard.h (see
// c10/cuda/CUDAStream.h): RAII guards that make a device, or a stream,
// current. Declarations only, with LibTorch's signatures.
#pragma once
#include <c10/cuda/CUDAStream.h>
#include <c10/util/ArrayRef.h>

namespace c10 {
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard &) = delete;
  ~CUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  Device original_device() const;
  Device current_device() const;
};
struct OptionalCUDAGuard {
  OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device_opt);
  explicit OptionalCUDAGuard(optional<DeviceIndex> device_index_opt);
  OptionalCUDAGuard(const OptionalCUDAGuard &) = delete;
  ~OptionalCUDAGuard();
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  optional<Device> original_device() const;
  optional<Device> current_device() const;
  void reset();
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(Stream stream);
  CUDAStreamGuard(const CUDAStreamGuard &) = delete;
  ~CUDAStreamGuard();
  void reset_stream(Stream stream);
  CUDAStream original_stream() const;
  CUDAStream current_stream() const;
};
struct OptionalCUDAStreamGuard {
  OptionalCUDAStreamGuard();
  explicit OptionalCUDAStreamGuard(Stream stream);
  explicit OptionalCUDAStreamGuard(optional<Stream> stream_opt);
  ~OptionalCUDAStreamGuard();
  void reset();
};
// Sets the current stream of each stream's device; the current device stays.
struct CUDAMultiStreamGuard {
  explicit CUDAMultiStreamGuard(ArrayRef<CUDAStream> streams);
  CUDAMultiStreamGuard(const CUDAMultiStreamGuard &) = delete;
  ~CUDAMultiStreamGuard();
};
} // namespace cuda
} // namespace c10
