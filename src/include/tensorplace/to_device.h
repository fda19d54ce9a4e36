#pragma once

// `tensorplace::to_device(value, device, options)`: `value` with every tensor inside it on
// `device`, whatever containers hold the tensors.
//
// It works in two passes over the value. The first collects the tensors; they are then moved
// together, which lets many small CPU tensors bound for a CUDA device travel in one copy; the
// second pass rebuilds the value around the moved tensors. Types are taken apart and put back
// by `ToDeviceTraits<T>`, the customisation point for user types.

#include <torch/arg.h>
#include <torch/data/example.h>
#include <torch/types.h>

#include <ATen/core/ivalue.h>
#include <c10/core/Device.h>
#include <c10/util/Optional.h>

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tensorplace {

struct ToDeviceOptions {
  /// Copy without waiting for the copy to finish, where the copy allows it (CPU to CUDA from
  /// pinned memory: the coalesced tensors always come from pinned memory; LIBTORCH-FACTS 11).
  TORCH_ARG(bool, non_blocking) = false;
  /// CPU tensors of at most this many bytes bound for a CUDA device are packed into one pinned
  /// staging buffer and sent with one copy; larger tensors are copied one by one. 0 turns
  /// coalescing off.
  TORCH_ARG(int64_t, coalesce_threshold) = int64_t(1) << 20;
  /// Whether the coalesced tensors may come back as views of one device allocation (which lives
  /// as long as any of them). If false, each gets its own allocation, at the cost of one
  /// device-side copy per tensor.
  TORCH_ARG(bool, share_allocation) = true;
};

/// How `to_device` takes a type apart. Specialise it for a type that holds tensors:
///
///   struct Batch { torch::Tensor image; std::vector<torch::Tensor> masks; int64_t id; };
///   template <> struct tensorplace::ToDeviceTraits<Batch> {
///     template <typename Fn>
///     static Batch map(const Batch& b, Fn&& move) {
///       return {move(b.image), move(b.masks), b.id};
///     }
///   };
///
/// `map` must return a copy of the value with every member that may hold tensors replaced by
/// `move(member)`, in the same order each time it is called. A type that holds no tensors can
/// derive its specialisation from `ToDeviceLeaf`, which passes it through. A type with neither
/// is a compile error rather than a silent pass-through: tensors hidden in it would not move.
template <typename T, typename Enable = void>
struct ToDeviceTraits;

/// Passes values of the type through unchanged.
struct ToDeviceLeaf {
  template <typename T, typename Fn>
  static T map(const T& value, Fn&&) {
    return value;
  }
};

namespace detail {

/// Receives each tensor of a value in traversal order and returns its replacement.
class TensorVisitor {
 public:
  virtual ~TensorVisitor() = default;
  virtual torch::Tensor visit(const torch::Tensor& tensor) = 0;
};

template <typename T>
using remove_cvref_t = std::remove_cv_t<std::remove_reference_t<T>>;

template <typename T, typename = void>
struct has_to_device_traits : std::false_type {};
template <typename T>
struct has_to_device_traits<T, std::void_t<decltype(sizeof(ToDeviceTraits<T>))>> : std::true_type {
};

template <typename T>
T map_value(const T& value, TensorVisitor& visitor);

/// The `move` handed to `ToDeviceTraits<T>::map`.
struct MoveFn {
  TensorVisitor* visitor;
  template <typename U>
  remove_cvref_t<U> operator()(const U& value) const {
    return map_value<remove_cvref_t<U>>(value, *visitor);
  }
};

template <typename T>
T map_value(const T& value, TensorVisitor& visitor) {
  static_assert(has_to_device_traits<T>::value,
                "tensorplace::to_device does not know this type: specialise "
                "tensorplace::ToDeviceTraits<T> (derive it from tensorplace::ToDeviceLeaf if "
                "the type holds no tensors)");
  return ToDeviceTraits<T>::map(value, MoveFn{&visitor});
}

template <typename Container>
Container map_sequence(const Container& value, TensorVisitor& visitor) {
  Container result;
  for (const auto& element : value) {
    result.push_back(map_value<typename Container::value_type>(element, visitor));
  }
  return result;
}

template <typename Map>
Map map_associative(const Map& value, TensorVisitor& visitor) {
  Map result;
  for (const auto& item : value) {
    result.emplace(item.first, map_value<typename Map::mapped_type>(item.second, visitor));
  }
  return result;
}

template <typename T>
struct is_leaf_type
    : std::integral_constant<
          bool,
          std::is_arithmetic<T>::value || std::is_enum<T>::value ||
              std::is_same<T, std::string>::value || std::is_same<T, std::string_view>::value ||
              std::is_same<T, const char*>::value || std::is_same<T, std::nullptr_t>::value ||
              std::is_same<T, std::monostate>::value || std::is_same<T, c10::nullopt_t>::value ||
              std::is_same<T, torch::Device>::value || std::is_same<T, c10::Scalar>::value ||
              std::is_same<T, torch::data::example::NoTarget>::value> {};

/// A c10::IValue: tensors, lists, dicts (values only: tensor keys are kept) and tuples are
/// traversed; everything else passes through.
c10::IValue map_ivalue(const c10::IValue& value, TensorVisitor& visitor);

/// Moves the collected tensors to `device` (see `to_device`). Returns one tensor per input, in
/// order; undefined tensors come back undefined.
std::vector<torch::Tensor> move_tensors(const std::vector<torch::Tensor>& tensors,
                                        torch::Device device,
                                        const ToDeviceOptions& options);

/// Packs `tensors` (CPU tensors) into one staging buffer (pinned when `device` is CUDA), sends
/// it to `device` with one copy and returns views of the copy. Exposed for tests and benchmarks:
/// with `device` = CPU it runs the whole packing path without a GPU.
std::vector<torch::Tensor> coalesced_copy(const std::vector<torch::Tensor>& tensors,
                                          torch::Device device,
                                          const ToDeviceOptions& options);

/// `device` with the current device's index filled in for an indexless CUDA device, as
/// `Tensor::to` does.
torch::Device normalize_device(torch::Device device);

class CollectVisitor final : public TensorVisitor {
 public:
  torch::Tensor visit(const torch::Tensor& tensor) override {
    tensors.push_back(tensor);
    return tensor;
  }
  std::vector<torch::Tensor> tensors;
};

class ReplayVisitor final : public TensorVisitor {
 public:
  explicit ReplayVisitor(std::vector<torch::Tensor> moved) : moved_(std::move(moved)) {}
  torch::Tensor visit(const torch::Tensor&) override {
    return std::move(moved_.at(next_++));
  }

 private:
  std::vector<torch::Tensor> moved_;
  size_t next_ = 0;
};

}  // namespace detail

/// `value` with every tensor inside it on `device`. Tensors already there come back as they are
/// (the same tensor objects, no copy); undefined tensors come back undefined; non-tensor values
/// are copied unchanged. Supported: torch::Tensor, std::vector, std::array, std::deque,
/// std::list, std::map, std::unordered_map (values), std::pair, std::tuple, std::optional,
/// c10::optional, std::variant, c10::IValue, torch::data::Example, and any type with a
/// `ToDeviceTraits` specialisation. Safe to call from several threads at once.
template <typename T>
T to_device(const T& value, torch::Device device, const ToDeviceOptions& options = {}) {
  detail::CollectVisitor collect;
  detail::map_value<T>(value, collect);
  if (collect.tensors.empty()) {
    return value;
  }
  detail::ReplayVisitor replay(detail::move_tensors(collect.tensors, device, options));
  return detail::map_value<T>(value, replay);
}

/// As above, with the device given as a string ("cuda:1"); a string that does not parse gives
/// an error naming the `device` argument.
torch::Device parse_device(const std::string& device, const char* argument);
template <typename T>
T to_device(const T& value, const std::string& device, const ToDeviceOptions& options = {}) {
  return to_device(value, parse_device(device, "to_device: device"), options);
}
template <typename T>
T to_device(const T& value, const char* device, const ToDeviceOptions& options = {}) {
  return to_device(value, std::string(device), options);
}

// --- Traits for the supported types ---------------------------------------------------------

template <>
struct ToDeviceTraits<torch::Tensor> {
  template <typename Fn>
  static torch::Tensor map(const torch::Tensor& tensor, Fn&& move) {
    return tensor.defined() ? move.visitor->visit(tensor) : tensor;
  }
};

template <typename T>
struct ToDeviceTraits<T, std::enable_if_t<detail::is_leaf_type<T>::value>> : ToDeviceLeaf {};

template <typename T, typename A>
struct ToDeviceTraits<std::vector<T, A>> {
  template <typename Fn>
  static std::vector<T, A> map(const std::vector<T, A>& value, Fn&& move) {
    std::vector<T, A> result;
    result.reserve(value.size());
    for (const auto& element : value) {
      result.push_back(move(static_cast<const T&>(element)));
    }
    return result;
  }
};

template <typename T, size_t N>
struct ToDeviceTraits<std::array<T, N>> {
  template <typename Fn>
  static std::array<T, N> map(const std::array<T, N>& value, Fn&& move) {
    return map(value, move, std::make_index_sequence<N>());
  }
  template <typename Fn, size_t... I>
  static std::array<T, N> map(const std::array<T, N>& value, Fn&& move, std::index_sequence<I...>) {
    return {{move(value[I])...}};
  }
};

template <typename T, typename A>
struct ToDeviceTraits<std::deque<T, A>> {
  template <typename Fn>
  static std::deque<T, A> map(const std::deque<T, A>& value, Fn&& move) {
    return detail::map_sequence(value, *move.visitor);
  }
};

template <typename T, typename A>
struct ToDeviceTraits<std::list<T, A>> {
  template <typename Fn>
  static std::list<T, A> map(const std::list<T, A>& value, Fn&& move) {
    return detail::map_sequence(value, *move.visitor);
  }
};

template <typename K, typename V, typename C, typename A>
struct ToDeviceTraits<std::map<K, V, C, A>> {
  template <typename Fn>
  static std::map<K, V, C, A> map(const std::map<K, V, C, A>& value, Fn&& move) {
    return detail::map_associative(value, *move.visitor);
  }
};

template <typename K, typename V, typename H, typename E, typename A>
struct ToDeviceTraits<std::unordered_map<K, V, H, E, A>> {
  template <typename Fn>
  static std::unordered_map<K, V, H, E, A> map(const std::unordered_map<K, V, H, E, A>& value,
                                               Fn&& move) {
    return detail::map_associative(value, *move.visitor);
  }
};

template <typename A, typename B>
struct ToDeviceTraits<std::pair<A, B>> {
  template <typename Fn>
  static std::pair<A, B> map(const std::pair<A, B>& value, Fn&& move) {
    // Braced initialisation evaluates left to right, keeping the traversal order.
    return std::pair<A, B>{move(value.first), move(value.second)};
  }
};

template <typename... Ts>
struct ToDeviceTraits<std::tuple<Ts...>> {
  template <typename Fn>
  static std::tuple<Ts...> map(const std::tuple<Ts...>& value, Fn&& move) {
    return map(value, move, std::index_sequence_for<Ts...>());
  }
  template <typename Fn, size_t... I>
  static std::tuple<Ts...> map(const std::tuple<Ts...>& value,
                               Fn&& move,
                               std::index_sequence<I...>) {
    return std::tuple<Ts...>{move(std::get<I>(value))...};
  }
};

template <typename T>
struct ToDeviceTraits<std::optional<T>> {
  template <typename Fn>
  static std::optional<T> map(const std::optional<T>& value, Fn&& move) {
    return value ? std::optional<T>(move(*value)) : std::nullopt;
  }
};

// In LibTorch 1.13 c10::optional is its own type; in recent 2.x it is std::optional, and this
// specialisation steps aside.
template <typename T>
struct ToDeviceTraits<c10::optional<T>,
                      std::enable_if_t<!std::is_same<c10::optional<T>, std::optional<T>>::value>> {
  template <typename Fn>
  static c10::optional<T> map(const c10::optional<T>& value, Fn&& move) {
    return value ? c10::optional<T>(move(*value)) : c10::nullopt;
  }
};

template <typename... Ts>
struct ToDeviceTraits<std::variant<Ts...>> {
  template <typename Fn>
  static std::variant<Ts...> map(const std::variant<Ts...>& value, Fn&& move) {
    return std::visit(
        [&](const auto& alternative) -> std::variant<Ts...> {
          using Alternative = detail::remove_cvref_t<decltype(alternative)>;
          return std::variant<Ts...>(std::in_place_type<Alternative>, move(alternative));
        },
        value);
  }
};

template <>
struct ToDeviceTraits<c10::IValue> {
  template <typename Fn>
  static c10::IValue map(const c10::IValue& value, Fn&& move) {
    return detail::map_ivalue(value, *move.visitor);
  }
};

template <typename Data, typename Target>
struct ToDeviceTraits<torch::data::Example<Data, Target>> {
  template <typename Fn>
  static torch::data::Example<Data, Target> map(const torch::data::Example<Data, Target>& value,
                                                Fn&& move) {
    return torch::data::Example<Data, Target>{move(value.data), move(value.target)};
  }
};

template <typename Data>
struct ToDeviceTraits<torch::data::Example<Data, torch::data::example::NoTarget>> {
  template <typename Fn>
  static torch::data::Example<Data, torch::data::example::NoTarget> map(
      const torch::data::Example<Data, torch::data::example::NoTarget>& value, Fn&& move) {
    return torch::data::Example<Data, torch::data::example::NoTarget>(move(value.data));
  }
};

}  // namespace tensorplace
