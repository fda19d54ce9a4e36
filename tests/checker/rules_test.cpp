// Each rule's annotated input, through every front end, against the stand-in
// header and against the real LibTorch headers. All rules run on every input,
// so an input's must-not-warn code is checked by every rule.
#include "TestSupport.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/driver/Driver.h"

#include "catch.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/FileSystem.h"
#include "tensorplace/checker/LLVMCompat.h"

using namespace tensorplace;
using namespace tensorplace::test;

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// An input is named after its rule (torch-foo -> inputs/torch-foo.cpp) or is
// a path below inputs/ ending in .cpp or .cu.
std::string inputPath(const std::string& input) {
  std::string file = endsWith(input, ".cpp") || endsWith(input, ".cu") ? input : input + ".cpp";
  return std::string(TENSORPLACE_CHECKER_INPUTS) + "/" + file;
}

std::string fileName(const std::string& input) {
  std::string path = inputPath(input);
  return path.substr(path.rfind('/'));
}

// The messages, notes and fix-its an input asserts (detailsIn), against the core's findings.
void checkDetails(const std::string& path, const driver::FileResult& result) {
  std::vector<Detail> details = detailsIn(path);
  std::vector<const driver::PlainFinding*> in_file;
  clang::tooling::Replacements fixes;
  for (const auto& f : result.Findings) {
    if (f.File != path)
      continue;
    in_file.push_back(&f);
    for (const auto& r : f.Fixes)
      if (r.getFilePath() == path)
        if (llvm::Error e = fixes.add(r))
          FAIL("conflicting fix-its at line " << f.Line << ": " << llvm::toString(std::move(e)));
  }
  std::map<unsigned, std::string> fixed_lines;
  for (const Detail& d : details) {
    INFO(path << ":" << d.line << ": " << d.kind << " " << d.text);
    if (d.kind == "fixed") {
      fixed_lines[d.line + d.offset] = d.text;
      continue;
    }
    bool seen = false;
    for (const driver::PlainFinding* f : in_file) {
      if (f->Line != d.line)
        continue;
      if (d.kind == "message")
        seen |= f->Message.find(d.text) != std::string::npos;
      for (const auto& n : f->Notes)
        seen |= d.kind == "note" && n.Line == d.line + d.offset && n.File == path &&
                n.Message.find(d.text) != std::string::npos;
    }
    CHECK(seen);
  }

  std::string original = readFile(path);
  llvm::Expected<std::string> applied = clang::tooling::applyAllReplacements(original, fixes);
  REQUIRE(static_cast<bool>(applied));
  std::istringstream before(original), after(*applied);
  std::string was, now;
  for (unsigned number = 1; std::getline(before, was); ++number) {
    INFO(path << ":" << number << " after the fix-its");
    REQUIRE(std::getline(after, now));
    auto it = fixed_lines.find(number);
    if (it == fixed_lines.end()) {
      CHECK(now == was);
      continue;
    }
    size_t first = now.find_first_not_of(" \t");
    CHECK(now.substr(first == std::string::npos ? now.size() : first) == it->second);
  }
  CHECK(!std::getline(after, now));
}

void checkCore(const std::string& rule, const std::vector<std::string>& flags) {
  std::string path = inputPath(rule);
  clang::tooling::FixedCompilationDatabase db(".", flags);
  driver::RunOptions options;
  options.IsEnabled = [](llvm::StringRef name) {
    return tensorplace::compat::startsWith(name, "torch-");
  };
  options.ResourceDir = driver::defaultResourceDir();
  options.UseConfigFiles = true;  // As the CLI: the input's .clang-tidy, if any.
  driver::FileResult result = driver::analyzeFile(db, path, options);
  INFO(result.Errors);
  REQUIRE(result.Ok);
  Findings actual;
  for (const auto& f : result.Findings)
    actual.emplace(f.Line, f.Rule);
  Findings expected = expectationsIn(path);
  INFO("input " << path << "\n" << describeMismatch(expected, actual));
  CHECK(actual == expected);
  checkDetails(path, result);
}

