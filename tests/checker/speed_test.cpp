// The driver's speed-ups (library function bodies skipped, a PCH of the leading
// LibTorch includes shared by the files of a run) must change no finding, and a
// PCH must only ever be used by files whose flags and first includes are its own.
// These parse the real LibTorch headers, so they are few and share their parses.
#include "TestSupport.h"
#include "tensorplace/checker/Analysis.h"
#include "tensorplace/driver/Driver.h"

#include "catch.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <sstream>
#include "tensorplace/checker/LLVMCompat.h"

using namespace tensorplace;
using namespace tensorplace::test;

namespace {

driver::RunOptions optionsFor(bool skip_bodies, const driver::PchSet* pchs = nullptr) {
  driver::RunOptions options;
  options.IsEnabled = [](llvm::StringRef name) {
    return tensorplace::compat::startsWith(name, "torch-");
  };
  options.ResourceDir = driver::defaultResourceDir();
  // Findings in the inputs' own headers count too.
  options.HeaderFilter = std::string(TENSORPLACE_CHECKER_INPUTS) + "/.*";
  options.SkipLibraryBodies = skip_bodies;
  options.Pchs = pchs;
  return options;
}

// Everything a user sees of a finding, fix-its included.
std::string describe(const driver::FileResult& result) {
  std::ostringstream out;
  out << "ok=" << result.Ok << " errors=" << result.ErrorCount << "\n";
  for (const auto& f : result.Findings) {
    out << f.File << ":" << f.Line << ":" << f.Column << " @" << f.Offset << " [" << f.Rule << "] "
        << f.Message << "\n";
    for (const auto& n : f.Notes)
      out << "  note " << n.File << ":" << n.Line << ":" << n.Column << " " << n.Message << "\n";
    for (const auto& r : f.Fixes)
      out << "  fix " << r.toString() << "\n";
    out << f.Rendered;
  }
  return out.str();
}

std::vector<std::string> allInputs() {
  // Every rule's input that parses as C++ (the CUDA one needs CUDA flags), and a split one.
  std::vector<std::string> inputs;
  for (const RuleInfo& rule : allRules()) {
    std::string path = std::string(TENSORPLACE_CHECKER_INPUTS) + "/" + rule.Name + ".cpp";
    if (llvm::sys::fs::exists(path))
      inputs.push_back(path);
  }
  inputs.push_back(std::string(TENSORPLACE_CHECKER_INPUTS) + "/split/net.cpp");
  return inputs;
}

std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const std::string& dir) {
  std::string error;
  auto db = clang::tooling::JSONCompilationDatabase::loadFromFile(
      dir + "/compile_commands.json", error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  INFO(error);
  REQUIRE(db);
  return db;
}

std::string entry(const std::string& dir,
                  const std::string& file,
                  const std::vector<std::string>& flags) {
  std::string arguments = "\"clang++\"";
  for (const auto& f : flags)
    arguments += ", \"" + f + "\"";
  return "{\"directory\": \"" + dir + "\", \"file\": \"" + file + "\", \"arguments\": [" +
         arguments + ", \"-c\", \"" + file + "\"]}";
}

const char* const kModule = R"(
struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    bias = torch::zeros({4});
  }
  torch::Tensor forward(torch::Tensor x) { return fc(x) + bias; }
  torch::nn::Linear fc{nullptr};
  torch::Tensor bias;
};
)";
// The line of `bias` in kModule, counted from the module's first line.
constexpr unsigned kBiasLine = 9;

}  // namespace

// A full parse of every input is what the clang-tidy plugin makes, and rules_test checks its
// findings against each input's annotations; here the two faster parses give exactly those
// findings, and the same messages, notes and fix-its as each other. (Comparing with a third,
// full parse per input here too doubled this test's time, the longest of the suite.)
TEST_CASE("skipped library bodies and a shared PCH change no finding on the LibTorch headers",
          "[checker][libtorch][speed]") {
  clang::tooling::FixedCompilationDatabase db(".", realTorchFlags());
  std::vector<std::string> inputs = allInputs();

  driver::RunOptions skip = optionsFor(true);
  std::unique_ptr<driver::PchSet> pchs = driver::preparePchs(db, inputs, skip, 2);
  // Every input but split/net.cpp (which starts with its own header) begins
  // with <torch/torch.h>, and the inputs share their flags.
  REQUIRE(pchs->entries().size() == 1);
  CHECK(pchs->entries()[0].Includes == std::vector<std::string>{"torch/torch.h"});
  CHECK(pchs->entries()[0].Files == inputs.size() - 1);
  driver::RunOptions skip_and_pch = optionsFor(true, pchs.get());

  for (const std::string& input : inputs) {
    INFO("input " << input);
    driver::FileResult skipped = driver::analyzeFile(db, input, skip);
    driver::FileResult with_pch = driver::analyzeFile(db, input, skip_and_pch);
    INFO(skipped.Errors << with_pch.Errors);
    REQUIRE(skipped.Ok);
    REQUIRE(skipped.ErrorCount == 0);
    CHECK(skipped.PchUsed.empty());
    bool starts_with_torch = input.find("/split/") == std::string::npos;
    CHECK(with_pch.PchUsed == (starts_with_torch ? pchs->entries()[0].Path : ""));

    Findings expected = expectationsIn(input);
    REQUIRE(!expected.empty());
    Findings actual;
    for (const auto& f : skipped.Findings)
      if (f.File == input)
        actual.emplace(f.Line, f.Rule);
    INFO(describeMismatch(expected, actual));
    CHECK(actual == expected);
    CHECK(describe(with_pch) == describe(skipped));
  }
}

