#include <tensorplace/detail/slots.h>

#include <torch/nn/cloneable.h>

namespace tensorplace {
namespace detail {
struct SlotAccessTag;
}  // namespace detail
}  // namespace tensorplace

// `Module` befriends every specialisation of `Cloneable` (`template <typename Derived> friend
// class Cloneable;`, unchanged from LibTorch 1.0 to 2.x). This specialisation for a tag type that
// nothing else names is the one place that uses the friendship: it hands out the registered
// slots by reference, which no public `Module` function does.
namespace torch {
namespace nn {
template <>
class Cloneable<tensorplace::detail::SlotAccessTag> {
 public:
  static tensorplace::detail::TensorSlots& parameters(Module& module) {
    return module.parameters_;
  }
  static tensorplace::detail::TensorSlots& buffers(Module& module) {
    return module.buffers_;
  }
  static tensorplace::detail::ModuleSlots& children(Module& module) {
    return module.children_;
  }
};
}  // namespace nn
}  // namespace torch

namespace tensorplace {
namespace detail {
namespace {
using Access = torch::nn::Cloneable<SlotAccessTag>;
torch::nn::Module& mutable_module(const torch::nn::Module& module) {
  return const_cast<torch::nn::Module&>(module);
}
}  // namespace

TensorSlots& parameter_slots(torch::nn::Module& module) {
  return Access::parameters(module);
}
const TensorSlots& parameter_slots(const torch::nn::Module& module) {
  return Access::parameters(mutable_module(module));
}
TensorSlots& buffer_slots(torch::nn::Module& module) {
  return Access::buffers(module);
}
const TensorSlots& buffer_slots(const torch::nn::Module& module) {
  return Access::buffers(mutable_module(module));
}
ModuleSlots& child_slots(torch::nn::Module& module) {
  return Access::children(module);
}
const ModuleSlots& child_slots(const torch::nn::Module& module) {
  return Access::children(mutable_module(module));
}

}  // namespace detail
}  // namespace tensorplace
