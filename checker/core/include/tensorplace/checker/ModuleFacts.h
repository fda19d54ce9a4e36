//===- ModuleFacts.h - What a translation unit does with its modules -----===//
//
// One walk over the user's code in a translation unit (system and LibTorch
// headers are skipped) collects the facts the module rules decide on:
//  - the module classes and every write to their tensor and submodule members;
//  - every registration, also through helpers, macros, aliases, containers;
//  - over the translation unit's call graph (CallGraph.h), the construction
//    path (constructors, reset(), what they call) and the forward path
//    (forward(), operator(), what they call);
//  - where modules are constructed and where register_* is called.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_MODULEFACTS_H
#define TENSORPLACE_CHECKER_MODULEFACTS_H

#include "tensorplace/checker/CallGraph.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace tensorplace {

class ModuleFacts {
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

  /// A register_parameter/register_buffer/register_module/replace_module call.
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

  /// How a function is reached from a module's forward(): the root forward
  /// method, and the call that leads into this function (invalid for a root).
  struct ForwardPath {
    const clang::FunctionDecl *Root;
    const clang::FunctionDecl *Caller;
    clang::SourceLocation CallLoc;
  };

  /// A call from one function defined here to another.
  using CallEdge = CallGraph::Edge;

  /// Built over Calls, the translation unit's call graph, which must
  /// outlive the facts.
  ModuleFacts(clang::ASTContext &Ctx, const CallGraph &Calls);
  ModuleFacts(const ModuleFacts &) = delete;
  ModuleFacts &operator=(const ModuleFacts &) = delete;

  /// Module classes defined in user code; class template patterns are
  /// included, their instantiations are not.
  llvm::ArrayRef<const clang::CXXRecordDecl *> moduleClasses() const {
    return ModuleClasses;
  }
  llvm::ArrayRef<FieldWrite> writesTo(const clang::FieldDecl *Field) const;

  /// Passed to a registration (directly, through a helper, an alias, a loop
  /// variable, a container module it is pushed into) or assigned the result
  /// of one.
  bool isRegistered(const clang::FieldDecl *Field) const {
    return Registered.count(Field->getCanonicalDecl());
  }
  /// The container module member whose construction lists Field
  /// (seq_ = Sequential(a_, b_) lists a_ and b_), or null.
  const clang::FieldDecl *
  listingContainer(const clang::FieldDecl *Field) const {
    return ListedInContainer.lookup(Field->getCanonicalDecl());
  }
  /// Where the first registration evidence for the member is; invalid when
  /// it is not registered.
  clang::SourceLocation registrationLoc(const clang::FieldDecl *Field) const;
  /// The write's value registers (t_ = register_buffer(...), a helper).
  bool writeRegisters(const FieldWrite &W) const {
    return W.Value && RegisteringWrites.count(W.Value);
  }
  /// Named in a function body at all (read or written).
  bool isUsedInFunctions(const clang::FieldDecl *Field) const {
    return UsedFields.count(Field->getCanonicalDecl());
  }
  /// The calls F makes to functions defined in this translation unit.
  llvm::ArrayRef<CallEdge> calleesOf(const clang::FunctionDecl *F) const {
    return Calls.callsFrom(F);
  }
  /// The translation unit's call graph.
  const CallGraph &calls() const { return Calls; }
  /// Constructors, reset(), and everything they call in this translation unit.
  bool isConstructionFunction(const clang::FunctionDecl *F) const;
  /// Non-null when F is forward(), operator() of a module, or reached from one.
  const ForwardPath *forwardPath(const clang::FunctionDecl *F) const;
  /// Every forward path that names the field writes it before it reads it:
  /// the member is a per-call cache, not module state.
  bool isPerCallCache(const clang::FieldDecl *Field) const;
  /// The class's constructor, reset(), or a method they call has no body in
  /// this translation unit: registration may happen there, out of sight.
  bool hasHiddenSetup(const clang::CXXRecordDecl *Class) const;
  /// When all the class's hidden setup is calls, made on this module or
  /// given it, to functions that another file may define: those functions.
  /// Empty when there is no hidden setup, or some of it cannot be settled
  /// elsewhere (compiler errors, a constructor defined in another file, whose
  /// own file sees the setup whole).
  struct HiddenCall {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Callee;
  };
  llvm::ArrayRef<HiddenCall>
  settleableHiddenSetup(const clang::CXXRecordDecl *Class) const;
  /// The module was constructed as an argument of register_module: it is
  /// registered, late.
  bool isRegisteredWhereCreated(const clang::Expr *Creation) const {
    return CreationsInRegistration.count(Creation);
  }
  /// The module is built into a local only to read its parameters out (the
  /// way lazy modules initialise like their eager counterparts).
  bool isInitializationTemplate(const clang::Expr *Creation) const {
    return InitializationTemplates.count(Creation);
  }
  /// A built-in stateless module, or a user module class whose whole
  /// definition is visible and that has no tensor or submodule members, makes
  /// no registration and does not look at is_training().
  bool isStatelessModuleClass(const clang::CXXRecordDecl *Impl) const;

