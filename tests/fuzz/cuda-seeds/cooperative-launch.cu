// Fuzzer seed: cooperative launches, with parameters in a struct and in an
// array of argument pointers, under a guard and without one.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

struct Args {
  const float* in;
  float* out;
  int n;
};

__global__ void reduce(Args a) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
}

void cooperative(const torch::Tensor& in, torch::Tensor& out) {
  const at::cuda::OptionalCUDAGuard guard(in.device());
  Args a{in.data_ptr<float>(), out.data_ptr<float>(), static_cast<int>(in.numel())};
  void* params[] = {&a};
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reduce, 256, 0);
  cudaLaunchCooperativeKernel((void*)reduce, dim3(blocks), dim3(256), params, 0,
                              at::cuda::getCurrentCUDAStream());
}

void cooperative_unguarded(const torch::Tensor& in, torch::Tensor& out) {
  Args a{in.data_ptr<float>(), out.data_ptr<float>(), static_cast<int>(in.numel())};
  cudaLaunchCooperativeKernel((void*)&reduce, 1, 256, (void**)&a);
}
