//===- ConfigFiles.cpp ----------------------------------------------------===//

#include "tensorplace/driver/ConfigFiles.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/LLVMCompat.h"
#include "tensorplace/driver/Driver.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include <map>
#include <mutex>

namespace tensorplace {
namespace driver {

/// The rule named Check, or null.
static const RuleInfo *ruleNamed(llvm::StringRef Check) {
  for (const RuleInfo &Info : allRules())
    if (Check == Info.Name)
      return &Info;
  return nullptr;
}

Config ConfigFileSettings::configFor(llvm::StringRef Check) const {
  Config Result;
  const RuleInfo *Rule = ruleNamed(Check);
  if (!Rule)
    return Result;
  // The options the check reads; the others keep their defaults.
  for (const ConfigOption *OptionPtr : optionsOf(*Rule)) {
    const ConfigOption &Option = *OptionPtr;
    auto Local = CheckOptions.find((Check + "." + Option.Name).str());
    auto Global = CheckOptions.find(Option.Name);
    const Value *Chosen = nullptr;
    if (Local != CheckOptions.end())
      Chosen = &Local->second;
    if (Global != CheckOptions.end() &&
        (!Chosen || Global->second.Priority > Chosen->Priority))
      Chosen = &Global->second;
    Result.set(Option.Name, Chosen ? llvm::StringRef(Chosen->Text)
                                   : llvm::StringRef(Option.Default));
  }
  return Result;
}

namespace {

struct ParsedFile {
  clang::tidy::ClangTidyOptions Options;
  std::vector<std::string> Warnings;
};

bool isKnownOption(llvm::StringRef Name) {
  return llvm::any_of(configOptions(), [&](const ConfigOption &Option) {
    return Name == Option.Name;
  });
}

llvm::Expected<ParsedFile> parseFile(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.c_str(),
                                   Buffer.getError().message().c_str());
  std::string Diagnostics;
  auto Parsed = clang::tidy::parseConfigurationWithDiags(
      (*Buffer)->getMemBufferRef(), [&](const llvm::SMDiagnostic &D) {
        Diagnostics += llvm::formatv("line {0}: {1}; ", D.getLineNo(),
                                     D.getMessage().str())
                           .str();
      });
  if (!Parsed) {
    llvm::StringRef Why(Diagnostics);
    Why.consume_back("; ");
    return llvm::createStringError(
        Parsed.getError(), "malformed configuration file '%s': %s",
        Path.c_str(),
        (Why.empty() ? Parsed.getError().message() : Why.str()).c_str());
  }
  ParsedFile File{std::move(*Parsed), {}};
  if (File.Options.Checks)
    for (const std::string &Unknown : unknownTorchChecks(*File.Options.Checks))
      File.Warnings.push_back("Checks in '" + Path + "' names " + Unknown +
                              ", which matches no torch check");
  // Unknown options of our checks are most likely typos that would silently
  // leave the default in force; other checks' options are not ours to judge.
  for (const auto &Entry : File.Options.CheckOptions) {
    llvm::StringRef Key = Entry.getKey();
    if (!tensorplace::compat::startsWith(Key, "torch-"))
      continue;
    auto [Check, Option] = Key.split('.');
    const RuleInfo *Rule = ruleNamed(Check);
    if (!Rule) {
      File.Warnings.push_back("unknown check '" + Check.str() + "' in '" +
                              Path + "' (option '" + Key.str() + "')");
    } else if (!isKnownOption(Option)) {
      File.Warnings.push_back("unknown option '" + Key.str() + "' in '" + Path +
                              "'");
    } else {
      std::vector<const ConfigOption *> Read = optionsOf(*Rule);
      if (llvm::none_of(
              Read, [&](const ConfigOption *O) { return Option == O->Name; })) {
        std::string Names;
        for (const ConfigOption *O : Read)
          Names += (Names.empty() ? "" : ", ") + std::string(O->Name);
        File.Warnings.push_back("option '" + Key.str() + "' in '" + Path +
                                "' is not read by " + Check.str() +
                                (Names.empty()
                                     ? ", which has no options"
                                     : " (its options: " + Names + ")"));
      }
    }
  }
  return File;
}

/// Appends the entries of a Checks list that name torch checks.
void appendTorchChecks(llvm::StringRef Checks, std::string &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Globs;
  Checks.split(Globs, ',', -1, false);
  for (llvm::StringRef Glob : Globs) {
    Glob = Glob.trim();
    llvm::StringRef Name = Glob;
    Name.consume_front("-");
    if (!tensorplace::compat::startsWith(Name, "torch"))
      continue;
    if (!Out.empty())
      Out += ",";
    Out += Glob.str();
  }
}

struct CachedSettings {
  ConfigFileSettings Settings;
  std::string Error; ///< Non-empty when a configuration file is broken.
};
std::mutex CacheMutex;
std::map<std::string, CachedSettings> *Cache = nullptr;

llvm::Expected<ConfigFileSettings> settingsForDirectory(llvm::StringRef Dir) {
  // Nearest configuration first, up to the first that does not inherit.
  std::vector<ParsedFile> Chain;
  std::vector<std::string> Paths;
  for (llvm::StringRef Current = Dir; !Current.empty();
       Current = llvm::sys::path::parent_path(Current)) {
    llvm::SmallString<256> Candidate(Current);
    llvm::sys::path::append(Candidate, ".clang-tidy");
    if (!llvm::sys::fs::exists(Candidate) ||
        llvm::sys::fs::is_directory(Candidate))
      continue;
    llvm::Expected<ParsedFile> Parsed = parseFile(std::string(Candidate));
    if (!Parsed)
      return Parsed.takeError();
    Paths.push_back(std::string(Candidate));
    bool Inherit =
        compat::toStd(Parsed->Options.InheritParentConfig).value_or(false);
    Chain.push_back(std::move(*Parsed));
    if (!Inherit)
      break;
  }
  ConfigFileSettings Settings;
  Settings.Files = Paths;
  // Farthest first, so that nearer files override, with clang-tidy's
  // priorities for local and global options.
  unsigned Order = 0;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    ++Order;
    const clang::tidy::ClangTidyOptions &Options = It->Options;
    if (Options.Checks)
      appendTorchChecks(*Options.Checks, Settings.TorchChecks);
    if (Options.HeaderFilterRegex)
      Settings.HeaderFilterRegex = *Options.HeaderFilterRegex;
    for (const auto &Entry : Options.CheckOptions)
      Settings.CheckOptions[Entry.getKey()] = {Entry.getValue().Value, Order};
    llvm::append_range(Settings.Warnings, It->Warnings);
  }
  return Settings;
}

} // namespace

llvm::Expected<ConfigFileSettings> configForFile(llvm::StringRef File) {
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  llvm::sys::path::remove_filename(Dir);
  std::lock_guard<std::mutex> Lock(CacheMutex);
  if (!Cache)
    Cache = new std::map<std::string, CachedSettings>();
  auto It = Cache->find(std::string(Dir));
  if (It == Cache->end()) {
    CachedSettings Entry;
    llvm::Expected<ConfigFileSettings> Settings = settingsForDirectory(Dir);
    if (Settings)
      Entry.Settings = std::move(*Settings);
    else
      Entry.Error = toString(Settings.takeError());
    It = Cache->emplace(std::string(Dir), std::move(Entry)).first;
  }
  if (!It->second.Error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   It->second.Error);
  return It->second.Settings;
}

} // namespace driver
} // namespace tensorplace
