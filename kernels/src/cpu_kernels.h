// The vectorised CPU kernels, built once per CPU capability (cpu_kernels.cpp is compiled with
// baseline flags and, on x86-64, again with AVX2+FMA) and chosen at run time, as ATen does
// for its own kernels. Raw pointers only: the kernel files include no Tensor headers.
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstdint>

#include "activation.h"
#include "op_checks.h"

namespace tensorplace {
namespace detail {

template <typename scalar_t>
using BiasActForwardFn = void (*)(const scalar_t* x,
                                  const scalar_t* bias,
                                  scalar_t* y,
                                  int64_t rows,
                                  int64_t cols,
                                  Activation act);

// grad_bias receives the column sums of grad_x (the reduction over every leading dimension).
template <typename scalar_t>
using BiasActBackwardFn = void (*)(const scalar_t* grad_out,
                                   const scalar_t* x,
                                   const scalar_t* bias,
                                   scalar_t* grad_x,
                                   scalar_t* grad_bias,
                                   int64_t rows,
                                   int64_t cols,
                                   Activation act);

// images: N, C, H, W (nhwc == false) or N, H, W, C; out: N, C, H, W, contiguous.
template <typename out_t>
using NormalizeImagesFn = void (*)(const uint8_t* images,
                                   out_t* out,
                                   int64_t batch,
                                   int64_t channels,
                                   int64_t height,
                                   int64_t width,
                                   bool nhwc,
                                   const ChannelAffine* affine);

struct CpuKernels {
  const char* capability;
  BiasActForwardFn<float> bias_act_forward_float;
  BiasActForwardFn<double> bias_act_forward_double;
  BiasActBackwardFn<float> bias_act_backward_float;
  BiasActBackwardFn<double> bias_act_backward_double;
  NormalizeImagesFn<float> normalize_images_float;
  NormalizeImagesFn<c10::Half> normalize_images_half;
  NormalizeImagesFn<c10::BFloat16> normalize_images_bfloat16;
};

const CpuKernels& cpu_kernels_default();
#ifdef TENSORPLACE_HAVE_CPU_AVX2
const CpuKernels& cpu_kernels_avx2();
#endif

// The best table this CPU can run, chosen once.
const CpuKernels& cpu_kernels();

}  // namespace detail
}  // namespace tensorplace
