//===- Config.h - User configuration of the rules -------------------------===//
//
// What a project tells the rules about its own code: extra tensor factories,
// registration helpers, module base classes, module types to ignore, and the
// methods that make a forward path. Front ends read it from clang-tidy's
// CheckOptions (the plugin through clang-tidy, the CLI from the same
// .clang-tidy files); lists are ';'-separated, as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_CONFIG_H
#define TENSORPLACE_CHECKER_CONFIG_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class NamedDecl;
class SourceLocation;
class SourceManager;
} // namespace clang

namespace tensorplace {

struct Config {
  /// Functions that create tensors like torch::zeros: their calls on a forward
  /// path need a device (torch-factory-without-device).
  std::vector<std::string> FactoryFunctions;
  /// Functions or macros that register their tensor or module argument.
  std::vector<std::string> RegistrationHelpers;
  /// Classes whose subclasses are modules, besides torch::nn::Module.
  std::vector<std::string> ModuleBaseClasses;
  /// Module types that hold no state, so that leaving them unregistered or
  /// creating them on the forward path is harmless.
  std::vector<std::string> IgnoredModuleTypes;
  /// Methods of a module that start a forward path.
  std::vector<std::string> ForwardMethods = {"forward", "operator()"};

  bool operator==(const Config &Other) const;
  bool operator!=(const Config &Other) const { return !(*this == Other); }
  /// The module-model options (ConfigOption::ModuleModel) are equal: module
  /// facts built with one serve the other.
  bool sameModuleModel(const Config &Other) const;

  /// Sets an option from its CheckOptions value; false for an unknown name.
  bool set(llvm::StringRef Option, llvm::StringRef Value);
  /// The option's value as CheckOptions writes it.
  std::string get(llvm::StringRef Option) const;
};

struct ConfigOption {
  const char *Name;
  const char *Default;
  const char *Meaning;
  /// It says what the analysis takes for a module, a registration, a
  /// stateless module or a forward path: the module facts that every module
  /// rule queries are built with it, so every module rule reads it.
  bool ModuleModel;
};
/// Every option, in documentation order.
llvm::ArrayRef<ConfigOption> configOptions();

/// The configuration of the module rule that is running on this thread (the
/// defaults when none is). Only the module-model options are read through it:
/// they decide what the shared predicates of TorchModel.h take for a module,
/// a stateless module or a forward method, deep in every layer. A rule's own
/// options are copied out in its constructor.
const Config &activeConfig();

/// Makes a module rule's configuration the active one while it runs.
class ActiveConfigScope {
public:
  explicit ActiveConfigScope(const Config &C);
  ~ActiveConfigScope();
  ActiveConfigScope(const ActiveConfigScope &) = delete;
  ActiveConfigScope &operator=(const ActiveConfigScope &) = delete;

private:
  const Config *Saved;
};

/// True when D's name is in Names: "ns::Foo" (or "::ns::Foo") matches the
/// qualified name, or a suffix of it at a '::' boundary; "Foo" matches any
/// D named Foo.
bool nameIsListed(const clang::NamedDecl *D, llvm::ArrayRef<std::string> Names);

/// True when Loc is in the expansion of a macro named in Names (at any
/// depth).
bool isInListedMacro(clang::SourceLocation Loc, const clang::SourceManager &SM,
                     llvm::ArrayRef<std::string> Names);

} // namespace tensorplace

#endif
