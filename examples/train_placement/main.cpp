// A small regression model written with tensorplace, trained for a few steps on the CPU, with
// its placement report printed before and after `to()`: to CUDA when a GPU is present,
// otherwise to float64, which takes the same path through the module (LIBTORCH-FACTS 16).

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>

#include <iostream>

namespace tnn = tensorplace::nn;

struct RegressorOptions {
  RegressorOptions(int64_t hidden) : hidden_(hidden) {}
  /// Width of the hidden layer.
  TORCH_ARG(int64_t, hidden);
  /// Weight of the newest batch in the running input mean.
  TORCH_ARG(double, momentum) = 0.1;
};

// Every piece of state is a registered member: the input statistics are rebound on each
// training step, and still follow to(), save() and clone().
class RegressorImpl : public torch::nn::Cloneable<RegressorImpl> {
 public:
  explicit RegressorImpl(RegressorOptions options)
      : TENSORPLACE_CLONEABLE_BASE(RegressorImpl, "Regressor"), options(options) {
    reset();
  }

  void reset() override {
    input_mean.bind(this, "input_mean");  // optional state: set by the first training batch
    hidden.bind(this, "hidden", tnn::LazyLinear(options.hidden()));
    dropout.bind(this, "dropout", torch::nn::Dropout(0.1));
    out.bind(this, "out", torch::nn::Linear(options.hidden(), 1));
    output_scale.bind(this, "output_scale", torch::ones({1}));
  }

  torch::Tensor forward(const torch::Tensor& x) {
    if (is_training()) {
      torch::NoGradGuard no_grad;
      const auto batch_mean = x.mean(0);
      input_mean = input_mean.defined()
                       ? (1 - options.momentum()) * input_mean + options.momentum() * batch_mean
                       : batch_mean;
    }
    const auto centred = input_mean.defined() ? x - input_mean : x;
    return out(dropout(torch::relu(hidden(centred)))) * output_scale;
  }

  void pretty_print(std::ostream& stream) const override {
    stream << "Regressor(hidden=" << options.hidden() << ")";
  }

  RegressorOptions options;
  tnn::Buffer input_mean;
  tnn::Submodule<tnn::LazyLinear> hidden;
  tnn::Submodule<torch::nn::Dropout> dropout;
  tnn::Submodule<torch::nn::Linear> out;
  tnn::Parameter output_scale;
};
TORCH_MODULE(Regressor);

int main() {
  torch::manual_seed(0);
  const auto inputs = torch::randn({256, 3}) + 2;
  const auto targets =
      torch::matmul(inputs, torch::tensor({{3.0}, {-2.0}, {0.5}})) + 0.1 * torch::randn({256, 1});

  Regressor model(RegressorOptions(16));
  // The lazy layer learns its input size here; the optimizer is built afterwards.
  tnn::materialize(model, inputs.slice(0, 0, 2));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(0.05));

  model->train();
  for (int step = 1; step <= 60; ++step) {
    const auto batch = torch::randint(256, {32}, torch::kLong);
    adam.zero_grad();
    auto loss =
        torch::mse_loss(model(inputs.index_select(0, batch)), targets.index_select(0, batch));
    loss.backward();
    adam.step();
    if (step % 20 == 0) {
      std::cout << "step " << step << ": loss " << loss.item<double>() << "\n";
    }
  }
  model->eval();

  std::cout << "\n" << tensorplace::placement_report(model) << "\n";

  if (torch::cuda::is_available()) {
    const torch::Device device(torch::kCUDA);
    model->to(device);
    std::cout << "after model->to(" << device << "):\n"
              << tensorplace::placement_report(model) << "\n";
    tensorplace::expect_on_device(model, device);
    const auto batch = tensorplace::to_device(torch::data::Example<>(inputs, targets), device);
    tensorplace::check_inputs(model, {{"input", batch.data}});
    std::cout << "eval loss on " << device << ": "
              << torch::mse_loss(model(batch.data), batch.target).item<double>() << "\n";
  } else {
    model->to(torch::kFloat64);
    std::cout << "no CUDA device; after model->to(torch::kFloat64):\n"
              << tensorplace::placement_report(model) << "\n";
    const auto x = inputs.to(torch::kFloat64);
    std::cout << "eval loss in float64: "
              << torch::mse_loss(model(x), targets.to(torch::kFloat64)).item<double>() << "\n";
  }
  return 0;
}
