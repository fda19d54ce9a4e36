// The tensorplace CLI as a CI tool: worker processes and crash isolation,
// output formats (JSON, SARIF, GitHub), fingerprints and baselines, --diff,
// --exclude, partial analysis, progress and summary, and --export-fixes.
// Most tests use the stand-in header; the [libtorch] ones run every option on
// real LibTorch translation units, a few options per run.
#include "TestSupport.h"

#include "catch.h"
#include "llvm/Support/JSON.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/checker/LLVMCompat.h"

#include <unistd.h>
#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);

std::string input(const std::string& name) {
  return std::string(TENSORPLACE_CHECKER_INPUTS) + "/" + name;
}

std::string standIn() {
  return " --" + joinFlags(standInFlags());
}

std::string realTorch() {
  return " --" + joinFlags(realTorchFlags());
}

llvm::json::Value parseJson(const std::string& text) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    std::string error = llvm::toString(value.takeError());
    FAIL("not JSON (" << error << "): " << text.substr(0, 2000));
  }
  return std::move(*value);
}

const llvm::json::Array& arrayOf(const llvm::json::Value& value) {
  const llvm::json::Array* array = value.getAsArray();
  REQUIRE(array != nullptr);
  return *array;
}

const llvm::json::Object& objectOf(const llvm::json::Value& value) {
  const llvm::json::Object* object = value.getAsObject();
  REQUIRE(object != nullptr);
  return *object;
}

std::string stringAt(const llvm::json::Object& object, llvm::StringRef key) {
  std::optional<llvm::StringRef> value = tensorplace::compat::toStd(object.getString(key));
  INFO("key " << key.str());
  REQUIRE(value);
  return value->str();
}

int64_t integerAt(const llvm::json::Object& object, llvm::StringRef key) {
  std::optional<int64_t> value = tensorplace::compat::toStd(object.getInteger(key));
  INFO("key " << key.str());
  REQUIRE(value);
  return *value;
}

/// (line, rule) of each finding of a JSON array whose "path" is `path`.
Findings jsonFindings(const llvm::json::Value& findings, const std::string& path) {
  Findings found;
  for (const llvm::json::Value& f : arrayOf(findings)) {
    const llvm::json::Object& o = objectOf(f);
    if (stringAt(o, "path") == path)
      found.emplace(static_cast<unsigned>(integerAt(o, "line")), stringAt(o, "rule"));
  }
  return found;
}

/// SARIF validation by Microsoft's SARIF multitool, with the SARIF rules and
/// GitHub code scanning's ingestion rules; notes (style advice) are allowed.
void requireValidSarif(const std::string& path) {
  std::string log = path + ".validation";
  CommandResult v = runCommand(
      quote(TENSORPLACE_SARIF_MULTITOOL) + " validate " + quote(path) + " -o " + quote(log) +
      " --log ForceOverwrite --rule-kind 'Gh;Sarif' --level 'Error;Warning'");
  INFO(v.out << v.err);
  REQUIRE(v.exit_code == 0);
  CHECK(v.out.find("1 files scanned") != std::string::npos);
  CHECK(!std::regex_search(v.out, std::regex(R"(\): (error|warning) )")));
}

void git(const std::string& dir, const std::string& args) {
  CommandResult r = runCommand("git -C " + quote(dir) +
                               " -c user.email=test@example.com -c user.name=test " + args);
  INFO("git " << args << "\n" << r.out << r.err);
  REQUIRE(r.exit_code == 0);
}

unsigned lineOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<unsigned>(std::count(text.begin(), text.begin() + at, '\n') + 1);
}

/// A stand-in file with one discarded conversion per listed variable.
std::string discards(const std::vector<std::string>& names) {
  std::string text = "#include <torch/torch.h>\nvoid f(";
  for (size_t i = 0; i < names.size(); ++i)
    text += (i ? ", torch::Tensor " : "torch::Tensor ") + names[i];
  text += ") {\n";
  for (const auto& n : names)
    text += "  " + n + ".cpu();\n";
  return text + "}\n";
}
}  // namespace

TEST_CASE("workers print each file whole and in file order whatever -j is",
          "[checker][cli][ci][jobs]") {
  std::string dir = scratchDir("ci-jobs");
  std::string files;
  for (const char* name : {"torch-unregistered-tensor-member.cpp", "torch-discarded-to-result.cpp",
                           "torch-hardcoded-device.cpp", "torch-factory-without-device.cpp",
                           "torch-lazily-created-layer.cpp"}) {
    writeFile(dir + "/" + name, readInput(input(name)));
    files += " " + quote(dir + "/" + name);
  }
  // --no-cache: both runs analyse every file, in workers.
  CommandResult one = runCommand(cli + " --no-cache -j 1" + files + standIn());
  CommandResult four = runCommand(cli + " --no-cache -j 4" + files + standIn());
  REQUIRE(one.exit_code == 1);
  REQUIRE(four.exit_code == 1);
  CHECK(four.out == one.out);
  CHECK(four.err.find("with 4 workers") != std::string::npos);
  CHECK(one.err.find("with 1 worker,") != std::string::npos);

  // Each file's findings form one block, and the blocks follow the sorted
  // file names.
  std::vector<std::string> order;
  std::istringstream lines(four.out);
  std::smatch m;
  static const std::regex warning(R"(^.*/(torch-[a-z-]+\.cpp):\d+:\d+: warning: )");
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, m, warning) && (order.empty() || order.back() != m[1].str()))
      order.push_back(m[1].str());
  std::vector<std::string> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  CHECK(order == sorted);
  CHECK(std::unique(sorted.begin(), sorted.end()) == sorted.end());
  CHECK(order.size() == 5);
}

