// CUDA kernels of the tensorplace operators. Every host wrapper does, in order: check that each
// tensor argument is a CUDA tensor on the first argument's device; put a CUDAGuard on that
// device (a kernel runs on the *current* device, whatever its pointers say); return early on
// empty input; make the inputs contiguous; launch on the current stream (callers' streams are
// respected); check the launch.

#include <ATen/ATen.h>
#include <ATen/AccumulateType.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>

#include "op_checks.h"

namespace tensorplace {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxChannels = 64;

// A 128-bit (or smaller) chunk loaded or stored with one instruction when suitably aligned.
template <typename T, int N>
struct alignas(sizeof(T) * N) AlignedVector {
  T val[N];
};

bool is_aligned(const void* pointer, size_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
}

int64_t ceil_div(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// Enough blocks to fill every SM; the kernels loop over the rest (grid-stride).
int64_t resident_blocks(int threads_per_block) {
  const cudaDeviceProp* properties = at::cuda::getCurrentDeviceProperties();
  return static_cast<int64_t>(properties->multiProcessorCount) *
         (properties->maxThreadsPerMultiProcessor / threads_per_block);
}

__device__ __forceinline__ float erf_of(float v) {
  return erff(v);
}
__device__ __forceinline__ double erf_of(double v) {
  return erf(v);
}
__device__ __forceinline__ float tanh_of(float v) {
  return tanhf(v);
}
__device__ __forceinline__ double tanh_of(double v) {
  return tanh(v);
}
__device__ __forceinline__ float exp_of(float v) {
  return expf(v);
}
__device__ __forceinline__ double exp_of(double v) {
  return exp(v);
}

template <Activation A, typename T>
__device__ __forceinline__ T activation(T z) {
  if constexpr (A == Activation::kNone) {
    return z;
  } else if constexpr (A == Activation::kRelu) {
    return z < T(0) ? T(0) : z;  // NaN stays NaN, as in torch::relu
  } else if constexpr (A == Activation::kGelu) {
    return T(0.5) * z * (T(1) + erf_of(z * T(kSqrtHalf)));
  } else if constexpr (A == Activation::kGeluTanh) {
    return T(0.5) * z * (T(1) + tanh_of(T(kGeluTanhBeta) * (z + T(kGeluTanhKappa) * z * z * z)));
  } else {
    return z / (T(1) + exp_of(-z));
  }
}

template <Activation A, typename T>
__device__ __forceinline__ T activation_grad(T z, T grad) {
  if constexpr (A == Activation::kNone) {
    return grad;
  } else if constexpr (A == Activation::kRelu) {
    return z > T(0) ? grad : T(0);
  } else if constexpr (A == Activation::kGelu) {
    const T cdf = T(0.5) * (T(1) + erf_of(z * T(kSqrtHalf)));
    const T pdf = T(kInvSqrt2Pi) * exp_of(T(-0.5) * z * z);
    return grad * (cdf + z * pdf);
  } else if constexpr (A == Activation::kGeluTanh) {
    const T z_sq = z * z;
    const T t = tanh_of(T(kGeluTanhBeta) * (z + T(kGeluTanhKappa) * z_sq * z));
    const T inner_grad = T(kGeluTanhBeta) * (T(1) + T(3 * kGeluTanhKappa) * z_sq);
    return grad * (T(0.5) * (T(1) + t) + T(0.5) * z * (T(1) - t * t) * inner_grad);
  } else {
    const T sigmoid = T(1) / (T(1) + exp_of(-z));
    return grad * sigmoid * (T(1) + z * (T(1) - sigmoid));
  }
}

// Calls f with the activation as a compile-time constant.
template <typename F>
void with_activation(Activation act, F&& f) {
  switch (act) {
    case Activation::kNone:
      return f(std::integral_constant<Activation, Activation::kNone>{});
    case Activation::kRelu:
      return f(std::integral_constant<Activation, Activation::kRelu>{});
    case Activation::kGelu:
      return f(std::integral_constant<Activation, Activation::kGelu>{});
    case Activation::kGeluTanh:
      return f(std::integral_constant<Activation, Activation::kGeluTanh>{});
    case Activation::kSilu:
      return f(std::integral_constant<Activation, Activation::kSilu>{});
  }
}

// y = act(x + bias) over n elements, kVec per thread and load (kVec == 1 when x or y is not
// 16-byte aligned); the last n % kVec elements are done one per thread by the first threads.
// With kBiasVec (cols a multiple of kVec, bias aligned) the bias is read with vector loads too.
// A thread's column advances by the same amount at every grid-stride step, so it is updated
// with an add and a compare rather than a 64-bit modulo per element.
template <typename scalar_t, int kVec, bool kBiasVec, Activation A>
__global__ void bias_act_forward_kernel(const scalar_t* __restrict__ x,
                                        const scalar_t* __restrict__ bias,
                                        scalar_t* __restrict__ y,
                                        int64_t n,
                                        int64_t cols) {
  using acc_t = at::acc_type<scalar_t, true>;
  using Vec = AlignedVector<scalar_t, kVec>;
  const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const int64_t n_vec = n / kVec;
  const int64_t column_step = stride * kVec % cols;
  int64_t column = thread * kVec % cols;
  for (int64_t v = thread; v < n_vec; v += stride) {
    const Vec in = reinterpret_cast<const Vec*>(x)[v];
    Vec out;
    if constexpr (kBiasVec) {
      const Vec b = reinterpret_cast<const Vec*>(bias)[column / kVec];
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        out.val[j] = static_cast<scalar_t>(
            activation<A>(static_cast<acc_t>(in.val[j]) + static_cast<acc_t>(b.val[j])));
      }
    } else {
      int64_t c = column;
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        out.val[j] = static_cast<scalar_t>(
            activation<A>(static_cast<acc_t>(in.val[j]) + static_cast<acc_t>(bias[c])));
        c = c + 1 == cols ? 0 : c + 1;
      }
    }
    reinterpret_cast<Vec*>(y)[v] = out;
    column += column_step;
    if (column >= cols) {
      column -= cols;
    }
  }
  const int64_t tail = n_vec * kVec + thread;
  if (tail < n) {
    y[tail] = static_cast<scalar_t>(
        activation<A>(static_cast<acc_t>(x[tail]) + static_cast<acc_t>(bias[tail % cols])));
  }
}

