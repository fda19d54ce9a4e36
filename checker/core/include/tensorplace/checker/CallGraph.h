//===- CallGraph.h - Who calls whom in a translation unit ----------------===//
//
// The calls between the functions defined in the user's code of one
// translation unit (system and LibTorch headers are skipped), built once per
// translation unit and shared by every rule that follows calls: the module
// facts (construction and forward paths), the factory rule (the callers a
// returned tensor goes back to) and the CUDA launch rule (the callers that
// hold a device guard). A lambda's calls are its enclosing function's.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_CALLGRAPH_H
#define TENSORPLACE_CHECKER_CALLGRAPH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace tensorplace {

class CallGraph {
public:
  /// One call: the definition of the function it is written in (its body
  /// holds the call) and one function it may reach (its canonical
  /// declaration). A call in a template whose callee depends on the template
  /// arguments gives one edge per candidate.
  struct Edge {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
    const clang::FunctionDecl *Callee;
  };

  explicit CallGraph(clang::ASTContext &Ctx);
  CallGraph(const CallGraph &) = delete;
  CallGraph &operator=(const CallGraph &) = delete;

  /// The functions a call may reach, as canonical declarations: its callee,
  /// or in a template the candidates of a call whose callee is not resolved
  /// yet (launch<T>(x)). Empty for a call through a pointer.
  static llvm::SmallVector<const clang::FunctionDecl *, 2>
  callees(const clang::CallExpr *Call);

  /// For MyFunction::apply(args) of a custom autograd function
  /// (torch::autograd::Function<MyFunction>), the static
  /// MyFunction::forward() it runs; nullptr for any other call. callees()
  /// gives both.
  static const clang::FunctionDecl *
  autogradForward(const clang::CallExpr *Call);

  /// Every function defined in user code (forEachUserFunction's), in the
  /// order they are written.
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const {
    return Functions;
  }
  /// The calls written in F, in source order.
  llvm::ArrayRef<Edge> callsFrom(const clang::FunctionDecl *F) const;
  /// The calls of F from functions defined here, in source order.
  llvm::ArrayRef<Edge> callsTo(const clang::FunctionDecl *F) const;

private:
  std::vector<const clang::FunctionDecl *> Functions;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<Edge, 4>> From;
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<Edge, 2>> To;
};

} // namespace tensorplace

#endif
