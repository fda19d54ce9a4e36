// Configuration through .clang-tidy files: the CLI reads them as clang-tidy
// does, and a broken one is an error that names it without stopping the run.
#include "TestSupport.h"

#include "catch.h"

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);

// forward() builds a tensor with a project factory and with torch::ones, and
// puts it on the GPU by hand.
const char* kSource =
    "#include <torch/torch.h>\n"
    "namespace util { torch::Tensor ramp(int64_t n, torch::TensorOptions o = {}); }\n"
    "struct Net : torch::nn::Module {\n"
    "  torch::Tensor forward(torch::Tensor x) {\n"
    "    auto r = util::ramp(x.size(0));\n"
    "    auto o = torch::ones({x.size(0)});\n"
    "    return (x + r + o).cuda();\n"
    "  }\n"
    "};\n";

std::string run(const std::string& dir, const std::string& extra = "") {
  CommandResult r = runCommand(cli + " --quiet " + extra + " " + quote(dir + "/net.cpp") + " --" +
                               joinFlags(standInFlags()));
  return r.out;
}

// clang-tidy 14 dumps CheckOptions as a list of key/value entries, 16 and later as a mapping
// from key to value.
bool dumpsOption(const std::string& dump, const std::string& key, const std::string& value) {
  return dump.find("key:             " + key + "\n    value:           " + value + "\n") !=
             std::string::npos ||
         dump.find("\n  " + key + ": " + value + "\n") != std::string::npos;
}

bool reports(const std::string& out, const std::string& line_and_rule) {
  return out.find(line_and_rule) != std::string::npos;
}
}  // namespace

TEST_CASE("the CLI reads rule options and torch checks from .clang-tidy files",
          "[checker][cli][config]") {
  std::string dir = scratchDir("config-options");
  writeFile(dir + "/net.cpp", kSource);

  SECTION("without a configuration file, defaults") {
    std::string out = run(dir);
    CHECK(reports(out, "net.cpp:6:14: warning: tensor factory 'ones'"));
    CHECK_FALSE(reports(out, "'ramp'"));
    CHECK(reports(out, "[torch-hardcoded-device]"));
  }
  SECTION("a check's own option, and Checks entries that name torch checks") {
    writeFile(dir + "/.clang-tidy",
              "Checks: '-*,bugprone-*,-torch-hardcoded-device'\n"
              "CheckOptions:\n"
              "  - key: torch-factory-without-device.FactoryFunctions\n"
              "    value: 'util::ramp'\n");
    std::string out = run(dir);
    CHECK(reports(out, "net.cpp:5:14: warning: tensor factory 'ramp'"));
    CHECK(reports(out, "net.cpp:6:14: warning: tensor factory 'ones'"));
    // '-*' and 'bugprone-*' are about clang-tidy's other checks; the entry
    // that names a torch check is applied.
    CHECK_FALSE(reports(out, "[torch-hardcoded-device]"));
    SECTION("the command line's --checks comes last and wins") {
      CHECK(reports(run(dir, "--checks=torch-hardcoded-device"), "[torch-hardcoded-device]"));
    }
  }
  SECTION("a nearer file overrides its parent only when it inherits") {
    writeFile(dir + "/.clang-tidy",
              "CheckOptions:\n  - key: FactoryFunctions\n    value: 'util::ramp'\n");
    std::string sub = dir + "/sub";
    REQUIRE(runCommand("mkdir -p " + quote(sub)).exit_code == 0);
    writeFile(sub + "/net.cpp", kSource);
    writeFile(sub + "/.clang-tidy",
              "InheritParentConfig: true\nChecks: '-torch-hardcoded-device'\n");
    std::string out = run(sub);
    CHECK(reports(out, "tensor factory 'ramp'"));
    CHECK_FALSE(reports(out, "[torch-hardcoded-device]"));

    writeFile(sub + "/.clang-tidy", "Checks: '-torch-hardcoded-device'\n");
    out = run(sub);
    CHECK_FALSE(reports(out, "tensor factory 'ramp'"));
  }
  SECTION("a check's own option wins over a global one in the same file") {
    writeFile(dir + "/.clang-tidy",
              "CheckOptions:\n"
              "  - key: FactoryFunctions\n    value: 'util::ramp'\n"
              "  - key: torch-factory-without-device.FactoryFunctions\n    value: 'other'\n");
    CHECK_FALSE(reports(run(dir), "tensor factory 'ramp'"));
  }
  SECTION("the plugin reads the same file and reports the same") {
    writeFile(dir + "/.clang-tidy",
              "CheckOptions:\n  - key: torch-factory-without-device.FactoryFunctions\n"
              "    value: 'util::ramp'\n");
    CommandResult r = runCommand(quote(TENSORPLACE_CLANG_TIDY) + " --quiet --load " +
                                 quote(TENSORPLACE_PLUGIN) + " '--checks=-*,torch-*' " +
                                 quote(dir + "/net.cpp") + " --" + joinFlags(standInFlags()));
    CHECK(warningsIn(r.out, "net.cpp") == warningsIn(run(dir), "net.cpp"));
    CHECK(reports(r.out, "tensor factory 'ramp'"));
  }
}

