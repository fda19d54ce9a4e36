//===- ValueIdentity.h - Which declarations a value is, or is made from --===//
//
// The value-flow layer under the module facts. For an expression in user
// code it answers two questions about the members, locals and parameters it
// names:
//  - identity: which of them the value may be the very object of (through
//    moves, handle copies, both arms of ?:, in-place operations, functions
//    that return a reference or that this translation unit defines, and
//    to()/contiguous(), which return their object when there is nothing to
//    do). idx_ * 2, idx_.clone() and torch::cat({idx_}) are new tensors.
//  - origins: which of them it may be computed from at all.
// A local is followed to the value it was initialised from, and a range-for
// variable to its range, as bound in the order the walk meets them. Where the
// code is not understood (a dependent or erroneous expression), identity
// falls back to origins, so that nothing is claimed on a guess.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_VALUEIDENTITY_H
#define TENSORPLACE_CHECKER_VALUEIDENTITY_H

#include "tensorplace/checker/TorchModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tensorplace {

class ValueIdentity {
public:
  using Decls = llvm::SmallPtrSet<const clang::ValueDecl *, 4>;

  explicit ValueIdentity(const clang::SourceManager &SM) : Filter(SM) {}

  /// The local Var (a variable or a range-for loop variable) stands for the
  /// value of From from here on.
  void bind(const clang::VarDecl *Var, const clang::Expr *From);

  /// Adds to Out what S may be the very object of.
  void identity(const clang::Stmt *S, Decls &Out) const;
  /// Adds to Out everything S may be computed from.
  void origins(const clang::Stmt *S, Decls &Out) const;

  /// The call's result may be one of its arguments or its object.
  bool callMayReturnItsInput(const clang::CallExpr *Call) const;

private:
  static void
  addVariable(const clang::DeclRefExpr *DRE,
              const llvm::DenseMap<const clang::VarDecl *, Decls> &Map,
              Decls &Out);

  mutable UserCodeFilter Filter;
  /// What a local may have been computed from.
  llvm::DenseMap<const clang::VarDecl *, Decls> Origins;
  /// What a local may be the very object of.
  llvm::DenseMap<const clang::VarDecl *, Decls> Identities;
};

/// std::move(x) and std::forward<T>(x) pass x through: x, else null.
const clang::Expr *passedThrough(const clang::CallExpr *Call);

} // namespace tensorplace

#endif
