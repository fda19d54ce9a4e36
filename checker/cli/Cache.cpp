//===- Cache.cpp ----------------------------------------------------------===//

#include "Cache.h"
#include "Workers.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cstdlib>
#include <vector>

using namespace llvm;

namespace tensorplace {
namespace cli {

/// Raised whenever an entry's layout changes, so that entries of another
/// layout are never read as this one.
static constexpr int64_t EntryFormat = 1;

std::string defaultCacheDir() {
  SmallString<256> Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg) {
    Dir = Xdg;
  } else if (const char *Home = std::getenv("HOME"); Home && *Home) {
    Dir = Home;
    sys::path::append(Dir, ".cache");
  } else {
    return "";
  }
  sys::path::append(Dir, "tensorplace");
  return std::string(Dir);
}

Expected<std::unique_ptr<ResultCache>> ResultCache::open(StringRef Dir,
                                                         uint64_t LimitBytes) {
  SmallString<256> Abs(Dir);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, true);
  for (const char *Sub : {"results", "pch"}) {
    SmallString<256> Path(Abs);
    sys::path::append(Path, Sub);
    if (std::error_code EC = sys::fs::create_directories(Path))
      return createStringError(EC, "cannot create '%s': %s", Path.c_str(),
                               EC.message().c_str());
  }
  // A directory that exists but cannot be written to is no cache either.
  if (sys::fs::access(Abs, sys::fs::AccessMode::Write))
    return createStringError(inconvertibleErrorCode(), "'%s' is not writable",
                             Abs.c_str());
  return std::unique_ptr<ResultCache>(
      new ResultCache(std::string(Abs), LimitBytes));
}

std::string ResultCache::pchDir() const { return Dir + "/pch"; }

std::string ResultCache::entryPath(StringRef Key) const {
  return (Dir + "/results/" + Key.take_front(2) + "/" + Key + ".json").str();
}

std::optional<driver::FileResult> ResultCache::lookup(StringRef Key) {
  std::string Path = entryPath(Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text) {
    ++Misses;
    return std::nullopt;
  }
  auto Unusable = [&]() -> std::optional<driver::FileResult> {
    ++Unreadable;
    ++Misses;
    return std::nullopt;
  };
  Expected<json::Value> Parsed = json::parse((*Text)->getBuffer());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return Unusable();
  }
  const json::Object *Entry = Parsed->getAsObject();
  if (!Entry)
    return Unusable();
  std::optional<int64_t> Format = compat::toStd(Entry->getInteger("format"));
  std::optional<StringRef> StoredKey = compat::toStd(Entry->getString("key"));
  const json::Value *Files = Entry->get("files");
  const json::Value *Result = Entry->get("result");
  std::vector<driver::FileState> States;
  if (!Format || *Format != EntryFormat || !StoredKey || *StoredKey != Key ||
      !Files || !Result || !driver::fromJSON(*Files, States) || States.empty())
    return Unusable();
  if (!Hashes.unchanged(States)) {
    ++Misses;
    return std::nullopt;
  }
  Expected<driver::FileResult> Read = fileResultFromValue(*Result);
  if (!Read) {
    consumeError(Read.takeError());
    return Unusable();
  }
  // Touched, so that trim() removes the least recently used entries first.
  driver::touch(Path);
  ++Hits;
  return std::move(*Read);
}

bool ResultCache::store(StringRef Key, const driver::FileResult &Result,
                        std::chrono::system_clock::time_point Since) {
  // A result with compiler errors depends on what is missing as much as on
  // what is there (a header not installed yet), which no hash can tell.
  if (!Result.Ok || !Result.Parsed || Result.Dependencies.empty())
    return false;
  for (const std::string &Path : Result.Dependencies) {
    sys::fs::file_status Status;
    if (sys::fs::status(Path, Status) ||
        Status.getLastModificationTime() >= Since)
      return false;
  }
  std::vector<driver::FileState> States = Hashes.stateOf(Result.Dependencies);
  for (const driver::FileState &S : States)
    if (S.Hash.empty())
      return false;
  json::Object Entry{{"format", EntryFormat},
                     {"key", Key},
                     {"files", driver::toJSON(States)},
                     {"result", toJSON(Result)}};
  std::string Text = formatv("{0}", json::Value(std::move(Entry))).str();
  if (Error E = driver::writeFileAtomically(entryPath(Key), Text)) {
    consumeError(std::move(E));
    return false;
  }
  ++Stored;
  return true;
}

void ResultCache::trim() {
  struct Item {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> Used;
  };
  std::vector<Item> Items;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status) ||
        Status.type() != sys::fs::file_type::regular_file)
      continue;
    // Another run's write in progress is left alone; what a killed run left
    // behind goes after an hour.
    if (sys::path::filename(It->path()).contains(".tmp-") &&
        Now - Status.getLastModificationTime() < std::chrono::hours(1))
      continue;
    Items.push_back(
        {It->path(), Status.getSize(), Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= LimitBytes)
    return;
  std::sort(Items.begin(), Items.end(),
            [](const Item &A, const Item &B) { return A.Used < B.Used; });
  uint64_t Target = LimitBytes / 10 * 9;
  for (const Item &I : Items) {
    if (Total <= Target)
      break;
    if (!sys::fs::remove(I.Path))
      Total -= I.Size;
  }
}

} // namespace cli
} // namespace tensorplace