TEST_CASE("a PCH is used only by files whose flags and leading includes are its own",
          "[checker][libtorch][speed]") {
  std::string dir = scratchDir("pch-keys");
  std::vector<std::string> flags = realTorchFlags();
  std::vector<std::string> other_flags = flags;
  other_flags.push_back("-DTP_OTHER_FLAGS=1");

  struct File {
    std::string name, prelude;
    bool other_flags;
    bool shares_pch;
  };
  const File files[] = {
      {"a.cpp", "#include <torch/torch.h>\n#include <vector>\n", false, true},
      {"b.cpp", "// a comment\n#include <torch/torch.h>\n", false, true},
      // Its first include is not the PCH's.
      {"c.cpp", "#include <vector>\n#include <torch/torch.h>\n", false, false},
      // A macro before the includes may change what they mean.
      {"d.cpp", "#define TP_BEFORE 1\n#include <torch/torch.h>\n", false, false},
      // Same includes, other flags.
      {"e.cpp", "#include <torch/torch.h>\n", true, false},
  };
  std::string json = "[";
  for (const File& f : files) {
    std::string path = dir + "/" + f.name;
    writeFile(path, f.prelude + kModule);
    json +=
        (json.size() > 1 ? ",\n" : "\n") + entry(dir, path, f.other_flags ? other_flags : flags);
  }
  writeFile(dir + "/compile_commands.json", json + "\n]\n");
  auto db = loadDatabase(dir);

  std::vector<std::string> paths;
  for (const File& f : files)
    paths.push_back(dir + "/" + f.name);
  std::string verbose;
  llvm::raw_string_ostream log(verbose);
  std::unique_ptr<driver::PchSet> pchs = driver::preparePchs(*db, paths, optionsFor(true), 2, &log);
  INFO(log.str());
  REQUIRE(pchs->entries().size() == 1);
  const driver::PchSet::Entry& pch = pchs->entries()[0];
  CHECK(pch.Files == 2);
  REQUIRE(llvm::sys::fs::exists(pch.Path));

  for (const File& f : files) {
    INFO("file " << f.name);
    driver::FileResult result =
        driver::analyzeFile(*db, dir + "/" + f.name, optionsFor(true, pchs.get()));
    INFO(result.Errors);
    REQUIRE(result.Ok);
    CHECK(result.PchUsed == (f.shares_pch ? pch.Path : ""));
    // The unregistered `bias` is found whichever way the file was parsed.
    unsigned prelude_lines = std::count(f.prelude.begin(), f.prelude.end(), '\n');
    REQUIRE(result.Findings.size() == 1);
    CHECK(result.Findings[0].Rule == "torch-unregistered-tensor-member");
    CHECK(result.Findings[0].Line == prelude_lines + kBiasLine);
  }

  // A PCH that no longer loads is passed over and the file parsed without it.
  REQUIRE(!llvm::sys::fs::remove(pch.Path));
  driver::FileResult result =
      driver::analyzeFile(*db, dir + "/a.cpp", optionsFor(true, pchs.get()));
  INFO(result.Errors);
  CHECK(result.Ok);
  CHECK(result.PchUsed.empty());
  CHECK(result.Findings.size() == 1);

  // The PCH's directory goes when the set does.
  std::string pch_dir = pch.Path.substr(0, pch.Path.rfind('/'));
  pchs.reset();
  CHECK(!llvm::sys::fs::exists(pch_dir));
}

TEST_CASE("no PCH is built of includes that reach the user's own headers", "[checker][speed]") {
  // A user's header under an include path named like LibTorch's: its bodies
  // must be kept and its findings reported, so it never goes into a PCH.
  std::string dir = scratchDir("pch-user-header");
  REQUIRE(!llvm::sys::fs::create_directories(dir + "/include/torch"));
  writeFile(dir + "/include/torch/user_layer.h",
            "#pragma once\ninline int user_layer() { return 1; }\n");
  std::vector<std::string> flags = {"-std=c++17", "-I" + dir + "/include"};
  std::string json = "[";
  std::vector<std::string> paths;
  for (const char* name : {"a.cpp", "b.cpp"}) {
    std::string path = dir + "/" + name;
    writeFile(path, "#include <torch/user_layer.h>\nint main() { return user_layer(); }\n");
    json += (json.size() > 1 ? ",\n" : "\n") + entry(dir, path, flags);
    paths.push_back(path);
  }
  writeFile(dir + "/compile_commands.json", json + "\n]\n");
  auto db = loadDatabase(dir);
  std::string verbose;
  llvm::raw_string_ostream log(verbose);
  std::unique_ptr<driver::PchSet> pchs = driver::preparePchs(*db, paths, optionsFor(true), 2, &log);
  CHECK(pchs->entries().empty());
  CHECK_THAT(log.str(), Catch::Matchers::ContainsSubstring("user_layer.h"));
}
