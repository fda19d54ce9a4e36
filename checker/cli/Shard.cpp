//===- Shard.cpp ----------------------------------------------------------===//

#include "Shard.h"
#include "Workers.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

using namespace llvm;

namespace tensorplace {
namespace cli {

Expected<ShardSpec> parseShard(StringRef Text) {
  auto Invalid = [&] {
    return createStringError(
        inconvertibleErrorCode(),
        "--shard='" + Text +
            "' is not I/N with 1 <= I <= N (for example --shard=2/4)");
  };
  StringRef Index, Count;
  std::tie(Index, Count) = Text.split('/');
  ShardSpec Spec;
  if (Index.getAsInteger(10, Spec.Index) ||
      Count.getAsInteger(10, Spec.Count) || Spec.Count == 0 ||
      Spec.Index == 0 || Spec.Index > Spec.Count)
    return Invalid();
  return Spec;
}

std::vector<std::string>
selectShard(ArrayRef<std::string> Files, const ShardSpec &Spec,
            function_ref<std::string(const std::string &)> RelativePath) {
  std::vector<std::string> Keys;
  for (const std::string &File : Files)
    Keys.push_back(RelativePath(File));
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), 0);
  // Ties (one file listed twice) fall back to the absolute path.
  llvm::stable_sort(Order, [&](size_t A, size_t B) {
    return std::tie(Keys[A], Files[A]) < std::tie(Keys[B], Files[B]);
  });
  std::vector<bool> Mine(Files.size());
  for (size_t Rank = 0; Rank < Order.size(); ++Rank)
    Mine[Order[Rank]] = Rank % Spec.Count == Spec.Index - 1;
  std::vector<std::string> Selected;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Mine[I])
      Selected.push_back(Files[I]);
  return Selected;
}

namespace {

Error malformed(StringRef File, const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "'" + File +
                               "' is not a tensorplace report: " + Why);
}

std::string stringAt(const json::Object *O, StringRef Key) {
  if (!O)
    return "";
  if (auto S = compat::toStd(O->getString(Key)))
    return S->str();
  return "";
}

int64_t integerAt(const json::Object *O, StringRef Key) {
  if (!O)
    return 0;
  if (auto I = compat::toStd(O->getInteger(Key)))
    return *I;
  return 0;
}

/// How merged findings are ordered and told apart.
struct Entry {
  std::string Path;
  int64_t Line = 0, Column = 0;
  std::string Rule, Fingerprint;
  json::Value Value = nullptr;

  bool operator<(const Entry &Other) const {
    return std::tie(Path, Line, Column, Rule, Fingerprint) <
           std::tie(Other.Path, Other.Line, Other.Column, Other.Rule,
                    Other.Fingerprint);
  }
};

/// Keeps the first finding of each fingerprint, ordered.
json::Array sortedUnique(std::vector<Entry> Entries) {
  llvm::stable_sort(Entries);
  json::Array Out;
  StringSet<> Seen;
  for (Entry &E : Entries)
    if (Seen.insert(E.Fingerprint).second)
      Out.push_back(std::move(E.Value));
  return Out;
}

Error addJsonFindings(StringRef File, const json::Array &Findings,
                      std::vector<Entry> &Out) {
  for (const json::Value &V : Findings) {
    const json::Object *O = V.getAsObject();
    if (!O || !O->getString("fingerprint") || !O->getString("rule"))
      return malformed(File, "a finding without a \"rule\" or a "
                             "\"fingerprint\"");
    Entry E;
    E.Path = stringAt(O, "path");
    E.Line = integerAt(O, "line");
    E.Column = integerAt(O, "column");
    E.Rule = stringAt(O, "rule");
    E.Fingerprint = stringAt(O, "fingerprint");
    E.Value = V;
    Out.push_back(std::move(E));
  }
  return Error::success();
}

/// The first run of a SARIF log.
const json::Object *sarifRun(const json::Object &Log) {
  const json::Array *Runs = Log.getArray("runs");
  if (!Runs || Runs->empty())
    return nullptr;
  return (*Runs)[0].getAsObject();
}

