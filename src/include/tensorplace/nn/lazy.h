#pragma once

// Lazy modules: `LazyLinear` and `LazyConv1d/2d/3d` infer their input size from the first
// input and create their parameters on that input's device and dtype, initialised as the eager
// module (`torch::nn::Linear`, `torch::nn::ConvNd`, followed by `to()`) would be.
//
// Until then their parameters are registered 0-element placeholders. An optimizer built from
// `parameters()` at that point would hold the placeholders and never train the real
// parameters; LibTorch gives no hook into optimizer construction, so instead a lazy module
// refuses to materialise while anything besides the module still holds a placeholder, and says
// to call `materialize(model, example_inputs...)` before building the optimizer.

#include <tensorplace/nn/member.h>

#include <torch/arg.h>
#include <torch/enum.h>
#include <torch/expanding_array.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/options/conv.h>
#include <torch/nn/pimpl.h>
#include <torch/serialize/input-archive.h>
#include <torch/utils.h>

#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tensorplace {
namespace nn {

/// Implemented by every lazy module, so that a module tree can be searched for them.
class LazyModule {
 public:
  virtual ~LazyModule() = default;
  /// Whether the parameters have been created (by a forward, `materialize`, or a load).
  virtual bool is_materialized() const = 0;
};

struct LazyLinearOptions {
  /* implicit */ LazyLinearOptions(int64_t out_features) : out_features_(out_features) {}
  /// Size of each output sample.
  TORCH_ARG(int64_t, out_features);
  /// Whether to learn an additive bias.
  TORCH_ARG(bool, bias) = true;
};

/// `torch::nn::Linear` whose `in_features` is the last dimension of its first input.
///
///   tensorplace::nn::LazyLinear fc(10);          // in_features unknown
///   tensorplace::nn::materialize(fc, torch::randn({2, 3}, device));
///   torch::optim::Adam adam(fc->parameters());   // now holds the real weight [10, 3]
class LazyLinearImpl : public torch::nn::Cloneable<LazyLinearImpl>, public LazyModule {
 public:
  explicit LazyLinearImpl(const LazyLinearOptions& options);

  /// Registers the placeholders (a 0-element `weight`; `bias`, or an undefined one without bias).
  void reset() override;
  /// Initialises the parameters again, in place, as `torch::nn::Linear` does (materialised
  /// modules only).
  void reset_parameters();

  torch::Tensor forward(const torch::Tensor& input);

  bool is_materialized() const override {
    return in_features_ >= 0;
  }
  /// The inferred input size, or -1 before materialisation.
  int64_t in_features() const {
    return in_features_;
  }

  void pretty_print(std::ostream& stream) const override;
  /// Warns (and moves only the placeholders) before materialisation.
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Device device, bool non_blocking = false) override;
  /// Loading an archive of a materialised module into an unmaterialised one materialises it
  /// from the saved shapes.
  void load(torch::serialize::InputArchive& archive) override;

  LazyLinearOptions options;
  Parameter weight;
  Parameter bias;

 private:
  void materialize(const torch::Tensor& input);
  int64_t in_features_ = -1;
};
TORCH_MODULE(LazyLinear);

template <size_t D>
struct LazyConvOptions {
  LazyConvOptions(int64_t out_channels, torch::ExpandingArray<D> kernel_size)
      : out_channels_(out_channels), kernel_size_(kernel_size) {}
  /// Number of channels the convolution produces.
  TORCH_ARG(int64_t, out_channels);
  /// Size of the convolving kernel.
  TORCH_ARG(torch::ExpandingArray<D>, kernel_size);
  /// Stride of the convolution.
  TORCH_ARG(torch::ExpandingArray<D>, stride) = 1;
  /// Implicit padding on both sides of the input (numbers only; 'same'/'valid' are not
  /// supported).
  TORCH_ARG(torch::ExpandingArray<D>, padding) = 0;
  /// Spacing between kernel elements.
  TORCH_ARG(torch::ExpandingArray<D>, dilation) = 1;
  /// Number of blocked connections from input to output channels; the inferred input channel
  /// count must be divisible by it.
  TORCH_ARG(int64_t, groups) = 1;
  /// Whether to learn an additive bias.
  TORCH_ARG(bool, bias) = true;
  /// kZeros, kReflect, kReplicate or kCircular.
  TORCH_ARG(torch::nn::detail::conv_padding_mode_t, padding_mode) = torch::kZeros;
};

