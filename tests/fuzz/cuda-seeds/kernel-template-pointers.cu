// Fuzzer seed: kernels reached through function pointers to kernel template
// specialisations, chosen at run time from a table.
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>

template <typename T, int Block>
__global__ void scale(T* data, T s, int64_t n) {
  int64_t i = blockIdx.x * Block + threadIdx.x;
  if (i < n) data[i] *= s;
}

using ScaleFn = void (*)(float*, float, int64_t);

ScaleFn pick(int block) {
  static const ScaleFn table[] = {&scale<float, 128>, &scale<float, 256>, scale<float, 512>};
  return table[block % 3];
}

void run(torch::Tensor t, int block) {
  ScaleFn kernel = pick(block);
  kernel<<<1, block, 0, at::cuda::getCurrentCUDAStream()>>>(t.data_ptr<float>(), 2.f, t.numel());
  auto other = &scale<float, 128>;
  float* p = t.data_ptr<float>();
  float s = 2.f;
  int64_t n = t.numel();
  void* args[] = {&p, &s, &n};
  cudaLaunchKernel((const void*)other, dim3(1), dim3(128), args, 0, at::cuda::getCurrentCUDAStream());
}
