//===- FactoryWithoutDevice.h - torch-factory-without-device --------------===//
//
// torch::zeros(...), torch::arange(...) and the other tensor factories called
// on a module's forward path with no device in their options: the tensor is
// made on the CPU wherever the module was moved, and the first operation that
// meets a CUDA tensor throws.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_FACTORYWITHOUTDEVICE_H
#define TENSORPLACE_CHECKER_FACTORYWITHOUTDEVICE_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class FactoryWithoutDevice : public ModuleRule {
public:
  explicit FactoryWithoutDevice(FindingSink &Sink)
      : ModuleRule("torch-factory-without-device", Sink) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
