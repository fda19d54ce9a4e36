//===- Report.cpp ---------------------------------------------------------===//

#include "Report.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tensorplace {
namespace cli {

std::string pathForReport(StringRef Path, StringRef Root) {
  if (Root.empty())
    return Path.str();
  SmallString<256> Prefix(Root);
  if (!tensorplace::compat::endsWith(Prefix, "/"))
    Prefix += "/";
  if (tensorplace::compat::startsWith(Path, Prefix))
    return Path.drop_front(Prefix.size()).str();
  return Path.str();
}

std::string normaliseWhitespace(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text.trim()) {
    if (isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

std::string fingerprint(StringRef Rule, StringRef Path, StringRef LineText,
                        unsigned Occurrence) {
  std::string Key = (Rule + "\n" + Path + "\n" + normaliseWhitespace(LineText) +
                     "\n" + Twine(Occurrence))
                        .str();
  std::array<uint8_t, 20> Hash = SHA1::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Key.data()), Key.size()));
  return toHex(ArrayRef<uint8_t>(Hash).take_front(16), /*LowerCase=*/true);
}

json::Object findingToJSON(const driver::PlainFinding &F) {
  json::Array Notes, Fixes;
  for (const driver::PlainNote &N : F.Notes)
    Notes.push_back(json::Object{{"file", N.File},
                                 {"line", N.Line},
                                 {"column", N.Column},
                                 {"message", N.Message}});
  for (const clang::tooling::Replacement &X : F.Fixes)
    Fixes.push_back(
        json::Object{{"file", X.getFilePath().str()},
                     {"offset", X.getOffset()},
                     {"length", X.getLength()},
                     {"replacement", X.getReplacementText().str()}});
  return json::Object{{"rule", F.Rule},           {"file", F.File},
                      {"line", F.Line},           {"column", F.Column},
                      {"message", F.Message},     {"notes", std::move(Notes)},
                      {"fixes", std::move(Fixes)}};
}

json::Object reportedToJSON(const Reported &R) {
  json::Object O = findingToJSON(R.Finding);
  O["path"] = R.Path;
  O["fingerprint"] = R.Fingerprint;
  O["partial"] = R.Partial;
  return O;
}

json::Value findingsToJSON(ArrayRef<Reported> Findings) {
  json::Array Out;
  for (const Reported &R : Findings)
    Out.push_back(reportedToJSON(R));
  return std::move(Out);
}

namespace {

/// Percent-encodes what a URI path may not hold as is.
std::string encodeUriPath(StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("-._~/!$&'()*+,;=:@").contains(C)) {
      Out += C;
      continue;
    }
    Out += '%';
    Out += hexdigit(C >> 4);
    Out += hexdigit(C & 15);
  }
  return Out;
}

json::Object artifactLocation(StringRef File, StringRef Root) {
  std::string Path = pathForReport(File, Root);
  if (Path != File)
    return json::Object{{"uri", encodeUriPath(Path)},
                        {"uriBaseId", "%SRCROOT%"}};
  return json::Object{{"uri", "file://" + encodeUriPath(File)}};
}

json::Object physicalLocation(StringRef File, unsigned Line, unsigned Column,
                              StringRef Root) {
  json::Object Region{{"startLine", Line}};
  if (Column > 0)
    Region["startColumn"] = Column;
  return json::Object{{"artifactLocation", artifactLocation(File, Root)},
                      {"region", std::move(Region)}};
}

/// The fix-its of one finding as one SARIF fix, grouped by file.
json::Array sarifFixes(const driver::PlainFinding &F, StringRef Root) {
  if (F.Fixes.empty())
    return {};
  std::map<std::string, json::Array> ByFile;
  for (const clang::tooling::Replacement &X : F.Fixes)
    ByFile[X.getFilePath().str()].push_back(json::Object{
        {"deletedRegion", json::Object{{"byteOffset", X.getOffset()},
                                       {"byteLength", X.getLength()}}},
        {"insertedContent",
         json::Object{{"text", X.getReplacementText().str()}}}});
  json::Array Changes;
  for (auto &Entry : ByFile)
    Changes.push_back(
        json::Object{{"artifactLocation", artifactLocation(Entry.first, Root)},
                     {"replacements", std::move(Entry.second)}});
  return json::Array{json::Object{
      {"description", json::Object{{"text", "apply the fix-it of " + F.Rule}}},
      {"artifactChanges", std::move(Changes)}}};
}

