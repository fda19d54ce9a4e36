//===- Finding.h - What a rule reports ------------------------------------===//
//
// A finding is produced once, by a rule in the analysis core, and handed to a
// FindingSink. The clang-tidy plugin turns it into a clang-tidy diagnostic; the
// CLI renders it as text, JSON or SARIF. The core knows nothing of either.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_FINDING_H
#define TENSORPLACE_CHECKER_FINDING_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace tensorplace {

/// Evidence attached to a finding: where a member is assigned, where a helper
/// is called from, how to silence the rule.
struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  /// Check name, e.g. "torch-discarded-to-result".
  std::string Rule;
  clang::SourceLocation Loc;
  /// Clang style: lowercase, no final period, names quoted.
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Only ever filled when the edit is provably safe (never in a macro).
  std::vector<clang::FixItHint> Fixes;
};

class FindingSink {
public:
  virtual ~FindingSink();
  virtual void report(const Finding &F, clang::ASTContext &Ctx) = 0;
};

} // namespace tensorplace

#endif
