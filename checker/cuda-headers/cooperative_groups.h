// tensorplace's CUDA headers: cooperative groups, declarations only (see
// cuda_runtime.h).
#pragma once
#include <cuda_runtime.h>
namespace cooperative_groups {
struct thread_group {
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};
struct thread_block : thread_group {
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
struct grid_group : thread_group {
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
};
struct coalesced_group : thread_group {
  template <typename T> __device__ T shfl(T var, int src) const;
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const;
  __device__ unsigned ballot(int predicate) const;
};
template <unsigned Size, typename Parent = void>
struct thread_block_tile : thread_group {
  template <typename T> __device__ T shfl(T var, int src) const;
  template <typename T> __device__ T shfl_up(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned mask) const;
  __device__ unsigned ballot(int predicate) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, typename Parent>
__device__ thread_block_tile<Size> tiled_partition(const Parent &parent);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned size);
template <typename Group> __device__ void sync(const Group &group);

template <typename T> struct plus {
  __device__ T operator()(const T &a, const T &b) const;
};
template <typename T> struct less {
  __device__ T operator()(const T &a, const T &b) const;
};
template <typename T> struct greater {
  __device__ T operator()(const T &a, const T &b) const;
};
template <typename Group, typename T, typename Op>
__device__ T reduce(const Group &group, T value, Op op);
template <typename Group, typename T>
__device__ T inclusive_scan(const Group &group, T value);
template <typename Group, typename T>
__device__ T exclusive_scan(const Group &group, T value);
} // namespace cooperative_groups
