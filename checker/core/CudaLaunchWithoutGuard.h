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

/// Decided over the whole translation unit, but with no use for the module
/// facts: launches live in free functions as often as in modules.
class CudaLaunchWithoutGuard : public Rule {
public:
  CudaLaunchWithoutGuard(FindingSink &Sink, const Config &Options)
      : Rule("torch-cuda-launch-without-guard", Sink, Options) {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace tensorplace

#endif
