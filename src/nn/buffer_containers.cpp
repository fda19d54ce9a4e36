#include <tensorplace/nn/buffer_containers.h>

#include <torch/types.h>

#include <c10/util/Exception.h>

namespace tensorplace {
namespace nn {
namespace {

torch::Tensor copy_for_clone(const torch::Tensor& tensor,
                             const c10::optional<torch::Device>& device) {
  if (!tensor.defined()) {
    return tensor;
  }
  return device && tensor.device() != *device ? tensor.to(*device) : tensor.clone();
}

// Module::save writes only the defined buffers and Module::load reads only the buffers that are
// registered and defined already, so a fresh container would load nothing and an undefined
// element would vanish. The containers save their layout beside the buffers, under a name that
// no buffer can have (buffer names contain no '.').
constexpr const char* kListSizeKey = "tensorplace.size";
constexpr const char* kDictKeysKey = "tensorplace.keys";

// The saved buffer `key`, undefined if the archive has none (it was undefined when saved). Loaded
// into `slot` in place when that can be done as Module::load does it, so that references to the
// registered buffer see the loaded values.
torch::Tensor read_buffer(torch::serialize::InputArchive& archive,
                          const std::string& key,
                          const torch::Tensor* slot) {
  torch::Tensor saved;
  if (!archive.try_read(key, saved, /*is_buffer=*/true)) {
    return {};
  }
  if (slot == nullptr || !slot->defined() || slot->scalar_type() != saved.scalar_type() ||
      slot->device() != saved.device()) {
    return saved;
  }
  torch::Tensor in_place = *slot;
  torch::NoGradGuard no_grad;
  in_place.set_(saved);
  return in_place;
}

void print_tensor_summary(std::ostream& stream, const torch::Tensor& tensor) {
  if (!tensor.defined()) {
    stream << "[undefined]";
    return;
  }
  stream << "[" << tensor.scalar_type() << " " << tensor.sizes() << " on " << tensor.device()
         << "]";
}

}  // namespace

BufferListImpl::BufferListImpl(const std::vector<torch::Tensor>& tensors) {
  extend(tensors);
}

std::shared_ptr<torch::nn::Module> BufferListImpl::clone(
    const c10::optional<torch::Device>& device) const {
  torch::NoGradGuard no_grad;
  auto copy = std::make_shared<BufferListImpl>();
  for (const auto& item : *this) {
    copy->append(copy_for_clone(item.value(), device));
  }
  copy->train(is_training());
  return copy;
}

void BufferListImpl::append(torch::Tensor tensor) {
  register_buffer(std::to_string(size()), std::move(tensor));
}

void BufferListImpl::extend(const std::vector<torch::Tensor>& tensors) {
  for (const auto& tensor : tensors) {
    append(tensor);
  }
}

void BufferListImpl::save(torch::serialize::OutputArchive& archive) const {
  Module::save(archive);
  archive.write(kListSizeKey, c10::IValue(static_cast<int64_t>(size())));
}

void BufferListImpl::load(torch::serialize::InputArchive& archive) {
  c10::IValue saved_size;
  if (!archive.try_read(kListSizeKey, saved_size)) {
    // Written by Module::save: only the registered, defined elements can be found again.
    Module::load(archive);
    return;
  }
  TORCH_CHECK(saved_size.isInt() && saved_size.toInt() >= 0, "BufferList: the archive's '",
              kListSizeKey, "' should be a non-negative integer, got ", saved_size.tagKind());
  std::vector<torch::Tensor> loaded;
  for (int64_t i = 0; i < saved_size.toInt(); ++i) {
    const std::string key = std::to_string(i);
    loaded.push_back(read_buffer(archive, key, detail::buffer_slots(*this).find(key)));
  }
  detail::buffer_slots(*this).clear();
  extend(loaded);
}

torch::Tensor& BufferListImpl::operator[](size_t index) {
  return at(index);
}
const torch::Tensor& BufferListImpl::operator[](size_t index) const {
  return at(index);
}

torch::Tensor& BufferListImpl::at(size_t index) {
  TORCH_CHECK(index < size(), "BufferList: index should be less than the list's size ", size(),
              ", got ", index);
  return detail::buffer_slots(*this)[index].value();
}
const torch::Tensor& BufferListImpl::at(size_t index) const {
  return const_cast<BufferListImpl*>(this)->at(index);
}

size_t BufferListImpl::size() const noexcept {
  return detail::buffer_slots(*this).size();
}
bool BufferListImpl::is_empty() const noexcept {
  return size() == 0;
}

BufferListImpl::Iterator BufferListImpl::begin() {
  return detail::buffer_slots(*this).begin();
}
BufferListImpl::Iterator BufferListImpl::end() {
  return detail::buffer_slots(*this).end();
}
BufferListImpl::ConstIterator BufferListImpl::begin() const {
  return detail::buffer_slots(*this).begin();
}
BufferListImpl::ConstIterator BufferListImpl::end() const {
  return detail::buffer_slots(*this).end();
}

void BufferListImpl::pretty_print(std::ostream& stream) const {
  stream << "tensorplace::nn::BufferList(";
  for (const auto& item : *this) {
    stream << "\n  (" << item.key() << "): ";
    print_tensor_summary(stream, item.value());
  }
  stream << (is_empty() ? ")" : "\n)");
}

BufferDictImpl::BufferDictImpl(const std::vector<std::pair<std::string, torch::Tensor>>& items) {
  for (const auto& item : items) {
    insert(item.first, item.second);
  }
}

BufferDictImpl::BufferDictImpl(const torch::OrderedDict<std::string, torch::Tensor>& items) {
  for (const auto& item : items) {
    insert(item.key(), item.value());
  }
}

std::shared_ptr<torch::nn::Module> BufferDictImpl::clone(
    const c10::optional<torch::Device>& device) const {
  torch::NoGradGuard no_grad;
  auto copy = std::make_shared<BufferDictImpl>();
  for (const auto& item : *this) {
    copy->insert(item.key(), copy_for_clone(item.value(), device));
  }
  copy->train(is_training());
  return copy;
}

void BufferDictImpl::insert(const std::string& key, torch::Tensor tensor) {
  TORCH_CHECK(!key.empty() && key.find('.') == std::string::npos,
              "BufferDict: key should be a non-empty name without '.', got '", key, "'");
  if (auto* slot = detail::buffer_slots(*this).find(key)) {
    *slot = std::move(tensor);
  } else {
    register_buffer(key, std::move(tensor));
  }
}

void BufferDictImpl::save(torch::serialize::OutputArchive& archive) const {
  Module::save(archive);
  c10::List<std::string> keys;
  for (const auto& item : *this) {
    keys.push_back(item.key());
  }
  archive.write(kDictKeysKey, c10::IValue(std::move(keys)));
}

void BufferDictImpl::load(torch::serialize::InputArchive& archive) {
  c10::IValue saved_keys;
  if (!archive.try_read(kDictKeysKey, saved_keys)) {
    // Written by Module::save: only the registered, defined buffers can be found again.
    Module::load(archive);
    return;
  }
  TORCH_CHECK(saved_keys.isList(), "BufferDict: the archive's '", kDictKeysKey,
              "' should be a list of keys, got ", saved_keys.tagKind());
  std::vector<std::pair<std::string, torch::Tensor>> loaded;
  for (const c10::IValue& key : saved_keys.toListRef()) {
    TORCH_CHECK(key.isString(), "BufferDict: the archive's '", kDictKeysKey,
                "' should hold strings, got ", key.tagKind());
    const std::string& name = key.toStringRef();
    loaded.emplace_back(name, read_buffer(archive, name, detail::buffer_slots(*this).find(name)));
  }
  clear();
  for (auto& item : loaded) {
    insert(item.first, std::move(item.second));
  }
}

torch::Tensor BufferDictImpl::pop(const std::string& key) {
  TORCH_CHECK(contains(key), "BufferDict: key '", key, "' should be in the dictionary to pop it");
  torch::Tensor tensor = (*this)[key];
  detail::buffer_slots(*this).erase(key);
  return tensor;
}

bool BufferDictImpl::contains(const std::string& key) const {
  return detail::buffer_slots(*this).contains(key);
}

void BufferDictImpl::clear() {
  detail::buffer_slots(*this).clear();
}

torch::Tensor& BufferDictImpl::operator[](const std::string& key) {
  auto* slot = detail::buffer_slots(*this).find(key);
  TORCH_CHECK(slot != nullptr, "BufferDict: key '", key, "' should be in the dictionary");
  return *slot;
}
const torch::Tensor& BufferDictImpl::operator[](const std::string& key) const {
  return (*const_cast<BufferDictImpl*>(this))[key];
}

std::vector<std::string> BufferDictImpl::keys() const {
  return detail::buffer_slots(*this).keys();
}
std::vector<torch::Tensor> BufferDictImpl::values() const {
  return detail::buffer_slots(*this).values();
}
size_t BufferDictImpl::size() const noexcept {
  return detail::buffer_slots(*this).size();
}
bool BufferDictImpl::is_empty() const noexcept {
  return size() == 0;
}

BufferDictImpl::Iterator BufferDictImpl::begin() {
  return detail::buffer_slots(*this).begin();
}
BufferDictImpl::Iterator BufferDictImpl::end() {
  return detail::buffer_slots(*this).end();
}
BufferDictImpl::ConstIterator BufferDictImpl::begin() const {
  return detail::buffer_slots(*this).begin();
}
BufferDictImpl::ConstIterator BufferDictImpl::end() const {
  return detail::buffer_slots(*this).end();
}

void BufferDictImpl::pretty_print(std::ostream& stream) const {
  stream << "tensorplace::nn::BufferDict(";
  for (const auto& item : *this) {
    stream << "\n  (" << item.key() << "): ";
    print_tensor_summary(stream, item.value());
  }
  stream << (is_empty() ? ")" : "\n)");
}

}  // namespace nn
}  // namespace tensorplace
