#pragma once

// The differences between the LLVM/Clang versions the checker builds against
// (14 and 16 to 22), kept in one place so that rules and front ends are
// written once. Every shim here names the version that made it necessary.
// Our own code uses std::optional; values of LLVM's optional type are
// converted with toStd() where an LLVM API hands them over, and LLVMOptional
// names the type where an LLVM API takes one.

#include "clang/AST/Decl.h"
#include "clang/Basic/Cuda.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <initializer_list>
#include <memory>
#include <optional>
#include <type_traits>

#if LLVM_VERSION_MAJOR < 16
#include "llvm/ADT/Optional.h"
#endif

namespace clang {
class LangOptions;
} // namespace clang

namespace tensorplace {
namespace compat {

/// `StringRef::startswith`/`endswith` exist up to LLVM 18 and are removed
/// later; `starts_with`/`ends_with` exist from LLVM 16 on. Neither spelling
/// builds everywhere.
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}
inline bool endsWith(llvm::StringRef S, llvm::StringRef Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

/// Whether S is one of Names. StringSwitch::Cases with several strings is
/// deprecated in LLVM 22 in favour of an initializer_list overload that
/// earlier versions lack.
inline bool isOneOf(llvm::StringRef S,
                    std::initializer_list<llvm::StringRef> Names) {
  for (llvm::StringRef Name : Names)
    if (S == Name)
      return true;
  return false;
}

/// The optional type that LLVM's APIs take and return: llvm::Optional up to
/// LLVM 15, std::optional from LLVM 16 (llvm::Optional is gone in 17).
#if LLVM_VERSION_MAJOR < 16
template <typename T> using LLVMOptional = llvm::Optional<T>;
#else
template <typename T> using LLVMOptional = std::optional<T>;
#endif

/// An optional value that an LLVM API returned (json::Object::getString,
/// ClangTidyOptions fields, ...), as a std::optional whatever the version.
template <typename Opt>
auto toStd(const Opt &Value) -> std::optional<
    std::remove_cv_t<std::remove_reference_t<decltype(*Value)>>> {
  if (!Value)
    return std::nullopt;
  return *Value;
}

/// DiagnosticOptions owned by the code that renders diagnostics. Up to
/// LLVM 20, TextDiagnosticPrinter and TextDiagnostic share ownership of a
/// heap-allocated, reference-counted DiagnosticOptions and take a pointer;
/// from LLVM 21 it is a plain value they take by reference, and the caller
/// must keep it alive for as long as they live.
/// Source lines are shown without the line-number gutter that LLVM 17 added,
/// so that the CLI prints the same on every LLVM version.
class OwnedDiagnosticOptions {
public:
  OwnedDiagnosticOptions() {
#if LLVM_VERSION_MAJOR >= 17
    Options->ShowLineNumbers = false;
#endif
  }
  clang::DiagnosticOptions *operator->() { return &*Options; }
  /// What TextDiagnosticPrinter's and TextDiagnostic's constructors take.
#if LLVM_VERSION_MAJOR >= 21
  clang::DiagnosticOptions &forRenderer() { return *Options; }
#else
  clang::DiagnosticOptions *forRenderer() { return Options.get(); }
#endif

private:
#if LLVM_VERSION_MAJOR >= 21
  std::unique_ptr<clang::DiagnosticOptions> Options =
      std::make_unique<clang::DiagnosticOptions>();
#else
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> Options =
      new clang::DiagnosticOptions();
#endif
};

/// CompilerInvocation::getLangOpts() returns a pointer up to LLVM 17 and a
/// reference from LLVM 18.
inline clang::LangOptions &langOptions(clang::LangOptions *Options) {
  return *Options;
}
inline clang::LangOptions &langOptions(clang::LangOptions &Options) {
  return Options;
}

/// Makes Path absolute against Directory (not the process's working
/// directory). In sys::fs up to LLVM 21, moved to sys::path in LLVM 22.
inline void makeAbsolute(const llvm::Twine &Directory,
                         llvm::SmallVectorImpl<char> &Path) {
#if LLVM_VERSION_MAJOR >= 22
  llvm::sys::path::make_absolute(Directory, Path);
#else
  llvm::sys::fs::make_absolute(Directory, Path);
#endif
}

/// Whether this Clang knows the GPU architecture ("sm_80"). CudaArch and
/// StringToCudaArch are named OffloadArch and StringToOffloadArch from
/// LLVM 19.
inline bool isKnownCudaArch(llvm::StringRef Name) {
#if LLVM_VERSION_MAJOR >= 19
  return clang::StringToOffloadArch(Name) != clang::OffloadArch::UNKNOWN;
#else
  return clang::StringToCudaArch(Name) != clang::CudaArch::UNKNOWN;
#endif
}

/// FunctionDecl::isPure() is isPureVirtual() from LLVM 18.
inline bool isPureVirtual(const clang::FunctionDecl *F) {
#if LLVM_VERSION_MAJOR >= 18
  return F->isPureVirtual();
#else
  return F->isPure();
#endif
}

} // namespace compat
} // namespace tensorplace
