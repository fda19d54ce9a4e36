// Autograd kernels of the tensorplace operators. bias_act records its backward and redispatches
// to the backend kernel; bias_act_backward is not differentiable and says so if differentiated;
// normalize_images takes uint8 images, which never require grad. Every operator needs one: without
// an Autograd kernel LibTorch 1.13 cannot run it on meta tensors (AutogradMeta has no fallback).
// to_device_normalized is composite, so autograd sees the operators it calls.

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/csrc/autograd/autograd_not_implemented_fallback.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/library.h>

#include <string>
#include <tuple>

#include "tensorplace/ops.h"
#include "tensorplace/torch_compat.h"

namespace tensorplace {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class BiasActFunction : public torch::autograd::Function<BiasActFunction> {
 public:
  static at::Tensor forward(AutogradContext* ctx,
                            const at::Tensor& x,
                            const at::Tensor& bias,
                            c10::string_view act) {
    // x and bias, not the output: the backward recomputes x + bias, which costs one add per
    // element and no extra memory beyond what the caller already holds.
    ctx->save_for_backward({x, bias});
    ctx->saved_data["act"] = std::string(act);
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    return bias_act(x, bias, act);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const variable_list saved = ctx->get_saved_variables();
    const std::string act = ctx->saved_data["act"].toStringRef();
    at::Tensor grad_x;
    at::Tensor grad_bias;
    // Through the dispatcher's Autograd key: under create_graph, bias_act_backward_autograd
    // below marks the results as not differentiable.
    std::tie(grad_x, grad_bias) = bias_act_backward(grad_outputs[0], saved[0], saved[1], act);
    return {ctx->needs_input_grad(0) ? grad_x : at::Tensor(),
            ctx->needs_input_grad(1) ? grad_bias : at::Tensor(), at::Tensor()};
  }
};

at::Tensor bias_act_autograd(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  return BiasActFunction::apply(x, bias, act);
}

std::tuple<at::Tensor, at::Tensor> bias_act_backward_autograd(const at::Tensor& grad_out,
                                                              const at::Tensor& x,
                                                              const at::Tensor& bias,
                                                              c10::string_view act) {
  at::Tensor grad_x;
  at::Tensor grad_bias;
  {
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    std::tie(grad_x, grad_bias) = bias_act_backward(grad_out, x, bias, act);
  }
  // The backward kernel is not differentiable. Under create_graph its results would
  // otherwise be constants to autograd, and a gradient penalty would be silently wrong;
  // like Python's @once_differentiable, they get a node that fails if it is ever reached.
  if (torch::autograd::compute_requires_grad(grad_out, x, bias)) {
    const auto no_double_backward = compat::make_autograd_node<torch::autograd::Error>(
        "tensorplace::bias_act has no second derivative: its backward is not "
        "differentiable",
        torch::autograd::collect_next_edges(grad_out, x, bias));
    torch::autograd::set_history(grad_x, no_double_backward);
    torch::autograd::set_history(grad_bias, no_double_backward);
  }
  return {grad_x, grad_bias};
}

}  // namespace
}  // namespace tensorplace

TORCH_LIBRARY_IMPL(tensorplace, Autograd, m) {
  m.impl("bias_act", TORCH_FN(tensorplace::bias_act_autograd));
  m.impl("bias_act_backward", TORCH_FN(tensorplace::bias_act_backward_autograd));
  // Redispatches; were an input differentiable, differentiating the result would raise
  // "not implemented" rather than give a silent zero.
  m.impl("normalize_images", torch::autograd::autogradNotImplementedFallback());
}
