// Vectorised, parallel CPU kernels of the tensorplace operators. This file is compiled once per
// CPU capability: TENSORPLACE_CPU_KERNELS_TABLE names the table it defines and CPU_CAPABILITY
// selects at::vec's implementation (and its inline namespace, so the variants never share a
// definition). Everything but the table is in an anonymous namespace for the same reason.

#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec.h>

#include <algorithm>
#include <memory>

#include "cpu_kernels.h"

#ifndef TENSORPLACE_CPU_KERNELS_TABLE
#error "TENSORPLACE_CPU_KERNELS_TABLE must name the kernel table this build of the file defines"
#endif
#define TENSORPLACE_STRINGIFY_(x) #x
#define TENSORPLACE_STRINGIFY(x) TENSORPLACE_STRINGIFY_(x)

namespace tensorplace {
namespace detail {
namespace {

using at::vec::Vectorized;

// Enough work per task that at::parallel_for's overhead (a few microseconds) stays small.
constexpr int64_t kGrainElements = 32768;

// erf for float as a rational function of x (Eigen's generic_fast_erf_float, a few ulp):
// FMAs and one division instead of SLEEF's erf, which is slow enough that LibTorch's own
// (oneDNN) gelu beats a fused kernel built on it. Beyond |x| = 4, erf(x) rounds to +-1.
inline Vectorized<float> fast_erf(const Vectorized<float>& a) {
  using Vec = Vectorized<float>;
  const Vec x = at::vec::clamp(a, Vec(-4.f), Vec(4.f));
  const Vec x2 = x * x;
  Vec p = at::vec::fmadd(x2, Vec(-2.72614225801306e-10f), Vec(2.77068142495902e-08f));
  p = at::vec::fmadd(x2, p, Vec(-2.10102402082508e-06f));
  p = at::vec::fmadd(x2, p, Vec(-5.69250639462346e-05f));
  p = at::vec::fmadd(x2, p, Vec(-7.34990630326855e-04f));
  p = at::vec::fmadd(x2, p, Vec(-2.95459980854025e-03f));
  p = at::vec::fmadd(x2, p, Vec(-1.60960333262415e-02f));
  Vec q = at::vec::fmadd(x2, Vec(-1.45660718464996e-05f), Vec(-2.13374055278905e-04f));
  q = at::vec::fmadd(x2, q, Vec(-1.68282697438203e-03f));
  q = at::vec::fmadd(x2, q, Vec(-7.37332916720468e-03f));
  q = at::vec::fmadd(x2, q, Vec(-1.42647390514189e-02f));
  return x * p / q;
}

inline Vectorized<double> fast_erf(const Vectorized<double>& x) {
  return x.erf();
}

template <Activation A, typename T>
inline Vectorized<T> activation(const Vectorized<T>& z) {
  using Vec = Vectorized<T>;
  if constexpr (A == Activation::kNone) {
    return z;
  } else if constexpr (A == Activation::kRelu) {
    return at::vec::maximum(z, Vec(T(0)));
  } else if constexpr (A == Activation::kGelu) {
    return Vec(T(0.5)) * z * (Vec(T(1)) + fast_erf(z * Vec(T(kSqrtHalf))));
  } else if constexpr (A == Activation::kGeluTanh) {
    const Vec inner = Vec(T(kGeluTanhBeta)) * (z + Vec(T(kGeluTanhKappa)) * z * z * z);
    return Vec(T(0.5)) * z * (Vec(T(1)) + inner.tanh());
  } else {
    return z / (Vec(T(1)) + z.neg().exp());
  }
}

// d activation(z) / dz, times grad.
template <Activation A, typename T>
inline Vectorized<T> activation_grad(const Vectorized<T>& z, const Vectorized<T>& grad) {
  using Vec = Vectorized<T>;
  if constexpr (A == Activation::kNone) {
    return grad;
  } else if constexpr (A == Activation::kRelu) {
    return Vec::blendv(Vec(T(0)), grad, z > Vec(T(0)));
  } else if constexpr (A == Activation::kGelu) {
    const Vec cdf = Vec(T(0.5)) * (Vec(T(1)) + fast_erf(z * Vec(T(kSqrtHalf))));
    const Vec pdf = Vec(T(kInvSqrt2Pi)) * (Vec(T(-0.5)) * z * z).exp();
    return grad * (cdf + z * pdf);
  } else if constexpr (A == Activation::kGeluTanh) {
    const Vec z_sq = z * z;
    const Vec t = (Vec(T(kGeluTanhBeta)) * (z + Vec(T(kGeluTanhKappa)) * z_sq * z)).tanh();
    const Vec inner_grad = Vec(T(kGeluTanhBeta)) * (Vec(T(1)) + Vec(T(3 * kGeluTanhKappa)) * z_sq);
    const Vec half = Vec(T(0.5));
    return grad * (half * (Vec(T(1)) + t) + half * z * (Vec(T(1)) - t * t) * inner_grad);
  } else {
    const Vec sigmoid = Vec(T(1)) / (Vec(T(1)) + z.neg().exp());
    return grad * sigmoid * (Vec(T(1)) + z * (Vec(T(1)) - sigmoid));
  }
}

// A row's last (cols % Vec::size()) elements go through partial loads and stores, so every
// element sees the same vector arithmetic and rounding.
template <typename T, Activation A>
void bias_act_forward_rows(const T* x, const T* bias, T* y, int64_t rows, int64_t cols) {
  using Vec = Vectorized<T>;
  const int64_t grain = std::max<int64_t>(1, kGrainElements / cols);
  at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* x_row = x + r * cols;
      T* y_row = y + r * cols;
      int64_t c = 0;
      for (; c + Vec::size() <= cols; c += Vec::size()) {
        activation<A>(Vec::loadu(x_row + c) + Vec::loadu(bias + c)).store(y_row + c);
      }
      if (c < cols) {
        const int64_t n = cols - c;
        activation<A>(Vec::loadu(x_row + c, n) + Vec::loadu(bias + c, n)).store(y_row + c, n);
      }
    }
  });
}