TEST_CASE("a worker that crashes costs only its own file", "[checker][cli][ci][jobs]") {
  std::string dir = scratchDir("ci-crash");
  writeFile(dir + "/a.cpp", discards({"x"}));
  writeFile(dir + "/crashes.cpp", discards({"y"}));
  writeFile(dir + "/z.cpp", discards({"z"}));
  CommandResult r = runCommand(
      "TENSORPLACE_TEST_CRASH_ON=crashes.cpp " + cli + " --no-cache -j 2 " + quote(dir + "/a.cpp") +
      " " + quote(dir + "/crashes.cpp") + " " + quote(dir + "/z.cpp") + standIn());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("crashes.cpp' could not be analysed: the analysis crashed (signal 11: "
                   "Segmentation fault)") != std::string::npos);
  CHECK(warningsIn(r.out, "/a.cpp").size() == 1);
  CHECK(warningsIn(r.out, "/z.cpp").size() == 1);
  CHECK(warningsIn(r.out, "/crashes.cpp").empty());
  CHECK(r.err.find("2 findings in 3 files (0 analysed partially, 1 could not be analysed)") !=
        std::string::npos);
}

TEST_CASE("the summary counts findings per rule, failures and peak worker memory",
          "[checker][cli][ci][summary]") {
  std::string dir = scratchDir("ci-summary");
  std::string file = dir + "/cache.cpp";
  writeFile(file, readInput(input("torch-discarded-to-result.cpp")));
  CommandResult r = runCommand(cli + " --no-cache " + quote(file) + " " +
                               quote(dir + "/missing.cpp") + standIn());
  INFO(r.err);
  CHECK(r.exit_code == 2);
  Findings expected = expectationsIn(file);
  auto count = [&](const std::string& rule) {
    return std::count_if(expected.begin(), expected.end(),
                         [&](const auto& e) { return e.second == rule; });
  };
  CHECK(r.err.find("  torch-discarded-to-result: " +
                   std::to_string(count("torch-discarded-to-result")) + "\n") != std::string::npos);
  CHECK(r.err.find("  torch-hardcoded-device: " + std::to_string(count("torch-hardcoded-device")) +
                   "\n") != std::string::npos);
  CHECK(r.err.find("could not analyse '") != std::string::npos);
  CHECK(r.err.find("missing.cpp': no such file") != std::string::npos);
  std::smatch m;
  REQUIRE(std::regex_search(r.err, m, std::regex(R"(peak worker memory (\d+) MiB)")));
  CHECK(std::stoul(m[1].str()) > 10);
  // Not a terminal: no progress line.
  CHECK(r.err.find('\r') == std::string::npos);

  CommandResult quiet = runCommand(cli + " --quiet " + quote(file) + standIn());
  CHECK(quiet.exit_code == 1);
  CHECK(quiet.err.empty());
}

TEST_CASE("on a terminal a progress line is rewritten in place", "[checker][cli][ci][summary]") {
  std::string dir = scratchDir("ci-progress");
  writeFile(dir + "/a.cpp", discards({"x"}));
  writeFile(dir + "/b.cpp", discards({"y", "z"}));
  std::string command = cli + " --no-cache -j 1 " + quote(dir + "/a.cpp") + " " +
                        quote(dir + "/b.cpp") + " --format=json" + standIn();
  // script(1) runs the command on a pseudo-terminal.
  CommandResult tty = runCommand("script -qec " + quote(command) + " /dev/null");
  INFO(tty.out);
  CHECK(tty.exit_code == 1);
  CHECK(std::regex_search(
      tty.out, std::regex("\r\033\\[K\\[1/2\\] 1 finding, \\d+ s elapsed, about \\d+ s left")));
  CHECK(tty.out.find("\r\033[K[2/2] 3 findings, ") != std::string::npos);
  CHECK(tty.out.find("3 findings in 2 files") != std::string::npos);

  CommandResult quiet = runCommand("script -qec " + quote(command + " --quiet") + " /dev/null");
  CHECK(quiet.out.find("[1/2]") == std::string::npos);
}

TEST_CASE("the json format lists findings with notes, fixes and fingerprints",
          "[checker][cli][ci][format]") {
  std::string dir = scratchDir("ci-json");
  std::string file = dir + "/members.cpp";
  writeFile(file, readInput(input("torch-unregistered-tensor-member.cpp")));
  CommandResult r = runCommand(cli + " --format=json --source-root=" + quote(dir) + " " +
                               quote(file) + standIn());
  INFO(r.err);
  CHECK(r.exit_code == 1);
  llvm::json::Value findings = parseJson(r.out);
  CHECK(jsonFindings(findings, "members.cpp") == expectationsIn(file));
  bool any_note = false, any_fix = false;
  std::set<std::string> fingerprints;
  // The fields of docs/checker.md's schema, no more and no fewer.
  auto keys = [](const llvm::json::Object& o) {
    std::set<std::string> out;
    for (const auto& member : o)
      out.insert(member.first.str());
    return out;
  };
  const std::set<std::string> finding_keys = {"rule",        "file",    "path",  "line",
                                              "column",      "message", "notes", "fixes",
                                              "fingerprint", "partial"};
  for (const llvm::json::Value& f : arrayOf(findings)) {
    const llvm::json::Object& o = objectOf(f);
    CHECK(keys(o) == finding_keys);
    for (const llvm::json::Value& n : *o.getArray("notes"))
      CHECK(keys(objectOf(n)) == std::set<std::string>{"file", "line", "column", "message"});
    for (const llvm::json::Value& x : *o.getArray("fixes"))
      CHECK(keys(objectOf(x)) == std::set<std::string>{"file", "offset", "length", "replacement"});
    CHECK(stringAt(o, "file") == file);
    CHECK(tensorplace::compat::toStd(o.getBoolean("partial")) == std::optional<bool>(false));
    CHECK(integerAt(o, "column") > 0);
    fingerprints.insert(stringAt(o, "fingerprint"));
    for (const llvm::json::Value& n : *o.getArray("notes")) {
      any_note = true;
      CHECK(!stringAt(objectOf(n), "message").empty());
    }
    for (const llvm::json::Value& x : *o.getArray("fixes"))
      any_fix |= stringAt(objectOf(x), "replacement").find("register_buffer") != std::string::npos;
  }
  CHECK(any_note);
  CHECK(any_fix);
  CHECK(fingerprints.size() == arrayOf(findings).size());
}

