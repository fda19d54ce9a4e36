//===- ModuleInventory.h - The module code of a translation unit, as written
//-===//
//
// The first layer of the module facts: one walk over the user's code of a
// translation unit (system and LibTorch headers are skipped) records what is
// written, without judging it:
//  - the module classes, and every write to their tensor and submodule
//    members (initializers, assignments, element inserts);
//  - where module objects are created, and where register_* (or a listed
//    registration helper) is called, with the identity of its arguments;
//  - every call between user functions, with the identity of its arguments,
//    for the layers that follow helpers (RegistrationFacts.h, SetupPaths.h);
//  - the classes whose own code registers or asks is_training(), the
//    classes whose constructor or reset() has no body here, and the
//    functions holding expressions Clang recovered from errors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_MODULEINVENTORY_H
#define TENSORPLACE_CHECKER_MODULEINVENTORY_H

#include "tensorplace/checker/ValueIdentity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace tensorplace {

class ModuleInventory {
public:
  enum class WriteKind {
    InClassInit,  ///< torch::Tensor t = ...; in the class.
    CtorInit,     ///< Net() : t(...) {}
    DefaultInit,  ///< A module holder with no initializer: it
                  ///< default-constructs.
    Assign,       ///< t = ...;
    ElementInsert ///< v.push_back(...), v[i] = ..., m.emplace(...).
  };

  struct FieldWrite {
    const clang::FieldDecl *Field;
    /// The value written: the right-hand side, the initializer, or the
    /// inserting call. Null for DefaultInit.
    const clang::Expr *Value;
    /// The function it happens in; null for in-class and default initializers.
    const clang::FunctionDecl *Function;
    clang::SourceLocation Loc;
    WriteKind Kind;
  };

  /// A module object created: a holder built from constructor arguments,
  /// std::make_shared<Impl>, new Impl, or an Impl by value.
  struct ModuleCreation {
    const clang::Expr *Creation;
    const clang::CXXRecordDecl *Impl;
    const clang::FunctionDecl *Function;
  };

  /// A register_parameter/register_buffer/register_module/replace_module call
  /// written in a function.
  struct RegistrationCall {
    const clang::CallExpr *Call;
    llvm::StringRef Name;
    const clang::FunctionDecl *Function;
    /// The registered tensor is created from an input's options or device (the
    /// lazy-module pattern: it materialises where the input is).
    bool FollowsInputDevice;
    /// A module constructed in the arguments (reported as the construction).
    bool ConstructsModule;
  };

  /// A registration, or a call of a listed registration helper, anywhere
  /// (default member initializers included): what its arguments may be.
  struct RegistrationSite {
    const clang::CallExpr *Call;
    /// The function it is written in; null in a default member initializer.
    const clang::FunctionDecl *Function;
    /// The innermost function: a lambda's call operator inside a lambda,
    /// else Function. Helper parameters are this function's.
    const clang::FunctionDecl *Owner;
    ValueIdentity::Decls Arguments;
  };

  /// A call from a user function to functions it may reach, with the
  /// identity of each argument (the object of operator() left out).
  struct CallSite {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
    const clang::FunctionDecl *Owner;
    llvm::SmallVector<const clang::FunctionDecl *, 2> Callees;
    llvm::SmallVector<ValueIdentity::Decls, 3> Arguments;
  };

  /// Walks the translation unit; Identity is filled with the locals met.
  ModuleInventory(clang::ASTContext &Ctx, ValueIdentity &Identity);
  ModuleInventory(const ModuleInventory &) = delete;
  ModuleInventory &operator=(const ModuleInventory &) = delete;

  /// Module classes defined in user code; class template patterns are
  /// included, their instantiations are not.
  llvm::ArrayRef<const clang::CXXRecordDecl *> moduleClasses() const {
    return ModuleClasses;
  }
  bool isModuleClassHere(const clang::CXXRecordDecl *Def) const;
  /// Every function with a body in user code, in the order met.
  llvm::ArrayRef<const clang::FunctionDecl *> functions() const {
    return Functions;
  }
  llvm::ArrayRef<FieldWrite> writesTo(const clang::FieldDecl *Field) const;
  /// Every member with a write, and its writes.
  const llvm::DenseMap<const clang::FieldDecl *,
                       llvm::SmallVector<FieldWrite, 2>> &
  allWrites() const {
    return Writes;
  }
  /// Named in a function body at all (read or written).
  bool isUsedInFunctions(const clang::FieldDecl *Field) const {
    return UsedFields.count(Field->getCanonicalDecl());
  }
  /// Every forward() (or operator()) of a module that names the member
  /// writes it before it reads it.
  bool isWrittenFirstOnForward(const clang::FieldDecl *Field) const;

