// Stand-in for c10/cuda/CUDAStream.h: PyTorch's per-device current stream.
#pragma once
#include <cuda_runtime.h>
#include <torch/torch.h>

namespace c10 {
namespace cuda {
class CUDAStream {
 public:
  cudaStream_t stream() const;
  operator cudaStream_t() const {
    return stream();
  }
  operator c10::Stream() const;
};
CUDAStream getCurrentCUDAStream(signed char device_index = -1);
CUDAStream getDefaultCUDAStream(signed char device_index = -1);
CUDAStream getStreamFromPool(bool high_priority = false, signed char device_index = -1);
void set_device(signed char device_index);
void MaybeSetDevice(signed char device_index);
}  // namespace cuda
}  // namespace c10
