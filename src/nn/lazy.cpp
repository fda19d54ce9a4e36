#include <tensorplace/nn/lazy.h>

#include <torch/nn/functional/padding.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <c10/util/Exception.h>

#include <sstream>

namespace tensorplace {
namespace nn {
namespace {

torch::Tensor placeholder() {
  return torch::empty({0});
}

// The placeholders are about to be replaced. A placeholder referenced from outside the module
// (an optimizer built from parameters(), a saved parameter list) would keep pointing at the
// placeholder and never see the parameter that replaces it.
void check_no_outside_references(const char* module_name, const Parameter& parameter) {
  if (!parameter.defined()) {
    return;
  }
  TORCH_CHECK(parameter->use_count() == 1, module_name,
              ": cannot materialise while something outside the module still holds its "
              "placeholder '",
              parameter.name(),
              "' (an optimizer or a parameter list built from parameters() before the first "
              "forward?); it would never see the parameter created now. Call "
              "tensorplace::nn::materialize(model, example_inputs...) before building "
              "optimizers");
}

void warn_to_before_materialize(const char* module_name, bool materialized) {
  if (!materialized) {
    TORCH_WARN(module_name,
               ": to() on a module that is not materialised moves only its 0-element "
               "placeholders; its parameters will be created on the device and dtype of its "
               "first input. Call tensorplace::nn::materialize(model, example_inputs...) with "
               "inputs on the target device first");
  }
}

void check_input(const char* module_name, const torch::Tensor& input) {
  TORCH_CHECK(input.defined(), module_name, ": input should be a defined tensor");
  TORCH_CHECK(input.is_floating_point() || input.is_complex(), module_name,
              ": input should be a floating-point tensor, got ", input.scalar_type());
}

// Adopts a parameter of a freshly built eager module, on the input's device and dtype.
torch::Tensor adopt(const torch::Tensor& eager, const torch::Tensor& input) {
  return eager.detach().to(input.device(), input.scalar_type());
}

// Reads `name` from `archive` into an undefined tensor (InputArchive::try_read then hands back
// the saved tensor itself). Returns an undefined tensor if the archive has none.
torch::Tensor read_saved(torch::serialize::InputArchive& archive, const std::string& name) {
  torch::Tensor saved;
  if (!archive.try_read(name, saved)) {
    return {};
  }
  return saved;
}

void copy_saved(const char* module_name, const Parameter& parameter, const torch::Tensor& saved) {
  if (!parameter.defined()) {
    return;
  }
  TORCH_CHECK(saved.defined(), module_name, ": the archive has no '", parameter.name(), "'");
  TORCH_CHECK(saved.sizes() == parameter->sizes(), module_name, ": saved '", parameter.name(),
              "' should have shape ", parameter->sizes(), ", got ", saved.sizes());
  torch::NoGradGuard no_grad;
  parameter->copy_(saved);
}

void install_saved(Parameter& parameter, const torch::Tensor& saved) {
  if (!parameter.defined()) {
    return;
  }
  torch::NoGradGuard no_grad;
  parameter = saved.detach().clone();
}

}  // namespace

// --- LazyLinear ------------------------------------------------------------------------------

LazyLinearImpl::LazyLinearImpl(const LazyLinearOptions& options) : options(options) {
  reset();
}

void LazyLinearImpl::reset() {
  weight.bind(this, "weight", placeholder());
  bias.bind(this, "bias", options.bias() ? placeholder() : torch::Tensor(), options.bias());
}

void LazyLinearImpl::reset_parameters() {
  TORCH_CHECK(is_materialized(), "LazyLinear: reset_parameters() needs a materialised module");
  torch::nn::Linear eager(
      torch::nn::LinearOptions(in_features_, options.out_features()).bias(options.bias()));
  torch::NoGradGuard no_grad;
  weight->copy_(eager->weight);
  if (options.bias()) {
    bias->copy_(eager->bias);
  }
}

void LazyLinearImpl::materialize(const torch::Tensor& input) {
  check_input("LazyLinear", input);
  TORCH_CHECK(input.dim() >= 1,
              "LazyLinear: input should have at least one dimension, got a scalar");
  check_no_outside_references("LazyLinear", weight);
  check_no_outside_references("LazyLinear", bias);
  const int64_t in_features = input.size(-1);
  // Built like the eager module, so that the same seed gives the same initial values.
  torch::nn::Linear eager(
      torch::nn::LinearOptions(in_features, options.out_features()).bias(options.bias()));
  torch::NoGradGuard no_grad;
  weight = adopt(eager->weight, input);
  if (options.bias()) {
    bias = adopt(eager->bias, input);
  }
  in_features_ = in_features;
}

torch::Tensor LazyLinearImpl::forward(const torch::Tensor& input) {
  if (!is_materialized()) {
    materialize(input);
  }
  TORCH_CHECK(input.defined() && input.dim() >= 1 && input.size(-1) == in_features_,
              "LazyLinear: input should have ", in_features_,
              " features in its last dimension (the size the module was materialised with), got "
              "input of shape ",
              input.defined() ? input.sizes() : torch::IntArrayRef());
  return torch::nn::functional::linear(input, weight, bias);
}

void LazyLinearImpl::pretty_print(std::ostream& stream) const {
  stream << "tensorplace::nn::LazyLinear(in_features=";
  if (is_materialized()) {
    stream << in_features_;
  } else {
    stream << "<inferred>";
  }
  stream << ", out_features=" << options.out_features() << ", bias=" << std::boolalpha
         << options.bias() << ")";
}

void LazyLinearImpl::to(torch::Device device, torch::Dtype dtype, bool non_blocking) {
  warn_to_before_materialize("LazyLinear", is_materialized());
  Module::to(device, dtype, non_blocking);
}
void LazyLinearImpl::to(torch::Dtype dtype, bool non_blocking) {
  warn_to_before_materialize("LazyLinear", is_materialized());
  Module::to(dtype, non_blocking);
}
void LazyLinearImpl::to(torch::Device device, bool non_blocking) {
  warn_to_before_materialize("LazyLinear", is_materialized());
  Module::to(device, non_blocking);
}

void LazyLinearImpl::load(torch::serialize::InputArchive& archive) {
  auto saved_weight = read_saved(archive, "weight");
  auto saved_bias = read_saved(archive, "bias");
  TORCH_CHECK(saved_weight.defined(), "LazyLinear: the archive has no 'weight'");
  if (saved_weight.numel() == 0 && saved_weight.dim() == 1) {
    TORCH_CHECK(!is_materialized(),
                "LazyLinear: the archive holds an unmaterialised module, this one has "
                "in_features=",
                in_features_);
    return;
  }
  TORCH_CHECK(saved_weight.dim() == 2 && saved_weight.size(0) == options.out_features(),
              "LazyLinear: saved 'weight' should have shape [", options.out_features(),
              ", in_features], got ", saved_weight.sizes());
  if (is_materialized()) {
    copy_saved("LazyLinear", weight, saved_weight);
    copy_saved("LazyLinear", bias, saved_bias);
    return;
  }
  check_no_outside_references("LazyLinear", weight);
  check_no_outside_references("LazyLinear", bias);
  TORCH_CHECK(!options.bias() || saved_bias.defined(), "LazyLinear: the archive has no 'bias'");
  install_saved(weight, saved_weight);
  install_saved(bias, saved_bias);
  in_features_ = saved_weight.size(1);
}

// --- LazyConv --------------------------------------------------------------------------------

namespace {

template <size_t D>
const char* conv_name() {
  return D == 1 ? "LazyConv1d" : D == 2 ? "LazyConv2d" : "LazyConv3d";
}

template <size_t D>
using EagerConv =
    std::conditional_t<D == 1,
                       torch::nn::Conv1d,
                       std::conditional_t<D == 2, torch::nn::Conv2d, torch::nn::Conv3d>>;

template <size_t D>
EagerConv<D> make_eager(const LazyConvOptions<D>& options, int64_t in_channels) {
  return EagerConv<D>(
      torch::nn::ConvOptions<D>(in_channels, options.out_channels(), options.kernel_size())
          .stride(options.stride())
          .padding(options.padding())
          .dilation(options.dilation())
          .groups(options.groups())
          .bias(options.bias())
          .padding_mode(options.padding_mode()));
}

template <size_t D>
torch::Tensor convolve(const torch::Tensor& input,
                       const torch::Tensor& weight,
                       const torch::Tensor& bias,
                       const LazyConvOptions<D>& options,
                       torch::IntArrayRef padding) {
  if constexpr (D == 1) {
    return torch::conv1d(input, weight, bias, options.stride(), padding, options.dilation(),
                         options.groups());
  } else if constexpr (D == 2) {
    return torch::conv2d(input, weight, bias, options.stride(), padding, options.dilation(),
                         options.groups());
  } else {
    return torch::conv3d(input, weight, bias, options.stride(), padding, options.dilation(),
                         options.groups());
  }
}

// The padding mode as F::pad's mode, through the enum's name: the variant types behind both
// differ between LibTorch 1.13 (c10::variant) and 2.x (std::variant).
torch::nn::functional::PadFuncOptions::mode_t pad_mode(const std::string& name) {
  if (name == "kReflect") {
    return torch::kReflect;
  }
  if (name == "kReplicate") {
    return torch::kReplicate;
  }
  TORCH_CHECK(name == "kCircular", "unsupported padding_mode ", name);
  return torch::kCircular;
}

}  // namespace

template <size_t D, typename Derived>
LazyConvImpl<D, Derived>::LazyConvImpl(const LazyConvOptions<D>& options) : options(options) {
  reset();
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::reset() {
  TORCH_CHECK(options.groups() > 0, conv_name<D>(), ": groups should be positive, got ",
              options.groups());
  TORCH_CHECK(options.out_channels() % options.groups() == 0, conv_name<D>(),
              ": out_channels should be divisible by groups=", options.groups(), ", got ",
              options.out_channels());
  weight.bind(this, "weight", placeholder());
  bias.bind(this, "bias", options.bias() ? placeholder() : torch::Tensor(), options.bias());
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::reset_parameters() {
  TORCH_CHECK(is_materialized(), conv_name<D>(),
              ": reset_parameters() needs a materialised module");
  auto eager = make_eager<D>(options, in_channels_);
  torch::NoGradGuard no_grad;
  weight->copy_(eager->weight);
  if (options.bias()) {
    bias->copy_(eager->bias);
  }
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::materialize(const torch::Tensor& input) {
  check_input(conv_name<D>(), input);
  TORCH_CHECK(input.dim() == D + 1 || input.dim() == D + 2, conv_name<D>(), ": input should have ",
              D + 1, " (unbatched) or ", D + 2, " (batched) dimensions, got input of shape ",
              input.sizes());
  const int64_t in_channels = input.size(input.dim() == D + 2 ? 1 : 0);
  TORCH_CHECK(in_channels % options.groups() == 0, conv_name<D>(),
              ": input should have a channel count divisible by groups=", options.groups(),
              ", got input of shape ", input.sizes());
  check_no_outside_references(conv_name<D>(), weight);
  check_no_outside_references(conv_name<D>(), bias);
  auto eager = make_eager<D>(options, in_channels);
  torch::NoGradGuard no_grad;
  weight = adopt(eager->weight, input);
  if (options.bias()) {
    bias = adopt(eager->bias, input);
  }
  in_channels_ = in_channels;
}

template <size_t D, typename Derived>
torch::Tensor LazyConvImpl<D, Derived>::forward(const torch::Tensor& input) {
  if (!is_materialized()) {
    materialize(input);
  }
  const bool shape_ok = input.defined() && (input.dim() == D + 1 || input.dim() == D + 2) &&
                        input.size(input.dim() == D + 2 ? 1 : 0) == in_channels_;
  TORCH_CHECK(shape_ok, conv_name<D>(), ": input should have ", in_channels_,
              " channels (the number the module was materialised with) in a ", D + 1, "-d or ",
              D + 2, "-d tensor, got input of shape ",
              input.defined() ? input.sizes() : torch::IntArrayRef());
  const std::string mode = torch::enumtype::get_enum_name(options.padding_mode());
  if (mode == "kZeros") {
    return convolve<D>(input, weight, bias, options, options.padding());
  }
  // As torch::nn::ConvNd does: pad explicitly, then convolve without padding.
  std::vector<int64_t> pad;
  for (size_t i = D; i-- > 0;) {
    pad.push_back((*options.padding())[i]);
    pad.push_back((*options.padding())[i]);
  }
  auto padded = torch::nn::functional::pad(
      input, torch::nn::functional::PadFuncOptions(pad).mode(pad_mode(mode)));
  return convolve<D>(padded, weight, bias, options, torch::ExpandingArray<D>(0));
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "tensorplace::nn::" << conv_name<D>() << "(in_channels=";
  if (is_materialized()) {
    stream << in_channels_;
  } else {
    stream << "<inferred>";
  }
  stream << ", out_channels=" << options.out_channels() << ", kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride();
  if (*options.padding() != *torch::ExpandingArray<D>(0)) {
    stream << ", padding=" << options.padding();
  }
  if (*options.dilation() != *torch::ExpandingArray<D>(1)) {
    stream << ", dilation=" << options.dilation();
  }
  if (options.groups() != 1) {
    stream << ", groups=" << options.groups();
  }
  if (!options.bias()) {
    stream << ", bias=false";
  }
  const std::string mode = torch::enumtype::get_enum_name(options.padding_mode());
  if (mode != "kZeros") {
    stream << ", padding_mode=" << mode;
  }
  stream << ")";
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::to(torch::Device device, torch::Dtype dtype, bool non_blocking) {
  warn_to_before_materialize(conv_name<D>(), is_materialized());
  torch::nn::Module::to(device, dtype, non_blocking);
}
template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::to(torch::Dtype dtype, bool non_blocking) {
  warn_to_before_materialize(conv_name<D>(), is_materialized());
  torch::nn::Module::to(dtype, non_blocking);
}
template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::to(torch::Device device, bool non_blocking) {
  warn_to_before_materialize(conv_name<D>(), is_materialized());
  torch::nn::Module::to(device, non_blocking);
}

template <size_t D, typename Derived>
void LazyConvImpl<D, Derived>::load(torch::serialize::InputArchive& archive) {
  auto saved_weight = read_saved(archive, "weight");
  auto saved_bias = read_saved(archive, "bias");
  TORCH_CHECK(saved_weight.defined(), conv_name<D>(), ": the archive has no 'weight'");
  if (saved_weight.numel() == 0 && saved_weight.dim() == 1) {
    TORCH_CHECK(
        !is_materialized(), conv_name<D>(),
        ": the archive holds an unmaterialised module, this one has in_channels=", in_channels_);
    return;
  }
  TORCH_CHECK(saved_weight.dim() == D + 2 && saved_weight.size(0) == options.out_channels(),
              conv_name<D>(), ": saved 'weight' should have ", D + 2, " dimensions and ",
              options.out_channels(), " output channels, got shape ", saved_weight.sizes());
  if (is_materialized()) {
    copy_saved(conv_name<D>(), weight, saved_weight);
    copy_saved(conv_name<D>(), bias, saved_bias);
    return;
  }
  check_no_outside_references(conv_name<D>(), weight);
  check_no_outside_references(conv_name<D>(), bias);
  TORCH_CHECK(!options.bias() || saved_bias.defined(), conv_name<D>(),
              ": the archive has no 'bias'");
  install_saved(weight, saved_weight);
  install_saved(bias, saved_bias);
  in_channels_ = saved_weight.size(1) * options.groups();
}

template class LazyConvImpl<1, LazyConv1dImpl>;
template class LazyConvImpl<2, LazyConv2dImpl>;
template class LazyConvImpl<3, LazyConv3dImpl>;

// --- materialize -----------------------------------------------------------------------------

std::vector<std::string> unmaterialized_modules(const torch::nn::Module& module) {
  std::vector<std::string> names;
  auto visit = [&](const std::string& name, const torch::nn::Module& m) {
    if (const auto* lazy = dynamic_cast<const LazyModule*>(&m)) {
      if (!lazy->is_materialized()) {
        names.push_back(name);
      }
    }
  };
  visit("", module);
  for (const auto& item : module.named_modules(/*name_prefix=*/"", /*include_self=*/false)) {
    visit(item.key(), *item.value());
  }
  return names;
}

namespace detail {

void check_materialized(const torch::nn::Module& module) {
  const auto names = unmaterialized_modules(module);
  if (names.empty()) {
    return;
  }
  std::ostringstream list;
  for (const auto& name : names) {
    list << "\n  " << (name.empty() ? "<the module itself>" : name);
  }
  TORCH_CHECK(false, "materialize: the forward did not reach ", names.size(), " lazy module(s) of ",
              module.name(), ", which stay unmaterialised:", list.str(),
              "\npass example inputs that make forward() call them");
}

EvalModeGuard::EvalModeGuard(torch::nn::Module& module)
    : module_(module), was_training_(module.is_training()) {
  for (const auto& child : module.modules(/*include_self=*/false)) {
    children_.emplace_back(child, child->is_training());
  }
  module.eval();
}

EvalModeGuard::~EvalModeGuard() {
  // Pre-order: a parent's train() resets its subtree, and its descendants come after it.
  module_.train(was_training_);
  for (const auto& child : children_) {
    child.first->train(child.second);
  }
}

}  // namespace detail
}  // namespace nn
}  // namespace tensorplace
