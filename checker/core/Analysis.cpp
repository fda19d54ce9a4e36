//===- Analysis.cpp -------------------------------------------------------===//

#include "tensorplace/checker/Analysis.h"
#include "CudaLaunchWithoutGuard.h"
#include "DiscardedToResult.h"
#include "FactoryWithoutDevice.h"
#include "HardcodedDevice.h"
#include "LazilyCreatedLayer.h"
#include "RegisterOutsideReset.h"
#include "SpacedChevrons.h"
#include "StaleRegisteredMember.h"
#include "UnregisteredSubmodule.h"
#include "UnregisteredTensorMember.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/ADT/STLExtras.h"
#include <type_traits>

using namespace clang;

namespace tensorplace {

template <typename R>
static std::unique_ptr<Rule> create(FindingSink &Sink, const Config &Options) {
  return std::make_unique<R>(Sink, Options);
}

/// A row of the table; whether the rule reads the module-model options
/// follows from its class.
template <typename R>
static RuleInfo rule(const char *Name, const char *Summary, bool HasFixIts,
                     std::vector<const char *> OwnOptions = {}) {
  return {Name,
          Summary,
          HasFixIts,
          &create<R>,
          std::is_base_of<ModuleRule, R>::value,
          std::move(OwnOptions)};
}

std::vector<const ConfigOption *> optionsOf(const RuleInfo &Info) {
  std::vector<const ConfigOption *> Out;
  for (const ConfigOption &Option : configOptions())
    if (Option.ModuleModel ? Info.ReadsModuleModel
                           : llvm::any_of(Info.OwnOptions, [&](const char *N) {
                               return llvm::StringRef(N) == Option.Name;
                             }))
      Out.push_back(&Option);
  return Out;
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
      rule<UnregisteredTensorMember>(
          "torch-unregistered-tensor-member",
          "a tensor member of a module that is never registered as a parameter "
          "or buffer",
          true),
      rule<UnregisteredSubmodule>(
          "torch-unregistered-submodule",
          "a submodule member that is never passed to `register_module`", true),
      rule<LazilyCreatedLayer>(
          "torch-lazily-created-layer",
          "a module constructed, or state registered, on the forward path",
          false),
      rule<DiscardedToResult>("torch-discarded-to-result",
                              "a tensor conversion such as `x.to(device)` "
                              "whose result is discarded",
                              true),
      rule<StaleRegisteredMember>(
          "torch-stale-registered-member",
          "a registered member rebound to a new tensor or module after "
          "construction",
          false),
      rule<RegisterOutsideReset>(
          "torch-register-outside-reset",
          "registration in a `Cloneable`'s constructor instead of `reset()`",
          false),
      rule<HardcodedDevice>(
          "torch-hardcoded-device",
          "a fixed device (`.cuda()`, `.cpu()`, `torch::kCUDA`, `\"cuda\"`) "
          "inside "
          "a module's member functions or on its forward path",
          false),
      rule<FactoryWithoutDevice>(
          "torch-factory-without-device",
          "a tensor factory on a module's forward path with no device in its "
          "options",
          true, {"FactoryFunctions"}),
      rule<CudaLaunchWithoutGuard>(
          "torch-cuda-launch-without-guard",
          "a CUDA kernel launched on tensor data without a device guard, or on "
          "the default stream",
          false),
  };
  return Rules;
}

Analysis::Analysis(FindingSink &Sink,
                   llvm::function_ref<bool(llvm::StringRef)> IsEnabled,
                   llvm::function_ref<Config(llvm::StringRef)> ConfigFor)
    : Finder(std::make_unique<ast_matchers::MatchFinder>()) {
  for (const RuleInfo &Info : allRules())
    if (IsEnabled(Info.Name)) {
      Rules.push_back(
          Info.Create(Sink, ConfigFor ? ConfigFor(Info.Name) : Config()));
      Rules.back()->registerMatchers(*Finder);
    }
}

Analysis::~Analysis() = default;

std::unique_ptr<ASTConsumer> Analysis::newASTConsumer() {
  // Ahead of the rules' matching: a CUDA main file's launches written with
  // spaced chevrons are rewritten before it is lexed (SpacedChevrons.h).
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(newSpacedChevronsConsumer());
  Consumers.push_back(Finder->newASTConsumer());
  return std::make_unique<MultiplexConsumer>(std::move(Consumers));
}

} // namespace tensorplace