TEST_CASE("the github format writes escaped workflow commands", "[checker][cli][ci][format]") {
  std::string dir = scratchDir("ci-github");
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/src")).c_str()) == 0);
  // ',' and ':' must be escaped in a property, '%' everywhere.
  std::string file = dir + "/src/odd,name:100%.cpp";
  writeFile(file, discards({"x"}));
  CommandResult r = runCommand(cli + " --format=github --source-root=" + quote(dir) + " " +
                               quote(file) + standIn());
  CHECK(r.exit_code == 1);
  CHECK(r.out ==
        "::warning file=src/odd%2Cname%3A100%25.cpp,line=3,col=5,title=torch-discarded-to-result::"
        "result of 'Tensor::cpu' is discarded; it returns a new tensor and leaves 'x' unchanged, "
        "so this statement has no effect\n");
}

TEST_CASE("the --exclude option skips files by glob on the relative or the absolute path",
          "[checker][cli][ci][select]") {
  std::string dir = scratchDir("ci-exclude");
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/src") + " " + quote(dir + "/third_party/lib"))
                          .c_str()) == 0);
  writeFile(dir + "/src/a.cpp", discards({"x"}));
  writeFile(dir + "/src/a_test.cpp", discards({"x"}));
  writeFile(dir + "/third_party/lib/v.cpp", discards({"x"}));
  std::string base = cli + " --source-root=" + quote(dir) + " " + quote(dir);
  CommandResult all = runCommand(base + standIn());
  CHECK(all.err.find("3 findings in 3 files") != std::string::npos);
  CommandResult some =
      runCommand(base + " --exclude='third_party/*' --exclude='*_test.cpp'" + standIn());
  INFO(some.err);
  CHECK(some.exit_code == 1);
  CHECK(warningsIn(some.out, "/src/a.cpp").size() == 1);
  CHECK(warningsIn(some.out, "").size() == 1);
  CHECK(some.err.find("files excluded: 2") != std::string::npos);
  CommandResult absolute = runCommand(base + " --exclude=" + quote(dir + "/src/*") + standIn());
  CHECK(warningsIn(absolute.out, "").size() == 1);
  CHECK(warningsIn(absolute.out, "/third_party/lib/v.cpp").size() == 1);
  CommandResult none = runCommand(base + " --exclude='*'" + standIn());
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("--exclude left out all of them") != std::string::npos);
  CommandResult bad = runCommand(base + " --exclude='[z-a]'" + standIn());
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("is not a valid glob") != std::string::npos);
}

TEST_CASE("a file with compiler errors is analysed partially and never fixed",
          "[checker][cli][ci][partial]") {
  std::string dir = scratchDir("ci-partial");
  std::string file = dir + "/vision.cpp";
  std::string source =
      "#include <torch/torch.h>\n#include <opencv2/core.hpp>\n"
      "void f(torch::Tensor x, const cv::Mat& m) { x.cpu(); }\n";
  writeFile(file, source);
  CommandResult r = runCommand(cli + " --fix " + quote(file) + standIn());
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(warningsIn(r.out, "/vision.cpp").size() == 1);
  // The missing header does not stop the parse: the unknown cv::Mat after it
  // is a second error.
  CHECK(r.err.find("vision.cpp' was analysed partially because of 2 compiler errors; its fix-its "
                   "are not applied\n  " +
                   file + ":2:10: error: 'opencv2/core.hpp' file not found\n") !=
        std::string::npos);
  CHECK(r.err.find("(1 analysed partially, 0 could not be analysed)") != std::string::npos);
  CHECK(readFile(file) == source);

  CommandResult strict = runCommand(cli + " --fail-on-partial " + quote(file) + standIn());
  CHECK(strict.exit_code == 2);
  CommandResult json = runCommand(cli + " --format=json " + quote(file) + standIn());
  llvm::json::Value json_log = parseJson(json.out);
  const llvm::json::Array& findings = arrayOf(json_log);
  REQUIRE(findings.size() == 1);
  CHECK(tensorplace::compat::toStd(objectOf(findings[0]).getBoolean("partial")) ==
        std::optional<bool>(true));
  CHECK(objectOf(findings[0]).getArray("fixes")->empty());
}

TEST_CASE("a baseline hides known findings after unrelated edits but not new ones",
          "[checker][cli][ci][baseline]") {
  std::string dir = scratchDir("ci-baseline");
  std::string file = dir + "/train.cpp";
  std::string baseline = dir + "/tensorplace-baseline.json";
  std::string source = readInput(input("torch-discarded-to-result.cpp"));
  writeFile(file, source);
  std::string base = cli + " --source-root=" + quote(dir) + " " + quote(file);
  CommandResult write = runCommand(base + " --write-baseline=" + quote(baseline) + standIn());
  // Writing a baseline accepts what it writes: the run succeeds.
  CHECK(write.exit_code == 0);
  size_t known = expectationsIn(file).size();
  llvm::json::Value baseline_log = parseJson(readFile(baseline));
  const llvm::json::Object& written = objectOf(baseline_log);
  CHECK(stringAt(written, "tool") == "tensorplace");
  CHECK(integerAt(written, "version") == 1);
  CHECK(written.getArray("findings")->size() == known);

  // Lines inserted above every finding and reindented code keep their
  // fingerprints.
  std::string shifted = source;
  shifted.insert(shifted.find("void train_step"), "// a comment\n\n// another\n");
  size_t at = shifted.find("  x.to(device); // expect");
  shifted.replace(at, 2, "    ");
  writeFile(file, shifted);
  CommandResult same = runCommand(base + " --baseline=" + quote(baseline) + standIn());
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK(same.out.empty());
  CHECK(same.err.find("suppressed by the baseline: " + std::to_string(known)) != std::string::npos);

  // A new bug, and a second copy of a known line, are reported.
  std::string added = shifted;
  const std::string known_line = "  y.cuda(); // expect: torch-discarded-to-result\n";
  added.insert(added.find(known_line), known_line + "  y.cpu();\n");
  writeFile(file, added);
  CommandResult fresh = runCommand(base + " --baseline=" + quote(baseline) + standIn());
  CHECK(fresh.exit_code == 1);
  unsigned first = lineOf(added, "  y.cuda(); // expect");
  Findings expected{{first + 1, "torch-discarded-to-result"},
                    {first + 2, "torch-discarded-to-result"}};
  CHECK(warningsIn(fresh.out, "/train.cpp") == expected);

  CommandResult broken = runCommand(base + " --baseline=" + quote(file) + standIn());
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("cannot read the baseline") != std::string::npos);
}

