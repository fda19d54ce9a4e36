//===- DiscardedToResult.h - torch-discarded-to-result --------------------===//
//
// x.to(device); -- Tensor conversions return a new tensor (or x itself) and
// never change x, so a discarded result means the statement does nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_DISCARDEDTORESULT_H
#define TENSORPLACE_CHECKER_DISCARDEDTORESULT_H

#include "tensorplace/checker/Rule.h"

namespace tensorplace {

class DiscardedToResult : public Rule {
public:
  DiscardedToResult(FindingSink &Sink, const Config &Options)
      : Rule("torch-discarded-to-result", Sink, Options) {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace tensorplace

#endif
