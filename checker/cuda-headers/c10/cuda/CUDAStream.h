// tensorplace's CUDA headers: in front of LibTorch's own c10/cuda/CUDAStream.h,
// which a CPU-only LibTorch cannot include and a CUDA one includes only with
// the toolkit's headers. PyTorch's per-device current stream, declarations
// only, with LibTorch's signatures.
#pragma once
#include <c10/core/Device.h>
#include <c10/core/Stream.h>
#include <c10/util/Optional.h>
#include <cuda_runtime_api.h>
#include <vector>

namespace c10 {
namespace cuda {
class CUDAStream {
public:
  explicit CUDAStream(Stream stream);
  cudaStream_t stream() const;
  operator cudaStream_t() const { return stream(); }
  operator Stream() const;
  Stream unwrap() const;
  DeviceIndex device_index() const;
  Device device() const;
  bool query() const;
  void synchronize() const;
  int priority() const;
  bool operator==(const CUDAStream &other) const;
  bool operator!=(const CUDAStream &other) const;
};
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
CUDAStream getStreamFromPool(bool high_priority = false,
                             DeviceIndex device_index = -1);
CUDAStream getStreamFromExternal(cudaStream_t ext_stream,
                                 DeviceIndex device_index);
void setCurrentCUDAStream(CUDAStream stream);
} // namespace cuda
} // namespace c10
#include <c10/cuda/CUDAFunctions.h>
