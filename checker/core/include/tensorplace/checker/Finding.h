//===- Finding.h - What a rule reports ------------------------------------===//
//
// A finding is produced once, by a rule in the analysis core, and handed to a
// FindingSink. The clang-tidy plugin turns it into a clang-tidy diagnostic; the
// CLI renders it as text, JSON or SARIF. The core knows nothing of either.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_FINDING_H
#define TENSORPLACE_CHECKER_FINDING_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace tensorplace {

/// Evidence attached to a finding: where a member is assigned, where a helper
/// is called from, how to silence the rule.
struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

/// A launch on memory that reaches it through pointer parameters of its
/// function, which nothing in its translation unit calls (Finding::
/// PendingDataOf): whether that memory is a tensor's is told by the calls in
/// other files.
struct PendingData {
  /// The launching function (functionKey()); empty when nothing is pending.
  std::string Function;
  /// The indices of its parameters whose memory the launch reads.
  std::vector<unsigned> Params;
  /// The finding needs the call to be made without a device guard too.
  bool Unguarded = false;
  bool empty() const { return Function.empty(); }
};

struct Finding {
  /// Check name, e.g. "torch-discarded-to-result".
  std::string Rule;
  clang::SourceLocation Loc;
  /// Clang style: lowercase, no final period, names quoted.
  std::string Message;
  std::vector<FindingNote> Notes;
  /// Only ever filled when the edit is provably safe (never in a macro).
  std::vector<clang::FixItHint> Fixes;
  /// Set when the translation unit alone cannot settle the finding: the
  /// module's setup calls functions defined in other files (PendingOn, as
  /// functionKey() names them), which might register or write the member
  /// PendingMember. A front end that sees the whole project reports it once
  /// none of them (nor what they call) names the member; one that sees a
  /// single file never does.
  std::string PendingMember;
  std::vector<std::string> PendingOn;
  /// Set when the finding holds unless every call, in other files, of these
  /// functions (functionKey()) is made under a device guard: they have no
  /// caller in this translation unit. A front end that sees the whole
  /// project settles it from the summaries' DeviceCalls; one that sees a
  /// single file reports it.
  std::vector<std::string> PendingCallersOf;
  /// Set when the finding holds only if a module class whose setup is in
  /// other files has state: these are its constructors and reset()
  /// (functionKey()). A front end that sees the whole project reports it
  /// once one of them, or what it calls, registers a parameter, buffer or
  /// submodule; one that sees a single file never does.
  std::vector<std::string> PendingStateOf;
  /// Set when the finding holds only if a function of this translation unit
  /// is on a module's forward path through a call in another file: a free
  /// helper that no forward() here reaches. These are the helper and the
  /// functions here that reach it (functionKey()). A front end that sees the
  /// whole project reports it once a forward() there, or what it calls,
  /// calls one of them; one that sees a single file never does.
  std::vector<std::string> PendingReachOf;
  /// Set for a launch on pointer parameters of a function that no function
  /// of this translation unit calls: a front end that sees the whole project
  /// reports it once a call there hands a tensor's memory to one of the
  /// parameters (made without a device guard, for PendingData::Unguarded);
  /// one that sees a single file never does.
  PendingData PendingDataOf;
};

/// A call, in a function defined here, of a function this translation unit
/// declares but does not define: whether a device guard is in force there
/// (DeviceGuards.h). Open: exactly when the calls of OpenOn, elsewhere, are.
/// Unknown: the caller holds code the compiler could not make sense of.
struct DeviceCall {
  enum Kind { Guarded, Unguarded, Open, Unknown };
  std::string Callee;
  Kind State = Unguarded;
  std::vector<std::string> OpenOn;
  /// The callee's parameters the call hands a tensor's memory to
  /// (x.data_ptr<float>()), by index.
  std::vector<unsigned> TensorArgs;
};

/// What a function defined in user code names, for settling pending
/// findings of other translation units: the members it names (MemberNames,
/// also through the functions it calls that are defined in the same file),
/// the functions it calls that are defined elsewhere (Calls), and whether it
/// holds code the compiler could not make sense of (Opaque: it may name
/// anything), and whether it registers a parameter, buffer or submodule
/// (Registers, also through what it calls here).
struct FunctionSummary {
  std::string Key;
  clang::SourceLocation Loc;
  std::vector<std::string> MemberNames;
  std::vector<std::string> Calls;
  bool Opaque = false;
  bool Registers = false;
  /// It starts a module's forward path: forward() or operator() of a module.
  bool ForwardRoot = false;
  /// Its calls of functions defined elsewhere, with the device guard state.
  std::vector<DeviceCall> DeviceCalls;
};

class FindingSink {
public:
  virtual ~FindingSink();
  virtual void report(const Finding &F, clang::ASTContext &Ctx) = 0;
  /// Whether the front end settles pending findings (see Finding); the rules
  /// drop them otherwise.
  virtual bool acceptsPending() const { return false; }
  /// The translation unit's function summaries, given once per translation
  /// unit to a sink that accepts pending findings.
  virtual void summaries(const std::vector<FunctionSummary> &,
                         clang::ASTContext &) {}
};

} // namespace tensorplace

#endif
