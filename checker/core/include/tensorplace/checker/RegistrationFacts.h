//===- RegistrationFacts.h - Which members are registered, and where -----===//
//
// The layer that answers "is this member part of its module's state?" from
// the inventory (ModuleInventory.h) and the identity of values
// (ValueIdentity.h). A member is registered when the very object it holds is
// passed to a registration: directly, through a helper whose parameter
// reaches one (followed through every call site, to a fixed point), through
// a local, a loop variable, a container module it is pushed into or built
// around; or when it is assigned what a registration (or a function that
// registers) returns. Registering a value computed from a member
// (idx_ * 2, idx_.clone()) does not register the member.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_REGISTRATIONFACTS_H
#define TENSORPLACE_CHECKER_REGISTRATIONFACTS_H

#include "tensorplace/checker/ModuleInventory.h"
#include "tensorplace/checker/ValueIdentity.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tensorplace {

class RegistrationFacts {
public:
  RegistrationFacts(const ModuleInventory &Inventory,
                    const ValueIdentity &Identity);
  RegistrationFacts(const RegistrationFacts &) = delete;
  RegistrationFacts &operator=(const RegistrationFacts &) = delete;

  bool isRegistered(const clang::FieldDecl *Field) const {
    return Registered.count(Field->getCanonicalDecl());
  }
  /// Where the first registration evidence for the member is; invalid when
  /// it is not registered.
  clang::SourceLocation registrationLoc(const clang::FieldDecl *Field) const {
    return Registered.lookup(Field->getCanonicalDecl());
  }
  /// The written value registers (t_ = register_buffer(...), a helper).
  bool writeRegisters(const ModuleInventory::FieldWrite &W) const {
    return W.Value && RegisteringWrites.count(W.Value);
  }
  /// The container module member whose construction lists Field
  /// (seq_ = Sequential(a_, b_) lists a_ and b_), or null.
  const clang::FieldDecl *
  listingContainer(const clang::FieldDecl *Field) const {
    return ListedInContainer.lookup(Field->getCanonicalDecl());
  }
  /// The module was constructed as an argument of register_module: it is
  /// registered, late.
  bool isRegisteredWhereCreated(const clang::Expr *Creation) const {
    return CreationsInRegistration.count(Creation);
  }
  /// F registers something, itself or through what it calls.
  bool registers(const clang::FunctionDecl *F) const;

private:
  using Decls = ValueIdentity::Decls;
  void findHelpers(const ModuleInventory &Inventory);
  /// Calls Visit with what each registration, and each argument given to a
  /// helper parameter that reaches one, may be, and where.
  void forEachRegisteredArgument(
      const ModuleInventory &Inventory,
      llvm::function_ref<void(const Decls &, clang::SourceLocation)> Visit)
      const;
  bool containsRegistration(const ModuleInventory &Inventory,
                            const clang::Stmt *S) const;
  void findRegisteredMembers(const ModuleInventory &Inventory,
                             const ValueIdentity &Identity);
  void findCreationsInRegistration(const ModuleInventory &Inventory,
                                   const clang::Stmt *S);

  /// Per helper function, the parameters that reach a registration.
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<unsigned, 2>>
      HelperParams;
  llvm::DenseSet<const clang::FunctionDecl *> RegisteringFunctions;
  llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation> Registered;
  llvm::DenseSet<const clang::Expr *> RegisteringWrites;
  llvm::DenseMap<const clang::FieldDecl *, const clang::FieldDecl *>
      ListedInContainer;
  llvm::DenseSet<const clang::Expr *> CreationsInRegistration;
};

} // namespace tensorplace

#endif