TEST_CASE("the --diff option reports only findings on lines changed since a revision",
          "[checker][cli][ci][diff]") {
  std::string dir = scratchDir("ci-diff");
  git(dir, "init -q");
  std::string file = dir + "/model.cpp";
  std::string source = discards({"a", "b", "c"});
  writeFile(file, source);
  writeFile(dir + "/removed.cpp", discards({"r"}));
  git(dir, "add model.cpp removed.cpp");
  git(dir, "commit -q -m initial");

  std::string changed = source;
  changed.replace(changed.find("  b.cpu();"), 10, "  b.cuda();");
  changed.insert(changed.find("  c.cpu();"), "  a.cuda();\n");
  writeFile(file, changed);
  writeFile(dir + "/new.cpp", discards({"n"}));
  std::string command = "cd " + quote(dir) + " && " + cli + " --diff=HEAD model.cpp new.cpp";
  CommandResult r = runCommand(command + standIn());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  Findings expected{{lineOf(changed, "b.cuda"), "torch-discarded-to-result"},
                    {lineOf(changed, "a.cuda"), "torch-discarded-to-result"}};
  CHECK(warningsIn(r.out, "/model.cpp") == expected);
  CHECK(warningsIn(r.out, "/new.cpp").size() == 1);  // untracked: all lines count
  CHECK(r.err.find("outside the lines changed since HEAD: 2") != std::string::npos);

  CommandResult clean = runCommand("cd " + quote(dir) + " && " + cli + " --diff=HEAD " +
                                   quote(dir + "/removed.cpp") + standIn());
  CHECK(clean.exit_code == 0);
  CommandResult bad =
      runCommand("cd " + quote(dir) + " && " + cli + " --diff=no-such-rev model.cpp" + standIn());
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'no-such-rev' is not a revision") != std::string::npos);
}

TEST_CASE("the --export-fixes option writes what clang-apply-replacements applies as --fix does",
          "[checker][cli][ci][fix]") {
  std::string dir = scratchDir("ci-export");
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/exported") + " " + quote(dir + "/fixed") + " " +
                       quote(dir + "/yaml"))
                          .c_str()) == 0);
  std::vector<std::string> names{"torch-discarded-to-result.cpp",
                                 "torch-factory-without-device.cpp",
                                 "torch-unregistered-tensor-member.cpp"};
  std::string exported, fixed;
  for (const auto& name : names) {
    writeFile(dir + "/exported/" + name, readInput(input(name)));
    writeFile(dir + "/fixed/" + name, readInput(input(name)));
    exported += " " + quote(dir + "/exported/" + name);
    fixed += " " + quote(dir + "/fixed/" + name);
  }
  std::string yaml = dir + "/yaml/fixes.yaml";
  CommandResult e = runCommand(cli + " --export-fixes=" + quote(yaml) + exported + standIn());
  CHECK(e.exit_code == 1);
  CHECK(readFile(yaml).find("DiagnosticName:  torch-discarded-to-result") != std::string::npos);
  for (const auto& name : names)
    CHECK(readFile(dir + "/exported/" + name) == readInput(input(name)));
  CommandResult apply =
      runCommand(quote(TENSORPLACE_CLANG_APPLY_REPLACEMENTS) + " " + quote(dir + "/yaml"));
  INFO(apply.out << apply.err);
  REQUIRE(apply.exit_code == 0);
  CHECK(runCommand(cli + " --fix" + fixed + standIn()).exit_code == 1);
  for (const auto& name : names) {
    INFO(name);
    CHECK(readFile(dir + "/exported/" + name) != readInput(input(name)));
    CHECK(readFile(dir + "/exported/" + name) == readFile(dir + "/fixed/" + name));
  }
}

