//===- Analysis.cpp -------------------------------------------------------===//

#include "tensorplace/checker/Analysis.h"
#include "CudaLaunchWithoutGuard.h"
#include "DiscardedToResult.h"
#include "FactoryWithoutDevice.h"
#include "HardcodedDevice.h"
#include "LazilyCreatedLayer.h"
#include "RegisterOutsideReset.h"
#include "StaleRegisteredMember.h"
#include "UnregisteredSubmodule.h"
#include "UnregisteredTensorMember.h"

using namespace clang;

namespace tensorplace {

template <typename R> static std::unique_ptr<Rule> create(FindingSink &Sink) {
  return std::make_unique<R>(Sink);
}

std::string plainSummary(const RuleInfo &Info) {
  std::string Plain;
  for (const char *C = Info.Summary; *C; ++C)
    if (*C != '`')
      Plain += *C;
  return Plain;
}

llvm::ArrayRef<RuleInfo> allRules() {
  // Summaries are Markdown (`code` in backquotes): the README's table and
  // docs/checks/README.md are generated from them (tensorplace_rule_docs),
  // SARIF shows them as Markdown and, without the backquotes, as text.
  static const RuleInfo Rules[] = {
      {"torch-unregistered-tensor-member",
       "a tensor member of a module that is never registered as a parameter "
       "or buffer",
       true, &create<UnregisteredTensorMember>},
      {"torch-unregistered-submodule",
       "a submodule member that is never passed to `register_module`", true,
       &create<UnregisteredSubmodule>},
      {"torch-lazily-created-layer",
       "a module constructed, or state registered, on the forward path", false,
       &create<LazilyCreatedLayer>},
      {"torch-discarded-to-result",
       "a tensor conversion such as `x.to(device)` whose result is discarded",
       true, &create<DiscardedToResult>},
      {"torch-stale-registered-member",
       "a registered member rebound to a new tensor or module after "
       "construction",
       false, &create<StaleRegisteredMember>},
      {"torch-register-outside-reset",
       "registration in a `Cloneable`'s constructor instead of `reset()`",
       false, &create<RegisterOutsideReset>},
      {"torch-hardcoded-device",
       "a fixed device (`.cuda()`, `.cpu()`, `torch::kCUDA`, `\"cuda\"`) "
       "inside "
       "a module's member functions or on its forward path",
       false, &create<HardcodedDevice>},
      {"torch-factory-without-device",
       "a tensor factory on a module's forward path with no device in its "
       "options",
       true, &create<FactoryWithoutDevice>},
      {"torch-cuda-launch-without-guard",
       "a CUDA kernel launched on tensor data without a device guard, or on "
       "the default stream",
       false, &create<CudaLaunchWithoutGuard>},
  };
  return Rules;
}

Analysis::Analysis(FindingSink &Sink,
                   llvm::function_ref<bool(llvm::StringRef)> IsEnabled,
                   llvm::function_ref<Config(llvm::StringRef)> ConfigFor)
    : Finder(std::make_unique<ast_matchers::MatchFinder>()) {
  for (const RuleInfo &Info : allRules())
    if (IsEnabled(Info.Name)) {
      Rules.push_back(Info.Create(Sink));
      if (ConfigFor)
        Rules.back()->setConfig(ConfigFor(Info.Name));
      Rules.back()->registerMatchers(*Finder);
    }
}

Analysis::~Analysis() = default;

std::unique_ptr<ASTConsumer> Analysis::newASTConsumer() {
  return Finder->newASTConsumer();
}

} // namespace tensorplace
