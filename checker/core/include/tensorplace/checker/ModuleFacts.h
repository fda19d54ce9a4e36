//===- ModuleFacts.h - What a translation unit does with its modules -----===//
//
// The facts the module rules decide on, as named layers, each built once per
// translation unit and each with its own tests:
//  - CallGraph.h: who calls whom among the user's functions;
//  - ValueIdentity.h: which members, locals and parameters a value may be,
//    or be computed from (value flow);
//  - ModuleInventory.h: one walk over the user's code that records the
//    module classes, the writes to their members, module creations,
//    registrations and calls, as written;
//  - SetupPaths.h: the construction and forward paths over the call graph,
//    and the setup out of sight;
//  - RegistrationFacts.h: which members are registered, through helpers,
//    macros, aliases and containers.
// ModuleFacts holds them together and adds what the rules share about values
// written to members (a fresh tensor, a new module) and about classes (a
// module with no state of its own). The rules are queries over these facts;
// what is a bug is decided in the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_MODULEFACTS_H
#define TENSORPLACE_CHECKER_MODULEFACTS_H

#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/ModuleInventory.h"
#include "tensorplace/checker/RegistrationFacts.h"
#include "tensorplace/checker/SetupPaths.h"
#include "tensorplace/checker/ValueIdentity.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tensorplace {

class ModuleFacts {
public:
  using WriteKind = ModuleInventory::WriteKind;
  using FieldWrite = ModuleInventory::FieldWrite;
  using ModuleCreation = ModuleInventory::ModuleCreation;
  using RegistrationCall = ModuleInventory::RegistrationCall;
  using ForwardPath = SetupPaths::ForwardPath;
  using HiddenCall = SetupPaths::HiddenCall;
  /// A call from one function defined here to another.
  using CallEdge = CallGraph::Edge;

  /// Built over Calls, the translation unit's call graph, which must
  /// outlive the facts.
  ModuleFacts(clang::ASTContext &Ctx, const CallGraph &Calls);
  ModuleFacts(const ModuleFacts &) = delete;
  ModuleFacts &operator=(const ModuleFacts &) = delete;

  /// The layers.
  const ModuleInventory &inventory() const { return Inventory; }
  const ValueIdentity &identity() const { return Identity; }
  const SetupPaths &paths() const { return Paths; }
  const RegistrationFacts &registrations() const { return Registrations; }
  /// The translation unit's call graph.
  const CallGraph &calls() const { return Calls; }
  /// The calls resolved to F, whose result is what F returns: its direct
  /// calls and, for a module's forward(), calls through the module's holder
  /// (`net(x)`, which ModuleHolder::operator() forwards to it).
  llvm::SmallVector<const CallEdge *, 4>
  callsReturning(const clang::FunctionDecl *F) const;

  /// Module classes defined in user code; class template patterns are
  /// included, their instantiations are not.
  llvm::ArrayRef<const clang::CXXRecordDecl *> moduleClasses() const {
    return Inventory.moduleClasses();
  }
  llvm::ArrayRef<FieldWrite> writesTo(const clang::FieldDecl *Field) const {
    return Inventory.writesTo(Field);
  }
  /// Named in a function body at all (read or written).
  bool isUsedInFunctions(const clang::FieldDecl *Field) const {
    return Inventory.isUsedInFunctions(Field);
  }
  /// Every forward path that names the field writes it before it reads it:
  /// the member is a per-call cache, not module state.
  bool isPerCallCache(const clang::FieldDecl *Field) const {
    return Inventory.isWrittenFirstOnForward(Field) ||
           isRefreshedOnEveryForward(Field);
  }
  /// How the forward() (or operator()) methods of the member's class, and
  /// of the classes here derived from it, meet the member, each itself or
  /// through the class's methods it calls on this module: not at all; by
  /// first writing it anew in a statement run on every call (at the top of
  /// the body, or by calling such a method: `update(out); ... loc_ ...` with
  /// `void update(Tensor o) { loc_ = o; }`), in each that names it; or by
  /// reading it first in one of them (or one defined in another file).
  enum class ForwardUse { None, RefreshedFirst, Read };
  ForwardUse forwardUseOf(const clang::FieldDecl *Field) const;
  /// Some forward() names the member and each that does writes it anew
  /// first: no read on the forward path sees a value from before
  /// Module::to().
  bool isRefreshedOnEveryForward(const clang::FieldDecl *Field) const {
    return forwardUseOf(Field) == ForwardUse::RefreshedFirst;
  }
  /// The expression names the member, itself or through the class's
  /// methods it calls on this module.
  bool valueNamesMember(const clang::Expr *Value,
                        const clang::FieldDecl *Field) const;
  llvm::ArrayRef<ModuleCreation> moduleCreations() const {
    return Inventory.moduleCreations();
  }
  llvm::ArrayRef<RegistrationCall> registrationCalls() const {
    return Inventory.registrationCalls();
  }
  /// The module is built into a local only to read its parameters out (the
  /// way lazy modules initialise like their eager counterparts).
  bool isInitializationTemplate(const clang::Expr *Creation) const {
    return Inventory.isInitializationTemplate(Creation);
  }
  /// The calls F makes to functions defined in this translation unit.
  llvm::ArrayRef<CallEdge> calleesOf(const clang::FunctionDecl *F) const {
    return Calls.callsFrom(F);
  }