std::string capitalised(StringRef Text) {
  std::string Out = Text.str();
  if (!Out.empty())
    Out[0] = toUpper(Out[0]);
  return Out;
}

} // namespace

json::Object sarifResult(const Reported &R, StringRef SourceRoot) {
  const driver::PlainFinding &F = R.Finding;
  json::Object Result{
      {"ruleId", F.Rule},
      {"level", "warning"},
      {"message", json::Object{{"text", F.Message}}},
      {"locations",
       json::Array{json::Object{
           {"physicalLocation",
            physicalLocation(F.File, F.Line, F.Column, SourceRoot)}}}},
      {"partialFingerprints",
       json::Object{{"tensorplaceFingerprint/v1", R.Fingerprint}}}};
  if (!F.Notes.empty()) {
    json::Array Related;
    for (const driver::PlainNote &N : F.Notes)
      Related.push_back(json::Object{
          {"id", Related.size()},
          {"message", json::Object{{"text", N.Message}}},
          {"physicalLocation",
           physicalLocation(N.File, N.Line, N.Column, SourceRoot)}});
    Result["relatedLocations"] = std::move(Related);
  }
  json::Array Fixes = sarifFixes(F, SourceRoot);
  if (!Fixes.empty())
    Result["fixes"] = std::move(Fixes);
  if (R.Partial)
    Result["properties"] = json::Object{{"partial", true}};
  return Result;
}

json::Value toSARIF(const SarifRun &Run) {
  std::string Docs = Run.DocsBaseUrl;
  while (!Docs.empty() && Docs.back() == '/')
    Docs.pop_back();
  json::Array Rules;
  std::map<std::string, unsigned> RuleIndex;
  for (const RuleInfo *Info : Run.Rules) {
    RuleIndex[Info->Name] = RuleIndex.size();
    std::string HelpUri = Docs + "/checks/" + Info->Name + ".md";
    std::string Summary = capitalised(plainSummary(*Info));
    std::string Markdown = capitalised(Info->Summary);
    Rules.push_back(json::Object{
        {"id", Info->Name},
        {"shortDescription", json::Object{{"text", Summary}}},
        {"fullDescription",
         json::Object{{"text", Summary + ". Device-placement bug in LibTorch "
                                         "code found by tensorplace."}}},
        {"help",
         json::Object{
             {"text", Summary + ". See " + HelpUri +
                          " for why it matters, an example and its fix, and "
                          "how to silence it."},
             {"markdown", Markdown + ". See [" + Info->Name + "](" + HelpUri +
                              ") for why it matters, an example and its "
                              "fix, and how to silence it."}}},
        {"helpUri", HelpUri},
        {"defaultConfiguration", json::Object{{"level", "warning"}}},
        {"properties",
         json::Object{{"tags", json::Array{"correctness", "libtorch"}},
                      {"problem.severity", "warning"}}}});
  }

  json::Array Results;
  for (const Reported &R : Run.Findings) {
    json::Object Result = sarifResult(R, Run.SourceRoot);
    auto Index = RuleIndex.find(R.Finding.Rule);
    if (Index != RuleIndex.end())
      Result["ruleIndex"] = Index->second;
    Results.push_back(std::move(Result));
  }

  json::Array Notifications;
  bool AnyFailed = false;
  for (const FileProblem &P : Run.Problems) {
    AnyFailed |= P.Failed;
    Notifications.push_back(json::Object{
        {"level", P.Failed ? "error" : "warning"},
        {"message",
         json::Object{
             {"text", P.Failed ? "the file could not be analysed: " + P.Reason
                               : "the file has compiler errors and "
                                 "was analysed partially: " +
                                     P.Reason}}},
        {"locations",
         json::Array{json::Object{
             {"physicalLocation",
              json::Object{{"artifactLocation",
                            artifactLocation(P.File, Run.SourceRoot)}}}}}}});
  }
  json::Object Invocation{{"executionSuccessful", !AnyFailed}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  SmallString<256> Root(Run.SourceRoot);
  if (!tensorplace::compat::endsWith(Root, "/"))
    Root += "/";
  json::Value Log = json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       json::Array{json::Object{
           {"tool",
            json::Object{{"driver",
                          json::Object{{"name", "tensorplace"},
                                       {"version", Run.Version},
                                       {"semanticVersion", Run.Version},
                                       {"informationUri", Docs + "/checker.md"},
                                       {"rules", std::move(Rules)}}}}},
           {"originalUriBaseIds",
            json::Object{
                {"%SRCROOT%",
                 json::Object{{"uri", "file://" + encodeUriPath(Root)}}}}},
           {"invocations", json::Array{std::move(Invocation)}},
           {"results", std::move(Results)}}}}};
  if (Run.ShardState)
    (*Log.getAsObject()->getArray("runs"))[0].getAsObject()->try_emplace(
        "properties",
        json::Object{{ShardStateKey, json::Object(*Run.ShardState)}});
  return Log;
}