TEST_CASE("the sarif format is valid SARIF 2.1.0 for GitHub code scanning",
          "[checker][cli][ci][format][sarif]") {
  std::string dir = scratchDir("ci-sarif");
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/src")).c_str()) == 0);
  std::string members = dir + "/src/members.cpp", convert = dir + "/src/convert.cpp";
  writeFile(members, readInput(input("torch-unregistered-tensor-member.cpp")));
  writeFile(convert, readInput(input("torch-discarded-to-result.cpp")));
  writeFile(dir + "/src/broken.cpp",
            "#include <torch/torch.h>\nvoid f(torch::Tensor x) { x.cpu() }\n");
  std::string sarif = dir + "/out.sarif";
  CommandResult r =
      runCommand(cli + " --format=sarif --source-root=" + quote(dir) + " " + quote(dir + "/src") +
                 " " + quote(dir + "/missing.cpp") + standIn() + " > " + quote(sarif));
  INFO(r.err);
  CHECK(r.exit_code == 2);
  requireValidSarif(sarif);

  llvm::json::Value log = parseJson(readFile(sarif));
  const llvm::json::Object& top = objectOf(log);
  CHECK(stringAt(top, "version") == "2.1.0");
  const llvm::json::Object& run = objectOf(arrayOf(*top.get("runs"))[0]);
  const llvm::json::Object& driver = *run.getObject("tool")->getObject("driver");
  CHECK(stringAt(driver, "name") == "tensorplace");
  CHECK(!stringAt(driver, "version").empty());
  CHECK(!stringAt(driver, "informationUri").empty());
  const llvm::json::Array& rules = *driver.getArray("rules");
  CHECK(rules.size() == tensorplace::allRules().size());
  for (const llvm::json::Value& rule : rules) {
    const llvm::json::Object& o = objectOf(rule);
    std::string id = stringAt(o, "id");
    std::string help = stringAt(o, "helpUri");
    std::string page = "/checks/" + id + ".md";
    CHECK(help.size() > page.size());
    CHECK(help.compare(help.size() - page.size(), page.size(), page) == 0);
    // The installed docs (or a configured URL), never the build's source tree.
    CHECK(help.find(TENSORPLACE_SOURCE_DIR) == std::string::npos);
    CHECK(!stringAt(*o.getObject("shortDescription"), "text").empty());
    CHECK(!stringAt(*o.getObject("fullDescription"), "text").empty());
  }
  CHECK(stringAt(*run.getObject("originalUriBaseIds")->getObject("%SRCROOT%"), "uri") ==
        "file://" + dir + "/");

  Findings members_found, convert_found;
  bool any_related = false, any_fix = false, partial_marked = false;
  for (const llvm::json::Value& result : *run.getArray("results")) {
    const llvm::json::Object& o = objectOf(result);
    std::string rule = stringAt(o, "ruleId");
    CHECK(stringAt(objectOf(rules[integerAt(o, "ruleIndex")]), "id") == rule);
    CHECK(stringAt(o, "level") == "warning");
    CHECK(!stringAt(*o.getObject("message"), "text").empty());
    CHECK(stringAt(*o.getObject("partialFingerprints"), "tensorplaceFingerprint/v1").size() == 32);
    const llvm::json::Object& location =
        *objectOf(arrayOf(*o.get("locations"))[0]).getObject("physicalLocation");
    const llvm::json::Object& artifact = *location.getObject("artifactLocation");
    CHECK(stringAt(artifact, "uriBaseId") == "%SRCROOT%");
    unsigned line = static_cast<unsigned>(integerAt(*location.getObject("region"), "startLine"));
    CHECK(integerAt(*location.getObject("region"), "startColumn") > 0);
    std::string uri = stringAt(artifact, "uri");
    if (uri == "src/members.cpp")
      members_found.emplace(line, rule);
    else if (uri == "src/convert.cpp")
      convert_found.emplace(line, rule);
    else if (uri == "src/broken.cpp")
      partial_marked =
          o.getObject("properties") &&
          tensorplace::compat::toStd(o.getObject("properties")->getBoolean("partial")) ==
              std::optional<bool>(true);
    if (const llvm::json::Array* related = o.getArray("relatedLocations"))
      any_related |= !related->empty();
    if (const llvm::json::Array* fixes = o.getArray("fixes"))
      any_fix |= !fixes->empty();
  }
  CHECK(members_found == expectationsIn(members));
  CHECK(convert_found == expectationsIn(convert));
  CHECK(any_related);
  CHECK(any_fix);
  CHECK(partial_marked);
  const llvm::json::Object& invocation = objectOf(arrayOf(*run.get("invocations"))[0]);
  CHECK(tensorplace::compat::toStd(invocation.getBoolean("executionSuccessful")) ==
        std::optional<bool>(false));
  CHECK(invocation.getArray("toolExecutionNotifications")->size() == 2);
}

TEST_CASE("bad values of the CI options are usage errors", "[checker][cli][ci]") {
  std::string file = quote(input("torch-discarded-to-result.cpp"));
  CommandResult format = runCommand(cli + " --format=xml " + file + standIn());
  CHECK(format.exit_code == 2);
  CHECK(format.err.find("xml") != std::string::npos);
  CommandResult root = runCommand(cli + " --source-root=/no/such/dir " + file + standIn());
  CHECK(root.exit_code == 2);
  CHECK(root.err.find("--source-root='/no/such/dir' is not a directory") != std::string::npos);
  char lonely[] = "/tmp/tensorplace-nogit-XXXXXX";
  REQUIRE(mkdtemp(lonely) != nullptr);
  CommandResult diff =
      runCommand(cli + " --diff=HEAD --source-root=" + quote(lonely) + " " + file + standIn());
  rmdir(lonely);
  CHECK(diff.exit_code == 2);
  CHECK(diff.err.find("--diff needs a git work tree") != std::string::npos);
}

