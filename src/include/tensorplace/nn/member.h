#pragma once

// Members that register themselves: `Parameter`, `Buffer` and `Submodule<M>`.
//
// A plain `torch::Tensor` member and the tensor registered under its name are two handles that
// only start out equal: rebinding the member (`mean = 0.9 * mean + ...`) leaves the module with
// the old tensor, which `to()`, `save()` and `clone()` keep acting on (LIBTORCH-FACTS 2, 4).
// These members hold no tensor of their own. They remember their module and name, and every
// read and every assignment goes to the registered slot, so member and registration cannot
// drift apart.

#include <tensorplace/detail/slots.h>

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <c10/util/Exception.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace tensorplace {
namespace nn {
namespace detail {

enum class TensorKind { parameter, buffer };

/// The state shared by `Parameter` and `Buffer`.
template <TensorKind Kind>
class RegisteredTensor {
 public:
  /// An unbound member. In a `Cloneable` module, declare members like this and `bind()` them in
  /// `reset()`.
  RegisteredTensor() = default;

  /// Registers `initial` (which may be undefined: optional state stays registered) on `owner`
  /// under `name`.
  RegisteredTensor(torch::nn::Module* owner,
                   std::string name,
                   torch::Tensor initial = {},
                   bool requires_grad = true) {
    bind(owner, std::move(name), std::move(initial), requires_grad);
  }

  /// `Cloneable::clone()` copy-constructs the module. The copy must not write into the original
  /// module, so it starts unbound; `reset()` binds it to the copy. It remembers the original's
  /// tensor so that binding it with an undefined initial value registers a placeholder that
  /// `Cloneable::clone()` can fill (it calls `set_data`, which an undefined tensor refuses).
  RegisteredTensor(const RegisteredTensor& other)
      : name_(other.name_), requires_grad_(other.requires_grad_) {
    if (other.is_bound()) {
      clone_source_ = other.tensor();
    }
  }

  /// A member is its module and name, and assignment never changes them: assigning another
  /// member assigns that member's registered tensor to this member's own registration, as
  /// `*this = other.tensor()` would. If `other` has no registered tensor (it is unbound, or its
  /// module's registries were moved away), nothing changes.
  ///
  /// This keeps a clone's members on the clone. `Cloneable::clone()` clones each child and
  /// assigns the result, whole, to the copy's own child: by copy from LibTorch 2.2, by move
  /// before. The `Module` base is assigned first, so the copy's registry already holds the
  /// clone's tensors, and the members, still bound to the copy, read them.
  RegisteredTensor& operator=(const RegisteredTensor& other) {
    if (this != &other) {
      if (const torch::Tensor* value = other.find_slot()) {
        *this = *value;
      }
    }
    return *this;
  }
  RegisteredTensor& operator=(RegisteredTensor&& other) {
    return *this = static_cast<const RegisteredTensor&>(other);
  }

  /// Replaces the registered tensor: the module's `parameters()`/`buffers()`, `to()`, `save()`
  /// and `clone()` all see `value` from now on.
  RegisteredTensor& operator=(torch::Tensor value) {
    if (Kind == TensorKind::parameter && value.defined()) {
      TORCH_CHECK(value.is_leaf(), "Parameter '", name_,
                  "' should be assigned a leaf tensor (one without autograd history), got the "
                  "result of an operation; assign value.detach(), or update the parameter in "
                  "place under torch::NoGradGuard");
      value.set_requires_grad(requires_grad_);
    }
    slot() = std::move(value);
    return *this;
  }

  /// Registers `initial` on `owner` under `name` and binds this member to it.
  void bind(torch::nn::Module* owner,
            std::string name,
            torch::Tensor initial = {},
            bool requires_grad = true) {
    TORCH_CHECK(owner != nullptr, kind_name(), " '", name,
                "': owner should be the module that holds the member (pass `this`), got nullptr");
    if (!initial.defined() && clone_source_.defined()) {
      initial = torch::zeros_like(clone_source_);
    }
    clone_source_ = torch::Tensor();
    if (Kind == TensorKind::parameter) {
      owner->register_parameter(name, std::move(initial), requires_grad);
    } else {
      owner->register_buffer(name, std::move(initial));
    }
    owner_ = owner;
    name_ = std::move(name);
    requires_grad_ = requires_grad;
  }

  /// The registered tensor (undefined while optional state is absent).
  const torch::Tensor& tensor() const {
    return const_cast<RegisteredTensor*>(this)->slot();
  }
  operator const torch::Tensor&() const {
    return tensor();
  }
  const torch::Tensor& operator*() const {
    return tensor();
  }
  const torch::Tensor* operator->() const {
    return &tensor();
  }

  bool defined() const {
    return tensor().defined();
  }
  bool is_bound() const noexcept {
    return owner_ != nullptr;
  }
  const std::string& name() const noexcept {
    return name_;
  }

 private:
  static const char* kind_name() noexcept {
    return Kind == TensorKind::parameter ? "Parameter" : "Buffer";
  }

  /// The registered tensor, or nullptr when unbound or no longer registered.
  torch::Tensor* find_slot() const {
    if (owner_ == nullptr) {
      return nullptr;
    }
    auto& slots = Kind == TensorKind::parameter ? tensorplace::detail::parameter_slots(*owner_)
                                                : tensorplace::detail::buffer_slots(*owner_);
    return slots.find(name_);
  }

  torch::Tensor& slot() {
    TORCH_CHECK(owner_ != nullptr, kind_name(), " '", name_,
                "' is not bound to a module; in a Cloneable module, bind it in reset() (a "
                "clone's members are bound by the clone's reset())");
    torch::Tensor* found = find_slot();
    TORCH_CHECK(found != nullptr, kind_name(), " '", name_, "' is no longer registered in module ",
                owner_->name());
    return *found;
  }

  torch::nn::Module* owner_ = nullptr;
  std::string name_;
  bool requires_grad_ = true;
  torch::Tensor clone_source_;
};

// ATen's tensor operators live in namespace `at`, where argument-dependent lookup does not look
// for a member type of ours: these forward arithmetic on a member to its tensor, so that
// `mean = 0.9 * mean + 0.1 * x` reads as it would with a plain tensor.
#define TENSORPLACE_MEMBER_BINARY_OPERATOR(op)                                              \
  template <TensorKind K, typename T>                                                       \
  auto operator op(const RegisteredTensor<K>& a, const T& b)                                \
      ->decltype(std::declval<const torch::Tensor&>() op b) {                               \
    return a.tensor() op b;                                                                 \
  }                                                                                         \
  template <TensorKind K, typename T>                                                       \
  auto operator op(const T& a, const RegisteredTensor<K>& b)                                \
      ->decltype(a op std::declval<const torch::Tensor&>()) {                               \
    return a op b.tensor();                                                                 \
  }                                                                                         \
  template <TensorKind K1, TensorKind K2>                                                   \
  torch::Tensor operator op(const RegisteredTensor<K1>& a, const RegisteredTensor<K2>& b) { \
    return a.tensor() op b.tensor();                                                        \
  }
TENSORPLACE_MEMBER_BINARY_OPERATOR(+)
TENSORPLACE_MEMBER_BINARY_OPERATOR(-)
TENSORPLACE_MEMBER_BINARY_OPERATOR(*)
TENSORPLACE_MEMBER_BINARY_OPERATOR(/)
#undef TENSORPLACE_MEMBER_BINARY_OPERATOR

template <TensorKind K>
torch::Tensor operator-(const RegisteredTensor<K>& a) {
  return -a.tensor();
}

template <typename T, typename = void>
struct HeldModule {
  static_assert(sizeof(T) == 0,
                "Submodule<T>: T should be a module holder (torch::nn::Linear, a TORCH_MODULE "
                "type) or a std::shared_ptr to a torch::nn::Module subclass");
};

template <typename Holder>
struct HeldModule<Holder, std::void_t<typename Holder::ContainedType>> {
  using Contained = typename Holder::ContainedType;
  static std::shared_ptr<torch::nn::Module> as_module(const Holder& holder) {
    return holder.ptr();
  }
  static Holder from_module(std::shared_ptr<Contained> module) {
    return Holder(std::move(module));
  }
};

template <typename M>
struct HeldModule<std::shared_ptr<M>,
                  std::enable_if_t<std::is_base_of<torch::nn::Module, M>::value>> {
  using Contained = M;
  static std::shared_ptr<torch::nn::Module> as_module(const std::shared_ptr<M>& module) {
    return module;
  }
  static std::shared_ptr<M> from_module(std::shared_ptr<M> module) {
    return module;
  }
};

}  // namespace detail

/// A trainable tensor of a module, registered on declaration.
///
///   struct Net : torch::nn::Module {
///     tensorplace::nn::Parameter weight{this, "weight", torch::randn({4, 3})};
///   };
///
/// Reads go to the registered tensor; assigning a tensor replaces the registered one (it must be
/// a leaf; it gets the `requires_grad` given at registration).
using Parameter = detail::RegisteredTensor<detail::TensorKind::parameter>;

/// A tensor of a module's state that is not trained (running statistics, masks, constants),
/// registered on declaration; assigning a tensor replaces the registered one.
using Buffer = detail::RegisteredTensor<detail::TensorKind::buffer>;

/// A child module, registered on declaration; assigning a module replaces the registered child.
///
///   tensorplace::nn::Submodule<torch::nn::Linear> fc{this, "fc", torch::nn::Linear(3, 4)};
///   ...
///   x = fc(x);           // or fc->forward(x)
template <typename Holder>
class Submodule {
  using Held = detail::HeldModule<Holder>;

 public:
  using Contained = typename Held::Contained;

  /// An unbound member, for `Cloneable` modules that `bind()` it in `reset()`.
  Submodule() = default;

  Submodule(torch::nn::Module* owner, std::string name, const Holder& module) {
    bind(owner, std::move(name), module);
  }

  /// A copy starts unbound (see `Parameter`): the copy's `reset()` binds it to a new child.
  Submodule(const Submodule& other) : name_(other.name_) {}
  /// Assigns `other`'s registered child to this member's own registration, if `other` has one;
  /// this member's module and name never change (see `Parameter`).
  Submodule& operator=(const Submodule& other) {
    if (this != &other) {
      if (const std::shared_ptr<torch::nn::Module>* child = other.find_child()) {
        check_bound();
        owner_->replace_module(name_, *child);
      }
    }
    return *this;
  }
  Submodule& operator=(Submodule&& other) {
    return *this = static_cast<const Submodule&>(other);
  }

  /// Replaces the registered child.
  Submodule& operator=(const Holder& module) {
    check_bound();
    owner_->replace_module(name_, Held::as_module(module));
    return *this;
  }

  void bind(torch::nn::Module* owner, std::string name, const Holder& module) {
    TORCH_CHECK(owner != nullptr, "Submodule '", name,
                "': owner should be the module that holds the member (pass `this`), got nullptr");
    owner->register_module(name, Held::as_module(module));
    owner_ = owner;
    name_ = std::move(name);
  }

  /// The registered child.
  Contained* get() const {
    check_bound();
    auto* child = find_child();
    TORCH_CHECK(child != nullptr, "Submodule '", name_, "' is no longer registered in module ",
                owner_->name());
    auto* contained = dynamic_cast<Contained*>(child->get());
    TORCH_CHECK(contained != nullptr, "Submodule '", name_, "' holds a module of type ",
                (*child)->name(), ", not the declared type");
    return contained;
  }
  Contained* operator->() const {
    return get();
  }
  Contained& operator*() const {
    return *get();
  }
  /// A holder sharing the registered child.
  Holder holder() const {
    Contained* contained = get();
    return Held::from_module(std::shared_ptr<Contained>(contained->shared_from_this(), contained));
  }

  template <typename... Args>
  decltype(auto) operator()(Args&&... args) const {
    return get()->forward(std::forward<Args>(args)...);
  }

  bool is_bound() const noexcept {
    return owner_ != nullptr;
  }
  const std::string& name() const noexcept {
    return name_;
  }

 private:
  /// The registered child, or nullptr when unbound or no longer registered.
  std::shared_ptr<torch::nn::Module>* find_child() const {
    return owner_ == nullptr ? nullptr : tensorplace::detail::child_slots(*owner_).find(name_);
  }

  void check_bound() const {
    TORCH_CHECK(owner_ != nullptr, "Submodule '", name_,
                "' is not bound to a module; in a Cloneable module, bind it in reset()");
  }

  torch::nn::Module* owner_ = nullptr;
  std::string name_;
};

}  // namespace nn
}  // namespace tensorplace
