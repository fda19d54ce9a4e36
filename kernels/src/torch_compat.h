#pragma once

// The differences between the LibTorch versions the kernels are built against (1.13 to 2.x),
// in one place.

#include <torch/csrc/autograd/function.h>
#include <torch/version.h>

#include <memory>
#include <utility>

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