// The real LibTorch headers: three runs over two real translation units (a
// clean parse and one with a missing third-party header) cover every option.
TEST_CASE("every CI option works on real LibTorch translation units",
          "[checker][cli][ci][libtorch]") {
  std::string dir = scratchDir("ci-real");
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/src") + " " + quote(dir + "/vendor") + " " +
                       quote(dir + "/yaml") + " " + quote(dir + "/fixed"))
                          .c_str()) == 0);
  git(dir, "init -q");
  std::string convert = dir + "/src/convert.cpp", vision = dir + "/src/vision.cpp";
  std::string convert_source = readInput(input("torch-discarded-to-result.cpp"));
  std::string vision_source =
      "#include <torch/torch.h>\n#include <opencv2/core.hpp>\n"
      "torch::Tensor f(torch::Tensor x, const cv::Mat& m) { x.cuda(); return x; }\n";
  writeFile(convert, convert_source);
  writeFile(vision, vision_source);
  writeFile(dir + "/vendor/lib.cpp", discards({"v"}));
  writeFile(dir + "/src/crashes.cpp", discards({"c"}));
  git(dir, "add src vendor");
  git(dir, "commit -q -m initial");
  std::string fixed_convert = dir + "/fixed/convert.cpp";
  writeFile(fixed_convert, convert_source);
  std::string baseline = dir + "/baseline.json";
  std::string in_dir = "cd " + quote(dir) + " && ";

  // 1: two workers, a crash, --exclude, json, --write-baseline, --export-fixes.
  CommandResult first = runCommand(
      in_dir + "TENSORPLACE_TEST_CRASH_ON=crashes.cpp " + cli +
      " --no-cache -j 2 --format=json --exclude='vendor/*' --write-baseline=" + quote(baseline) +
      " --export-fixes=" + quote(dir + "/yaml/fixes.yaml") + " src vendor" + realTorch());
  INFO(first.err);
  CHECK(first.exit_code == 2);
  CHECK(first.err.find("crashes.cpp' could not be analysed: the analysis crashed (signal 11") !=
        std::string::npos);
  // The missing header, and the unknown cv::Mat the parse goes on to.
  CHECK(first.err.find("vision.cpp' was analysed partially because of 2 compiler errors") !=
        std::string::npos);
  CHECK(first.err.find("files excluded: 1") != std::string::npos);
  CHECK(first.err.find("with 2 workers") != std::string::npos);
  llvm::json::Value findings = parseJson(first.out);
  CHECK(jsonFindings(findings, "src/convert.cpp") == expectationsIn(convert));
  Findings vision_expected{{3, "torch-discarded-to-result"}};
  CHECK(jsonFindings(findings, "src/vision.cpp") == vision_expected);
  for (const llvm::json::Value& f : arrayOf(findings))
    CHECK(tensorplace::compat::toStd(objectOf(f).getBoolean("partial")) ==
          std::optional<bool>(stringAt(objectOf(f), "path") == "src/vision.cpp"));
  CHECK(objectOf(parseJson(readFile(baseline))).getArray("findings")->size() ==
        arrayOf(findings).size());

  // The exported fixes, applied by clang-apply-replacements, fix the file as
  // --fix does; the partially analysed file is left alone.
  CommandResult apply =
      runCommand(quote(TENSORPLACE_CLANG_APPLY_REPLACEMENTS) + " " + quote(dir + "/yaml"));
  INFO(apply.out << apply.err);
  REQUIRE(apply.exit_code == 0);
  CHECK(readFile(vision) == vision_source);
  CommandResult fix = runCommand(cli + " --fix --quiet " + quote(fixed_convert) + realTorch());
  CHECK(fix.exit_code == 1);
  CHECK(readFile(convert) != convert_source);
  CHECK(readFile(convert) == readFile(fixed_convert));

  // 2: --baseline after edits, as SARIF, on a terminal.
  std::string edited = "// moved down\n" + convert_source;
  edited.insert(edited.find("  y.cuda(); // expect"), "  y.cpu();\n");
  writeFile(convert, edited);
  CommandResult second = runCommand(in_dir + "script -qec " +
                                    quote(cli + " --format=sarif --baseline=" + quote(baseline) +
                                          " src/convert.cpp" + realTorch() + " > out.sarif") +
                                    " /dev/null");
  INFO(second.out);
  CHECK(second.exit_code == 1);
  CHECK(second.out.find("\r\033[K[1/1] 1 finding") != std::string::npos);
  CHECK(second.out.find("suppressed by the baseline: " +
                        std::to_string(expectationsIn(convert).size())) != std::string::npos);
  requireValidSarif(dir + "/out.sarif");
  llvm::json::Value sarif_log = parseJson(readFile(dir + "/out.sarif"));
  const llvm::json::Object& run = objectOf(arrayOf(*objectOf(sarif_log).get("runs"))[0]);
  const llvm::json::Array& results = *run.getArray("results");
  REQUIRE(results.size() == 1);
  const llvm::json::Object& region = *objectOf(arrayOf(*objectOf(results[0]).get("locations"))[0])
                                          .getObject("physicalLocation")
                                          ->getObject("region");
  CHECK(integerAt(region, "startLine") == lineOf(edited, "  y.cpu();\n"));

  // 3: --diff, as GitHub annotations.
  CommandResult third =
      runCommand(in_dir + cli + " --format=github --diff=HEAD src/convert.cpp" + realTorch());
  INFO(third.err);
  CHECK(third.exit_code == 1);
  CHECK(third.out ==
        "::warning file=src/convert.cpp,line=" + std::to_string(lineOf(edited, "  y.cpu();\n")) +
            ",col=5,title=torch-discarded-to-result::result of 'Tensor::cpu' is "
            "discarded; it returns a new tensor and leaves 'y' unchanged, so this "
            "statement has no effect\n");
}

namespace {
/// The "path" of each finding in a JSON report, and its fingerprints.
std::multiset<std::string> pathsIn(const llvm::json::Value& report) {
  std::multiset<std::string> paths;
  for (const llvm::json::Value& f : arrayOf(report))
    paths.insert(stringAt(objectOf(f), "path"));
  return paths;
}

std::multiset<std::string> fingerprintsIn(const llvm::json::Value& report) {
  std::multiset<std::string> fingerprints;
  for (const llvm::json::Value& f : arrayOf(report))
    fingerprints.insert(stringAt(objectOf(f), "fingerprint"));
  return fingerprints;
}

/// Files with one discarded conversion each that include shared.h, whose
/// own finding every shard reports; returns the quoted file list.
std::string shardedProject(const std::string& dir, int files) {
  writeFile(dir + "/shared.h",
            "#pragma once\n#include <torch/torch.h>\n"
            "inline void shared_helper(torch::Tensor h) { h.to(torch::kCPU); }\n");
  std::string list;
  for (int i = 0; i < files; ++i) {
    std::string name = "unit" + std::to_string(i) + ".cpp";
    writeFile(dir + "/" + name, "#include \"shared.h\"\n" + discards({"v" + std::to_string(i)}));
    list += " " + quote(dir + "/" + name);
  }
  return list;
}
}  // namespace

