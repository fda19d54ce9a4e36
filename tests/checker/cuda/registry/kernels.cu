// Not reformatted: each expected finding sits on the line it is about.
// clang-format off
#include "ops_registry.h"
#include <ATen/cuda/CUDAContext.h>

__global__ void scale_kernel(float* x, int64_t n);
__global__ void add_kernel(float* x, const float* y, int64_t n);
__global__ void fill_kernel(float* x, float v, int64_t n);

// Reached only through the unary table, whose dispatcher holds a guard.
void scale_launch(const at::Tensor& x) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());
}
REGISTER_UNARY_OP(scale, scale_launch);

// Reached only through the binary table, whose dispatcher holds none.
void add_launch(const at::Tensor& x, const at::Tensor& y) {
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());  // expect: torch-cuda-launch-without-guard
}
REGISTER_BINARY_OP(add, add_launch);

// Called by name under a guard (dispatch.cpp), and also kept in a table
// that no code of the run calls through: the call by name decides.
void fill_launch(const at::Tensor& x, float v) {
  fill_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), v, x.numel());
}
static const ScalarOp scalar_ops[] = {fill_launch};

// Registered nowhere and called by no one: an entry point of the library.
void negate_launch(const at::Tensor& x) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());  // expect: torch-cuda-launch-without-guard
}
