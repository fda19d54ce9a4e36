// tensorplace's CUDA headers: the parts of CUB that extensions use most,
// declarations only (see cuda_runtime.h).
#pragma once
#include <cuda_runtime.h>
namespace cub {
struct Sum {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const;
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const;
};
struct Min {
  template <typename T>
  __host__ __device__ T operator()(const T &a, const T &b) const;
};
enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm {
  BLOCK_SCAN_RAKING,
  BLOCK_SCAN_RAKING_MEMOIZE,
  BLOCK_SCAN_WARP_SCANS
};
template <typename T, int BlockDimX,
          BlockReduceAlgorithm Algorithm = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BlockDimY = 1, int BlockDimZ = 1, int Arch = 0>
class BlockReduce {
public:
  struct TempStorage {
    T data[BlockDimX * BlockDimY * BlockDimZ];
  };
  __device__ BlockReduce();
  __device__ BlockReduce(TempStorage &storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <typename Op> __device__ T Reduce(T input, Op op);
  template <typename Op> __device__ T Reduce(T input, Op op, int num_valid);
};
template <typename T, int BlockDimX,
          BlockScanAlgorithm Algorithm = BLOCK_SCAN_RAKING, int BlockDimY = 1,
          int BlockDimZ = 1, int Arch = 0>
class BlockScan {
public:
  struct TempStorage {
    T data[BlockDimX * BlockDimY * BlockDimZ];
  };
  __device__ BlockScan();
  __device__ BlockScan(TempStorage &storage);
  __device__ void InclusiveSum(T input, T &output);
  __device__ void ExclusiveSum(T input, T &output);
  __device__ void ExclusiveSum(T input, T &output, T &aggregate);
  template <typename Op>
  __device__ void InclusiveScan(T input, T &output, Op op);
};
template <typename T, int LogicalWarpThreads = 32, int Arch = 0>
class WarpReduce {
public:
  struct TempStorage {
    T data[LogicalWarpThreads];
  };
  __device__ WarpReduce(TempStorage &storage);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <typename Op> __device__ T Reduce(T input, Op op);
};
struct DeviceReduce {
  template <typename In, typename Out>
  static cudaError_t Sum(void *temp, size_t &temp_bytes, In in, Out out,
                         int num_items, cudaStream_t stream = 0);
  template <typename In, typename Out>
  static cudaError_t Max(void *temp, size_t &temp_bytes, In in, Out out,
                         int num_items, cudaStream_t stream = 0);
  template <typename In, typename Out>
  static cudaError_t Min(void *temp, size_t &temp_bytes, In in, Out out,
                         int num_items, cudaStream_t stream = 0);
  template <typename In, typename Out, typename Op, typename T>
  static cudaError_t Reduce(void *temp, size_t &temp_bytes, In in, Out out,
                            int num_items, Op op, T init,
                            cudaStream_t stream = 0);
};
struct DeviceScan {
  template <typename In, typename Out>
  static cudaError_t InclusiveSum(void *temp, size_t &temp_bytes, In in,
                                  Out out, int num_items,
                                  cudaStream_t stream = 0);
  template <typename In, typename Out>
  static cudaError_t ExclusiveSum(void *temp, size_t &temp_bytes, In in,
                                  Out out, int num_items,
                                  cudaStream_t stream = 0);
};
struct DeviceRadixSort {
  template <typename Key, typename Value>
  static cudaError_t
  SortPairs(void *temp, size_t &temp_bytes, const Key *keys_in, Key *keys_out,
            const Value *values_in, Value *values_out, int num_items,
            int begin_bit = 0, int end_bit = sizeof(Key) * 8,
            cudaStream_t stream = 0);
  template <typename Key>
  static cudaError_t SortKeys(void *temp, size_t &temp_bytes,
                              const Key *keys_in, Key *keys_out, int num_items,
                              int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                              cudaStream_t stream = 0);
};
struct DeviceSegmentedReduce {
  template <typename In, typename Out, typename Offsets>
  static cudaError_t Sum(void *temp, size_t &temp_bytes, In in, Out out,
                         int num_segments, Offsets begin_offsets,
                         Offsets end_offsets, cudaStream_t stream = 0);
};
} // namespace cub
