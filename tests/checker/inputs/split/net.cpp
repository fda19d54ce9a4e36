// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
#include "net.h"

SplitNetImpl::SplitNetImpl() {
  offsets_ = torch::zeros({4}); // expect: torch-unregistered-tensor-member
  // message: 'offsets_' is a tensor member of module 'SplitNetImpl' that is never registered; Module::to() will not move it, and parameters(), buffers(), torch::save() and clone() will not see it
  // note@+0: 'offsets_' is given a tensor here; register it with register_buffer("offsets", ...) or register_parameter("offsets", ...) and keep the returned tensor
  // fixed: offsets_ = register_buffer("offsets", torch::zeros({4})); // expect: torch-unregistered-tensor-member
  scale_ = torch::ones({1});
  fc = torch::nn::Linear(4, 4); // expect: torch-unregistered-submodule
  // message: 'fc' holds a submodule of module 'SplitNetImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@+0: 'fc' is given a module here; register it with fc = register_module("fc", ...)
  // fixed: fc = register_module("fc", torch::nn::Linear(4, 4)); // expect: torch-unregistered-submodule
  out = register_module("out", torch::nn::Linear(4, 2));
}

torch::Tensor SplitNetImpl::forward(torch::Tensor x) {
  x.to(torch::kFloat64); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
  // fixed: x = x.to(torch::kFloat64); // expect: torch-discarded-to-result
  return out(fc(x) + offsets_ * scale_);
}
