// Sorting points by voxel key with a zip iterator over two value arrays, on
// PyTorch's current stream.
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>
#include <torch/torch.h>

struct KeyLess {
  __host__ __device__ bool operator()(const thrust::tuple<int64_t, int>& a,
                                      const thrust::tuple<int64_t, int>& b) const {
    return thrust::get<0>(a) < thrust::get<0>(b);
  }
};

__global__ void first_of_voxel(const int64_t* keys, const int* order, int n, int* first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  thrust::tuple<int64_t, int> here = thrust::make_tuple(keys[i], order[i]);
  thrust::pair<int, int> span = thrust::make_pair(i, i + 1);
  if (i == 0 || keys[i - 1] != thrust::get<0>(here))
    first[span.first] = thrust::get<1>(here);
}

torch::Tensor voxel_sort(torch::Tensor keys, torch::Tensor order, torch::Tensor point_ids) {
  const c10::cuda::OptionalCUDAGuard guard(keys.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int n = keys.numel();
  int64_t* k = keys.data_ptr<int64_t>();
  auto values = thrust::make_zip_iterator(
      thrust::make_tuple(order.data_ptr<int>(), point_ids.data_ptr<int>()));
  thrust::sort_by_key(thrust::cuda::par.on(stream), k, k + n, values);
  auto first = torch::full({n}, -1, order.options());
  first_of_voxel<<<(n + 255) / 256, 256, 0, stream>>>(k, order.data_ptr<int>(), n,
                                                      first.data_ptr<int>());
  return first;
}
