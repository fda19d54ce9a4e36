//===- UnregisteredTensorMember.h - torch-unregistered-tensor-member ------===//
//
// A tensor member of a module (or a container of tensors) that is given a
// tensor at construction and never registered as a parameter or buffer:
// Module::to() does not move it, parameters()/buffers() do not list it,
// torch::save() does not save it and clone() shares it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_UNREGISTEREDTENSORMEMBER_H
#define TENSORPLACE_CHECKER_UNREGISTEREDTENSORMEMBER_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class UnregisteredTensorMember : public ModuleRule {
public:
  UnregisteredTensorMember(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-unregistered-tensor-member", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