  llvm::ArrayRef<ModuleCreation> moduleCreations() const { return Creations; }
  llvm::ArrayRef<RegistrationCall> registrationCalls() const {
    return Registrations;
  }

  /// True when the written value gives the member state of its own: a new
  /// tensor, not nothing, an undefined tensor, nullptr, a constructor
  /// parameter or another module's registered tensor (aliases follow to()).
  bool givesTensorState(const FieldWrite &W) const;
  /// True when the written value is a module object, not nullptr or an alias
  /// of a module held elsewhere.
  bool givesModule(const FieldWrite &W) const;

  static bool isRegistrationName(llvm::StringRef Name);

  class Builder;

private:
  friend class Builder;
  /// Asks Leaf about each expression a value may come from: through
  /// initializer lists, both arms of ?:, a local's initializer, std::move.
  bool anyProducer(
      const clang::Expr *E, unsigned Depth,
      llvm::function_ref<bool(const clang::Expr *, unsigned)> Leaf) const;
  bool valueIsFreshTensor(const clang::Expr *E, unsigned Depth) const;
  bool valueIsFreshModule(const clang::Expr *E, unsigned Depth) const;

  clang::ASTContext &Context;
  const CallGraph &Calls;
  std::vector<const clang::CXXRecordDecl *> ModuleClasses;
  llvm::DenseMap<const clang::FieldDecl *, llvm::SmallVector<FieldWrite, 2>>
      Writes;
  llvm::DenseMap<const clang::FieldDecl *, clang::SourceLocation> Registered;
  llvm::DenseSet<const clang::Expr *> RegisteringWrites;
  llvm::DenseMap<const clang::FieldDecl *, const clang::FieldDecl *>
      ListedInContainer;
  llvm::DenseSet<const clang::FieldDecl *> UsedFields;
  llvm::DenseSet<const clang::FunctionDecl *> ConstructionFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, ForwardPath> ForwardPaths;
  /// Per field: does each forward root that names it write it first?
  llvm::DenseMap<const clang::FieldDecl *, bool> WrittenFirstOnForward;
  /// Classes that register state or ask is_training() in their own methods.
  llvm::DenseSet<const clang::CXXRecordDecl *> ClassesWithState;
  /// Classes with a constructor or reset() whose body is not visible here.
  llvm::DenseSet<const clang::CXXRecordDecl *> ClassesWithHiddenSetup;
  /// Of those, the ones some of whose hidden setup no other file settles.
  llvm::DenseSet<const clang::CXXRecordDecl *> UnsettledClasses;
  llvm::DenseMap<const clang::CXXRecordDecl *, llvm::SmallVector<HiddenCall, 2>>
      HiddenCallees;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> LocalInits;
  std::vector<ModuleCreation> Creations;
  llvm::DenseSet<const clang::Expr *> CreationExprs;
  llvm::DenseSet<const clang::Expr *> CreationsInRegistration;
  llvm::DenseSet<const clang::Expr *> InitializationTemplates;
  std::vector<RegistrationCall> Registrations;
};

} // namespace tensorplace

#endif