std::string escapeGitHubData(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += "%25";
    else if (C == '\r')
      Out += "%0D";
    else if (C == '\n')
      Out += "%0A";
    else
      Out += C;
  }
  return Out;
}

std::string escapeGitHubProperty(StringRef Text) {
  std::string Out;
  for (char C : escapeGitHubData(Text)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

void printGitHubFinding(raw_ostream &OS, const Reported &R, StringRef Root) {
  const driver::PlainFinding &F = R.Finding;
  std::string Message = F.Message;
  if (R.Partial)
    Message += " (the file has compiler errors; the analysis was partial)";
  for (const driver::PlainNote &N : F.Notes)
    Message += "\n" + pathForReport(N.File, Root) + ":" +
               std::to_string(N.Line) + ":" + std::to_string(N.Column) +
               ": note: " + N.Message;
  OS << "::warning file=" << escapeGitHubProperty(R.Path) << ",line=" << F.Line
     << ",col=" << F.Column << ",title=" << escapeGitHubProperty(F.Rule)
     << "::" << escapeGitHubData(Message) << "\n";
}

void printGitHubProblem(raw_ostream &OS, const FileProblem &P, StringRef Path) {
  OS << (P.Failed ? "::error file=" : "::notice file=")
     << escapeGitHubProperty(Path) << ",title="
     << escapeGitHubProperty(P.Failed ? "tensorplace could not analyse this "
                                        "file"
                                      : "tensorplace analysed this file "
                                        "partially")
     << "::" << escapeGitHubData(P.Reason) << "\n";
}

Error writeBaseline(StringRef File, ArrayRef<Reported> Findings) {
  std::vector<const Reported *> Sorted;
  for (const Reported &R : Findings)
    Sorted.push_back(&R);
  std::sort(Sorted.begin(), Sorted.end(),
            [](const Reported *A, const Reported *B) {
              return std::tie(A->Path, A->Finding.Line, A->Finding.Column,
                              A->Finding.Rule, A->Fingerprint) <
                     std::tie(B->Path, B->Finding.Line, B->Finding.Column,
                              B->Finding.Rule, B->Fingerprint);
            });
  json::Array Entries;
  for (const Reported *R : Sorted)
    Entries.push_back(json::Object{{"fingerprint", R->Fingerprint},
                                   {"rule", R->Finding.Rule},
                                   {"path", R->Path},
                                   {"line", R->Finding.Line},
                                   {"message", R->Finding.Message}});
  std::error_code EC;
  raw_fd_ostream OS(File, EC, sys::fs::OF_Text);
  if (EC)
    return errorCodeToError(EC);
  OS << formatv("{0:2}",
                json::Value(json::Object{{"tool", "tensorplace"},
                                         {"version", 1},
                                         {"findings", std::move(Entries)}}))
     << "\n";
  OS.close();
  if (OS.has_error())
    return errorCodeToError(OS.error());
  return Error::success();
}

Expected<StringSet<>> readBaseline(StringRef File) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return errorCodeToError(Buffer.getError());
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return Parsed.takeError();
  auto Malformed = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "not a tensorplace baseline: " + Why);
  };
  const json::Object *Top = Parsed->getAsObject();
  if (!Top || compat::toStd(Top->getString("tool")) != "tensorplace")
    return Malformed("no \"tool\": \"tensorplace\"");
  if (compat::toStd(Top->getInteger("version")) != 1)
    return Malformed("only version 1 is known");
  const json::Array *Entries = Top->getArray("findings");
  if (!Entries)
    return Malformed("no \"findings\" array");
  StringSet<> Fingerprints;
  for (const json::Value &Entry : *Entries) {
    const json::Object *O = Entry.getAsObject();
    std::optional<StringRef> FP;
    if (O)
      FP = compat::toStd(O->getString("fingerprint"));
    if (!FP)
      return Malformed("a finding without a \"fingerprint\"");
    Fingerprints.insert(*FP);
  }
  return std::move(Fingerprints);
}

