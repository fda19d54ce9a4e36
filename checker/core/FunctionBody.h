//===- FunctionBody.h - Where values go inside one function ---------------===//
//
// The placement rules look at one function at a time: which statements it
// holds, what each expression's value is used by, and whether a tensor only
// ends up read on the host (.item(), .data_ptr(), printing). Bodies are
// walked as written: template patterns, not their instantiations.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_FUNCTIONBODY_H
#define TENSORPLACE_CHECKER_FUNCTIONBODY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
} // namespace clang

namespace tensorplace {

/// Calls Visit for every function defined in user code (system and LibTorch
/// headers are skipped), template patterns included, lambdas excluded: a
/// lambda's body is part of the function it is written in.
void forEachUserFunction(
    clang::ASTContext &Ctx,
    llvm::function_ref<void(const clang::FunctionDecl *)> Visit);

/// The statements of one function (its body and constructor initializers),
/// or of one initialiser expression, each with its parent, and the uses of
/// its local variables.
class FunctionBody {
public:
  explicit FunctionBody(const clang::FunctionDecl *F);
  /// A lone expression, such as a default member initialiser.
  explicit FunctionBody(const clang::Expr *Root);
  ~FunctionBody();
  FunctionBody(const FunctionBody &) = delete;
  FunctionBody &operator=(const FunctionBody &) = delete;
  /// Every statement, in source order.
  llvm::ArrayRef<const clang::Stmt *> statements() const { return Stmts; }
  /// Null at the top of the body or of a constructor initializer.
  const clang::Stmt *parentOf(const clang::Stmt *S) const {
    return Parents.lookup(S);
  }
  /// Every reference to the local variable V in the function.
  llvm::ArrayRef<const clang::DeclRefExpr *>
  usesOf(const clang::VarDecl *V) const;
  /// Every reference to B, a binding of a structured binding declaration.
  llvm::ArrayRef<const clang::DeclRefExpr *>
  usesOf(const clang::BindingDecl *B) const;
  /// S is written inside a lambda in the function.
  bool isInLambda(const clang::Stmt *S) const;
  /// The local variable that the expression Top initialises, if any.
  const clang::VarDecl *variableInitializedBy(const clang::Expr *Top) const;
  /// Where S is in source order, and where its last sub-statement is: a
  /// value assigned by S is there from the end on.
  unsigned orderOf(const clang::Stmt *S) const { return Order.lookup(S); }
  unsigned endOrderOf(const clang::Stmt *S) const { return EndOrder.lookup(S); }

  /// The definitions of the local Var that may reach Use along the paths of
  /// Clang's CFG of the function, loops included: Var's initializer, or one
  /// of Assignments (`Var = ...`), as those expressions. Complete is false
  /// when some path from the function's entry reaches Use without one.
  /// Returns false when the CFG cannot tell: a lone expression, a use in a
  /// lambda or in an unevaluated operand, a CFG Clang could not build.
  bool reachingDefinitions(const clang::VarDecl *Var,
                           const clang::DeclRefExpr *Use,
                           llvm::ArrayRef<const clang::Expr *> Assignments,
                           llvm::SmallVectorImpl<const clang::Expr *> &Defs,
                           bool &Complete) const;

