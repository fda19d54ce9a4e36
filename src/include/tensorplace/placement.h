#pragma once

// The placement audit: where a module's tensors live, and checks that say which tensor or input
// is on the wrong device by name, instead of LibTorch's anonymous "Expected all tensors to be on
// the same device".

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tensorplace {

enum class TensorKind { parameter, buffer };

/// One registered parameter or buffer of a module tree.
struct PlacementEntry {
  /// Qualified name, as in `named_parameters()`: "encoder.fc.weight".
  std::string name;
  TensorKind kind;
  torch::Device device;
  torch::ScalarType dtype;
  std::vector<int64_t> shape;
  /// numel() * element_size(): the bytes of the tensor's elements (views of one storage are
  /// each counted).
  int64_t bytes;
};

/// The entries on one device, in registration order.
struct DeviceGroup {
  torch::Device device;
  std::vector<PlacementEntry> entries;
  int64_t parameter_count = 0;
  int64_t buffer_count = 0;
  int64_t bytes = 0;
};

/// Every defined parameter and buffer of a module tree, grouped by device. Undefined (absent
/// optional) tensors are left out, as `parameters()`/`buffers()` leave them out.
struct PlacementReport {
  std::string module_name;
  /// Groups in order of first appearance.
  std::vector<DeviceGroup> groups;
  int64_t bytes = 0;

  /// All entries, group by group.
  std::vector<PlacementEntry> entries() const;
  std::vector<torch::Device> devices() const;
  /// The group for `device`, or nullptr.
  const DeviceGroup* find(const torch::Device& device) const;
  /// The report as an aligned table with one row per tensor and a total per device.
  std::string to_string() const;
};

std::ostream& operator<<(std::ostream& stream, const PlacementReport& report);
const char* to_string(TensorKind kind);

PlacementReport placement_report(const torch::nn::Module& module);
template <typename M>
PlacementReport placement_report(const torch::nn::ModuleHolder<M>& module) {
  return placement_report(*module);
}

/// Parses a device string, with a TORCH_CHECK that names `argument` when it does not parse.
torch::Device parse_device(const std::string& device, const char* argument = "device");

/// Throws a c10::Error listing, by qualified name, every parameter and buffer of `module` that
/// is not on `device`. A device without an index ("cuda") matches every index of its type.
void expect_on_device(const torch::nn::Module& module, const torch::Device& device);
void expect_on_device(const torch::nn::Module& module, const std::string& device);
template <typename M>
void expect_on_device(const torch::nn::ModuleHolder<M>& module, const torch::Device& device) {
  expect_on_device(*module, device);
}
template <typename M>
void expect_on_device(const torch::nn::ModuleHolder<M>& module, const std::string& device) {
  expect_on_device(*module, device);
}

/// A forward input and the name to report it by.
struct NamedInput {
  std::string_view name;
  torch::Tensor tensor;
};

/// The device every defined parameter and buffer of `module` is on, or nullopt for a module
/// without tensors. Throws, naming the devices, if they are on several.
c10::optional<torch::Device> module_device(const torch::nn::Module& module);

/// Throws if a named input is undefined or not on the module's device, naming the input, its
/// device and the module's device. For a module without tensors the inputs must agree with each
/// other.
///
///   tensorplace::check_inputs(*model, {{"input", x}, {"mask", mask}});
void check_inputs(const torch::nn::Module& module, std::initializer_list<NamedInput> inputs);
void check_inputs(const torch::nn::Module& module, const std::vector<NamedInput>& inputs);
template <typename M>
void check_inputs(const torch::nn::ModuleHolder<M>& module,
                  std::initializer_list<NamedInput> inputs) {
  check_inputs(*module, inputs);
}

}  // namespace tensorplace
