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
#include <string>
#include <vector>

namespace tensorplace {

class FactoryWithoutDevice : public ModuleRule {
public:
  FactoryWithoutDevice(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-factory-without-device", Sink, Options),
        FactoryFunctions(Options.FactoryFunctions) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;

  /// The project's own factories, checked like torch::zeros.
  const std::vector<std::string> FactoryFunctions;
};

} // namespace tensorplace

#endif