Reporter::~Reporter() = default;

namespace {

class TextReporter : public Reporter {
public:
  explicit TextReporter(raw_ostream &OS) : OS(OS) {}
  void finding(const Reported &R) override { OS << R.Finding.Rendered; }

private:
  raw_ostream &OS;
};

class GitHubReporter : public Reporter {
public:
  GitHubReporter(raw_ostream &OS, std::string Root)
      : OS(OS), Root(std::move(Root)) {}
  void problem(const FileProblem &P, StringRef Path) override {
    printGitHubProblem(OS, P, Path);
  }
  void finding(const Reported &R) override { printGitHubFinding(OS, R, Root); }

private:
  raw_ostream &OS;
  std::string Root;
};

class JsonReporter : public Reporter {
public:
  JsonReporter(raw_ostream &OS, const json::Object *ShardState)
      : OS(OS), ShardState(ShardState) {}
  void finish(ArrayRef<Reported> Findings, ArrayRef<FileProblem>) override {
    json::Value Report = findingsToJSON(Findings);
    if (ShardState)
      Report = json::Object{{"findings", std::move(Report)},
                            {ShardStateKey, json::Object(*ShardState)}};
    OS << formatv("{0:2}", Report) << "\n";
  }

private:
  raw_ostream &OS;
  const json::Object *ShardState;
};

class SarifReporter : public Reporter {
public:
  SarifReporter(raw_ostream &OS, const SarifRun &Run) : OS(OS), Run(Run) {}
  void finish(ArrayRef<Reported> Findings,
              ArrayRef<FileProblem> Problems) override {
    SarifRun Whole = Run;
    Whole.Findings = Findings;
    Whole.Problems = Problems;
    OS << formatv("{0:2}", toSARIF(Whole)) << "\n";
  }

private:
  raw_ostream &OS;
  SarifRun Run;
};

} // namespace

std::unique_ptr<Reporter> makeReporter(OutputFormat Format, raw_ostream &OS,
                                       const SarifRun &Run) {
  switch (Format) {
  case OutputFormat::Text:
    return std::make_unique<TextReporter>(OS);
  case OutputFormat::GitHub:
    return std::make_unique<GitHubReporter>(OS, Run.SourceRoot);
  case OutputFormat::Json:
    return std::make_unique<JsonReporter>(OS, Run.ShardState);
  case OutputFormat::Sarif:
    return std::make_unique<SarifReporter>(OS, Run);
  }
  return std::make_unique<TextReporter>(OS);
}

Error exportFixes(StringRef File, StringRef MainSourceFile,
                  ArrayRef<Reported> Findings, StringRef BuildDirectory) {
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile.str();
  for (const Reported &R : Findings) {
    const driver::PlainFinding &F = R.Finding;
    clang::tooling::DiagnosticMessage Message(F.Message);
    Message.FilePath = F.File;
    Message.FileOffset = F.Offset;
    for (const clang::tooling::Replacement &X : F.Fixes)
      if (Error E = Message.Fix[X.getFilePath()].add(X))
        return E;
    TU.Diagnostics.emplace_back(
        F.Rule, Message, SmallVector<clang::tooling::DiagnosticMessage, 1>(),
        clang::tooling::Diagnostic::Warning, BuildDirectory);
  }
  std::error_code EC;
  raw_fd_ostream OS(File, EC, sys::fs::OF_Text);
  if (EC)
    return errorCodeToError(EC);
  yaml::Output YAML(OS);
  YAML << TU;
  OS.close();
  if (OS.has_error())
    return errorCodeToError(OS.error());
  return Error::success();
}

} // namespace cli
} // namespace tensorplace