void checkCli(const std::string& rule, const std::vector<std::string>& flags) {
  std::string path = inputPath(rule);
  CommandResult r =
      runCommand(quote(TENSORPLACE_CLI) + " --quiet " + quote(path) + " --" + joinFlags(flags));
  INFO(r.out << r.err);
  Findings expected = expectationsIn(path);
  CHECK(r.exit_code == (expected.empty() ? 0 : 1));
  Findings actual = warningsIn(r.out, fileName(rule));
  INFO("input " << path << "\n" << describeMismatch(expected, actual));
  CHECK(actual == expected);
}

void checkPlugin(const std::string& rule, const std::vector<std::string>& flags) {
  std::string path = inputPath(rule);
  CommandResult r =
      runCommand(quote(TENSORPLACE_CLANG_TIDY) + " --quiet --load " + quote(TENSORPLACE_PLUGIN) +
                 " '--checks=-*,torch-*' " + quote(path) + " --" + joinFlags(flags));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  Findings actual = warningsIn(r.out, fileName(rule));
  Findings expected = expectationsIn(path);
  INFO("input " << path << "\n" << describeMismatch(expected, actual));
  CHECK(actual == expected);
}

}  // namespace

// CUDA sources parse as Clang parses them (-x cuda), host side, with
// tensorplace's CUDA headers (checker/cuda-headers), named here as a user
// of the clang-tidy plugin names them: Clang 14 cannot parse the CUDA 13
// toolkit's.
static std::vector<std::string> cuda(std::vector<std::string> flags) {
  for (const char* flag : {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                           "--cuda-gpu-arch=sm_80", "-include", "cuda_runtime.h"})
    flags.push_back(flag);
  flags.insert(flags.begin(), "-I" TENSORPLACE_CUDA_HEADERS_DIR);
  return flags;
}

#define TP_RULE_TESTS(RULE) TP_RULE_TESTS_WITH(RULE, )
#define TP_RULE_TESTS_WITH(RULE, FLAGS)                                                    \
  TEST_CASE(RULE ": stand-in header, analysis core", "[checker][stand-in][core]") {        \
    checkCore(RULE, FLAGS(standInFlags()));                                                \
  }                                                                                        \
  TEST_CASE(RULE ": stand-in header, CLI", "[checker][stand-in][cli]") {                   \
    checkCli(RULE, FLAGS(standInFlags()));                                                 \
  }                                                                                        \
  TEST_CASE(RULE ": stand-in header, clang-tidy plugin", "[checker][stand-in][plugin]") {  \
    checkPlugin(RULE, FLAGS(standInFlags()));                                              \
  }                                                                                        \
  TEST_CASE(RULE ": LibTorch headers, CLI", "[checker][libtorch][cli]") {                  \
    checkCli(RULE, FLAGS(realTorchFlags()));                                               \
  }                                                                                        \
  TEST_CASE(RULE ": LibTorch headers, clang-tidy plugin", "[checker][libtorch][plugin]") { \
    checkPlugin(RULE, FLAGS(realTorchFlags()));                                            \
  }

TP_RULE_TESTS("torch-unregistered-tensor-member")
TP_RULE_TESTS("torch-unregistered-submodule")
TP_RULE_TESTS("torch-lazily-created-layer")
TP_RULE_TESTS("torch-discarded-to-result")
TP_RULE_TESTS("torch-stale-registered-member")
TP_RULE_TESTS("torch-register-outside-reset")
TP_RULE_TESTS("torch-hardcoded-device")
TP_RULE_TESTS("torch-factory-without-device")
TP_RULE_TESTS_WITH("torch-cuda-launch-without-guard.cu", cuda)

