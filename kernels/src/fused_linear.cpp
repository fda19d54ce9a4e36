// tensorplace::nn::FusedLinear: torch::nn::Linear's matmul followed by the fused bias_act
// epilogue instead of a separate bias add and activation.

#include <torch/nn/init.h>
#include <torch/torch.h>

#include <cmath>

#include "activation.h"
#include "tensorplace/ops.h"

namespace tensorplace {
namespace nn {

FusedLinearImpl::FusedLinearImpl(const FusedLinearOptions& options_) : options(options_) {
  reset();
}

void FusedLinearImpl::reset() {
  TORCH_CHECK(options.in_features() >= 0 && options.out_features() >= 0,
              "FusedLinear features should be non-negative, got in_features=",
              options.in_features(), ", out_features=", options.out_features());
  // Rejects a misspelt activation when the module is built rather than at the first forward.
  detail::parse_activation(options.activation());
  weight =
      register_parameter("weight", torch::empty({options.out_features(), options.in_features()}));
  if (options.bias()) {
    bias = register_parameter("bias", torch::empty(options.out_features()));
  } else {
    bias = register_parameter("bias", torch::Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void FusedLinearImpl::reset_parameters() {
  // torch::nn::Linear's initialisation, so that the two are interchangeable.
  torch::nn::init::kaiming_uniform_(weight, std::sqrt(5));
  if (bias.defined()) {
    const int64_t fan_in = options.in_features();
    const double bound = fan_in > 0 ? 1 / std::sqrt(static_cast<double>(fan_in)) : 0;
    torch::nn::init::uniform_(bias, -bound, bound);
  }
}

void FusedLinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "tensorplace::nn::FusedLinear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias()
         << ", activation=" << options.activation() << ")";
}

torch::Tensor FusedLinearImpl::forward(const torch::Tensor& input) {
  const torch::Tensor product = torch::matmul(input, weight.t());
  if (bias.defined()) {
    return bias_act(product, bias, options.activation());
  }
  if (options.activation() == "none") {
    return product;
  }
  // The fused kernel wants a bias; a zero one costs one small allocation per call.
  return bias_act(product, torch::zeros({options.out_features()}, weight.options()),
                  options.activation());
}

}  // namespace nn
}  // namespace tensorplace