constexpr int kTileCols = 32;
constexpr int kTileRows = 8;

// grad_x and, per block row, the column sums of grad_x: block (32, 8) covers 32 columns, its
// warps read 32 consecutive elements of a row (coalesced), and the 8 row-lanes are summed in
// shared memory. partial[blockIdx.y][c] is then summed over blockIdx.y.
template <typename scalar_t, Activation A>
__global__ void bias_act_backward_kernel(const scalar_t* __restrict__ grad_out,
                                         const scalar_t* __restrict__ x,
                                         const scalar_t* __restrict__ bias,
                                         scalar_t* __restrict__ grad_x,
                                         at::acc_type<scalar_t, true>* __restrict__ partial,
                                         int64_t rows,
                                         int64_t cols) {
  using acc_t = at::acc_type<scalar_t, true>;
  __shared__ acc_t sums[kTileRows][kTileCols + 1];
  const int64_t c = static_cast<int64_t>(blockIdx.x) * kTileCols + threadIdx.x;
  acc_t sum = 0;
  if (c < cols) {
    const acc_t b = static_cast<acc_t>(bias[c]);
    const int64_t row_stride = static_cast<int64_t>(gridDim.y) * kTileRows;
    for (int64_t r = static_cast<int64_t>(blockIdx.y) * kTileRows + threadIdx.y; r < rows;
         r += row_stride) {
      const int64_t i = r * cols + c;
      const acc_t g =
          activation_grad<A>(static_cast<acc_t>(x[i]) + b, static_cast<acc_t>(grad_out[i]));
      grad_x[i] = static_cast<scalar_t>(g);
      sum += g;
    }
  }
  sums[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y == 0 && c < cols) {
    acc_t total = 0;
#pragma unroll
    for (int k = 0; k < kTileRows; ++k) {
      total += sums[k][threadIdx.x];
    }
    partial[static_cast<int64_t>(blockIdx.y) * cols + c] = total;
  }
}

