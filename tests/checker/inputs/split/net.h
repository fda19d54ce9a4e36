// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// Modules declared in a header and constructed in a .cpp file (see net.cpp):
// the member findings are reported in net.cpp, where the analysed file can
// show them, with a note here at the declaration.
#pragma once
#include <torch/torch.h>

struct SplitNetImpl : torch::nn::Module {
  SplitNetImpl();
  torch::Tensor forward(torch::Tensor x);

  torch::Tensor offsets_;
  torch::Tensor scale_;  // NOLINT(torch-unregistered-tensor-member)
  torch::nn::Linear fc{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(SplitNet);
