// Autograd kernel of tensorplace::bias_act: records the backward and redispatches to the
// backend kernel. normalize_images and to_device_normalized take uint8 images, which never
// require grad, so they need no autograd kernel.

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/library.h>

#include <string>

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
    std::tie(grad_x, grad_bias) = bias_act_backward(grad_outputs[0], saved[0], saved[1], act);
    // The backward kernel is not differentiable. Under create_graph its results would
    // otherwise be constants to autograd, and a gradient penalty would be silently wrong;
    // like Python's @once_differentiable, they get a node that fails if it is ever reached.
    if (torch::autograd::compute_requires_grad(grad_outputs[0], saved[0], saved[1])) {
      const auto no_double_backward = compat::make_autograd_node<torch::autograd::Error>(
          "tensorplace::bias_act has no second derivative: its backward is not "
          "differentiable",
          torch::autograd::collect_next_edges(grad_outputs[0], saved[0], saved[1]));
      torch::autograd::set_history(grad_x, no_double_backward);
      torch::autograd::set_history(grad_bias, no_double_backward);
    }
    return {ctx->needs_input_grad(0) ? grad_x : at::Tensor(),
            ctx->needs_input_grad(1) ? grad_bias : at::Tensor(), at::Tensor()};
  }
};

at::Tensor bias_act_autograd(const at::Tensor& x, const at::Tensor& bias, c10::string_view act) {
  return BiasActFunction::apply(x, bias, act);
}

}  // namespace
}  // namespace tensorplace

TORCH_LIBRARY_IMPL(tensorplace, Autograd, m) {
  m.impl("bias_act", TORCH_FN(tensorplace::bias_act_autograd));
}
