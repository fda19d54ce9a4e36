//===- ProjectFacts.h - What one file tells about functions of the project
//-===//
//
// A module whose setup calls a function defined in another file cannot be
// judged from one translation unit. The rules then make their findings
// pending on those functions (Finding::PendingOn); each translation unit
// also summarises the functions it defines (FunctionSummary). A front end
// that analyses the whole project (the CLI) combines the summaries of every
// file and reports a pending finding when none of the functions it waits on
// names the member; the clang-tidy plugin, which sees one file, drops them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_PROJECTFACTS_H
#define TENSORPLACE_CHECKER_PROJECTFACTS_H

#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/DeviceGuards.h"
#include "tensorplace/checker/Finding.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <string>
#include <vector>

namespace tensorplace {

/// The same in every translation unit that declares F: its qualified name
/// and canonical parameter types ("NetImpl::build(int)",
/// "init_weights(struct NetImpl &)").
std::string functionKey(const clang::FunctionDecl *F);

/// A function another file can define under the same functionKey(): not a
/// template, not local to its file.
bool isSettleableFunction(const clang::FunctionDecl *F);

/// Summaries of the functions with bodies in the user's code of this
/// translation unit that another file may call (isSettleableFunction()),
/// and of the others that call a function defined elsewhere (under a key no
/// other function has, for their DeviceCalls).
std::vector<FunctionSummary> summarizeFunctions(clang::ASTContext &Ctx,
                                                const CallGraph &Calls,
                                                const DeviceGuards &Guards);

/// The summaries of a whole project, by key; the first file to define a
/// function gives its summary.
struct SettledFunction {
  std::vector<std::string> MemberNames;
  std::vector<std::string> Calls;
  bool Opaque = false;
  bool Registers = false;
  bool ForwardRoot = false;
  std::vector<DeviceCall> DeviceCalls;
};
using ProjectSummaries = llvm::StringMap<SettledFunction>;

/// Why a pending finding about Member, waiting on Functions, does not hold:
/// empty when every function (and everything it calls) has a summary and
/// none names the member or is opaque; otherwise the key of the first
/// function that names it, is opaque or was never summarised.
std::string unsettledBy(llvm::StringRef Member,
                        llvm::ArrayRef<std::string> Functions,
                        const ProjectSummaries &Summaries);

/// Whether a module class whose setup functions (Finding::PendingStateOf)
/// are defined in other files has state: true when one of them, or what it
/// calls, registers a parameter, buffer or submodule. A function with no
/// summary, or an opaque one, is no evidence either way.
bool registersState(llvm::ArrayRef<std::string> Functions,
                    const ProjectSummaries &Summaries);

/// The functions on a module's forward path in the project: the forward()
/// of every file (FunctionSummary::ForwardRoot) and what they call, through
/// the files that define it, each with the key of a forward() that reaches
/// it. Built once for all the pending findings of a run.
using ForwardReach = llvm::StringMap<std::string>;
ForwardReach forwardReach(const ProjectSummaries &Summaries);

/// Whether a finding pending on the reach of Functions
/// (Finding::PendingReachOf) holds: the key of a forward() that reaches one
/// of them (forwardReach()), or an empty string.
std::string forwardReaching(llvm::ArrayRef<std::string> Functions,
                            const ForwardReach &Reached);

/// How the message of a finding pending on the reach of its function names
/// the forward() that reaches it; settling it puts that forward()'s name
/// (forwardName()) in its place.
inline constexpr llvm::StringLiteral ForwardElsewhere =
    "a module's forward() in another file";

/// A function's name in messages, from its key: "NetImpl::forward".
std::string forwardName(llvm::StringRef Key);

/// The project's calls of shared functions (FunctionSummary::DeviceCalls),
/// by the callee's key; built once for all the pending findings of a run.
using DeviceCallsByCallee = llvm::StringMap<std::vector<const DeviceCall *>>;
DeviceCallsByCallee indexDeviceCalls(const ProjectSummaries &Summaries);

/// Whether a finding pending on the callers of Functions
/// (Finding::PendingCallersOf) holds: true when one of them, or a function
/// whose calls leave one open, has no call in the project, or is called
/// without a device guard; false when every call is made under one (a call
/// whose state is unknown counts as one).
bool calledWithoutGuard(llvm::ArrayRef<std::string> Functions,
                        const DeviceCallsByCallee &Calls);

/// Whether a finding pending on the memory a launcher's callers hand it
/// (Finding::PendingDataOf) holds: true when a call of the launcher in the
/// project hands a tensor's memory to one of the parameters the launch reads
/// and, where the finding asks for it, is made without a device guard (also
/// through its own callers, as calledWithoutGuard() tells).
bool passedTensorMemory(const PendingData &Launcher,
                        const DeviceCallsByCallee &Calls);

} // namespace tensorplace

#endif