  /// No path of Clang's CFG from the function's entry reaches S: it follows
  /// a return, a throw or a call that does not return on every path. S in a
  /// lambda is judged by where the lambda is. False when the CFG cannot
  /// tell.
  bool neverRuns(const clang::Stmt *S) const;

private:
  void add(const clang::Stmt *S, const clang::Stmt *Parent);
  /// Builds the CFG on first use; false when there is none.
  bool buildCfg() const;
  const clang::FunctionDecl *Function = nullptr;
  mutable std::unique_ptr<clang::CFG> Cfg;
  mutable bool CfgBuilt = false;
  /// Where each statement is evaluated: its block, and its index there.
  mutable llvm::DenseMap<const clang::Stmt *,
                         std::pair<const clang::CFGBlock *, unsigned>>
      CfgPositions;
  /// The blocks reachable from the CFG's entry, once neverRuns() needs them.
  mutable std::unique_ptr<llvm::DenseSet<const clang::CFGBlock *>> Reachable;
  /// How deeply the statements nest, and the most for which Clang's CFG is
  /// built (it recurses per level).
  unsigned Depth = 0;
  static constexpr unsigned MaxCfgDepth = 1000;
  std::vector<const clang::Stmt *> Stmts;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parents;
  llvm::DenseMap<const clang::Stmt *, unsigned> Order, EndOrder;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::DeclRefExpr *, 4>>
      Uses;
  llvm::DenseMap<const clang::BindingDecl *,
                 llvm::SmallVector<const clang::DeclRefExpr *, 4>>
      BindingUses;
};

/// Climbs from E through parentheses, implicit conversions, temporaries and
/// copies: Top is the outermost expression that still is E's value, and the
/// result is the statement that uses it (null when nothing in the body does).
const clang::Stmt *valueUser(const clang::Expr *E, const FunctionBody &Body,
                             const clang::Expr *&Top);

/// The member call that the object expression Top is the object of
/// (t.item() for t), when User is that call's callee; else null.
const clang::CallExpr *memberCallOn(const clang::Stmt *User,
                                    const FunctionBody &Body);

/// A member call on a tensor that returns a tensor and takes no tensor
/// argument (x.view(...), x.triu(1), x.argmax(1), x.to(torch::kFloat)): its
/// result lives where x does, and no other tensor's device is involved.
bool isUnaryTensorStep(const clang::CallExpr *Call);

/// The tensor value of E is only read on the host: by item(), data_ptr(),
/// accessor() or a size query, possibly after unary tensor steps; printed
/// with <<; or bound to a local variable whose every use is such a read.
bool isOnlyReadOnHost(const clang::Expr *E, const FunctionBody &Body,
                      unsigned Depth = 0);

/// The tensor value of E, or a local it initialises or is assigned to, is
/// read or written element by element through host memory (accessor(),
/// data_ptr(), data()), possibly after unary tensor steps: it must stay on
/// the host there.
bool isElementAccessedOnHost(const clang::Expr *E, const FunctionBody &Body,
                             unsigned Depth = 0);

/// What a rule counts as moving a tensor off the host, and as making a new
/// host tensor.
/// The assignment `Var = ...` that Use, a reference to a variable in Body, is
/// the left-hand side of; null when it is not one.
const clang::Expr *assignmentTo(const clang::DeclRefExpr *Use,
                                const FunctionBody &Body);

/// Functions of LibTorch and the standard library: they keep no reference to
/// their arguments and compute on the device their tensors are on.
bool isLibraryFunction(const clang::FunctionDecl *F);

struct HostValueModel {
  /// The member call moves its object to a device (.to(x.device()), .cuda()).
  llvm::function_ref<bool(const clang::CallExpr *)> IsMove;
  /// The expression makes a tensor on the host (a factory with no device).
  llvm::function_ref<bool(const clang::Expr *)> IsHostSource;
  /// Whether the value, returned from the function, meets device data where
  /// the function is called. Null: a returned value counts as meeting it.
  llvm::function_ref<bool()> Returned = nullptr;
  /// The same for a value returned as one element of a pair, tuple or
  /// aggregate (`return {probs, torch::zeros(n)};`): whether that element
  /// meets device data where the function is called. Null: Returned decides.
  llvm::function_ref<bool(unsigned)> ReturnedElement = nullptr;
  /// The value followed is element StartElement of what E gives (E a call
  /// that returns a pair, tuple or aggregate): a use that takes another
  /// element (`.first`, `std::get<1>(...)`, `.field`) drops it.
  std::optional<unsigned> StartElement;
  /// Count only data known to be on the module's device (a layer's output,
  /// a module's member, a tensor moved to a device) as meeting it; a
  /// tensor of unknown origin (a parameter of a free function) or a place
  /// the flow does not follow is not. For a value its author put on the
  /// host on purpose (.cpu()), followed into code that is not the module's.
  bool KnownDeviceOnly = false;
};

/// Where and how a host value was found to meet device data, for the notes
/// of a finding: the operation and the operand it meets, the return, the
/// member it is stored in, or the project's function it is passed to.
struct DeviceMeeting {
  enum class Kind {
    Unknown,  ///< Too long a chain, or a place the flow does not follow.
    Operand,  ///< At is an operation; Other may be on the module's device.
    Returned, ///< At is the return statement.
    Stored,   ///< At stores it (in a member, a static, a reference).
    Passed    ///< At is a call of the project's own function.
  };
  Kind How = Kind::Unknown;
  const clang::Stmt *At = nullptr;
  const clang::Expr *Other = nullptr;
};

/// Follows the host tensor value of E through the function: through
/// operations whose other tensor operands are host values too, into local
/// variables and their reassignments (in source order). True when, before it
/// is moved or read on the host, it meets a value that may be on the module's
/// device (an input, a member, a function's result), is returned (unless
/// Model.Returned says its callers move it first), stored in a member, or
/// passed somewhere the flow cannot follow. A value passed to a function of
/// the project that returns a tensor meets device data; to one whose body is
/// in the translation unit and that returns no tensor, it is followed
/// through that parameter's uses there; to one whose body is elsewhere, it
/// meets nothing known. A value computed by a statement
/// of its own (t.add_(1);, t[0] = v;) is dropped there. Expressions Clang
/// recovered from errors end the flow without meeting anything. Where, when
/// given, says where the value met device data.
bool hostValueMeetsDevice(const clang::Expr *E, const FunctionBody &Body,
                          const HostValueModel &Model,
                          DeviceMeeting *Where = nullptr);

/// E is host data in Body: made by Model.IsHostSource, or only from such
/// data (through locals, views and operations), as hostValueMeetsDevice()
/// follows it.
bool isHostValue(const clang::Expr *E, const FunctionBody &Body,
                 const HostValueModel &Model);

/// E names one of Params.
bool namesParameter(
    const clang::Expr *E,
    const llvm::SmallPtrSetImpl<const clang::ParmVarDecl *> &Params);

/// Body assigns the parameter somewhere: it may hold other data there.
bool isParameterAssigned(const clang::ParmVarDecl *Param,
                         const FunctionBody &Body);

} // namespace tensorplace

#endif
