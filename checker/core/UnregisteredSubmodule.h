//===- UnregisteredSubmodule.h - torch-unregistered-submodule -------------===//
//
// A member holding a module (a ModuleHolder, a shared_ptr to a module, or a
// container of those) that is given a module and never registered with
// register_module, nor pushed into a container module: Module::to(),
// parameters(), train()/eval() and torch::save() never reach it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_UNREGISTEREDSUBMODULE_H
#define TENSORPLACE_CHECKER_UNREGISTEREDSUBMODULE_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class UnregisteredSubmodule : public ModuleRule {
public:
  UnregisteredSubmodule(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-unregistered-submodule", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
