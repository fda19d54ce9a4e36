//===- RegisterOutsideReset.h - torch-register-outside-reset --------------===//
//
// In a torch::nn::Cloneable, registration belongs in reset(): clone() copies
// the module, clears the copy's registrations and calls reset() alone, so
// state registered by the constructor is missing from the copy and clone()
// throws.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_REGISTEROUTSIDERESET_H
#define TENSORPLACE_CHECKER_REGISTEROUTSIDERESET_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class RegisterOutsideReset : public ModuleRule {
public:
  RegisterOutsideReset(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-register-outside-reset", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