// grad_x and the column sums of grad_x in one pass over grad_out and x. The rows are split
// into at most one block per thread, each summing into its own slice of `partial`; when there
// are fewer row blocks than threads the columns are split too. The slices are then added up.
template <typename T, Activation A>
void bias_act_backward_rows(const T* grad_out,
                            const T* x,
                            const T* bias,
                            T* grad_x,
                            T* grad_bias,
                            int64_t rows,
                            int64_t cols) {
  using Vec = Vectorized<T>;
  const int64_t threads = std::max<int64_t>(1, at::get_num_threads());
  const int64_t row_blocks =
      std::clamp<int64_t>(rows * cols / kGrainElements, 1, std::min(threads, rows));
  const int64_t min_cols_per_block = 16 * Vec::size();
  const int64_t col_blocks_wanted = std::clamp<int64_t>(
      threads / row_blocks, 1, (cols + min_cols_per_block - 1) / min_cols_per_block);
  const int64_t col_block_size =
      ((cols + col_blocks_wanted - 1) / col_blocks_wanted + Vec::size() - 1) / Vec::size() *
      Vec::size();
  const int64_t col_blocks = (cols + col_block_size - 1) / col_block_size;

  std::unique_ptr<T[]> partial(new T[row_blocks * cols]);
  at::parallel_for(0, row_blocks * col_blocks, 1, [&](int64_t task_begin, int64_t task_end) {
    for (int64_t task = task_begin; task < task_end; ++task) {
      const int64_t row_block = task / col_blocks;
      const int64_t r_begin = rows * row_block / row_blocks;
      const int64_t r_end = rows * (row_block + 1) / row_blocks;
      const int64_t c_begin = task % col_blocks * col_block_size;
      const int64_t c_end = std::min(cols, c_begin + col_block_size);
      T* acc = partial.get() + row_block * cols;
      std::fill(acc + c_begin, acc + c_end, T(0));
      for (int64_t r = r_begin; r < r_end; ++r) {
        const int64_t offset = r * cols;
        for (int64_t c = c_begin; c < c_end; c += Vec::size()) {
          const int64_t n = std::min<int64_t>(Vec::size(), c_end - c);
          const Vec z = Vec::loadu(x + offset + c, n) + Vec::loadu(bias + c, n);
          const Vec g = activation_grad<A>(z, Vec::loadu(grad_out + offset + c, n));
          g.store(grad_x + offset + c, n);
          (Vec::loadu(acc + c, n) + g).store(acc + c, n);
        }
      }
    }
  });
  at::parallel_for(0, cols, kGrainElements / std::max<int64_t>(1, row_blocks),
                   [&](int64_t begin, int64_t end) {
                     for (int64_t c = begin; c < end; ++c) {
                       T sum = partial[c];
                       for (int64_t b = 1; b < row_blocks; ++b) {
                         sum += partial[b * cols + c];
                       }
                       grad_bias[c] = sum;
                     }
                   });
}

