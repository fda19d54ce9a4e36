// Fuzzer seed: launches in templates that are never instantiated, where
// Clang keeps dependent expressions unresolved (ParenListExpr,
// UnresolvedLookupExpr, CXXDependentScopeMemberExpr).
#include <torch/torch.h>
#include <ATen/cuda/CUDAContext.h>

template <typename T, int KT>
__global__ void k(T* out, const T* in, int n);

template <typename T, int KT, typename P>
void launch(P p, torch::Tensor x, cudaStream_t stream) {
  auto kernel = &k<T, KT>;
  dim3 grid(p.n / KT);
  dim3 block(KT);
  T* out(p.out + p.offset);
  const cudaStream_t s(stream);
  kernel<<<grid, block, p.smem, s>>>(out, x.template data_ptr<T>(), p.n);
  k<T, KT><<<grid, block>>>(p.template get<T>(), p.in, p.n);
  void* args[] = {&out, &p.in, &p.n};
  cudaLaunchCooperativeKernel((void*)kernel, grid, block, (void**)&p, p.smem, s);
  cudaLaunchKernel((const void*)&k<T, KT>, grid, block, args, 0, nullptr);
}

template <typename Derived>
struct Launcher {
  void operator()(torch::Tensor x) {
    auto& self = static_cast<Derived&>(*this);
    typename Derived::Params params(self.params(x));
    self.kernel()<<<params.grid, params.block, 0, params.stream>>>(params);
  }
};