TEST_CASE("the plugin lists each check's own options with their defaults in --dump-config",
          "[checker][plugin][config]") {
  std::string dir = scratchDir("config-dump");
  CommandResult r =
      runCommand("cd " + quote(dir) + " && " + quote(TENSORPLACE_CLANG_TIDY) + " --load " +
                 quote(TENSORPLACE_PLUGIN) + " '--checks=-*,torch-*' --dump-config");
  REQUIRE(r.exit_code == 0);
  INFO(r.out);
  CHECK(dumpsOption(r.out, "torch-factory-without-device.ForwardMethods", "'forward;operator()'"));
  CHECK(dumpsOption(r.out, "torch-unregistered-submodule.IgnoredModuleTypes", "''"));
  CHECK(dumpsOption(r.out, "torch-factory-without-device.FactoryFunctions", "''"));
  // No option a check does not read.
  CHECK(r.out.find("torch-hardcoded-device.FactoryFunctions") == std::string::npos);
  CHECK(r.out.find("torch-discarded-to-result.") == std::string::npos);
  CHECK(r.out.find("torch-cuda-launch-without-guard.") == std::string::npos);
}

TEST_CASE("an option set for one check does not change what the others report",
          "[checker][cli][config]") {
  // FactoryFunctions is torch-factory-without-device's alone: set globally,
  // it reports the project factory and nothing else changes.
  std::string dir = scratchDir("config-own-option");
  writeFile(dir + "/net.cpp", kSource);
  std::string before = run(dir);
  writeFile(dir + "/.clang-tidy",
            "CheckOptions:\n  - key: FactoryFunctions\n    value: 'util::ramp'\n");
  std::string after = run(dir);
  Findings added = warningsIn(after, "net.cpp");
  for (const auto& finding : warningsIn(before, "net.cpp"))
    added.erase(added.find(finding));
  CHECK(added == Findings{{5, "torch-factory-without-device"}});
}

TEST_CASE("a broken .clang-tidy is an error that names it, and other files are still analysed",
          "[checker][cli][config][bad-input]") {
  std::string dir = scratchDir("config-broken");
  REQUIRE(runCommand("mkdir -p " + quote(dir + "/good") + " " + quote(dir + "/bad")).exit_code ==
          0);
  writeFile(dir + "/good/net.cpp", kSource);
  writeFile(dir + "/bad/net.cpp", kSource);
  std::string flags = " --" + joinFlags(standInFlags());
  std::string files = " " + quote(dir + "/bad/net.cpp") + " " + quote(dir + "/good/net.cpp");

  SECTION("bad YAML: the file could not be analysed (exit 2), the other one was") {
    writeFile(dir + "/bad/.clang-tidy", "CheckOptions: [ key: {\n");
    CommandResult r = runCommand(cli + files + flags);
    CHECK(r.exit_code == 2);
    CHECK(reports(r.err, "bad/net.cpp' could not be analysed: malformed configuration file '" +
                             dir + "/bad/.clang-tidy': line "));
    CHECK(reports(r.out, "good/net.cpp:6:14: warning: tensor factory 'ones'"));
    CHECK_FALSE(reports(r.out, "bad/net.cpp:"));
  }
  SECTION("unknown torch options and checks: a warning naming them, and the run goes on") {
    writeFile(dir + "/bad/.clang-tidy",
              "CheckOptions:\n"
              "  - key: torch-factory-without-device.FactoryFunction\n    value: 'util::ramp'\n"
              "  - key: torch-no-such-check.ForwardMethods\n    value: 'f'\n"
              "  - key: torch-discarded-to-result.ForwardMethods\n    value: 'f'\n"
              "  - key: torch-hardcoded-device.FactoryFunctions\n    value: 'util::ramp'\n"
              "  - key: readability-identifier-naming.ClassCase\n    value: CamelCase\n");
    CommandResult r = runCommand(cli + files + flags);
    CHECK(r.exit_code == 1);
    CHECK(reports(r.err,
                  "warning: unknown option 'torch-factory-without-device.FactoryFunction' "
                  "in '" +
                      dir + "/bad/.clang-tidy'"));
    CHECK(reports(r.err, "warning: unknown check 'torch-no-such-check'"));
    // An option that exists, set for a check that does not read it.
    CHECK(reports(r.err, "warning: option 'torch-discarded-to-result.ForwardMethods' in '" + dir +
                             "/bad/.clang-tidy' is not read by torch-discarded-to-result, which "
                             "has no options"));
    CHECK(reports(r.err, "warning: option 'torch-hardcoded-device.FactoryFunctions' in '" + dir +
                             "/bad/.clang-tidy' is not read by torch-hardcoded-device (its "
                             "options: RegistrationHelpers, ModuleBaseClasses, "
                             "IgnoredModuleTypes, ForwardMethods)"));
    CHECK_FALSE(reports(r.err, "readability-identifier-naming"));
    CHECK(reports(r.out, "bad/net.cpp:6:14: warning: tensor factory 'ones'"));
    CHECK(reports(r.out, "good/net.cpp:6:14: warning: tensor factory 'ones'"));
  }
  SECTION("a misspelt check under Checks: a warning naming the check it is closest to") {
    // It would silently disable nothing.
    writeFile(dir + "/bad/.clang-tidy",
              "Checks: 'readability-*,-torch-factory-without-devise,torch-no-such-*'\n");
    CommandResult r = runCommand(cli + files + flags);
    CHECK(r.exit_code == 1);
    CHECK(reports(r.err, "warning: Checks in '" + dir +
                             "/bad/.clang-tidy' names 'torch-factory-without-devise' (did you "
                             "mean 'torch-factory-without-device'?), which matches no torch "
                             "check"));
    CHECK(reports(r.err, "warning: Checks in '" + dir +
                             "/bad/.clang-tidy' names 'torch-no-such-*', which matches no torch "
                             "check"));
    CHECK_FALSE(reports(r.err, "readability-*"));
    CHECK(reports(r.out, "bad/net.cpp:6:14: warning: tensor factory 'ones'"));
  }
}
