//===- StaleRegisteredMember.h - torch-stale-registered-member ------------===//
//
// A registered member rebound to a new tensor or module after construction:
// the module keeps the registered object, so Module::to(), torch::save() and
// clone() act on something forward() no longer uses.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_STALEREGISTEREDMEMBER_H
#define TENSORPLACE_CHECKER_STALEREGISTEREDMEMBER_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class StaleRegisteredMember : public ModuleRule {
public:
  StaleRegisteredMember(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-stale-registered-member", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
  /// Tensors of LibTorch's own layers, rebound from the user's code.
  void checkLibraryLayerState(const ModuleFacts &Facts, clang::ASTContext &Ctx);
};

} // namespace tensorplace

#endif
