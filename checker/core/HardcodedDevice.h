//===- HardcodedDevice.h - torch-hardcoded-device -------------------------===//
//
// A fixed device inside a module: .cuda(), .cpu(), a CUDA device named by
// torch::kCUDA or a "cuda..." string (in to(), torch::Device, tensor
// options), in a module's member functions or on its forward path. A module
// must follow the device its caller moves it to with Module::to().
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_HARDCODEDDEVICE_H
#define TENSORPLACE_CHECKER_HARDCODEDDEVICE_H

#include "tensorplace/checker/Rule.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace tensorplace {

class FunctionBody;

class HardcodedDevice : public ModuleRule {
public:
  HardcodedDevice(FindingSink &Sink, const Config &Options)
      : ModuleRule("torch-hardcoded-device", Sink, Options) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
  /// Reports every fixed device in Body; Where says where Body is ("inside
  /// 'Net::forward'") and may add notes. Returned: whether a host copy that
  /// Body returns meets device data where it is called (null: Body returns
  /// nothing to a caller, a default member initializer).
  void scan(const ModuleFacts &Facts, const FunctionBody &Body,
            llvm::function_ref<std::string(Finding &)> Where,
            llvm::function_ref<bool()> Returned, clang::ASTContext &Ctx);
};

} // namespace tensorplace

#endif
