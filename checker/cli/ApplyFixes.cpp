//===- ApplyFixes.cpp -----------------------------------------------------===//

#include "ApplyFixes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace clang;
using namespace llvm;

namespace tensorplace {
namespace cli {

/// For the kill tests only (tests/checker/fix_safety_test.cpp): a pause
/// between writing a temporary file and renaming it over the file, and one
/// after the last file, so that a test can kill the process at every step of
/// --fix, the moment after the last rename included (a run whose results all
/// come from the cache gets there within a millisecond of its start).
static void testPauseBeforeRename() {
  static const int Milliseconds = [] {
    const char *Value = std::getenv("TENSORPLACE_TEST_FIX_DELAY_MS");
    return Value ? std::atoi(Value) : 0;
  }();
  if (Milliseconds > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(Milliseconds));
}

/// Removes "<file>.tensorplace-XXXXXX" files that a killed run left behind.
static void removeStaleTemps(StringRef Path) {
  StringRef Dir = sys::path::parent_path(Path);
  std::string Prefix = (sys::path::filename(Path) + TempSuffix).str();
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir.empty() ? "." : Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.consume_front(Prefix) || Name.size() != 6 ||
        !std::all_of(Name.begin(), Name.end(), isHexDigit))
      continue;
    sys::fs::remove(It->path());
  }
}

Error writeAtomically(StringRef Path, StringRef Content) {
  SmallString<256> Target;
  if (std::error_code EC = sys::fs::real_path(Path, Target))
    return errorCodeToError(EC);
  sys::fs::file_status Status;
  bool Exists = !sys::fs::status(Target, Status);
  removeStaleTemps(Target);

  SmallString<256> Temp;
  int FD;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Twine(Target) + TempSuffix + "%%%%%%", FD, Temp))
    return errorCodeToError(EC);
  auto Discard = [&](std::error_code EC) {
    sys::fs::remove(Temp);
    return errorCodeToError(EC);
  };
  if (Exists) {
    // Owner first (only root may change it; failing is harmless), then the
    // permission bits, which chown may have cleared.
    (void)::fchown(FD, Status.getUser(), Status.getGroup());
    if (std::error_code EC = sys::fs::setPermissions(FD, Status.permissions()))
      return ::close(FD), Discard(EC);
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/false);
    OS << Content;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      ::close(FD);
      return Discard(EC);
    }
  }
  // On disk before the rename, so that a crash of the machine cannot leave
  // an empty file in place of the original.
  if (::fsync(FD) != 0) {
    std::error_code EC(errno, std::generic_category());
    ::close(FD);
    return Discard(EC);
  }
  if (::close(FD) != 0)
    return Discard(std::error_code(errno, std::generic_category()));

  testPauseBeforeRename();
  if (std::error_code EC = sys::fs::rename(Temp, Target))
    return Discard(EC);
  // Make the rename itself durable.
  int DirFD = ::open(std::string(sys::path::parent_path(Target)).c_str(),
                     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (DirFD >= 0) {
    (void)::fsync(DirFD);
    ::close(DirFD);
  }
  return Error::success();
}

/// Why a file must not be written, or "" when it may be.
static std::string whyNotWritable(StringRef Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return EC.message();
  if (Status.type() != sys::fs::file_type::regular_file)
    return "not a regular file";
  // The rename would replace a read-only file (the directory is what it
  // needs), and root may write anything: the permission bits decide.
  if ((Status.permissions() & sys::fs::all_write) == 0)
    return "the file is read-only";
  if (::access(std::string(Path).c_str(), W_OK) != 0)
    return std::error_code(errno, std::generic_category()).message();
  return "";
}

bool applyFixes(const FixesByFile &Fixes, bool Quiet, raw_ostream &Err) {
  bool AllWritten = true;
  for (const auto &Entry : Fixes) {
    const std::string &File = Entry.first;
    // The same header's fix-it arrives once per translation unit.
    std::vector<tooling::Replacement> Unique = Entry.second;
    std::sort(Unique.begin(), Unique.end());
    Unique.erase(std::unique(Unique.begin(), Unique.end()), Unique.end());

    tooling::Replacements Merged;
    std::string Conflict;
    for (const tooling::Replacement &R : Unique)
      if (Error E = Merged.add(R)) {
        Conflict = toString(std::move(E));
        break;
      }
    if (!Conflict.empty()) {
      Err << "tensorplace: warning: not fixing '" << File
          << "': its fix-its conflict, the file is left unchanged (" << Conflict
          << ")\n";
      continue;
    }

    std::string Reason = whyNotWritable(File);
    if (!Reason.empty()) {
      Err << "tensorplace: error: cannot fix '" << File << "': " << Reason
          << "\n";
      AllWritten = false;
      continue;
    }
    auto Buffer = MemoryBuffer::getFile(File, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Err << "tensorplace: error: cannot read '" << File
          << "' to fix it: " << Buffer.getError().message() << "\n";
      AllWritten = false;
      continue;
    }
    Expected<std::string> Fixed =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Merged);
    if (!Fixed) {
      Err << "tensorplace: error: fixes for '" << File
          << "' could not be applied, the file is left unchanged: "
          << toString(Fixed.takeError()) << "\n";
      AllWritten = false;
      continue;
    }
    if (Error E = writeAtomically(File, *Fixed)) {
      Err << "tensorplace: error: cannot write '" << File
          << "': " << toString(std::move(E)) << "\n";
      AllWritten = false;
      continue;
    }
    if (!Quiet)
      Err << "tensorplace: applied " << Merged.size() << " fix"
          << (Merged.size() == 1 ? "" : "es") << " to '" << File << "'\n";
  }
  testPauseBeforeRename();
  return AllWritten;
}

} // namespace cli
} // namespace tensorplace