TEST_CASE("the --shard=I/N option analyses disjoint parts whose merged JSON report is one run's",
          "[checker][cli][ci][shard]") {
  std::string dir = scratchDir("ci-shard-json");
  std::string files = shardedProject(dir, 7);
  std::string options = " --format=json --quiet --header-filter=shared " + files + standIn();
  CommandResult whole = runCommand(cli + options);
  REQUIRE(whole.exit_code == 1);
  llvm::json::Value all = parseJson(whole.out);
  std::multiset<std::string> allPaths = pathsIn(all);
  REQUIRE(allPaths.size() == 8);  // One per file, and the header's once.

  std::string reports;
  std::multiset<std::string> shardPaths;
  std::vector<size_t> sizes;
  for (int i = 1; i <= 3; ++i) {
    CommandResult shard = runCommand(cli + " --shard=" + std::to_string(i) + "/3" + options);
    INFO("shard " << i << "\n" << shard.err);
    REQUIRE(shard.exit_code == 1);
    std::string report = dir + "/shard" + std::to_string(i) + ".json";
    writeFile(report, shard.out);
    reports += " " + quote(report);
    // A shard's report: its findings, and what the merge needs of it.
    llvm::json::Value report_json = parseJson(shard.out);
    std::multiset<std::string> paths = pathsIn(*objectOf(report_json).get("findings"));
    // Each shard reaches the header through its own files.
    CHECK(std::count_if(paths.begin(), paths.end(), [](const std::string& path) {
            return path.find("shared.h") != std::string::npos;
          }) == 1);
    sizes.push_back(paths.size() - 1);
    shardPaths.insert(paths.begin(), paths.end());
  }
  // Every file in exactly one shard, the shards as even as can be.
  std::sort(sizes.begin(), sizes.end());
  CHECK(sizes == std::vector<size_t>{2, 2, 3});
  for (const std::string& path : allPaths)
    if (path.find("shared.h") == std::string::npos)
      CHECK(shardPaths.count(path) == 1);

  CommandResult merged = runCommand(cli + " --merge" + reports);
  INFO(merged.err);
  CHECK(merged.exit_code == 1);
  llvm::json::Value combined = parseJson(merged.out);
  CHECK(fingerprintsIn(combined) == fingerprintsIn(all));
  CHECK(pathsIn(combined) == allPaths);
  // Ordered by path and line, wherever each finding came from.
  std::vector<std::pair<std::string, int64_t>> order;
  for (const llvm::json::Value& f : arrayOf(combined))
    order.emplace_back(stringAt(objectOf(f), "path"), integerAt(objectOf(f), "line"));
  CHECK(std::is_sorted(order.begin(), order.end()));
  CHECK(merged.err.find("8 findings in 3 reports") != std::string::npos);

  // The same shards again give the same files: the split is deterministic.
  CommandResult again = runCommand(cli + " --shard=2/3" + options);
  CHECK(again.out == readFile(dir + "/shard2.json"));
  // More shards than files: the extra ones report nothing and succeed.
  CommandResult empty = runCommand(cli + " --shard=9/9" + options);
  CHECK(empty.exit_code == 0);
  llvm::json::Value empty_report = parseJson(empty.out);
  CHECK(arrayOf(*objectOf(empty_report).get("findings")).empty());
  CHECK(integerAt(objectOf(*objectOf(empty_report).get("tensorplaceShard")), "shard") == 9);
}

TEST_CASE(
    "merged SARIF shards are valid, carry every rule, and fail when a file could not be "
    "analysed",
    "[checker][cli][ci][shard][format]") {
  std::string dir = scratchDir("ci-shard-sarif");
  std::string files = shardedProject(dir, 4);
  std::string options = " --format=sarif --quiet --header-filter=shared " + files + standIn();
  auto results = [](const llvm::json::Value& log) {
    const llvm::json::Object& run = objectOf(arrayOf(*objectOf(log).get("runs"))[0]);
    return arrayOf(*run.get("results"));
  };
  CommandResult whole = runCommand(cli + options);
  REQUIRE(whole.exit_code == 1);
  size_t expected = results(parseJson(whole.out)).size();
  REQUIRE(expected == 5);

  std::string reports;
  for (int i = 1; i <= 2; ++i) {
    // The second shard's first file crashes its worker.
    std::string crash = i == 2 ? "TENSORPLACE_TEST_CRASH_ON=unit1.cpp " : "";
    CommandResult shard =
        runCommand(crash + cli + " --no-cache --shard=" + std::to_string(i) + "/2" + options);
    CHECK(shard.exit_code == (i == 2 ? 2 : 1));
    std::string report = dir + "/shard" + std::to_string(i) + ".sarif";
    writeFile(report, shard.out);
    reports += " " + quote(report);
  }
  std::string mergedPath = dir + "/merged.sarif";
  CommandResult merged = runCommand(cli + " --merge --format=sarif" + reports);
  INFO(merged.err);
  CHECK(merged.exit_code == 2);
  writeFile(mergedPath, merged.out);
  requireValidSarif(mergedPath);
  llvm::json::Value log = parseJson(merged.out);
  const llvm::json::Object& run = objectOf(arrayOf(*objectOf(log).get("runs"))[0]);
  // The crashed file's finding is missing, the header's is there once.
  CHECK(results(log).size() == expected - 1);
  const llvm::json::Array& rules =
      arrayOf(*objectOf(*objectOf(*run.get("tool")).get("driver")).get("rules"));
  CHECK(rules.size() == tensorplace::allRules().size());
  for (const llvm::json::Value& result : results(log)) {
    const llvm::json::Object& r = objectOf(result);
    int64_t index = integerAt(r, "ruleIndex");
    REQUIRE(index >= 0);
    REQUIRE(static_cast<size_t>(index) < rules.size());
    CHECK(stringAt(objectOf(rules[index]), "id") == stringAt(r, "ruleId"));
  }
  const llvm::json::Object& invocation = objectOf(arrayOf(*run.get("invocations"))[0]);
  CHECK(invocation.getBoolean("executionSuccessful") == false);
  CHECK(merged.out.find("unit1.cpp") != std::string::npos);

  // Without the crash, the merged shards succeed as one run does.
  CommandResult clean = runCommand(cli + " --shard=2/2" + options);
  writeFile(dir + "/shard2.sarif", clean.out);
  CommandResult cleanMerge = runCommand(cli + " --merge" + reports);
  CHECK(cleanMerge.exit_code == 1);
  CHECK(results(parseJson(cleanMerge.out)).size() == expected);
}

TEST_CASE("bad --shard values and mixed or foreign reports for --merge are errors",
          "[checker][cli][ci][shard]") {
  std::string dir = scratchDir("ci-shard-errors");
  std::string files = shardedProject(dir, 2);
  for (const char* bad : {"0/2", "3/2", "1/0", "x", "1/2/3", ""}) {
    CommandResult r = runCommand(cli + " --shard=" + quote(bad) + files + standIn());
    INFO("--shard=" << bad << "\n" << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("is not I/N") != std::string::npos);
  }
  writeFile(dir + "/a.json", runCommand(cli + " --format=json" + files + standIn()).out);
  writeFile(dir + "/b.sarif", runCommand(cli + " --format=sarif" + files + standIn()).out);
  writeFile(dir + "/c.txt", "not a report\n");
  CommandResult mixed =
      runCommand(cli + " --merge " + quote(dir + "/a.json") + " " + quote(dir + "/b.sarif"));
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.err.find("merge reports of one format") != std::string::npos);
  CHECK(mixed.out.empty());
  CommandResult foreign = runCommand(cli + " --merge " + quote(dir + "/c.txt"));
  CHECK(foreign.exit_code == 2);
  CHECK(foreign.err.find("is not a tensorplace report") != std::string::npos);
  CommandResult missing = runCommand(cli + " --merge " + quote(dir + "/none.json"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("cannot read") != std::string::npos);
  CommandResult wrongFormat = runCommand(cli + " --merge --format=sarif " + quote(dir + "/a.json"));
  CHECK(wrongFormat.exit_code == 2);
  CHECK(wrongFormat.err.find("does not match") != std::string::npos);
}

