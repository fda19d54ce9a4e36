// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// A small image classifier with the placement bugs tensorplace's module rules
// find, written the way real LibTorch code writes them. Lines marked
// "expect:" are the bugs; everything else is correct code that must stay
// silent. It compiles and runs on the CPU, where none of the bugs shows:
// they surface only after model->to(torch::kCUDA).
//
//   tensorplace -p build examples/placement_bugs
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

// Per-channel normalisation whose statistics live in plain members.
struct NormalizeImpl : torch::nn::Module {
  NormalizeImpl(std::vector<double> mean, std::vector<double> stddev) {
    mean_ = torch::tensor(mean).view({1, -1, 1, 1});
    std_ = register_buffer("std", torch::tensor(stddev).view({1, -1, 1, 1}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return (x - mean_) / std_; }
  torch::Tensor mean_; // expect: torch-unregistered-tensor-member
  torch::Tensor std_;
};
TORCH_MODULE(Normalize);

// A conv block built by a constructor helper and registered: correct.
torch::nn::Sequential conv_block(int64_t in, int64_t out) {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)),
      torch::nn::BatchNorm2d(out), torch::nn::ReLU(),
      torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)));
}

// Running statistics kept in a registered buffer, but updated by rebinding:
// the module keeps the old tensor, so to() and save() act on a stale one.
struct RunningNormImpl : torch::nn::Module {
  explicit RunningNormImpl(int64_t features) {
    running_mean = register_buffer("running_mean", torch::zeros({features}));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    if (is_training()) {
      torch::NoGradGuard no_grad;
      running_mean = 0.9 * running_mean + 0.1 * x.mean(0); // expect: torch-stale-registered-member
    }
    return x - running_mean;
  }
  torch::Tensor running_mean;
};
TORCH_MODULE(RunningNorm);

// A Cloneable that registers in its constructor: clone() calls reset() only.
struct ProjectionImpl : torch::nn::Cloneable<ProjectionImpl> {
  ProjectionImpl(int64_t in, int64_t out) : in_(in), out_(out) {
    weight = register_parameter("weight", torch::randn({out, in}) * 0.01); // expect: torch-register-outside-reset
  }
  void reset() override {}
  torch::Tensor forward(const torch::Tensor& x) {
    // A padding mask built on the CPU wherever the module was moved.
    auto mask = torch::ones({x.size(0), 1}); // expect: torch-factory-without-device
    // Noise on the current CUDA device, whatever device the input is on.
    auto noise = torch::randn({1}).cuda(); // expect: torch-hardcoded-device
    return torch::matmul(x, weight.t()) * mask + noise;
  }
  int64_t in_, out_;
  torch::Tensor weight;
};
TORCH_MODULE(Projection);

struct ClassifierImpl : torch::nn::Module {
  explicit ClassifierImpl(int64_t classes) {
    norm = register_module("norm", Normalize(std::vector<double>{0.5, 0.5, 0.5},
                                             std::vector<double>{0.25, 0.25, 0.25}));
    for (int64_t i = 0, channels = 3; i < 2; ++i, channels = 16)
      blocks.push_back(register_module("block" + std::to_string(i), conv_block(channels, 16)));
    head = torch::nn::Linear(16, classes);
    stats = register_module("stats", RunningNorm(16));
    projection = register_module("projection", Projection(16, 16));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = norm(x);
    for (auto& block : blocks)
      x = block->forward(x);
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    x = projection(stats(x));
    auto dropout = torch::nn::Dropout(0.2); // expect: torch-lazily-created-layer
    return head(dropout(x));
  }

  Normalize norm{nullptr};
  std::vector<torch::nn::Sequential> blocks;
  torch::nn::Linear head{nullptr}; // expect: torch-unregistered-submodule
  RunningNorm stats{nullptr};
  Projection projection{nullptr};
};
TORCH_MODULE(Classifier);

int main() {
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Classifier model(10);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);

  for (int step = 0; step < 3; ++step) {
    auto images = torch::rand({8, 3, 16, 16});
    auto labels = torch::randint(0, 10, {8});
    images.to(device); // expect: torch-discarded-to-result
    labels = labels.to(device);
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(images), labels);
    loss.backward();
    optimizer.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
