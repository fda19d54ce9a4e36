#pragma once

// Access to the storage behind a module's registered parameters, buffers and children.
//
// LibTorch keeps registered state in `Module::parameters_`, `buffers_` and `children_` and hands
// out copies (`named_buffers()`) or a reference that the next registration may invalidate (the
// `Tensor&` returned by `register_buffer`, which points into a std::vector). The members in
// <tensorplace/nn/member.h> must read and replace the registered slot itself, so these functions
// look it up by name every time.

#include <torch/nn/module.h>
#include <torch/ordered_dict.h>

#include <memory>
#include <string>

namespace tensorplace {
namespace detail {

using TensorSlots = torch::OrderedDict<std::string, torch::Tensor>;
using ModuleSlots = torch::OrderedDict<std::string, std::shared_ptr<torch::nn::Module>>;

/// The module's own registered parameters, undefined ones included.
TensorSlots& parameter_slots(torch::nn::Module& module);
const TensorSlots& parameter_slots(const torch::nn::Module& module);

/// The module's own registered buffers, undefined ones included.
TensorSlots& buffer_slots(torch::nn::Module& module);
const TensorSlots& buffer_slots(const torch::nn::Module& module);

/// The module's registered children.
ModuleSlots& child_slots(torch::nn::Module& module);
const ModuleSlots& child_slots(const torch::nn::Module& module);

}  // namespace detail
}  // namespace tensorplace