template <typename T>
void bias_act_forward(const T* x, const T* bias, T* y, int64_t rows, int64_t cols, Activation act) {
  switch (act) {
    case Activation::kNone:
      return bias_act_forward_rows<T, Activation::kNone>(x, bias, y, rows, cols);
    case Activation::kRelu:
      return bias_act_forward_rows<T, Activation::kRelu>(x, bias, y, rows, cols);
    case Activation::kGelu:
      return bias_act_forward_rows<T, Activation::kGelu>(x, bias, y, rows, cols);
    case Activation::kGeluTanh:
      return bias_act_forward_rows<T, Activation::kGeluTanh>(x, bias, y, rows, cols);
    case Activation::kSilu:
      return bias_act_forward_rows<T, Activation::kSilu>(x, bias, y, rows, cols);
  }
}

template <typename T>
void bias_act_backward(const T* grad_out,
                       const T* x,
                       const T* bias,
                       T* grad_x,
                       T* grad_bias,
                       int64_t rows,
                       int64_t cols,
                       Activation act) {
  switch (act) {
    case Activation::kNone:
      return bias_act_backward_rows<T, Activation::kNone>(grad_out, x, bias, grad_x, grad_bias,
                                                          rows, cols);
    case Activation::kRelu:
      return bias_act_backward_rows<T, Activation::kRelu>(grad_out, x, bias, grad_x, grad_bias,
                                                          rows, cols);
    case Activation::kGelu:
      return bias_act_backward_rows<T, Activation::kGelu>(grad_out, x, bias, grad_x, grad_bias,
                                                          rows, cols);
    case Activation::kGeluTanh:
      return bias_act_backward_rows<T, Activation::kGeluTanh>(grad_out, x, bias, grad_x, grad_bias,
                                                              rows, cols);
    case Activation::kSilu:
      return bias_act_backward_rows<T, Activation::kSilu>(grad_out, x, bias, grad_x, grad_bias,
                                                          rows, cols);
  }
}

// Reads one uint8 row (strided by the channel count in NHWC) into a float buffer, applies the
// channel's affine map with vector FMAs and writes the output row: one pass over memory.
template <typename out_t>
void normalize_images(const uint8_t* images,
                      out_t* out,
                      int64_t batch,
                      int64_t channels,
                      int64_t height,
                      int64_t width,
                      bool nhwc,
                      const ChannelAffine* affine) {
  using Vec = Vectorized<float>;
  constexpr int64_t kChunk = 256;
  const int64_t out_rows = batch * channels * height;
  const int64_t grain = std::max<int64_t>(1, kGrainElements / width);
  at::parallel_for(0, out_rows, grain, [&](int64_t begin, int64_t end) {
    alignas(64) float buffer[kChunk];
    for (int64_t row = begin; row < end; ++row) {
      const int64_t h = row % height;
      const int64_t c = row / height % channels;
      const int64_t n = row / height / channels;
      const Vec scale(affine[c].scale);
      const Vec shift(affine[c].shift);
      out_t* dst = out + row * width;
      for (int64_t w0 = 0; w0 < width; w0 += kChunk) {
        const int64_t count = std::min(kChunk, width - w0);
        if (nhwc) {
          const uint8_t* src = images + ((n * height + h) * width + w0) * channels + c;
          for (int64_t i = 0; i < count; ++i) {
            buffer[i] = static_cast<float>(src[i * channels]);
          }
        } else {
          const uint8_t* src = images + row * width + w0;
          for (int64_t i = 0; i < count; ++i) {
            buffer[i] = static_cast<float>(src[i]);
          }
        }
        for (int64_t i = 0; i < count; i += Vec::size()) {
          const int64_t m = std::min<int64_t>(Vec::size(), count - i);
          const Vec v = at::vec::fmadd(Vec::loadu(buffer + i, m), scale, shift);
          if constexpr (std::is_same_v<out_t, float>) {
            v.store(dst + w0 + i, m);
          } else {
            v.store(buffer + i, m);
          }
        }
        if constexpr (!std::is_same_v<out_t, float>) {
          for (int64_t i = 0; i < count; ++i) {
            dst[w0 + i] = static_cast<out_t>(buffer[i]);
          }
        }
      }
    }
  });
}

}  // namespace

const CpuKernels& TENSORPLACE_CPU_KERNELS_TABLE() {
  static const CpuKernels table{
      TENSORPLACE_STRINGIFY(CPU_CAPABILITY),
      &bias_act_forward<float>,
      &bias_act_forward<double>,
      &bias_act_backward<float>,
      &bias_act_backward<double>,
      &normalize_images<float>,
      &normalize_images<c10::Half>,
      &normalize_images<c10::BFloat16>,
  };
  return table;
}

}  // namespace detail
}  // namespace tensorplace
