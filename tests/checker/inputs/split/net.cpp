// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
#include "net.h"

SplitNetImpl::SplitNetImpl() {
  offsets_ = torch::zeros({4}); // expect: torch-unregistered-tensor-member
  scale_ = torch::ones({1});
  fc = torch::nn::Linear(4, 4); // expect: torch-unregistered-submodule
  out = register_module("out", torch::nn::Linear(4, 2));
}

torch::Tensor SplitNetImpl::forward(torch::Tensor x) {
  x.to(torch::kFloat64); // expect: torch-discarded-to-result
  return out(fc(x) + offsets_ * scale_);
}
