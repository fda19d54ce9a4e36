//===- SetupPaths.h - Which functions set a module up, which run forward -===//
//
// The layer over the call graph (CallGraph.h) and the inventory
// (ModuleInventory.h) that places each user function on a module's paths:
//  - the construction path: constructors, reset(), and what they call;
//  - the forward path: forward() and operator() of modules and what they
//    call (without entering constructors or reset()), each function with the
//    call that leads into it;
//  - the setup out of sight: a module class whose construction path calls a
//    method of its own, or a function given the module, that has no body in
//    this translation unit may register anything there. Where another file
//    can define that function, the calls are kept (settleableHiddenSetup())
//    for a front end that sees the whole project (ProjectFacts.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_SETUPPATHS_H
#define TENSORPLACE_CHECKER_SETUPPATHS_H

#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/ModuleInventory.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace tensorplace {

class SetupPaths {
public:
  /// How a function is reached from a module's forward(): the root forward
  /// method, and the call that leads into this function (invalid for a root).
  struct ForwardPath {
    const clang::FunctionDecl *Root;
    const clang::FunctionDecl *Caller;
    clang::SourceLocation CallLoc;
  };

  /// A call, on the construction path, of a function with no body here.
  struct HiddenCall {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Callee;
  };

  SetupPaths(const ModuleInventory &Inventory, const CallGraph &Calls,
             const clang::SourceManager &SM);
  SetupPaths(const SetupPaths &) = delete;
  SetupPaths &operator=(const SetupPaths &) = delete;

  /// Constructors, reset(), and everything they call in this translation unit.
  bool isConstructionFunction(const clang::FunctionDecl *F) const;
  /// Non-null when F is forward(), operator() of a module, or reached from one.
  const ForwardPath *forwardPath(const clang::FunctionDecl *F) const;
  /// The class's constructor, reset(), or a method they call has no body in
  /// this translation unit: registration may happen there, out of sight.
  bool hasHiddenSetup(const clang::CXXRecordDecl *Class) const;
  /// When all the class's hidden setup is calls, made on this module or
  /// given it, to functions that another file may define: those calls.
  /// Empty when there is no hidden setup, or some of it cannot be settled
  /// elsewhere (compiler errors, a constructor defined in another file, whose
  /// own file sees the setup whole).
  llvm::ArrayRef<HiddenCall>
  settleableHiddenSetup(const clang::CXXRecordDecl *Class) const;

private:
  void findConstructionPath(const ModuleInventory &Inventory,
                            const CallGraph &Calls);
  void findHiddenSetup(const ModuleInventory &Inventory,
                       const clang::SourceManager &SM);
  void findForwardPath(const ModuleInventory &Inventory,
                       const CallGraph &Calls);
  /// Setup out of sight that no other file can settle.
  void hideSetup(const clang::CXXRecordDecl *Class);

  llvm::DenseSet<const clang::FunctionDecl *> ConstructionFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, ForwardPath> ForwardPaths;
  /// Classes with a constructor or reset() whose body is not visible here.
  llvm::DenseSet<const clang::CXXRecordDecl *> ClassesWithHiddenSetup;
  /// Of those, the ones some of whose hidden setup no other file settles.
  llvm::DenseSet<const clang::CXXRecordDecl *> UnsettledClasses;
  llvm::DenseMap<const clang::CXXRecordDecl *, llvm::SmallVector<HiddenCall, 2>>
      HiddenCallees;
};

} // namespace tensorplace

#endif
