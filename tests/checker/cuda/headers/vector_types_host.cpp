// The op's C++ file: it includes vector_types.h for the launcher's
// signature, where __host__ and __device__ mean nothing, and holds the
// guard.
#include <c10/cuda/CUDAGuard.h>
#include <torch/torch.h>
#include <vector_types.h>

void nearest_launch(const float* points, const float* query, int n, int m, int2* out);

__host__ inline int2 pair_of(int a, int b) {
  return make_int2(a, b);
}

torch::Tensor nearest(const torch::Tensor& points, const torch::Tensor& query) {
  const c10::cuda::OptionalCUDAGuard guard(points.device());
  auto out = torch::empty({query.size(0), 2}, query.options().dtype(torch::kInt32));
  nearest_launch(points.data_ptr<float>(), query.data_ptr<float>(), points.size(0), query.size(0),
                 reinterpret_cast<int2*>(out.data_ptr<int>()));
  dim3 grid(1);
  (void)grid;
  (void)pair_of(0, 1);
  return out;
}