// Passed by value: the per-channel constants live in the kernel's parameter space.
struct ChannelAffines {
  ChannelAffine channel[kMaxChannels];
};

// One block per output row (n, c, h), its threads striding over the row kVec pixels at a time:
// kVec * sizeof(out_t) is 16 bytes (one 128-bit store) when the width allows it. NCHW input
// rows are read with one kVec-byte load; NHWC input is read pixel by pixel, strided by the
// channel count. The row is decomposed once per thread (32-bit: row < 2^31), not per pixel.
template <typename out_t, int kVec, bool kNhwc>
__global__ void normalize_images_kernel(const uint8_t* __restrict__ images,
                                        out_t* __restrict__ out,
                                        int64_t channels,
                                        int64_t height,
                                        int64_t width,
                                        ChannelAffines affine) {
  const int64_t row = blockIdx.x;
  const uint32_t image_channel = static_cast<uint32_t>(row) / static_cast<uint32_t>(height);
  const int64_t h = row - static_cast<int64_t>(image_channel) * height;
  const int64_t c = image_channel % static_cast<uint32_t>(channels);
  const int64_t n = image_channel / static_cast<uint32_t>(channels);
  const ChannelAffine a = affine.channel[c];
  const uint8_t* src =
      kNhwc ? images + (n * height + h) * width * channels + c : images + row * width;
  out_t* dst = out + row * width;
  for (int64_t w0 = static_cast<int64_t>(threadIdx.x) * kVec; w0 < width;
       w0 += static_cast<int64_t>(blockDim.x) * kVec) {
    AlignedVector<uint8_t, kVec> in;
    if constexpr (kNhwc) {
#pragma unroll
      for (int j = 0; j < kVec; ++j) {
        in.val[j] = src[(w0 + j) * channels];
      }
    } else {
      in = *reinterpret_cast<const AlignedVector<uint8_t, kVec>*>(src + w0);
    }
    AlignedVector<out_t, kVec> result;
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      result.val[j] = static_cast<out_t>(fmaf(static_cast<float>(in.val[j]), a.scale, a.shift));
    }
    *reinterpret_cast<AlignedVector<out_t, kVec>*>(dst + w0) = result;
  }
}

void check_cuda(const at::Tensor& tensor, const char* name) {
  TORCH_CHECK(tensor.is_cuda(), name, " should be a CUDA tensor, got one on ", tensor.device());
}

void check_cuda_float(const at::Tensor& x) {
  const at::ScalarType dtype = x.scalar_type();
  TORCH_CHECK(
      dtype == at::kFloat || dtype == at::kHalf || dtype == at::kBFloat16 || dtype == at::kDouble,
      "x should be float32, float16, bfloat16 or float64 on CUDA, got ", dtype);
}

