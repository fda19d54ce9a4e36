#pragma once

// `DeviceChecked<M>`: a module that checks its tensor inputs against the wrapped module's device
// before calling `M::forward`, and names the input that is misplaced.

#include <tensorplace/nn/member.h>
#include <tensorplace/placement.h>

#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tensorplace {
namespace nn {

/// Wraps the module held by `M` (a holder such as `torch::nn::Linear`) as the child "module", so
/// qualified names gain a "module." prefix. `input_names` names the positional arguments of
/// `forward` in error messages; arguments beyond it are called "argument <i>". Undefined tensor
/// arguments (absent optional inputs) are not checked; non-tensor arguments are ignored.
///
/// The check reads every parameter and buffer of the wrapped module on each call: it is a
/// debugging aid, costing microseconds per call for small modules.
template <typename M>
class DeviceCheckedImpl : public torch::nn::Cloneable<DeviceCheckedImpl<M>> {
 public:
  explicit DeviceCheckedImpl(M wrapped, std::vector<std::string> input_names = {})
      : input_names_(std::move(input_names)) {
    module.bind(this, "module", wrapped);
  }

  /// The wrapped module is given, not built, so it is registered by the constructor; `clone()`
  /// is overridden and never calls `reset()`.
  void reset() override {}

  /// A deep copy whose wrapped module is `M`'s own clone.
  std::shared_ptr<torch::nn::Module> clone(
      const c10::optional<torch::Device>& device = c10::nullopt) const override {
    auto cloned = std::dynamic_pointer_cast<typename M::ContainedType>(module->clone(device));
    auto copy = std::make_shared<DeviceCheckedImpl>(M(cloned), input_names_);
    copy->train(this->is_training());
    return copy;
  }

  template <typename... Args>
  decltype(auto) forward(Args&&... args) {
    std::vector<std::string> names;
    std::vector<NamedInput> inputs;
    names.reserve(sizeof...(Args));
    inputs.reserve(sizeof...(Args));
    size_t index = 0;
    (collect(names, inputs, index++, args), ...);
    for (size_t i = 0; i < inputs.size(); ++i) {
      inputs[i].name = names[i];
    }
    check_inputs(*module, inputs);
    return module->forward(std::forward<Args>(args)...);
  }

  void pretty_print(std::ostream& stream) const override {
    stream << "tensorplace::nn::DeviceChecked";
  }

  Submodule<M> module;

 private:
  template <typename Arg>
  void collect(std::vector<std::string>& names,
               std::vector<NamedInput>& inputs,
               size_t index,
               const Arg& arg) const {
    if constexpr (std::is_convertible<const Arg&, const torch::Tensor&>::value) {
      const torch::Tensor& tensor = arg;
      if (tensor.defined()) {
        names.push_back(index < input_names_.size() ? input_names_[index]
                                                    : "argument " + std::to_string(index));
        inputs.push_back(NamedInput{{}, tensor});
      }
    }
  }

  std::vector<std::string> input_names_;
};

/// The holder of `DeviceCheckedImpl<M>`:
///
///   tensorplace::nn::DeviceChecked<torch::nn::Linear> fc(torch::nn::Linear(3, 4), {"input"});
///   fc(x);   // throws "input 'input' is on cpu but module ... is on cuda:0 ..." if misplaced
template <typename M>
class DeviceChecked : public torch::nn::ModuleHolder<DeviceCheckedImpl<M>> {
 public:
  using torch::nn::ModuleHolder<DeviceCheckedImpl<M>>::ModuleHolder;
  DeviceChecked(M module, std::vector<std::string> input_names = {})
      : torch::nn::ModuleHolder<DeviceCheckedImpl<M>>(
            std::make_shared<DeviceCheckedImpl<M>>(std::move(module), std::move(input_names))) {}

  /// `ModuleHolder::operator()` only sees a non-template `forward`; this one calls the checked,
  /// variadic forward.
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return this->get()->forward(std::forward<Args>(args)...);
  }
};

}  // namespace nn
}  // namespace tensorplace
