//===- Analysis.h - The analysis core's entry point -----------------------===//
//
// The set of tensorplace rules, and an ASTConsumer that runs the enabled ones
// over a translation unit and reports to a FindingSink. Front ends choose the
// rules and the sink; the analysis is the same for all of them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_ANALYSIS_H
#define TENSORPLACE_CHECKER_ANALYSIS_H

#include "tensorplace/checker/Rule.h"
#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <vector>

namespace tensorplace {

struct RuleInfo {
  const char *Name;
  /// One line, for --list-checks and SARIF rule metadata.
  const char *Summary;
  std::unique_ptr<Rule> (*Create)(FindingSink &Sink);
};

/// Every rule, in a stable order.
llvm::ArrayRef<RuleInfo> allRules();

/// Runs a set of rules over whole translation units.
class Analysis {
public:
  /// ConfigFor gives each enabled rule its options (defaults when absent).
  Analysis(FindingSink &Sink,
           llvm::function_ref<bool(llvm::StringRef)> IsEnabled,
           llvm::function_ref<Config(llvm::StringRef)> ConfigFor = nullptr);
  ~Analysis();
  bool empty() const { return Rules.empty(); }
  /// A consumer that matches the enabled rules once the translation unit is
  /// complete. The Analysis must outlive it.
  std::unique_ptr<clang::ASTConsumer> newASTConsumer();

private:
  std::vector<std::unique_ptr<Rule>> Rules;
  std::unique_ptr<clang::ast_matchers::MatchFinder> Finder;
};

} // namespace tensorplace

#endif
