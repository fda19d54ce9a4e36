#include <tensorplace/placement.h>

#include <c10/util/Exception.h>

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace tensorplace {
namespace {

bool device_matches(const torch::Device& actual, const torch::Device& expected) {
  return actual.type() == expected.type() &&
         (!expected.has_index() || actual.index() == expected.index());
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    out << (i ? ", " : "") << shape[i];
  }
  out << "]";
  return out.str();
}

std::string device_string(const torch::Device& device) {
  std::ostringstream out;
  out << device;
  return out.str();
}

std::string dtype_string(torch::ScalarType dtype) {
  return c10::toString(dtype);
}

std::string bytes_string(int64_t bytes) {
  std::ostringstream out;
  if (bytes < 1024) {
    out << bytes << " B";
  } else if (bytes < (int64_t(1) << 20)) {
    out << std::fixed << std::setprecision(1) << bytes / 1024.0 << " KiB";
  } else {
    out << std::fixed << std::setprecision(1) << bytes / double(int64_t(1) << 20) << " MiB";
  }
  return out.str();
}

PlacementEntry make_entry(const std::string& name, TensorKind kind, const torch::Tensor& tensor) {
  return PlacementEntry{
      name,
      kind,
      tensor.device(),
      tensor.scalar_type(),
      tensor.sizes().vec(),
      static_cast<int64_t>(tensor.numel()) * static_cast<int64_t>(tensor.element_size())};
}

void add_entry(PlacementReport& report, PlacementEntry entry) {
  auto group = std::find_if(report.groups.begin(), report.groups.end(),
                            [&](const DeviceGroup& g) { return g.device == entry.device; });
  if (group == report.groups.end()) {
    report.groups.push_back(DeviceGroup{entry.device, {}, 0, 0, 0});
    group = std::prev(report.groups.end());
  }
  (entry.kind == TensorKind::parameter ? group->parameter_count : group->buffer_count) += 1;
  group->bytes += entry.bytes;
  report.bytes += entry.bytes;
  group->entries.push_back(std::move(entry));
}

}  // namespace

const char* to_string(TensorKind kind) {
  return kind == TensorKind::parameter ? "parameter" : "buffer";
}

std::vector<PlacementEntry> PlacementReport::entries() const {
  std::vector<PlacementEntry> all;
  for (const auto& group : groups) {
    all.insert(all.end(), group.entries.begin(), group.entries.end());
  }
  return all;
}

std::vector<torch::Device> PlacementReport::devices() const {
  std::vector<torch::Device> devices;
  for (const auto& group : groups) {
    devices.push_back(group.device);
  }
  return devices;
}

const DeviceGroup* PlacementReport::find(const torch::Device& device) const {
  for (const auto& group : groups) {
    if (group.device == device) {
      return &group;
    }
  }
  return nullptr;
}

std::string PlacementReport::to_string() const {
  const std::vector<std::string> header = {"name", "kind", "device", "dtype", "shape", "bytes"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& group : groups) {
    for (const auto& entry : group.entries) {
      rows.push_back({entry.name, tensorplace::to_string(entry.kind), device_string(entry.device),
                      dtype_string(entry.dtype), shape_string(entry.shape),
                      bytes_string(entry.bytes)});
    }
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::ostringstream out;
  auto print_row = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size(); ++c) {
      const bool right = c == row.size() - 1;
      out << (c ? "  " : "") << (right ? std::right : std::left)
          << std::setw(static_cast<int>(width[c])) << row[c];
    }
    out << "\n";
  };
  out << "placement of " << module_name << ": " << bytes_string(bytes) << " on " << groups.size()
      << (groups.size() == 1 ? " device" : " devices") << "\n";
  print_row(header);
  size_t row_index = 0;
  for (const auto& group : groups) {
    for (size_t i = 0; i < group.entries.size(); ++i) {
      print_row(rows[row_index++]);
    }
    out << "  total on " << group.device << ": " << group.parameter_count << " parameters, "
        << group.buffer_count << " buffers, " << bytes_string(group.bytes) << "\n";
  }
  return out.str();
}