TEST_CASE("a shard's report carries what the merge needs, and a merge refuses a partial split",
          "[checker][cli][ci][shard]") {
  std::string dir = scratchDir("ci-shard-refusals");
  std::string files = shardedProject(dir, 3);
  std::string options = " --quiet --header-filter=shared " + files + standIn();

  SECTION("a shard in text or GitHub format: 2, it could not be merged") {
    for (const char* format : {"text", "github"}) {
      CommandResult r = runCommand(cli + " --shard=1/2 --format=" + format + options);
      INFO(format << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK(r.err.find("--shard writes a report for --merge: pass --format=json or "
                       "--format=sarif") != std::string::npos);
    }
  }
  SECTION("the JSON shard report: its findings, and its shard of the split") {
    CommandResult r = runCommand(cli + " --shard=2/3 --format=json" + options);
    REQUIRE(r.exit_code == 1);
    llvm::json::Value report = parseJson(r.out);
    const llvm::json::Object& top = objectOf(report);
    CHECK(!arrayOf(*top.get("findings")).empty());
    const llvm::json::Object& state = objectOf(*top.get("tensorplaceShard"));
    CHECK(integerAt(state, "shard") == 2);
    CHECK(integerAt(state, "of") == 3);
  }
  SECTION("shards missing, given twice, or of two splits: 2, named") {
    std::vector<std::string> reports;
    for (int i = 1; i <= 3; ++i) {
      std::string report = dir + "/shard" + std::to_string(i) + ".json";
      writeFile(
          report,
          runCommand(cli + " --shard=" + std::to_string(i) + "/3 --format=json" + options).out);
      reports.push_back(quote(report));
    }
    std::string other = dir + "/other.json";
    writeFile(other, runCommand(cli + " --shard=1/2 --format=json" + options).out);
    std::string whole = dir + "/whole.json";
    writeFile(whole, runCommand(cli + " --format=json" + options).out);

    CommandResult missing = runCommand(cli + " --merge " + reports[0] + " " + reports[2]);
    CHECK(missing.exit_code == 2);
    CHECK(missing.out.empty());
    CHECK(missing.err.find("the reports are shards of 3 without shard 2: a merge without every "
                           "shard would lose findings") != std::string::npos);
    CommandResult twice =
        runCommand(cli + " --merge " + reports[0] + " " + reports[1] + " " + reports[1]);
    CHECK(twice.exit_code == 2);
    CHECK(twice.err.find("shard 2/3 is given twice") != std::string::npos);
    CommandResult mixed = runCommand(cli + " --merge " + reports[0] + " " + quote(other));
    CHECK(mixed.exit_code == 2);
    CHECK(mixed.err.find("is shard 1/2 and") != std::string::npos);
    CommandResult unsharded = runCommand(cli + " --merge " + reports[0] + " " + quote(whole));
    CHECK(unsharded.exit_code == 2);
    CHECK(unsharded.err.find("is not a shard's report") != std::string::npos);
    // The whole split merges into the one run's report, with no shard state left.
    CommandResult merged =
        runCommand(cli + " --merge " + reports[0] + " " + reports[1] + " " + reports[2]);
    CHECK(merged.exit_code == 1);
    CHECK(parseJson(merged.out).getAsArray() != nullptr);
    CHECK(merged.out.find("tensorplaceShard") == std::string::npos);
  }
}

TEST_CASE("the --version option names tensorplace's version and what it was built with",
          "[checker][cli][ci]") {
  CommandResult r = runCommand(cli + " --version");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(std::regex_search(r.out, std::regex(R"(^tensorplace \d+\.\d+\.\d+)")));
  CHECK(std::regex_search(r.out, std::regex(R"(built with LLVM \d+\.\d+)")));
  CHECK(r.out.find("LibTorch of its build: ") != std::string::npos);
}

TEST_CASE("the --list-checks option with --format=json describes every check for tools",
          "[checker][cli][ci]") {
  CommandResult r = runCommand(cli + " --list-checks --format=json");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  llvm::json::Value list = parseJson(r.out);
  const llvm::json::Array& checks = arrayOf(list);
  REQUIRE(checks.size() == tensorplace::allRules().size());
  for (size_t i = 0; i < checks.size(); ++i) {
    const tensorplace::RuleInfo& info = tensorplace::allRules()[i];
    const llvm::json::Object& o = objectOf(checks[i]);
    CHECK(stringAt(o, "name") == info.Name);
    CHECK(stringAt(o, "summary") == tensorplace::plainSummary(info));
    CHECK(o.getBoolean("fixIts") == info.HasFixIts);
    CHECK(stringAt(o, "docs") == std::string("docs/checks/") + info.Name + ".md");
    // Each documented page exists.
    CHECK(!readFile(std::string(TENSORPLACE_SOURCE_DIR) + "/" + stringAt(o, "docs")).empty());
    CHECK(arrayOf(*o.get("options")).size() == tensorplace::optionsOf(info).size());
  }
}

TEST_CASE("the github format gives each note its place", "[checker][cli][ci][format]") {
  std::string dir = scratchDir("ci-github-notes");
  writeFile(dir + "/net.cpp",
            "#include <torch/torch.h>\n"
            "struct NetImpl : torch::nn::Module {\n"
            "  NetImpl() { scale = torch::ones({2}); }\n"
            "  torch::Tensor forward(torch::Tensor x) { return x * scale; }\n"
            "  torch::Tensor scale;\n"
            "};\n");
  CommandResult r = runCommand(cli + " --format=github --source-root=" + quote(dir) + " " +
                               quote(dir + "/net.cpp") + standIn());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("::warning file=net.cpp,line=5,") != std::string::npos);
  CHECK(r.out.find("%0Anet.cpp:3:") != std::string::npos);
  CHECK(r.out.find(": note: ") != std::string::npos);
}
