//===- ContentHash.cpp ----------------------------------------------------===//

#include "tensorplace/driver/ContentHash.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <fcntl.h>
#include <sys/stat.h>

namespace tensorplace {
namespace driver {

const std::string &FileHashes::of(llvm::StringRef Path) {
  auto It = Known.find(Path);
  if (It != Known.end())
    return It->second;
  std::string Hash;
  // Only regular files: a FIFO would block, and a directory has no content.
  if (llvm::sys::fs::is_regular_file(Path)) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (Buffer) {
      llvm::StringRef Data = (*Buffer)->getBuffer();
      Hash = std::to_string(Data.size()) + ":" +
             llvm::utohexstr(llvm::xxHash64(Data), /*LowerCase=*/true);
    }
  }
  return Known.try_emplace(Path, std::move(Hash)).first->second;
}

std::vector<FileState> FileHashes::stateOf(llvm::ArrayRef<std::string> Paths) {
  std::vector<FileState> States;
  States.reserve(Paths.size());
  for (const std::string &Path : Paths)
    States.push_back({Path, of(Path)});
  return States;
}

bool FileHashes::unchanged(llvm::ArrayRef<FileState> Files) {
  for (const FileState &F : Files) {
    const std::string &Now = of(F.Path);
    if (Now.empty() || Now != F.Hash)
      return false;
  }
  return true;
}

llvm::json::Array toJSON(llvm::ArrayRef<FileState> Files) {
  llvm::json::Array Out;
  for (const FileState &F : Files)
    Out.push_back(llvm::json::Object{{"path", F.Path}, {"hash", F.Hash}});
  return Out;
}

bool fromJSON(const llvm::json::Value &V, std::vector<FileState> &Files) {
  const llvm::json::Array *A = V.getAsArray();
  if (!A)
    return false;
  for (const llvm::json::Value &E : *A) {
    const llvm::json::Object *O = E.getAsObject();
    if (!O)
      return false;
    std::optional<llvm::StringRef> Path = compat::toStd(O->getString("path"));
    std::optional<llvm::StringRef> Hash = compat::toStd(O->getString("hash"));
    if (!Path || !Hash)
      return false;
    Files.push_back({Path->str(), Hash->str()});
  }
  return true;
}

llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::StringRef Contents) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create '%s': %s",
                                   Dir.str().c_str(), EC.message().c_str());
  llvm::SmallString<256> Model(Dir), Temp;
  llvm::sys::path::append(Model, ".tmp-%%%%%%%%%%%%");
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return llvm::createStringError(EC, "cannot create a file in '%s': %s",
                                   Dir.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return llvm::createStringError(EC, "cannot write '%s': %s", Temp.c_str(),
                                     EC.message().c_str());
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot rename to '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

void touch(llvm::StringRef Path) {
  // Null times: now, for both.
  ::utimensat(AT_FDCWD, Path.str().c_str(), nullptr, 0);
}

const std::string &toolIdentity() {
  static const std::string Identity = [] {
    std::string Exe = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&toolIdentity));
    std::string Id = "tensorplace llvm-" LLVM_VERSION_STRING " " + Exe;
    llvm::sys::fs::file_status Status;
    if (!Exe.empty() && !llvm::sys::fs::status(Exe, Status))
      Id += " " + std::to_string(Status.getSize()) + " " +
            std::to_string(
                Status.getLastModificationTime().time_since_epoch().count());
    return Id;
  }();
  return Identity;
}

std::string digest(llvm::StringRef Text) {
  std::array<uint8_t, 20> Hash = llvm::SHA1::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Text.data()), Text.size()));
  return llvm::toHex(Hash, /*LowerCase=*/true);
}

} // namespace driver
} // namespace tensorplace
