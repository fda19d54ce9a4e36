#pragma once

// `BufferList` and `BufferDict`: containers whose elements are registered buffers, the
// counterparts of `torch::nn::ParameterList` / `ParameterDict` for state that is not trained.
// Elements may be undefined tensors (optional state stays registered).

#include <tensorplace/detail/slots.h>

#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <c10/util/Optional.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tensorplace {
namespace nn {

/// A list of buffers registered under the names "0", "1", ...
///
///   tensorplace::nn::BufferList anchors{torch::zeros({4}), torch::ones({4})};
///   anchors->append(torch::full({4}, 2.0));
///   anchors[0] = torch::eye(4)[0];   // replaces the registered buffer
class BufferListImpl : public torch::nn::Cloneable<BufferListImpl> {
 public:
  using Iterator = detail::TensorSlots::Iterator;
  using ConstIterator = detail::TensorSlots::ConstIterator;

  BufferListImpl() = default;
  explicit BufferListImpl(const std::vector<torch::Tensor>& tensors);

  /// Registration happens in `append()`; `clone()` is overridden to copy the elements.
  void reset() override {}

  /// A deep copy: every defined buffer is cloned (or moved to `device`).
  std::shared_ptr<torch::nn::Module> clone(
      const c10::optional<torch::Device>& device = c10::nullopt) const override;

  void append(torch::Tensor tensor);
  void extend(const std::vector<torch::Tensor>& tensors);

  /// Saves the elements and the list's size, so that loading restores undefined elements too.
  void save(torch::serialize::OutputArchive& archive) const override;
  /// Replaces the elements with the saved ones: a fresh, empty list loads every saved element.
  /// A defined element of the saved dtype and device is loaded in place (as Module::load does).
  void load(torch::serialize::InputArchive& archive) override;

  /// The registered buffer at `index`; assigning to it replaces the registered buffer. Like a
  /// std::vector reference, it is invalidated by `append()`.
  torch::Tensor& operator[](size_t index);
  const torch::Tensor& operator[](size_t index) const;
  torch::Tensor& at(size_t index);
  const torch::Tensor& at(size_t index) const;

  size_t size() const noexcept;
  bool is_empty() const noexcept;

  Iterator begin();
  Iterator end();
  ConstIterator begin() const;
  ConstIterator end() const;

  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(BufferList);

/// An ordered dictionary of buffers registered under their keys (which may not contain '.').
///
///   tensorplace::nn::BufferDict stats;
///   stats->insert("mean", torch::zeros({8}));
///   stats["mean"] = stats["mean"] * 0.9;   // replaces the registered buffer
class BufferDictImpl : public torch::nn::Cloneable<BufferDictImpl> {
 public:
  using Iterator = detail::TensorSlots::Iterator;
  using ConstIterator = detail::TensorSlots::ConstIterator;

  BufferDictImpl() = default;
  explicit BufferDictImpl(const std::vector<std::pair<std::string, torch::Tensor>>& items);
  explicit BufferDictImpl(const torch::OrderedDict<std::string, torch::Tensor>& items);

  void reset() override {}

  /// A deep copy: every defined buffer is cloned (or moved to `device`).
  std::shared_ptr<torch::nn::Module> clone(
      const c10::optional<torch::Device>& device = c10::nullopt) const override;

  /// Registers `tensor` under `key`, or replaces the buffer already registered there.
  void insert(const std::string& key, torch::Tensor tensor);
  /// Saves the buffers and the dictionary's keys in order, undefined buffers' keys included.
  void save(torch::serialize::OutputArchive& archive) const override;
  /// Replaces the contents with the saved ones: a fresh, empty dictionary loads every saved
  /// buffer. A defined buffer of the saved dtype and device is loaded in place.
  void load(torch::serialize::InputArchive& archive) override;

  /// Removes the buffer under `key` and returns it.
  torch::Tensor pop(const std::string& key);
  bool contains(const std::string& key) const;
  void clear();

  /// The registered buffer under `key` (which must exist); assigning to it replaces it.
  torch::Tensor& operator[](const std::string& key);
  const torch::Tensor& operator[](const std::string& key) const;

  std::vector<std::string> keys() const;
  std::vector<torch::Tensor> values() const;
  size_t size() const noexcept;
  bool is_empty() const noexcept;

  Iterator begin();
  Iterator end();
  ConstIterator begin() const;
  ConstIterator end() const;

  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(BufferDict);

}  // namespace nn
}  // namespace tensorplace