  /// Passed to a registration (directly, through a helper, an alias, a loop
  /// variable, a container module it is pushed into) or assigned the result
  /// of one.
  bool isRegistered(const clang::FieldDecl *Field) const {
    return Registrations.isRegistered(Field);
  }
  /// The container module member whose construction lists Field
  /// (seq_ = Sequential(a_, b_) lists a_ and b_), or null.
  const clang::FieldDecl *
  listingContainer(const clang::FieldDecl *Field) const {
    return Registrations.listingContainer(Field);
  }
  /// Where the first registration evidence for the member is; invalid when
  /// it is not registered.
  clang::SourceLocation registrationLoc(const clang::FieldDecl *Field) const {
    return Registrations.registrationLoc(Field);
  }
  /// The write's value registers (t_ = register_buffer(...), a helper).
  bool writeRegisters(const FieldWrite &W) const {
    return Registrations.writeRegisters(W);
  }
  /// The module was constructed as an argument of register_module: it is
  /// registered, late.
  bool isRegisteredWhereCreated(const clang::Expr *Creation) const {
    return Registrations.isRegisteredWhereCreated(Creation);
  }

  /// Constructors, reset(), and everything they call in this translation unit.
  bool isConstructionFunction(const clang::FunctionDecl *F) const {
    return Paths.isConstructionFunction(F);
  }
  /// The write gives the member its value while the module is built: an
  /// in-class initializer, or a write in a construction function.
  bool isConstructionWrite(const FieldWrite &W) const {
    return !W.Function || llvm::isa<clang::CXXConstructorDecl>(W.Function) ||
           isConstructionFunction(W.Function);
  }
  /// Non-null when F is forward(), operator() of a module, or reached from one.
  const ForwardPath *forwardPath(const clang::FunctionDecl *F) const {
    return Paths.forwardPath(F);
  }
  /// The class's constructor, reset(), or a method they call has no body in
  /// this translation unit: registration may happen there, out of sight.
  bool hasHiddenSetup(const clang::CXXRecordDecl *Class) const {
    return Paths.hasHiddenSetup(Class);
  }
  /// SetupPaths::settleableHiddenSetup().
  llvm::ArrayRef<HiddenCall>
  settleableHiddenSetup(const clang::CXXRecordDecl *Class) const {
    return Paths.settleableHiddenSetup(Class);
  }

  /// A built-in stateless module, or a user module class whose whole
  /// definition is visible and that has no tensor or submodule members, makes
  /// no registration and does not look at is_training(). With
  /// AllowGivenTensors, tensor members that only ever hold what the module
  /// is given (constructor arguments, as `Camera(K, pose)` keeps an input's
  /// intrinsics) are allowed: the module makes no tensor of its own.
  bool isStatelessModuleClass(const clang::CXXRecordDecl *Impl,
                              bool AllowGivenTensors = false) const;

  /// A class that derives from torch::nn::Module only through a private or
  /// protected base (`class Camera : torch::nn::Module`, the default for
  /// `class`), has no friends, and whose own code, all of it defined here,
  /// uses nothing it inherits from a module (no register_*, to(),
  /// parameters(), no `*this` handed on as a module). No code can call
  /// Module::to() on it or register it, so it is a plain class: what its
  /// members hold is placed by its own code alone.
  bool isModuleInNameOnly(const clang::CXXRecordDecl *Class) const;

  /// True when the written value gives the member state of its own: a new
  /// tensor, not nothing, an undefined tensor, nullptr, a constructor
  /// parameter or another module's registered tensor (aliases follow to()).
  bool givesTensorState(const FieldWrite &W) const;
  /// True when the written value is a module object, not nullptr or an alias
  /// of a module held elsewhere.
  bool givesModule(const FieldWrite &W) const;

  static bool isRegistrationName(llvm::StringRef Name) {
    return ModuleInventory::isRegistrationName(Name);
  }

private:
  /// Asks Leaf about each expression a value may come from: through
  /// initializer lists, both arms of ?:, a local's initializer, std::move.
  bool anyProducer(
      const clang::Expr *E, unsigned Depth,
      llvm::function_ref<bool(const clang::Expr *, unsigned)> Leaf) const;
  bool valueIsFreshTensor(const clang::Expr *E, unsigned Depth) const;
  bool valueIsFreshModule(const clang::Expr *E, unsigned Depth) const;

  clang::ASTContext &Context;
  const CallGraph &Calls;
  ValueIdentity Identity;
  ModuleInventory Inventory;
  SetupPaths Paths;
  RegistrationFacts Registrations;
};

} // namespace tensorplace

#endif
