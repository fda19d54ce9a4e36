//===- LazilyCreatedLayer.h - torch-lazily-created-layer ------------------===//
//
// A module constructed, or register_* called, on the forward path: in a
// module's forward() or operator(), or in a function they call that is
// defined in the translation unit. The layer is created on the CPU with fresh
// weights, after Module::to() and after any optimizer was built.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_LAZILYCREATEDLAYER_H
#define TENSORPLACE_CHECKER_LAZILYCREATEDLAYER_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class LazilyCreatedLayer : public ModuleRule {
public:
  LazilyCreatedLayer(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-lazily-created-layer", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
