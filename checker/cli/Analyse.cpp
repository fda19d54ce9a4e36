//===- Analyse.cpp --------------------------------------------------------===//

#include "Analyse.h"

#include "tensorplace/driver/ConfigFiles.h"
#include "tensorplace/driver/ContentHash.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <chrono>
#include <optional>

using namespace llvm;

namespace tensorplace {
namespace cli {

std::string cacheKey(const std::string &File,
                     const clang::tooling::CompilationDatabase &DB,
                     const driver::RunOptions &Options, StringRef Checks) {
  std::string Text = driver::toolIdentity();
  auto Add = [&](StringRef Part) {
    Text += '\0';
    Text += Part;
  };
  Add(File);
  for (const std::string &Arg : Options.ExtraArgsBefore)
    Add("before:" + Arg);
  for (const std::string &Arg : Options.ExtraArgs)
    Add("after:" + Arg);
  Add("resource-dir:" + Options.ResourceDir);
  Add("cuda-headers:" + Options.CudaHeadersDir);
  Add("header-filter:" + Options.HeaderFilter +
      (Options.HeaderFilterGiven ? "(given)" : ""));
  Add(("checks:" + Checks + "|" + Options.CommandLineChecks).str());
  Add(Options.Color ? "color" : "plain");
  Add(Options.SkipLibraryBodies ? "skip-bodies" : "bodies");
  if (Options.UseConfigFiles) {
    Expected<driver::ConfigFileSettings> Settings = driver::configForFile(File);
    if (!Settings) {
      consumeError(Settings.takeError());
      return "";
    }
    Add("torch-checks:" + Settings->TorchChecks);
    if (Settings->HeaderFilterRegex)
      Add("header-filter-regex:" + *Settings->HeaderFilterRegex);
    std::vector<std::string> CheckOptions;
    for (const auto &Entry : Settings->CheckOptions)
      CheckOptions.push_back(Entry.getKey().str() + "=" +
                             Entry.getValue().Text + "@" +
                             std::to_string(Entry.getValue().Priority));
    std::sort(CheckOptions.begin(), CheckOptions.end());
    for (const std::string &O : CheckOptions)
      Add("option:" + O);
    for (const std::string &W : Settings->Warnings)
      Add("warning:" + W);
  }
  for (const clang::tooling::CompileCommand &Command :
       DB.getCompileCommands(File)) {
    Add("command:" + Command.Directory);
    Add(Command.Filename);
    for (const std::string &Arg : Command.CommandLine)
      Add(Arg);
  }
  return driver::digest(Text);
}

AnalysisStats analyseFiles(const std::vector<std::string> &Files,
                           const clang::tooling::CompilationDatabase &DB,
                           driver::RunOptions Options,
                           const AnalysisSettings &Settings,
                           const AnalysisHooks &Hooks) {
  ResultCache *Cache = Settings.Cache;
  // A cached result is stored only when none of its files changed after
  // this moment.
  auto RunStart = std::chrono::system_clock::now();
  std::vector<std::optional<WorkerOutcome>> Outcomes(Files.size());
  size_t NextToDeliver = 0;
  unsigned Done = 0;
  // Whole files, in the order of the file list.
  auto DeliverReady = [&] {
    while (NextToDeliver < Files.size() && Outcomes[NextToDeliver]) {
      Hooks.Deliver(Files[NextToDeliver], std::move(*Outcomes[NextToDeliver]));
      Outcomes[NextToDeliver].reset();
      ++NextToDeliver;
    }
    Hooks.Progress(Done);
  };

  std::vector<std::string> Keys(Files.size());
  std::vector<size_t> Missed; // Indexes into Files of those to analyse.
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Cache)
      Keys[I] = cacheKey(Files[I], DB, Options, Settings.Checks);
    std::optional<driver::FileResult> Hit;
    if (!Keys[I].empty())
      Hit = Cache->lookup(Keys[I]);
    if (!Hit) {
      Missed.push_back(I);
      continue;
    }
    if (Hooks.FromCache)
      Hooks.FromCache(Files[I]);
    WorkerOutcome Outcome;
    Outcome.Completed = true;
    Outcome.Result = std::move(*Hit);
    Outcomes[I] = std::move(Outcome);
    ++Done;
  }
  DeliverReady();

  AnalysisStats Stats;
  if (Missed.empty())
    return Stats;
  std::vector<std::string> ToAnalyse;
  for (size_t I : Missed)
    ToAnalyse.push_back(Files[I]);
  unsigned Workers = Settings.Jobs
                         ? Settings.Jobs
                         : hardware_concurrency().compute_thread_count();
  // Built once, before any worker starts; a temporary one is removed when
  // Pchs goes, the cache's stay.
  driver::PchCache KeptPchs;
  if (Cache) {
    KeptPchs.Dir = Cache->pchDir();
    KeptPchs.Hashes = &Cache->hashes();
  }
  std::unique_ptr<driver::PchSet> Pchs = driver::preparePchs(
      DB, ToAnalyse, Options, driver::minFilesPerPch(Workers), Settings.PchLog,
      Cache ? &KeptPchs : nullptr);
  Options.Pchs = Pchs.get();
  for (const driver::PchSet::Entry &E : Pchs->entries())
    Stats.BuiltPch |= !E.Reused;
  Stats.Workers = std::max(1u, std::min<unsigned>(Workers, ToAnalyse.size()));
  runInWorkers(
      ToAnalyse, Stats.Workers,
      [&](const std::string &File) {
        return driver::analyzeFile(DB, File, Options);
      },
      [&](size_t Index, WorkerOutcome Outcome) {
        size_t I = Missed[Index];
        if (Cache && Outcome.Completed && !Keys[I].empty())
          Cache->store(Keys[I], Outcome.Result, RunStart);
        Outcomes[I] = std::move(Outcome);
        ++Done;
        DeliverReady();
      },
      [&] { Hooks.Tick(); });
  return Stats;
}

} // namespace cli
} // namespace tensorplace
