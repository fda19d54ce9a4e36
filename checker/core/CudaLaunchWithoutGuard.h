//===- CudaLaunchWithoutGuard.h - torch-cuda-launch-without-guard ---------===//
//
// A kernel launched on tensors' data must run on the tensors' device and on
// PyTorch's current stream for that device. Without a device guard the
// kernel runs on whatever device is current (cuda:0 unless the caller set
// another), reading memory of another GPU; on the default stream it is not
// ordered with the work PyTorch queued on the tensors' stream.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_CUDALAUNCHWITHOUTGUARD_H
#define TENSORPLACE_CHECKER_CUDALAUNCHWITHOUTGUARD_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class CudaLaunchWithoutGuard : public ModuleRule {
public:
  explicit CudaLaunchWithoutGuard(FindingSink &Sink)
      : ModuleRule("torch-cuda-launch-without-guard", Sink) {}

private:
  void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) override;
};

} // namespace tensorplace

#endif