Error addSarifResults(StringRef File, const json::Object &Run,
                      std::vector<Entry> &Out) {
  const json::Array *Results = Run.getArray("results");
  if (!Results)
    return malformed(File, "a SARIF run without \"results\"");
  for (const json::Value &V : *Results) {
    const json::Object *O = V.getAsObject();
    const json::Object *Fingerprints =
        O ? O->getObject("partialFingerprints") : nullptr;
    if (!O || !Fingerprints ||
        !Fingerprints->getString("tensorplaceFingerprint/v1"))
      return malformed(File, "a SARIF result without a tensorplace "
                             "fingerprint");
    Entry E;
    E.Rule = stringAt(O, "ruleId");
    E.Fingerprint = stringAt(Fingerprints, "tensorplaceFingerprint/v1");
    if (const json::Array *Locations = O->getArray("locations"))
      if (!Locations->empty())
        if (const json::Object *L = (*Locations)[0].getAsObject())
          if (const json::Object *P = L->getObject("physicalLocation")) {
            E.Path = stringAt(P->getObject("artifactLocation"), "uri");
            E.Line = integerAt(P->getObject("region"), "startLine");
            E.Column = integerAt(P->getObject("region"), "startColumn");
          }
    E.Value = V;
    Out.push_back(std::move(E));
  }
  return Error::success();
}

/// A report's shard state, or null: the JSON report's top-level object, or
/// the SARIF run's properties, hold it under ShardStateKey.
const json::Value *shardStateIn(const json::Value &Report, ReportKind Kind) {
  const json::Object *Holder = nullptr;
  if (Kind == ReportKind::Json)
    Holder = Report.getAsObject();
  else if (const json::Object *Run = sarifRun(*Report.getAsObject()))
    Holder = Run->getObject("properties");
  return Holder ? Holder->get(ShardStateKey) : nullptr;
}

/// "2, 4" for the shards of Count that Seen lacks.
std::string missingShards(const std::vector<bool> &Seen) {
  std::string Out;
  for (size_t I = 1; I < Seen.size(); ++I)
    if (!Seen[I])
      Out += (Out.empty() ? "" : ", ") + std::to_string(I);
  return Out;
}

/// Checks that the shard reports are one whole split, settles their pending
/// findings over every shard's summaries, and adds the holding ones to Out.
Error settleShards(std::vector<ShardState> &States,
                   ArrayRef<std::string> StateFiles,
                   ArrayRef<std::string> Unsharded, ReportKind Kind,
                   std::vector<Entry> &Out) {
  if (States.empty())
    return Error::success();
  auto Refuse = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  if (!Unsharded.empty())
    return Refuse("'" + Unsharded.front() + "' is not a shard's report, and '" +
                  StateFiles.front() +
                  "' is: merge the reports of one --shard split");
  unsigned Count = States.front().Spec.Count;
  std::vector<bool> Seen(Count + 1);
  for (size_t I = 0; I < States.size(); ++I) {
    const ShardSpec &Spec = States[I].Spec;
    if (Spec.Count != Count)
      return Refuse("'" + StateFiles[I] + "' is shard " + Twine(Spec.Index) +
                    "/" + Twine(Spec.Count) + " and '" + StateFiles.front() +
                    "' one of " + Twine(Count) +
                    ": merge the reports of one --shard split");
    if (Seen[Spec.Index])
      return Refuse("shard " + Twine(Spec.Index) + "/" + Twine(Count) +
                    " is given twice ('" + StateFiles[I] + "')");
    Seen[Spec.Index] = true;
  }
  std::string Missing = missingShards(Seen);
  if (!Missing.empty())
    return Refuse("the reports are shards of " + Twine(Count) +
                  " without shard " + Missing +
                  ": a merge without every shard would lose findings");

  ProjectSummaries Summaries;
  for (const ShardState &State : States)
    driver::addSummaries(Summaries, State.Summaries);
  driver::PendingSettler Settler(Summaries);
  for (ShardState &State : States)
    for (Reported &R : State.Pending) {
      if (!Settler.settle(R.Finding))
        continue;
      Entry E;
      E.Path = R.Path;
      E.Line = R.Finding.Line;
      E.Column = R.Finding.Column;
      E.Rule = R.Finding.Rule;
      E.Fingerprint = R.Fingerprint;
      if (Kind == ReportKind::Json)
        E.Value = reportedToJSON(R);
      else
        E.Value = sarifResult(R, State.SourceRoot);
      Out.push_back(std::move(E));
    }
  return Error::success();
}

} // namespace