  llvm::ArrayRef<ModuleCreation> moduleCreations() const { return Creations; }
  bool isModuleCreation(const clang::Expr *E) const {
    return CreationExprs.count(E);
  }
  /// The module is built into a local only to read its parameters out (the
  /// way lazy modules initialise like their eager counterparts).
  bool isInitializationTemplate(const clang::Expr *Creation) const {
    return InitializationTemplates.count(Creation);
  }
  /// What a local was initialised with, when it was.
  const clang::Expr *localInit(const clang::VarDecl *Var) const {
    return LocalInits.lookup(Var);
  }
  const llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> &
  localInits() const {
    return LocalInits;
  }

  llvm::ArrayRef<RegistrationCall> registrationCalls() const {
    return Registrations;
  }
  llvm::ArrayRef<RegistrationSite> registrationSites() const {
    return RegistrationSites;
  }
  /// A registration or a listed helper's call.
  bool isRegistrationSite(const clang::CallExpr *Call) const {
    return RegistrationSiteCalls.count(Call);
  }
  llvm::ArrayRef<CallSite> callSites() const { return Sites; }
  /// Members pushed into a module container (seq->push_back(fc_)), with
  /// where.
  const llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation> &
  containerInsertedFields() const {
    return ContainerInsertedFields;
  }
  /// Locals holding a module pushed into a module container
  /// (auto b = Block(); list_->push_back(b)).
  const llvm::DenseSet<const clang::VarDecl *> &
  containerInsertedLocals() const {
    return ContainerInsertedLocals;
  }

  /// The class's own methods register something or ask is_training().
  bool hasStateInItsCode(const clang::CXXRecordDecl *Class) const {
    return ClassesWithState.count(Class);
  }
  /// Classes whose setup is out of sight for a reason no other file can
  /// settle: a declaration Clang rejected, or a constructor or reset()
  /// declared here with no body (the file that defines it sees the setup).
  llvm::ArrayRef<const clang::CXXRecordDecl *>
  classesWithUndefinedSetup() const {
    return UndefinedSetup;
  }
  /// Functions with an expression Clang recovered from an error.
  llvm::ArrayRef<const clang::FunctionDecl *> functionsWithErrors() const {
    return FunctionsWithErrors;
  }

  static bool isRegistrationName(llvm::StringRef Name);

private:
  class Walk;
  friend class Walk;

  std::vector<const clang::CXXRecordDecl *> ModuleClasses;
  std::vector<const clang::FunctionDecl *> Functions;
  llvm::DenseMap<const clang::FieldDecl *, llvm::SmallVector<FieldWrite, 2>>
      Writes;
  llvm::DenseSet<const clang::FieldDecl *> UsedFields;
  /// Per field: does each forward root that names it write it first?
  llvm::DenseMap<const clang::FieldDecl *, bool> WrittenFirstOnForward;
  std::vector<ModuleCreation> Creations;
  llvm::DenseSet<const clang::Expr *> CreationExprs;
  llvm::DenseSet<const clang::Expr *> InitializationTemplates;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> LocalInits;
  std::vector<RegistrationCall> Registrations;
  std::vector<RegistrationSite> RegistrationSites;
  llvm::DenseSet<const clang::CallExpr *> RegistrationSiteCalls;
  std::vector<CallSite> Sites;
  llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation>
      ContainerInsertedFields;
  llvm::DenseSet<const clang::VarDecl *> ContainerInsertedLocals;
  llvm::DenseSet<const clang::CXXRecordDecl *> ClassesWithState;
  std::vector<const clang::CXXRecordDecl *> UndefinedSetup;
  std::vector<const clang::FunctionDecl *> FunctionsWithErrors;
};

/// forward() (or a listed forward method, or operator()) of a module class.
bool isForwardRoot(const clang::FunctionDecl *F);
/// A constructor, or reset() of a module class.
bool isConstructionRoot(const clang::FunctionDecl *F);

} // namespace tensorplace

#endif