// Adding a rule means its sources, its entry in the rule table, its docs page and its annotated
// input, registered above (the test below checks the last three); the lists of checks in the
// docs are generated from the table (checker.rule_docs_are_current).
TEST_CASE("every rule of the table has a docs page and an annotated input showing its fix-its",
          "[checker][rules]") {
  for (const RuleInfo& rule : allRules()) {
    std::string name = rule.Name;
    INFO("rule " << name);
    std::string page = std::string(TENSORPLACE_SOURCE_DIR) + "/docs/checks/" + name + ".md";
    REQUIRE(llvm::sys::fs::exists(page));
    std::string text = readFile(page);
    CHECK(text.rfind("# " + name + "\n", 0) == 0);
    // The page's table of options names exactly the options the rule reads.
    size_t options = text.find("\n## Options\n");
    REQUIRE(options != std::string::npos);
    std::string section = text.substr(options, text.find("\n## ", options + 1) - options);
    std::set<std::string> documented, read;
    std::istringstream lines(section);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("| `", 0) == 0)
        documented.insert(line.substr(3, line.find('`', 3) - 3));
    for (const tensorplace::ConfigOption* option : tensorplace::optionsOf(rule))
      read.insert(option->Name);
    CHECK(documented == read);
    std::string input = inputPath(name);
    if (!llvm::sys::fs::exists(input))
      input = inputPath(name + ".cu");
    REQUIRE(llvm::sys::fs::exists(input));
    Findings expected = expectationsIn(input);
    CHECK(std::any_of(expected.begin(), expected.end(),
                      [&](const auto& e) { return e.second == name; }));
    // The docs say "has a fix-it" from the table; the input shows the fix-its
    // (every line a fix-it changes must be annotated "fixed:").
    std::vector<Detail> details = detailsIn(input);
    CHECK(rule.HasFixIts == std::any_of(details.begin(), details.end(),
                                        [](const Detail& d) { return d.kind == "fixed"; }));
    // And the input is run: registered with TP_RULE_TESTS above, by its file name.
    std::string self =
        readFile(std::string(TENSORPLACE_SOURCE_DIR) + "/tests/checker/rules_test.cpp");
    std::string registered = input == inputPath(name) ? name : name + ".cu";
    CHECK((self.find("TP_RULE_TESTS(\"" + registered + "\")") != std::string::npos ||
           self.find("TP_RULE_TESTS_WITH(\"" + registered + "\",") != std::string::npos));
  }
}

// Members declared in a header, given their values in the .cpp file.
TP_RULE_TESTS("split/net.cpp")

// A project that configures the rules through CheckOptions in a .clang-tidy.
TP_RULE_TESTS("options/project.cpp")

// A header reached through -I instead of -isystem is the user's unless its path is LibTorch's;
// LibTorch 2.x keeps c10's macros and core types under torch/headeronly/.
TEST_CASE("findings in LibTorch's own headers, torch/headeronly included, are not reported",
          "[checker][stand-in][core]") {
  std::string dir = scratchDir("libtorch-header-paths");
  struct Header {
    std::string include;
    bool libtorch;
  };
  for (const Header& h :
       {Header{"torch/headeronly/util/scale.h", true},
        Header{"torch/csrc/api/include/torch/scale.h", true}, Header{"mylib/scale.h", false}}) {
    INFO("header " << h.include);
    std::string header = dir + "/include/" + h.include;
    REQUIRE(!llvm::sys::fs::create_directories(header.substr(0, header.rfind('/'))));
    writeFile(header,
              "#pragma once\n#include <torch/torch.h>\n"
              "struct ScaleImpl : torch::nn::Module {\n"
              "  torch::Tensor scale_ = torch::ones({1});\n"
              "};\n");
    std::string main = dir + "/main.cpp";
    writeFile(main, "#include <" + h.include + ">\n");
    std::vector<std::string> flags = standInFlags();
    flags.push_back("-I" + dir + "/include");
    clang::tooling::FixedCompilationDatabase db(".", flags);
    driver::RunOptions options;
    options.IsEnabled = [](llvm::StringRef name) {
      return tensorplace::compat::startsWith(name, "torch-");
    };
    options.ResourceDir = driver::defaultResourceDir();
    options.HeaderFilter = ".*";
    driver::FileResult result = driver::analyzeFile(db, main, options);
    INFO(result.Errors);
    REQUIRE(result.Ok);
    if (h.libtorch) {
      CHECK(result.Findings.empty());
    } else {
      REQUIRE(result.Findings.size() == 1);
      CHECK(result.Findings[0].Rule == "torch-unregistered-tensor-member");
      CHECK(result.Findings[0].File == header);
      CHECK(result.Findings[0].Line == 4);
    }
  }
}