json::Object toJSON(const ShardState &State) {
  json::Array Pending, Summaries;
  for (const Reported &R : State.Pending)
    Pending.push_back(json::Object{{"path", R.Path},
                                   {"fingerprint", R.Fingerprint},
                                   {"partial", R.Partial},
                                   {"finding", toWireJSON(R.Finding)}});
  for (const driver::PlainSummary &S : State.Summaries)
    Summaries.push_back(toWireJSON(S));
  return json::Object{{"shard", State.Spec.Index},
                      {"of", State.Spec.Count},
                      {"sourceRoot", State.SourceRoot},
                      {"pending", std::move(Pending)},
                      {"summaries", std::move(Summaries)}};
}

Expected<ShardState> shardStateFromValue(const json::Value &Value) {
  auto Malformed = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "its shard state is malformed: " + Why);
  };
  const json::Object *O = Value.getAsObject();
  if (!O)
    return Malformed("not an object");
  ShardState State;
  std::optional<int64_t> Index = compat::toStd(O->getInteger("shard"));
  std::optional<int64_t> Count = compat::toStd(O->getInteger("of"));
  if (!Index || !Count || *Count < 1 || *Index < 1 || *Index > *Count ||
      *Count > 1000000)
    return Malformed("no shard I of N with 1 <= I <= N");
  State.Spec.Index = static_cast<unsigned>(*Index);
  State.Spec.Count = static_cast<unsigned>(*Count);
  State.SourceRoot = stringAt(O, "sourceRoot");
  const json::Array *Pending = O->getArray("pending");
  const json::Array *Summaries = O->getArray("summaries");
  if (!Pending || !Summaries)
    return Malformed("no \"pending\" or \"summaries\" array");
  for (const json::Value &V : *Pending) {
    const json::Object *P = V.getAsObject();
    const json::Value *Finding = P ? P->get("finding") : nullptr;
    if (!Finding)
      return Malformed("a pending entry without its finding");
    Expected<driver::PlainFinding> F = wireFindingFromValue(*Finding);
    if (!F)
      return Malformed(toString(F.takeError()));
    Reported R;
    R.Finding = std::move(*F);
    R.Path = stringAt(P, "path");
    R.Fingerprint = stringAt(P, "fingerprint");
    R.Partial = compat::toStd(P->getBoolean("partial")).value_or(false);
    State.Pending.push_back(std::move(R));
  }
  for (const json::Value &V : *Summaries) {
    Expected<driver::PlainSummary> S = wireSummaryFromValue(V);
    if (!S)
      return Malformed(toString(S.takeError()));
    State.Summaries.push_back(std::move(*S));
  }
  return std::move(State);
}