std::ostream& operator<<(std::ostream& stream, const PlacementReport& report) {
  return stream << report.to_string();
}

PlacementReport placement_report(const torch::nn::Module& module) {
  PlacementReport report;
  report.module_name = module.name();
  for (const auto& item : module.named_parameters(/*recurse=*/true)) {
    add_entry(report, make_entry(item.key(), TensorKind::parameter, item.value()));
  }
  for (const auto& item : module.named_buffers(/*recurse=*/true)) {
    add_entry(report, make_entry(item.key(), TensorKind::buffer, item.value()));
  }
  return report;
}

torch::Device parse_device(const std::string& device, const char* argument) {
  c10::optional<torch::Device> parsed;
  try {
    parsed = torch::Device(device);
  } catch (const c10::Error&) {
  }
  TORCH_CHECK(parsed.has_value(), argument,
              " should be a device such as 'cpu', 'cuda' or 'cuda:1', got '", device, "'");
  return *parsed;
}

void expect_on_device(const torch::nn::Module& module, const torch::Device& device) {
  const auto report = placement_report(module);
  std::ostringstream misplaced;
  size_t count = 0;
  size_t total = 0;
  for (const auto& group : report.groups) {
    total += group.entries.size();
    if (device_matches(group.device, device)) {
      continue;
    }
    for (const auto& entry : group.entries) {
      misplaced << "\n  " << entry.name << " (" << to_string(entry.kind) << ") on " << entry.device;
      ++count;
    }
  }
  TORCH_CHECK(count == 0, "expect_on_device: ", count, " of ", total, " tensors of module ",
              report.module_name, " are not on ", device, ":", misplaced.str());
}

void expect_on_device(const torch::nn::Module& module, const std::string& device) {
  expect_on_device(module, parse_device(device));
}

c10::optional<torch::Device> module_device(const torch::nn::Module& module) {
  c10::optional<torch::Device> found;
  std::string first_name;
  auto visit = [&](const std::string& name, const torch::Tensor& tensor) {
    if (!found) {
      found = tensor.device();
      first_name = name;
      return;
    }
    TORCH_CHECK(tensor.device() == *found, "module ", module.name(),
                " has tensors on several devices ('", first_name, "' on ", *found, ", '", name,
                "' on ", tensor.device(), "); check its inputs against an explicit device");
  };
  for (const auto& item : module.named_parameters(/*recurse=*/true)) {
    visit(item.key(), item.value());
  }
  for (const auto& item : module.named_buffers(/*recurse=*/true)) {
    visit(item.key(), item.value());
  }
  return found;
}

void check_inputs(const torch::nn::Module& module, const std::vector<NamedInput>& inputs) {
  for (const auto& input : inputs) {
    TORCH_CHECK(input.tensor.defined(), "check_inputs: input '", input.name, "' of module ",
                module.name(), " should be a defined tensor, got an undefined one");
  }
  const auto expected = module_device(module);
  if (expected) {
    for (const auto& input : inputs) {
      TORCH_CHECK(input.tensor.device() == *expected, "input '", input.name, "' is on ",
                  input.tensor.device(), " but module ", module.name(), " is on ", *expected,
                  "; move it with .to(", *expected, ") or tensorplace::to_device");
    }
    return;
  }
  for (const auto& input : inputs) {
    const auto& first = inputs.front();
    TORCH_CHECK(input.tensor.device() == first.tensor.device(), "input '", input.name, "' is on ",
                input.tensor.device(), " but input '", first.name, "' of module ", module.name(),
                " is on ", first.tensor.device());
  }
}

void check_inputs(const torch::nn::Module& module, std::initializer_list<NamedInput> inputs) {
  check_inputs(module, std::vector<NamedInput>(inputs));
}

}  // namespace tensorplace
