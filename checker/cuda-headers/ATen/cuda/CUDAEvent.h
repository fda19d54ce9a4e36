// tensorplace's CUDA headers: in front of LibTorch's ATen/cuda/CUDAEvent.h
// (see c10/cuda/CUDAStream.h), declarations only.
#pragma once
#include <ATen/cuda/CUDAContext.h>
namespace at {
namespace cuda {
struct CUDAEvent {
  CUDAEvent();
  explicit CUDAEvent(unsigned flags);
  ~CUDAEvent();
  void record();
  void record(const CUDAStream &stream);
  void block(const CUDAStream &stream);
  bool query() const;
  float elapsed_time(const CUDAEvent &other) const;
  void synchronize() const;
  cudaEvent_t event() const;
};
} // namespace cuda
} // namespace at
