//===- SpacedChevrons.h - Launches written as 'k << <g, b >> > (...)' -----===//
//
// nvcc reads `kernel << <grid, block >> > (args)`, what a formatter that does
// not know CUDA makes of `<<<` and `>>>`, as a kernel launch; Clang's lexer
// reads a launch only from `<<<` and `>>>` written without spaces, and
// rejects the rest with an error that does not say why. Before a CUDA main
// file is lexed, the analysis closes up the chevrons of each such launch in
// its text, keeping every offset and line; a spaced launch it cannot read
// (one in a header, which is lexed from its own text, or one without a
// closing `>> >` before its arguments) is named in a compiler error of its
// own, so that a file analysed partially says why.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_SPACEDCHEVRONS_H
#define TENSORPLACE_CHECKER_SPACEDCHEVRONS_H

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/LangOptions.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {

/// The spaced launches of one CUDA source text.
struct SpacedLaunches {
  /// The text with the chevrons of each launch closed up: `<<` W `<`
  /// becomes `<<<` W, and `>>` W `>` becomes `>>>` W (W the whitespace and
  /// comments between them), so that the text keeps its length and lines.
  std::string Rewritten;
  /// Where each spaced `<<` that opens a launch is, by offset.
  std::vector<unsigned> Launches;
  /// Of those, the ones with no closing `>> >` or `>>>` followed by the
  /// kernel's arguments: left as they were.
  std::vector<unsigned> Unclosed;
};

/// The spaced launches in Code, lexed with LangOpts (CUDA). A `<< <` after
/// `operator` is an explicit template argument list of operator<<, not a
/// launch.
SpacedLaunches findSpacedLaunches(llvm::StringRef Code,
                                  const clang::LangOptions &LangOpts);

/// A consumer that, for a CUDA translation unit, rewrites the main file's
/// spaced launches before it is lexed (it is initialised before the parse
/// starts) and reports as compiler errors those it cannot read. It takes
/// part in nothing else.
std::unique_ptr<clang::ASTConsumer> newSpacedChevronsConsumer();

} // namespace tensorplace

#endif
