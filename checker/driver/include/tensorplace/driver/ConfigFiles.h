//===- ConfigFiles.h - Reading .clang-tidy files as clang-tidy does -------===//
//
// The CLI reads the same .clang-tidy files as clang-tidy and the plugin: the
// nearest one above a file, merged with its parents' while it says
// InheritParentConfig, parsed by clang-tidy's own parser. Only what concerns
// the torch-* checks is used: their CheckOptions, the Checks entries that
// name them, and HeaderFilterRegex.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_DRIVER_CONFIGFILES_H
#define TENSORPLACE_DRIVER_CONFIGFILES_H

#include "tensorplace/checker/Config.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace tensorplace {
namespace driver {

struct ConfigFileSettings {
  /// The configuration files that apply, nearest first.
  std::vector<std::string> Files;
  /// The Checks entries that name torch checks ("-torch-hardcoded-device",
  /// "torch-*"), comma-separated, in order; other entries are about other
  /// clang-tidy checks and are left out.
  std::string TorchChecks;
  std::optional<std::string> HeaderFilterRegex;
  /// Option name -> (value, priority), as clang-tidy merges them.
  struct Value {
    std::string Text;
    unsigned Priority = 0;
  };
  llvm::StringMap<Value> CheckOptions;
  /// Problems that do not stop the analysis, such as unknown torch options.
  std::vector<std::string> Warnings;

  /// The rule's options: "<check>.<Option>" or the global "<Option>",
  /// whichever has the higher priority, else the default.
  Config configFor(llvm::StringRef Check) const;
};

/// The settings for a source file. An unreadable or malformed .clang-tidy on
/// the way is an error naming it. Results are cached per directory.
llvm::Expected<ConfigFileSettings> configForFile(llvm::StringRef File);

} // namespace driver
} // namespace tensorplace

#endif