/// `torch::nn::ConvNd` whose `in_channels` is taken from its first input (dimension 1 of a
/// batched input, 0 of an unbatched one).
template <size_t D, typename Derived>
class LazyConvImpl : public torch::nn::Cloneable<Derived>, public LazyModule {
 public:
  explicit LazyConvImpl(const LazyConvOptions<D>& options);

  void reset() override;
  void reset_parameters();
  torch::Tensor forward(const torch::Tensor& input);

  bool is_materialized() const override {
    return in_channels_ >= 0;
  }
  int64_t in_channels() const {
    return in_channels_;
  }

  void pretty_print(std::ostream& stream) const override;
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Device device, bool non_blocking = false) override;
  void load(torch::serialize::InputArchive& archive) override;

  LazyConvOptions<D> options;
  Parameter weight;
  Parameter bias;

 private:
  void materialize(const torch::Tensor& input);
  int64_t in_channels_ = -1;
};

class LazyConv1dImpl : public LazyConvImpl<1, LazyConv1dImpl> {
 public:
  using LazyConvImpl<1, LazyConv1dImpl>::LazyConvImpl;
};
class LazyConv2dImpl : public LazyConvImpl<2, LazyConv2dImpl> {
 public:
  using LazyConvImpl<2, LazyConv2dImpl>::LazyConvImpl;
};
class LazyConv3dImpl : public LazyConvImpl<3, LazyConv3dImpl> {
 public:
  using LazyConvImpl<3, LazyConv3dImpl>::LazyConvImpl;
};
TORCH_MODULE(LazyConv1d);
TORCH_MODULE(LazyConv2d);
TORCH_MODULE(LazyConv3d);

/// Qualified names of the lazy modules in `module`'s tree that are not materialised ("" for
/// `module` itself).
std::vector<std::string> unmaterialized_modules(const torch::nn::Module& module);

namespace detail {
template <typename M, typename = void>
struct is_dereferenceable : std::false_type {};
template <typename M>
struct is_dereferenceable<M, std::void_t<decltype(*std::declval<M&>())>> : std::true_type {};

void check_materialized(const torch::nn::Module& module);

/// Sets a module tree to eval mode and restores every module's own mode when destroyed.
class EvalModeGuard {
 public:
  explicit EvalModeGuard(torch::nn::Module& module);
  ~EvalModeGuard();
  EvalModeGuard(const EvalModeGuard&) = delete;
  EvalModeGuard& operator=(const EvalModeGuard&) = delete;

 private:
  torch::nn::Module& module_;
  bool was_training_;
  std::vector<std::pair<std::shared_ptr<torch::nn::Module>, bool>> children_;
};
}  // namespace detail

/// Materialises every lazy module in `module` by a dry forward with `example_inputs`, under
/// `torch::NoGradGuard` and in eval mode (so that BatchNorm statistics and Dropout are left
/// alone; each module's mode is restored afterwards). Throws, naming them, if lazy modules
/// remain unmaterialised. Build optimizers after this.
///
///   tensorplace::nn::materialize(model, torch::zeros({1, 3, 32, 32}, device));
template <typename ModuleType, typename... Inputs>
void materialize(ModuleType& module, Inputs&&... example_inputs) {
  torch::nn::Module* base = nullptr;
  if constexpr (detail::is_dereferenceable<ModuleType>::value) {
    base = &*module;
  } else {
    base = &module;
  }
  {
    detail::EvalModeGuard eval_mode(*base);
    torch::NoGradGuard no_grad;
    if constexpr (detail::is_dereferenceable<ModuleType>::value) {
      module->forward(std::forward<Inputs>(example_inputs)...);
    } else {
      module.forward(std::forward<Inputs>(example_inputs)...);
    }
  }
  detail::check_materialized(*base);
}

}  // namespace nn
}  // namespace tensorplace
