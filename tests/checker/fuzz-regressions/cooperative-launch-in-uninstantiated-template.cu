// A cooperative launch in function templates that are never instantiated, on
// a kernel template taken by address (`kernel = &k<KT>`): the launch's grid is
// a local whose direct-initialiser has a dependent argument, which Clang keeps
// as a ParenListExpr with no type. collectPointerParameters asked that null
// type whether it was a pointer and crashed (signal 11), seen in a large
// public CUDA extension library. Parsed as CUDA with tensorplace's headers.
#include <ATen/cuda/CUDAContext.h>
#include <cooperative_groups.h>
#include <torch/torch.h>

struct Params {
  const float* in;
  float* out;
  int n;
};

template <int KT>
__global__ void k(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.out[i] = p.in[i] * KT;
}

template <typename P, int KT>
void launch_free(P params_, float* scratch, size_t smem, cudaStream_t stream) {
  void* kernel;
  kernel = (void*)&k<KT>;
  dim3 grid(params_.n / KT);
  dim3 block(KT, params_.n);
  float* out(scratch + params_.n);
  cudaLaunchCooperativeKernel((void*)kernel, grid, block, (void**)&params_, smem, stream);
  k<KT><<<grid, block, smem, stream>>>(Params{params_.in, out, params_.n});
}

template <int KT>
struct Runner {
  Params params_;
  void run(int n, size_t smem) {
    auto kernel = &k<KT>;
    dim3 grid(n / KT);
    const cudaStream_t stream(at::cuda::getCurrentCUDAStream());
    cudaLaunchCooperativeKernel((void*)kernel, grid, dim3(KT), (void**)&params_, smem, stream);
  }
};

template <typename T>
void launch_on_tensor(torch::Tensor x, T scale) {
  auto kernel = &k<sizeof(T)>;
  dim3 grid(x.numel() / scale);
  torch::Tensor y(x * scale);
  Params p{x.data_ptr<float>(), y.data_ptr<float>(), static_cast<int>(x.numel())};
  void* args[] = {&p};
  cudaLaunchCooperativeKernel((void*)kernel, grid, dim3(256), args, 0,
                              at::cuda::getCurrentCUDAStream());
}
