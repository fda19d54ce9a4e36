//===- DeviceGuards.h - Where a device is made current ------------------===//
//
// The layer over the call graph that tells, at a point of a user function,
// whether a CUDA device is current by the program's own doing: a device or
// stream guard of c10 declared before it, a call before it of cudaSetDevice
// (or c10's set_device, or a helper of the file that calls one), the
// autograd engine's guard around a custom function's backward(), or every
// call of the function in this file made under such a guard.
//
// A function no one in this file calls is open: a file of the project may
// call it under a guard or not. The clang-tidy plugin, which sees one file,
// takes that as unguarded; the CLI settles it over the project's calls
// (Finding::PendingCallersOf, FunctionSummary::DeviceCalls).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_DEVICEGUARDS_H
#define TENSORPLACE_CHECKER_DEVICEGUARDS_H

#include "tensorplace/checker/CallGraph.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <optional>

namespace tensorplace {

class DeviceGuards {
public:
  /// Whether a device guard is in force at a point.
  struct State {
    enum Kind {
      Guarded,
      Unguarded,
      /// Guarded exactly when the calls of OpenOn in other files are: each
      /// has no caller in this file and may be called from another.
      Open
    } K = Unguarded;
    llvm::SmallVector<const clang::FunctionDecl *, 2> OpenOn;
  };

  DeviceGuards(clang::ASTContext &Ctx, const CallGraph &Calls);
  DeviceGuards(const DeviceGuards &) = delete;
  DeviceGuards &operator=(const DeviceGuards &) = delete;

  /// At Loc in F, a function defined here.
  State stateAt(const clang::FunctionDecl *F, clang::SourceLocation Loc) const;

private:
  State stateAt(const clang::FunctionDecl *F, clang::SourceLocation Loc,
                unsigned Depth) const;

  struct Scopes {
    /// Guards declared and devices set, in F's own body.
    llvm::SmallVector<clang::SourceLocation, 2> Guards;
    /// It sets the device with no scope to end (cudaSetDevice and the like),
    /// so a call of it sets the device for its caller too.
    bool SetsDevice = false;
  };
  /// F's name is written in the main file's code (a call, or `&f` handed to
  /// a binding), not only in the header that defines it.
  bool isNamedInMainFile(const clang::FunctionDecl *F) const;

  const clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  const CallGraph &Calls;
  llvm::DenseMap<const clang::FunctionDecl *, Scopes> Functions;
  /// The identifiers of the main file's code, read when first needed.
  /// MainFileUnreadable: its text was not available, and every name counts
  /// as written.
  mutable std::optional<llvm::StringMap<unsigned>> MainFileNames;
  mutable bool MainFileUnreadable = false;
};

/// Adds one to Counts for each identifier written in File's code, as the raw
/// lexer reads it: a name in a comment or a string literal is not one. False
/// when the file's text is not available.
bool countIdentifiers(const clang::SourceManager &SM,
                      const clang::LangOptions &LangOpts, clang::FileID File,
                      llvm::StringMap<unsigned> &Counts);

/// c10::cuda::CUDAGuard, OptionalCUDAGuard, CUDAStreamGuard,
/// OptionalCUDAStreamGuard, c10::DeviceGuard, OptionalDeviceGuard, StreamGuard
/// and OptionalStreamGuard (spelled c10:: or at::), or a std::optional of one.
bool isDeviceGuardType(clang::QualType T);

/// cudaSetDevice, c10::cuda's set_device, SetDevice, MaybeSetDevice,
/// ExchangeDevice and MaybeExchangeDevice, and LibTorch 2.x's
/// at::accelerator::setDeviceIndex, exchangeDevice and maybeExchangeDevice.
bool isSetDeviceName(llvm::StringRef Name);

/// Another file can call F: it is visible there, and named there by its
/// functionKey() (a function template by the template's own).
bool isCallableFromOtherFiles(const clang::FunctionDecl *F);

} // namespace tensorplace

#endif
