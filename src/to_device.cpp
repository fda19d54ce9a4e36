#include <tensorplace/to_device.h>

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cstring>

namespace tensorplace {
namespace detail {
namespace {

// Each packed tensor starts on this boundary, which suits every dtype and the vectorised loads
// of CUDA kernels.
constexpr int64_t kPackAlignment = 64;

int64_t tensor_bytes(const torch::Tensor& tensor) {
  return static_cast<int64_t>(tensor.numel()) * static_cast<int64_t>(tensor.element_size());
}

bool coalescable(const torch::Tensor& tensor,
                 const torch::Device& device,
                 const ToDeviceOptions& options) {
  return device.is_cuda() && tensor.device().is_cpu() && tensor.layout() == torch::kStrided &&
         !tensor.is_quantized() && !tensor.requires_grad() &&
         tensor_bytes(tensor) <= options.coalesce_threshold();
}

std::vector<int64_t> packed_strides(torch::IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  return strides;
}

}  // namespace

torch::Device normalize_device(torch::Device device) {
  if (device.is_cuda() && !device.has_index()) {
    return c10::impl::getDeviceGuardImpl(device.type())->getDevice();
  }
  return device;
}

c10::IValue map_ivalue(const c10::IValue& value, TensorVisitor& visitor) {
  if (value.isTensor()) {
    const auto& tensor = value.toTensor();
    return tensor.defined() ? c10::IValue(visitor.visit(tensor)) : value;
  }
  if (value.isList()) {
    auto list = value.toList();
    c10::impl::GenericList result(list.elementType());
    result.reserve(list.size());
    for (const c10::IValue& element : list) {
      result.push_back(map_ivalue(element, visitor));
    }
    return result;
  }
  if (value.isGenericDict()) {
    auto dict = value.toGenericDict();
    c10::impl::GenericDict result(dict.keyType(), dict.valueType());
    result.reserve(dict.size());
    for (const auto& item : dict) {
      result.insert(item.key(), map_ivalue(item.value(), visitor));
    }
    return result;
  }
  if (value.isTuple()) {
    std::vector<c10::IValue> elements;
    for (const auto& element : value.toTupleRef().elements()) {
      elements.push_back(map_ivalue(element, visitor));
    }
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  return value;
}

std::vector<torch::Tensor> coalesced_copy(const std::vector<torch::Tensor>& tensors,
                                          torch::Device device,
                                          const ToDeviceOptions& options) {
  std::vector<int64_t> offsets;
  offsets.reserve(tensors.size());
  int64_t total = 0;
  for (const auto& tensor : tensors) {
    TORCH_CHECK(tensor.defined() && tensor.device().is_cpu(),
                "coalesced_copy: tensors should be defined CPU tensors");
    offsets.push_back(total);
    total += (tensor_bytes(tensor) + kPackAlignment - 1) / kPackAlignment * kPackAlignment;
  }
  // Pinned memory comes from LibTorch's caching host allocator: blocks are reused across
  // calls, and a block read by an asynchronous copy is handed out again only after that copy
  // has completed (the allocator records an event on the copy's stream).
  auto staging = torch::empty(
      {total}, torch::TensorOptions().dtype(torch::kByte).pinned_memory(device.is_cuda()));
  auto* base = static_cast<uint8_t*>(staging.data_ptr());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& tensor = tensors[i];
    if (tensor.is_contiguous() && !tensor.is_conj() && !tensor.is_neg()) {
      if (tensor_bytes(tensor) > 0) {
        std::memcpy(base + offsets[i], tensor.data_ptr(), tensor_bytes(tensor));
      }
    } else {
      torch::empty({0}, tensor.options())
          .set_(staging.storage(), offsets[i] / tensor.element_size(), tensor.sizes())
          .copy_(tensor);
    }
  }
  auto on_device = torch::empty({total}, torch::TensorOptions().dtype(torch::kByte).device(device));
  on_device.copy_(staging, options.non_blocking());

  // One typed alias of the whole allocation per dtype; each result is then a single as_strided
  // view of it (cheaper than building every view from the storage).
  std::vector<std::pair<caffe2::TypeMeta, torch::Tensor>> aliases;
  auto alias_for = [&](const torch::Tensor& tensor) -> const torch::Tensor& {
    for (const auto& alias : aliases) {
      if (alias.first == tensor.dtype()) {
        return alias.second;
      }
    }
    const int64_t elements = total / static_cast<int64_t>(tensor.element_size());
    aliases.emplace_back(
        tensor.dtype(),
        torch::empty({0}, torch::TensorOptions().dtype(tensor.dtype()).device(device))
            .set_(on_device.storage(), 0, {elements}));
    return aliases.back().second;
  };
  std::vector<torch::Tensor> result;
  result.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& tensor = tensors[i];
    auto view = alias_for(tensor).as_strided(tensor.sizes(), packed_strides(tensor.sizes()),
                                             offsets[i] / tensor.element_size());
    result.push_back(options.share_allocation() ? std::move(view) : view.clone());
  }
  return result;
}

std::vector<torch::Tensor> move_tensors(const std::vector<torch::Tensor>& tensors,
                                        torch::Device device,
                                        const ToDeviceOptions& options) {
  TORCH_CHECK(options.coalesce_threshold() >= 0,
              "to_device: options.coalesce_threshold should be at least 0, got ",
              options.coalesce_threshold());
  device = normalize_device(device);
  std::vector<torch::Tensor> result(tensors.size());
  std::vector<size_t> packed;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& tensor = tensors[i];
    if (!tensor.defined() || tensor.device() == device) {
      result[i] = tensor;
    } else if (coalescable(tensor, device, options)) {
      packed.push_back(i);
    } else {
      result[i] = tensor.to(device, options.non_blocking());
    }
  }
  if (packed.size() == 1) {
    result[packed[0]] = tensors[packed[0]].to(device, options.non_blocking());
  } else if (packed.size() > 1) {
    std::vector<torch::Tensor> small;
    small.reserve(packed.size());
    for (size_t i : packed) {
      small.push_back(tensors[i]);
    }
    auto moved = coalesced_copy(small, device, options);
    for (size_t k = 0; k < packed.size(); ++k) {
      result[packed[k]] = std::move(moved[k]);
    }
  }
  return result;
}

}  // namespace detail
}  // namespace tensorplace