Expected<MergedReport> mergeReports(ArrayRef<std::string> ReportFiles) {
  MergedReport Merged;
  std::vector<Entry> Entries;
  std::string FirstFile;
  // SARIF: the first run's tool and base URIs; rules and notifications of all.
  std::optional<json::Object> Template;
  json::Array Rules, Notifications;
  StringSet<> RuleIds;
  std::vector<ShardState> States;
  std::vector<std::string> StateFiles, Unsharded;
  for (const std::string &File : ReportFiles) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(File);
    if (!Buffer)
      return createStringError(Buffer.getError(),
                               "cannot read '" + File +
                                   "': " + Buffer.getError().message());
    Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
    if (!Parsed)
      return malformed(File, toString(Parsed.takeError()));
    ReportKind Kind;
    const json::Array *JsonFindings = Parsed->getAsArray();
    if (const json::Object *Top = Parsed->getAsObject();
        Top && Top->get(ShardStateKey))
      JsonFindings = Top->getArray("findings");
    if (JsonFindings)
      Kind = ReportKind::Json;
    else if (const json::Object *Log = Parsed->getAsObject();
             Log && Log->getArray("runs"))
      Kind = ReportKind::Sarif;
    else
      return malformed(File, "neither a JSON array of findings "
                             "(--format=json) nor a SARIF log "
                             "(--format=sarif)");
    if (FirstFile.empty()) {
      FirstFile = File;
      Merged.Kind = Kind;
    } else if (Kind != Merged.Kind) {
      auto Name = [](ReportKind K) {
        return K == ReportKind::Json ? "a JSON" : "a SARIF";
      };
      return createStringError(inconvertibleErrorCode(),
                               "'" + FirstFile + "' is " + Name(Merged.Kind) +
                                   " report and '" + File + "' " + Name(Kind) +
                                   " one: merge reports of one format");
    }

    if (Kind == ReportKind::Sarif && !sarifRun(*Parsed->getAsObject()))
      return malformed(File, "a SARIF log without a run");
    const json::Value *StateValue = shardStateIn(*Parsed, Kind);
    if (StateValue) {
      Expected<ShardState> State = shardStateFromValue(*StateValue);
      if (!State)
        return malformed(File, toString(State.takeError()));
      States.push_back(std::move(*State));
      StateFiles.push_back(File);
    } else {
      Unsharded.push_back(File);
    }

    if (Kind == ReportKind::Json) {
      if (Error E = addJsonFindings(File, *JsonFindings, Entries))
        return std::move(E);
      continue;
    }
    const json::Object *Run = sarifRun(*Parsed->getAsObject());
    if (Error E = addSarifResults(File, *Run, Entries))
      return std::move(E);
    if (!Template)
      Template = *Run;
    if (const json::Object *Tool = Run->getObject("tool"))
      if (const json::Object *Driver = Tool->getObject("driver"))
        if (const json::Array *DriverRules = Driver->getArray("rules"))
          for (const json::Value &Rule : *DriverRules) {
            std::string Id = stringAt(Rule.getAsObject(), "id");
            if (RuleIds.insert(Id).second)
              Rules.push_back(Rule);
          }
    if (const json::Array *Invocations = Run->getArray("invocations"))
      for (const json::Value &Invocation : *Invocations) {
        const json::Object *I = Invocation.getAsObject();
        if (!I)
          continue;
        if (const json::Array *Ns = I->getArray("toolExecutionNotifications"))
          for (const json::Value &N : *Ns) {
            std::string Level = stringAt(N.getAsObject(), "level");
            Merged.AnyFailed |= Level == "error";
            Merged.AnyPartial |= Level == "warning";
            Notifications.push_back(N);
          }
        if (auto Ok = compat::toStd(I->getBoolean("executionSuccessful")))
          Merged.AnyFailed |= !*Ok;
      }
  }

  if (Error E =
          settleShards(States, StateFiles, Unsharded, Merged.Kind, Entries))
    return std::move(E);

  json::Array Findings = sortedUnique(std::move(Entries));
  Merged.Findings = Findings.size();
  if (Merged.Kind == ReportKind::Json) {
    Merged.Report = std::move(Findings);
    return std::move(Merged);
  }

  // Each result's ruleIndex points into the united rules.
  std::map<std::string, int64_t> RuleIndex;
  for (const json::Value &Rule : Rules)
    RuleIndex.emplace(stringAt(Rule.getAsObject(), "id"), RuleIndex.size());
  for (json::Value &Result : Findings)
    if (json::Object *O = Result.getAsObject()) {
      auto It = RuleIndex.find(stringAt(O, "ruleId"));
      if (It != RuleIndex.end())
        (*O)["ruleIndex"] = It->second;
      else
        O->erase("ruleIndex");
    }
  json::Object Run = std::move(*Template);
  if (json::Object *Properties = Run.getObject("properties")) {
    Properties->erase(ShardStateKey);
    if (Properties->empty())
      Run.erase("properties");
  }
  if (json::Object *Tool = Run.getObject("tool"))
    if (json::Object *Driver = Tool->getObject("driver"))
      (*Driver)["rules"] = std::move(Rules);
  json::Object Invocation{{"executionSuccessful", !Merged.AnyFailed}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = json::Array{std::move(Invocation)};
  Run["results"] = std::move(Findings);
  Merged.Report =
      json::Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(Run)}}};
  return std::move(Merged);
}

} // namespace cli
} // namespace tensorplace
