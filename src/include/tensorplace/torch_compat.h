#pragma once

// The differences between the LibTorch versions tensorplace builds against (1.13 to 2.14), in
// one place: what user code meets (naming a Cloneable module) and what the kernels need
// (creating autograd nodes).

#include <torch/csrc/autograd/function.h>
#include <torch/version.h>

#include <memory>
#include <utility>

/// The base-class initializer that names a `Cloneable` module, in every LibTorch version:
///
///   struct EncoderImpl : torch::nn::Cloneable<EncoderImpl> {
///     EncoderImpl() : TENSORPLACE_CLONEABLE_BASE(EncoderImpl, "Encoder") { reset(); }
///
/// Before 2.2 `Module` is a virtual base of `Cloneable`, so only the most-derived class
/// constructs it and `Cloneable<D>("Name")` compiles but the name is dropped; from 2.2 it is a
/// plain base, and naming `Module` there does not compile.
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 2)
#define TENSORPLACE_CLONEABLE_BASE(Derived, name) torch::nn::Module(name)
#else
#define TENSORPLACE_CLONEABLE_BASE(Derived, name) torch::nn::Cloneable<Derived>(name)
#endif

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 13)
#define TENSORPLACE_INTRUSIVE_AUTOGRAD_NODES 1
#else
#define TENSORPLACE_INTRUSIVE_AUTOGRAD_NODES 0
#endif

namespace tensorplace {
namespace compat {

/// A new autograd node, owned as `set_history` expects it: by `c10::intrusive_ptr` from
/// LibTorch 2.13, before that by a `std::shared_ptr` with `deleteNode` as its deleter (which
/// releases long chains of nodes without deep recursion).
template <typename NodeType, typename... Args>
auto make_autograd_node(Args&&... args) {
#if TENSORPLACE_INTRUSIVE_AUTOGRAD_NODES
  return c10::make_intrusive<NodeType>(std::forward<Args>(args)...);
#else
  return std::shared_ptr<NodeType>(new NodeType(std::forward<Args>(args)...),
                                   torch::autograd::deleteNode);
#endif
}

}  // namespace compat
}  // namespace tensorplace