template <typename scalar_t>
void bias_act_forward_cuda_impl(const at::Tensor& x,
                                const at::Tensor& bias,
                                at::Tensor& y,
                                Activation act) {
  constexpr int kVec = 16 / sizeof(scalar_t);
  const int64_t n = x.numel();
  const int64_t cols = x.size(-1);
  const bool vectorised = is_aligned(x.data_ptr(), 16) && is_aligned(y.data_ptr(), 16);
  const bool bias_vectorised = vectorised && cols % kVec == 0 && is_aligned(bias.data_ptr(), 16);
  const int64_t per_thread = vectorised ? kVec : 1;
  const int64_t blocks =
      std::clamp<int64_t>(ceil_div(n / per_thread, kThreads), 1, resident_blocks(kThreads));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const scalar_t* x_data = x.data_ptr<scalar_t>();
  const scalar_t* bias_data = bias.data_ptr<scalar_t>();
  scalar_t* y_data = y.data_ptr<scalar_t>();
  with_activation(act, [&](auto activation_tag) {
    constexpr Activation A = decltype(activation_tag)::value;
    if (bias_vectorised) {
      bias_act_forward_kernel<scalar_t, kVec, true, A>
          <<<blocks, kThreads, 0, stream>>>(x_data, bias_data, y_data, n, cols);
    } else if (vectorised) {
      bias_act_forward_kernel<scalar_t, kVec, false, A>
          <<<blocks, kThreads, 0, stream>>>(x_data, bias_data, y_data, n, cols);
    } else {
      bias_act_forward_kernel<scalar_t, 1, false, A>
          <<<blocks, kThreads, 0, stream>>>(x_data, bias_data, y_data, n, cols);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

template <typename scalar_t>
at::Tensor bias_act_backward_cuda_impl(const at::Tensor& grad_out,
                                       const at::Tensor& x,
                                       const at::Tensor& bias,
                                       at::Tensor& grad_x,
                                       Activation act) {
  using acc_t = at::acc_type<scalar_t, true>;
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  const int64_t grid_cols = ceil_div(cols, kTileCols);
  TORCH_CHECK(grid_cols <= std::numeric_limits<int32_t>::max(),
              "x should have fewer than 2^36 elements in its last dimension, got ", cols);
  const int64_t grid_rows =
      std::clamp<int64_t>(resident_blocks(kTileCols * kTileRows) / grid_cols, 1,
                          std::min<int64_t>(65535, ceil_div(rows, kTileRows)));
  at::Tensor partial =
      at::empty({grid_rows, cols}, x.options().dtype(c10::CppTypeToScalarType<acc_t>::value));
  const dim3 grid(static_cast<unsigned>(grid_cols), static_cast<unsigned>(grid_rows));
  const dim3 block(kTileCols, kTileRows);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  with_activation(act, [&](auto activation_tag) {
    constexpr Activation A = decltype(activation_tag)::value;
    bias_act_backward_kernel<scalar_t, A><<<grid, block, 0, stream>>>(
        grad_out.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(),
        grad_x.data_ptr<scalar_t>(), partial.data_ptr<acc_t>(), rows, cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  // A few rows of per-block sums: ATen's reduction finishes them on the same current stream.
  return partial.sum(0).to(x.scalar_type());
}

template <typename out_t>
void normalize_images_cuda_impl(const at::Tensor& images,
                                at::Tensor& out,
                                bool nhwc,
                                const ChannelAffines& affine) {
  constexpr int kVec = 16 / sizeof(out_t);
  const int64_t rows = out.size(0) * out.size(1) * out.size(2);
  const int64_t channels = out.size(1);
  const int64_t height = out.size(2);
  const int64_t width = out.size(3);
  TORCH_CHECK(rows <= std::numeric_limits<int32_t>::max(),
              "images should have fewer than 2^31 rows (N * C * H) on CUDA, got ", rows);
  const bool vectorised = width % kVec == 0 && is_aligned(out.data_ptr(), 16) &&
                          (nhwc || is_aligned(images.data_ptr(), kVec));
  const int64_t per_thread = vectorised ? kVec : 1;
  // Enough warps to cover a row once (a 224-pixel row is 56 float32 vectors: 64 threads).
  const int threads =
      static_cast<int>(std::clamp<int64_t>(ceil_div(width / per_thread, 32) * 32, 32, kThreads));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const uint8_t* in = images.data_ptr<uint8_t>();
  out_t* result = out.data_ptr<out_t>();
  const auto blocks = static_cast<unsigned>(rows);
  if (vectorised && nhwc) {
    normalize_images_kernel<out_t, kVec, true>
        <<<blocks, threads, 0, stream>>>(in, result, channels, height, width, affine);
  } else if (vectorised) {
    normalize_images_kernel<out_t, kVec, false>
        <<<blocks, threads, 0, stream>>>(in, result, channels, height, width, affine);
  } else if (nhwc) {
    normalize_images_kernel<out_t, 1, true>
        <<<blocks, threads, 0, stream>>>(in, result, channels, height, width, affine);
  } else {
    normalize_images_kernel<out_t, 1, false>
        <<<blocks, threads, 0, stream>>>(in, result, channels, height, width, affine);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

at::Tensor bias_act_cuda(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  check_cuda(x, "x");
  check_same_device(bias, "bias", x, "x");
  const Activation activation = check_bias_act_args(x, bias, act);
  check_cuda_float(x);
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() == 0) {
    return y;
  }
  const at::Tensor x_contig = x.contiguous();
  const at::Tensor bias_contig = bias.contiguous();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "bias_act_cuda", [&] {
    bias_act_forward_cuda_impl<scalar_t>(x_contig, bias_contig, y, activation);
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> bias_act_backward_cuda(const at::Tensor& grad_out,
                                                          const at::Tensor& x,
                                                          const at::Tensor& bias,
                                                          c10::string_view act) {
  check_cuda(grad_out, "grad_out");
  check_same_device(x, "x", grad_out, "grad_out");
  check_same_device(bias, "bias", grad_out, "grad_out");
  const Activation activation = check_bias_act_backward_args(grad_out, x, bias, act);
  check_cuda_float(x);
  const c10::cuda::CUDAGuard device_guard(x.device());
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) {
    return {grad_x, at::zeros(bias.sizes(), bias.options())};
  }
  const at::Tensor grad_contig = grad_out.contiguous();
  const at::Tensor x_contig = x.contiguous();
  const at::Tensor bias_contig = bias.contiguous();
  at::Tensor grad_bias;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(),
                                  "bias_act_backward_cuda", [&] {
                                    grad_bias = bias_act_backward_cuda_impl<scalar_t>(
                                        grad_contig, x_contig, bias_contig, grad_x, activation);
                                  });
  return {grad_x, grad_bias};
}

at::Tensor normalize_images_cuda(const at::Tensor& images,
                                 c10::ArrayRef<double> mean,
                                 c10::ArrayRef<double> std,
                                 c10::string_view layout,
                                 at::ScalarType out_dtype) {
  check_cuda(images, "images");
  const bool nhwc = check_normalize_images_args(images, mean, std, layout, out_dtype);
  const int64_t channels = images.size(nhwc ? 3 : 1);
  TORCH_CHECK(channels <= kMaxChannels, "images should have at most ", kMaxChannels,
              " channels on CUDA, got ", channels);
  const c10::cuda::CUDAGuard device_guard(images.device());
  at::Tensor out =
      at::empty({images.size(0), channels, images.size(nhwc ? 1 : 2), images.size(nhwc ? 2 : 3)},
                images.options().dtype(out_dtype));
  if (out.numel() == 0) {
    return out;
  }
  const at::Tensor images_contig = images.contiguous();
  ChannelAffines affine{};
  for (int64_t c = 0; c < channels; ++c) {
    affine.channel[c] = channel_affine(mean[c], std[c]);
  }
  AT_DISPATCH_SWITCH(out_dtype, "normalize_images_cuda", AT_DISPATCH_CASE(at::kFloat, [&] {
                       normalize_images_cuda_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }) AT_DISPATCH_CASE(at::kHalf, [&] {
                       normalize_images_cuda_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }) AT_DISPATCH_CASE(at::kBFloat16, [&] {
                       normalize_images_cuda_impl<scalar_t>(images_contig, out, nhwc, affine);
                     }));
  return out;
}

}  // namespace
}  // namespace detail
}  // namespace tensorplace

TORCH_LIBRARY_IMPL(tensorplace, CUDA, m) {
  m.impl("bias_act", TORCH_FN(tensorplace::detail::bias_act_cuda));
  m.impl("bias_act_backward", TORCH_FN(tensorplace::detail::bias_act_backward_cuda));
  m.impl("normalize_images", TORCH_FN(tensorplace::detail::normalize_images_cuda));
}
