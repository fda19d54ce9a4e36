// The tensorplace CLI end to end: exit status, compilation databases,
// directories, bad input, fix-its, and the installed layout.
#include "TestSupport.h"

#include "catch.h"

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include "llvm/Support/FileSystem.h"

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);

std::string input(const std::string& name) {
  return std::string(TENSORPLACE_CHECKER_INPUTS) + "/" + name;
}
}  // namespace

TEST_CASE("the --plugin-path option names the clang-tidy plugin next to the CLI",
          "[checker][cli]") {
  CommandResult r = runCommand(cli + " --plugin-path");
  REQUIRE(r.exit_code == 0);
  std::string path = r.out.substr(0, r.out.find('\n'));
  CHECK(path == std::string(TENSORPLACE_PLUGIN));
  CHECK(path.front() == '/');
}

TEST_CASE("exit status says clean, findings, or could not analyse", "[checker][cli]") {
  std::string dir = scratchDir("exit-status");
  writeFile(dir + "/clean.cpp",
            "#include <torch/torch.h>\nvoid f(torch::Tensor x) { x = x.cpu(); }\n");
  writeFile(dir + "/broken.cpp", "#include <torch/torch.h>\nvoid f(torch::Tensor x) { x.cpu() }\n");
  std::string flags = " --" + joinFlags(standInFlags());

  SECTION("no findings: 0") {
    CHECK(runCommand(cli + " " + quote(dir + "/clean.cpp") + flags).exit_code == 0);
  }
  SECTION("findings: 1") {
    CHECK(runCommand(cli + " " + quote(input("torch-discarded-to-result.cpp")) + flags).exit_code ==
          1);
  }
  SECTION("a missing file: 2, named, and the other files are still analysed") {
    CommandResult r = runCommand(cli + " " + quote(dir + "/missing.cpp") + " " +
                                 quote(input("torch-discarded-to-result.cpp")) + flags);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("missing.cpp' could not be analysed: no such file") != std::string::npos);
    CHECK(r.out.find("[torch-discarded-to-result]") != std::string::npos);
  }
  // A file with compiler errors is analysed as far as Clang recovers; it is
  // marked partial and does not change the status (docs/checker.md).
  SECTION("a syntax error: partial, with the compiler's error, and the other files are analysed") {
    CommandResult r = runCommand(cli + " " + quote(dir + "/broken.cpp") + " " +
                                 quote(input("torch-discarded-to-result.cpp")) + flags);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("broken.cpp' was analysed partially") != std::string::npos);
    CHECK(r.err.find("error: expected ';'") != std::string::npos);
    CHECK(r.out.find("[torch-discarded-to-result]") != std::string::npos);
  }
  SECTION("a call the compiler could not resolve: partial, without crashing") {
    // Error recovery leaves a callee with no name (found on a public project).
    writeFile(dir + "/unresolved.cpp",
              "struct Holder { int x; };\nint main() { Holder h; h.to(1); }\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/unresolved.cpp") + " " +
                                 quote(input("torch-discarded-to-result.cpp")) + flags);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("unresolved.cpp' was analysed partially") != std::string::npos);
    CHECK(r.err.find("no member named 'to' in 'Holder'") != std::string::npos);
    CHECK(r.out.find("[torch-discarded-to-result]") != std::string::npos);
  }
  SECTION("a class the compiler could not parse whole gets no member findings") {
    // A member of a type LibTorch removed made every register_module() call
    // unresolvable (found on a public project).
    writeFile(dir + "/stale_api.cpp",
              "#include <torch/torch.h>\n"
              "struct BlockImpl : torch::nn::Module {\n"
              "  BlockImpl() { conv = register_module(\"conv\", torch::nn::Conv2d(1, 1, 3));\n"
              "                bn = register_module(\"bn\", torch::nn::BatchNorm(1)); }\n"
              "  torch::nn::Conv2d conv{nullptr};\n"
              "  torch::nn::BatchNorm bn{nullptr};\n"
              "};\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/stale_api.cpp") + flags);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("stale_api.cpp' was analysed partially") != std::string::npos);
    CHECK(r.out.find("[torch-unregistered") == std::string::npos);
  }
  SECTION("a host tensor that is the object of a call no overload matches is not reported") {
    // LibTorch 1.5's index_put_(Tensor, Tensor) against newer headers (found
    // on a public project): the flow ends at the recovered call.
    writeFile(dir + "/recovered_object.cpp",
              "#include <torch/torch.h>\n"
              "struct PaletteImpl : torch::nn::Module {\n"
              "  torch::Tensor forward(torch::Tensor x) {\n"
              "    auto color = torch::ones({3});\n"
              "    color.masked_fill(color);\n"
              "    return x * color.item<float>();\n"
              "  }\n"
              "};\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/recovered_object.cpp") + flags);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("recovered_object.cpp' was analysed partially") != std::string::npos);
    CHECK(r.err.find("no matching member function for call to 'masked_fill'") != std::string::npos);
  }
  SECTION("an error outside a class's setup does not hide its unregistered members") {
    writeFile(dir + "/forward_error.cpp",
              "#include <torch/torch.h>\n"
              "struct NoiseImpl : torch::nn::Module {\n"
              "  NoiseImpl() { betas = torch::zeros({4}); }\n"
              "  torch::Tensor forward(torch::Tensor x) { return x * betas + undeclared; }\n"
              "  torch::Tensor betas;\n"
              "};\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/forward_error.cpp") + flags);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("forward_error.cpp' was analysed partially") != std::string::npos);
    CHECK(r.out.find("'betas' is a tensor member") != std::string::npos);
  }
  SECTION("the user's -Werror does not turn the compiler's warnings into failures") {
    writeFile(
        dir + "/warns.cpp",
        "#include <torch/torch.h>\nint f(torch::Tensor x) { int unused; x.cpu(); return 0; }\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/warns.cpp") + flags + " -Wall -Werror");
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("could not be analysed") == std::string::npos);
  }
  SECTION("an unknown option: 2") {
    CommandResult r = runCommand(cli + " --no-such-option x.cpp" + flags);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("no-such-option") != std::string::npos);
  }
  SECTION("a check list that enables nothing: 2") {
    CHECK(runCommand(cli + " --checks=-* " + quote(dir + "/clean.cpp") + flags).exit_code == 2);
  }
  SECTION("a misspelt check name: warned about, with the check it is closest to") {
    CommandResult r = runCommand(cli + " --checks=torch-*,-torch-discarded-to-reslt " +
                                 quote(input("torch-discarded-to-result.cpp")) + flags);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("warning: --checks names 'torch-discarded-to-reslt' (did you mean "
                     "'torch-discarded-to-result'?), which matches no torch check") !=
          std::string::npos);
  }
  // LibTorch itself is what every rule reads: without it nothing is
  // recognised, and what is left would pass for a clean file.
  SECTION("LibTorch's headers not found: 2, with the include path to pass") {
    CommandResult r = runCommand(cli + " " + quote(dir + "/clean.cpp") + " " +
                                 quote(input("torch-discarded-to-result.cpp")) + " -- -std=c++17");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("clean.cpp' could not be analysed: LibTorch's headers are not on the "
                     "include path ('torch/torch.h' file not found)") != std::string::npos);
    CHECK(r.err.find("-isystem <libtorch>/include/torch/csrc/api/include") != std::string::npos);
    CHECK(r.err.find("2 could not be analysed") != std::string::npos);
  }
  SECTION("a missing GPU backend header of LibTorch keeps the partial analysis") {
    writeFile(dir + "/hip_op.cpp",
              "#include <torch/torch.h>\n#include <c10/hip/HIPGuard.h>\n"
              "void f(torch::Tensor x) { x.cpu(); }\n");
    CommandResult r = runCommand(cli + " " + quote(dir + "/hip_op.cpp") + flags);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("hip_op.cpp' was analysed partially") != std::string::npos);
    CHECK(r.out.find("[torch-discarded-to-result]") != std::string::npos);
  }
}

TEST_CASE("the --checks option selects rules as clang-tidy's -checks does", "[checker][cli]") {
  std::string file = quote(input("torch-unregistered-tensor-member.cpp"));
  std::string flags = " --" + joinFlags(standInFlags());
  CommandResult only = runCommand(cli + " '--checks=-*,torch-discarded-to-result' " + file + flags);
  CHECK(only.exit_code == 0);
  CHECK(only.out.empty());
  CommandResult all = runCommand(cli + " " + file + flags);
  CHECK(all.exit_code == 1);
}

TEST_CASE("the -p option reads compile_commands.json and directories select its files",
          "[checker][cli]") {
  std::string dir = scratchDir("compdb");
  REQUIRE(std::system(
              ("mkdir -p " + quote(dir + "/src/nn") + " " + quote(dir + "/build")).c_str()) == 0);
  writeFile(dir + "/src/nn/net.cpp", readInput(input("torch-unregistered-submodule.cpp")));
  writeFile(dir + "/src/main.cpp", readInput(input("torch-discarded-to-result.cpp")));
  std::string args;
  for (const auto& f : standInFlags())
    args += ", \"" + f + "\"";
  std::string db = "[";
  for (const char* file : {"src/nn/net.cpp", "src/main.cpp"})
    db += std::string(db.size() > 1 ? "," : "") + "{\"directory\": \"" + dir + "\", \"file\": \"" +
          file + "\", \"arguments\": [\"c++\"" + args + ", \"-c\", \"" + file + "\"]}";
  writeFile(dir + "/build/compile_commands.json", db + "]");

  SECTION("every file of the database") {
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "/src/nn/net.cpp") == expectationsIn(dir + "/src/nn/net.cpp"));
    CHECK(warningsIn(r.out, "/src/main.cpp") == expectationsIn(dir + "/src/main.cpp"));
  }
  SECTION("a directory argument narrows to the files below it") {
    CommandResult r =
        runCommand(cli + " -p " + quote(dir + "/build") + " " + quote(dir + "/src/nn"));
    CHECK(r.exit_code == 1);
    CHECK(!warningsIn(r.out, "/src/nn/net.cpp").empty());
    CHECK(warningsIn(r.out, "/src/main.cpp").empty());
  }
  SECTION("a build directory without a database is a usage error") {
    // -p looks in the directory and its parents, as clang-tidy does, so this
    // one lies outside any build tree.
    char lonely[] = "/tmp/tensorplace-nodb-XXXXXX";
    REQUIRE(mkdtemp(lonely) != nullptr);
    CommandResult r = runCommand(cli + " -p " + quote(lonely));
    rmdir(lonely);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot load a compilation database") != std::string::npos);
  }
}

TEST_CASE("the --fix option assigns a discarded conversion back once and never inside a macro",
          "[checker][cli][fix]") {
  std::string dir = scratchDir("fix");
  std::string file = dir + "/convert.cpp";
  writeFile(file, readInput(input("torch-discarded-to-result.cpp")));
  std::string flags = " --" + joinFlags(standInFlags());

  CommandResult first = runCommand(cli + " --fix " + quote(file) + flags);
  CHECK(first.exit_code == 1);
  std::string fixed = readFile(file);
  CHECK(fixed.find("  x = x.to(device); // expect") != std::string::npos);
  CHECK(fixed.find("  (y = y.cpu()); // expect") != std::string::npos);
  CHECK(fixed.find("x = x.to(device), y = y.to(device);") != std::string::npos);
  // Never in a macro, and never for a member: rebinding a registered member
  // would leave the module holding the old tensor.
  CHECK(fixed.find("  TP_MOVE(t, d); // expect") != std::string::npos);
  CHECK(fixed.find("    table_.to(device); // expect") != std::string::npos);
  CHECK(fixed.find("    this->table_.cuda(); // expect") != std::string::npos);

  // The fixed file parses, and only the findings without a fix-it are left.
  CommandResult second = runCommand(cli + " " + quote(file) + flags);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 1);
  Findings left = warningsIn(second.out, "/convert.cpp");
  std::string source = readInput(input("torch-discarded-to-result.cpp"));
  auto line_of = [&](const std::string& text) {
    return static_cast<unsigned>(
        std::count(source.begin(), source.begin() + source.find(text), '\n') + 1);
  };
  Findings expected_left{{line_of("table_.to(device);"), "torch-discarded-to-result"},
                         {line_of("this->table_.cuda();"), "torch-discarded-to-result"},
                         {line_of("this->table_.cuda();"), "torch-hardcoded-device"},
                         {line_of("TP_MOVE(t, d);"), "torch-discarded-to-result"}};
  CHECK(left == expected_left);

  // A second --fix changes nothing.
  runCommand(cli + " --fix " + quote(file) + flags);
  CHECK(readFile(file) == fixed);
}

TEST_CASE("the --fix option passes an input's device to a factory once and never inside a macro",
          "[checker][cli][fix]") {
  std::string dir = scratchDir("fix-factory");
  std::string file = dir + "/factory.cpp";
  std::string source = readInput(input("torch-factory-without-device.cpp"));
  writeFile(file, source);
  std::string flags = " --" + joinFlags(standInFlags());

  CommandResult first = runCommand(cli + " --fix " + quote(file) + flags);
  CHECK(first.exit_code == 1);
  std::string fixed = readFile(file);
  CHECK(fixed.find("torch::arange(x.size(1), x.device());") != std::string::npos);
  CHECK(fixed.find("torch::linspace(0, 1, 4, x.device()).to(torch::kDouble);") !=
        std::string::npos);
  CHECK(fixed.find("return h + torch::randn({4}, h.device());") != std::string::npos);
  // Never in a macro or a lambda, never where options are given, never where
  // the options default to a dtype (randperm's kLong), never for from_blob.
  CHECK(fixed.find("return x + TP_NOISE(4);") != std::string::npos);
  CHECK(fixed.find("return torch::ones({n}); };") != std::string::npos);
  CHECK(fixed.find("torch::ones({4}, torch::kBool);") != std::string::npos);
  CHECK(fixed.find("torch::randperm(4);") != std::string::npos);
  CHECK(fixed.find("torch::from_blob(host, {4});") != std::string::npos);

  // The fixed file parses, and only the findings without a fix-it are left.
  CommandResult second = runCommand(cli + " " + quote(file) + flags);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 1);
  Findings expected_left;
  std::istringstream lines(source);
  std::string line;
  for (unsigned number = 1; std::getline(lines, line); ++number)
    if (line.find("// expect: torch-factory-without-device") != std::string::npos &&
        line.find("(fix-it)") == std::string::npos)
      expected_left.emplace(number, "torch-factory-without-device");
  CHECK(expected_left.size() == 13);
  CHECK(warningsIn(second.out, "/factory.cpp") == expected_left);

  // A second --fix changes nothing.
  runCommand(cli + " --fix " + quote(file) + flags);
  CHECK(readFile(file) == fixed);
}

TEST_CASE("NOLINT comments silence findings in the CLI as in clang-tidy", "[checker][cli]") {
  std::string dir = scratchDir("nolint");
  std::string file = dir + "/nolint.cpp";
  writeFile(file,
            "#include <torch/torch.h>\n"
            "void f(torch::Tensor x) {\n"
            "  x.cpu(); // NOLINT\n"
            "  // NOLINTNEXTLINE(torch-discarded-*)\n"
            "  x.cpu();\n"
            "  x.cpu(); // NOLINT(torch-unregistered-submodule)\n"
            "  // NOLINTBEGIN(torch-discarded-to-result)\n"
            "  x.cpu();\n"
            "  // NOLINTEND(torch-discarded-to-result)\n"
            "  x.cpu();\n"
            "}\n");
  CommandResult r = runCommand(cli + " " + quote(file) + " --" + joinFlags(standInFlags()));
  Findings expected{{6, "torch-discarded-to-result"}, {10, "torch-discarded-to-result"}};
  CHECK(warningsIn(r.out, "/nolint.cpp") == expected);
}

TEST_CASE("the installed CLI finds its plugin and Clang's builtin headers",
          "[checker][cli][install]") {
  std::string prefix = scratchDir("install");
  CommandResult install =
      runCommand("cmake --install " + quote(TENSORPLACE_BINARY_DIR) + " --prefix " + quote(prefix));
  INFO(install.out << install.err);
  REQUIRE(install.exit_code == 0);
  std::string installed = quote(prefix + "/bin/tensorplace");
  CommandResult plugin = runCommand(installed + " --plugin-path");
  REQUIRE(plugin.exit_code == 0);
  CHECK(plugin.out.rfind(prefix, 0) == 0);
  CHECK(std::system(("test -f " + quote(plugin.out.substr(0, plugin.out.find('\n')))).c_str()) ==
        0);
  // <cstddef> needs Clang's resource directory (stddef.h).
  CommandResult run = runCommand(installed + " " + quote(input("torch-discarded-to-result.cpp")) +
                                 " --" + joinFlags(standInFlags()));
  INFO(run.err);
  CHECK(run.exit_code == 1);
  CHECK(warningsIn(run.out, "/torch-discarded-to-result.cpp") ==
        expectationsIn(input("torch-discarded-to-result.cpp")));
}

TEST_CASE("the bundled examples report exactly their planted bugs", "[checker][cli][examples]") {
  std::string examples = std::string(TENSORPLACE_SOURCE_DIR) + "/examples";
  CommandResult r =
      runCommand(cli + " --quiet -p " + quote(TENSORPLACE_BINARY_DIR) + " " + quote(examples));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  std::string planted = examples + "/placement_bugs/main.cpp";
  CHECK(warningsIn(r.out, "/placement_bugs/main.cpp") == expectationsIn(planted));
  // Nothing is reported anywhere else under examples/.
  CHECK(warningsIn(r.out, "").size() == expectationsIn(planted).size());
}

TEST_CASE("the --fix option registers members where the constructor or reset() assigns them",
          "[checker][cli][fix][libtorch]") {
  std::string dir = scratchDir("fix-members");
  std::vector<std::string> files;
  for (const char* name :
       {"torch-unregistered-tensor-member.cpp", "torch-unregistered-submodule.cpp"}) {
    files.push_back(dir + "/" + name);
    writeFile(files.back(), readInput(input(name)));
  }
  std::string all = quote(files[0]) + " " + quote(files[1]);
  std::string flags = " --" + joinFlags(standInFlags());
  CommandResult shown = runCommand(cli + " " + all + flags);
  Findings before = warningsIn(shown.out, "");
  // The finding is on the member's declaration, its fix-it on the line that
  // assigns it: the text output shows that line and the change.
  CHECK(shown.out.find("note: the fix-it changes this line") != std::string::npos);
  CHECK(shown.out.find("mean_ = torch::tensor") != std::string::npos);
  CHECK(shown.out.find("register_buffer(\"mean\", ") != std::string::npos);

  CommandResult fix = runCommand(cli + " --fix " + all + flags);
  CHECK(fix.exit_code == 1);
  std::string tensors = readFile(files[0]), modules = readFile(files[1]);
  // A plain module registers in its constructor, a Cloneable in reset().
  CHECK(tensors.find("mean_ = register_buffer(\"mean\", torch::tensor({0.485, 0.456, 0.406})") !=
        std::string::npos);
  CHECK(tensors.find("void reset() override { table = register_buffer(\"table\", "
                     "torch::randn({128, 16})); }") != std::string::npos);
  CHECK(modules.find("fc = register_module(\"fc\", torch::nn::Linear(4, 2));") !=
        std::string::npos);
  CHECK(modules.find("block2 = register_module(\"block2\", Block());") != std::string::npos);
  CHECK(modules.find("body = register_module(\"body\", torch::nn::Sequential(*blocks));") !=
        std::string::npos);
  // A container around registered members: registering it would list them twice.
  CHECK(modules.find("register_module(\"chain\", torch::nn::Sequential(a_, b_))") ==
        std::string::npos);
  // A container around unregistered members: only the container is
  // registered, and that reaches the member too.
  CHECK(modules.find("    a_ = torch::nn::Linear(4, 4);\n"
                     "    chain_ = register_module(\"chain\", torch::nn::Sequential(a_));") !=
        std::string::npos);
  // No fix-it for what cannot be wrapped safely: in-class and member
  // initializers, containers, macros, helpers.
  CHECK(tensors.find("torch::Tensor scale_ = torch::ones({1});") != std::string::npos);
  CHECK(tensors.find("TP_MAKE_TABLE(lut_, 10);") != std::string::npos);
  CHECK(modules.find(": proj_(torch::nn::Linear(8, 4))") != std::string::npos);

  // The fixed files parse (with the real LibTorch too), the fixed members no
  // longer warn, nothing new appears, and a second --fix changes nothing.
  CommandResult second = runCommand(cli + " " + all + flags);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 1);
  Findings after = warningsIn(second.out, "");
  // 25 fewer: 24 fixed, and UnregisteredChainImpl's a_ reached through chain_.
  CHECK(after.size() == before.size() - 25);
  for (const auto& finding : after)
    CHECK(before.count(finding) == 1);
  CommandResult real = runCommand(cli + " --quiet " + all + " --" + joinFlags(realTorchFlags()));
  INFO(real.err);
  CHECK(real.exit_code == 1);
  runCommand(cli + " --fix " + all + flags);
  CHECK(readFile(files[0]) == tensors);
  CHECK(readFile(files[1]) == modules);
}

TEST_CASE("the --fix option on a copy of the examples yields code that compiles and is clean",
          "[checker][cli][fix][examples][libtorch]") {
  std::string dir = scratchDir("fix-examples");
  std::string file = dir + "/main.cpp";
  std::string original =
      readFile(std::string(TENSORPLACE_SOURCE_DIR) + "/examples/placement_bugs/main.cpp");
  writeFile(file, original);
  std::string flags = " --" + joinFlags(realTorchFlags());
  Findings planted = expectationsIn(file);

  CommandResult fix = runCommand(cli + " --fix " + quote(file) + flags);
  INFO(fix.out << fix.err);
  CHECK(fix.exit_code == 1);
  CHECK(warningsIn(fix.out, "/main.cpp") == planted);
  std::string fixed = readFile(file);
  CHECK(fixed != original);

  // It compiles against LibTorch.
  CommandResult compiled =
      runCommand("c++ -fsyntax-only" + joinFlags(realTorchFlags()) + " " + quote(file));
  INFO(compiled.err);
  CHECK(compiled.exit_code == 0);

  // What had a fix-it is gone; the rest is still reported, on the same lines.
  std::set<std::string> fixable{"torch-unregistered-tensor-member", "torch-unregistered-submodule",
                                "torch-discarded-to-result", "torch-factory-without-device"};
  // 'head' gets no fix-it: the constructor also registers modules under
  // computed names ("block" + i), which a registration as "head" could clash
  // with.
  unsigned head_line = 1;
  for (size_t at = 0; at < original.find("torch::nn::Linear head{nullptr};"); ++at)
    head_line += original[at] == '\n';
  Findings remaining;
  for (const auto& finding : planted)
    if (!fixable.count(finding.second) || finding.first == head_line)
      remaining.insert(finding);
  CHECK(remaining.size() == 5);
  CommandResult second = runCommand(cli + " --fix " + quote(file) + flags);
  INFO(second.out << second.err);
  CHECK(warningsIn(second.out, "/main.cpp") == remaining);
  // A second --fix changes nothing.
  CHECK(readFile(file) == fixed);
}

TEST_CASE("clang-tidy --fix with the plugin applies the same fixes as the CLI's --fix",
          "[checker][plugin][fix]") {
  std::string dir = scratchDir("fix-both-front-ends");
  REQUIRE(runCommand("mkdir -p " + quote(dir + "/cli") + " " + quote(dir + "/tidy")).exit_code ==
          0);
  std::string flags = " --" + joinFlags(standInFlags());
  for (const char* name :
       {"torch-discarded-to-result.cpp", "torch-factory-without-device.cpp",
        "torch-unregistered-tensor-member.cpp", "torch-unregistered-submodule.cpp"}) {
    DYNAMIC_SECTION(name) {
      std::string original = readInput(input(name));
      std::string by_cli = dir + "/cli/" + name, by_tidy = dir + "/tidy/" + name;
      writeFile(by_cli, original);
      writeFile(by_tidy, original);
      runCommand(cli + " --fix " + quote(by_cli) + flags);
      CommandResult tidy = runCommand(quote(TENSORPLACE_CLANG_TIDY) + " --quiet --fix --load " +
                                      quote(TENSORPLACE_PLUGIN) + " '--checks=-*,torch-*' " +
                                      quote(by_tidy) + flags);
      INFO(tidy.out << tidy.err);
      CHECK(readFile(by_cli) != original);
      CHECK(readFile(by_tidy) == readFile(by_cli));
    }
  }
}

TEST_CASE("a CUDA source compiled by nvcc is analysed from the compilation database",
          "[checker][cli][cuda]") {
  std::string dir = scratchDir("nvcc-database");
  std::string source = dir + "/launch.cu";
  writeFile(source, readInput(input("torch-cuda-launch-without-guard.cu")));
  std::string stand_in = TENSORPLACE_STAND_IN_DIR;
  // What CMake's CUDA language writes: nvcc's own flags, which Clang rejects.
  writeFile(dir + "/compile_commands.json",
            "[{\"directory\": \"" + dir + "\", \"file\": \"" + source +
                "\", \"command\": \"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                "-DTP_FLAG=1 -isystem=" +
                stand_in + " -isystem=" + TENSORPLACE_CUDA_HEADERS_DIR +
                " -O3 --generate-code=arch=compute_80,code=[compute_80,sm_80] "
                "--generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC "
                "--expt-relaxed-constexpr -Xcudafe --diag_suppress=177 -std=c++17 -x cu -c " +
                source + " -o launch.o\"}]");
  // CUDA headers named in the command (-nocudainc), which the CLI then leaves
  // alone, instead of the toolkit's, which Clang 14 cannot parse.
  std::string stand_in_cuda =
      " --extra-arg=-nocudainc --extra-arg=-include --extra-arg=cuda_runtime.h";
  CommandResult r = runCommand(cli + " --quiet -p " + quote(dir) + stand_in_cuda);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(warningsIn(r.out, "/launch.cu") == expectationsIn(source));

  SECTION("after a missing header, no launch finding appears that a full parse does not give") {
    // The parse goes on after the missing header; with errors in the file, a
    // launcher whose callers may be lost to error recovery is not reported.
    writeFile(source, readInput(input("torch-cuda-launch-without-guard.cu")) +
                          "#include <opencv2/core.hpp>\n");
    CommandResult partial = runCommand(cli + " --quiet -p " + quote(dir) + stand_in_cuda);
    INFO(partial.out << partial.err);
    CHECK(partial.err.find("'opencv2/core.hpp' file not found") != std::string::npos);
    Findings full = expectationsIn(source);
    Findings reported = warningsIn(partial.out, "/launch.cu");
    for (const auto& finding : reported)
      CHECK(reported.count(finding) <= full.count(finding));
  }
}

TEST_CASE("after a missing header, a launcher no call can have been lost from is still reported",
          "[checker][cli][cuda]") {
  // With errors in the file, a call may be lost to error recovery, so a
  // launcher that seems to have no caller is not reported when its name
  // appears anywhere else in the file. One named nowhere else had no caller
  // here in any case, as in a full parse.
  std::string dir = scratchDir("cuda-partial");
  std::string source = dir + "/binding.cu";
  writeFile(source,
            "#include <torch/torch.h>\n"
            "#include <ATen/cuda/CUDAContext.h>\n"
            "#include <c10/cuda/CUDAGuard.h>\n"
            "#include <python_binding_that_is_not_installed.h>\n"
            "__global__ void halve_kernel(const float* in, float* out, long n);\n"
            "torch::Tensor halve(const torch::Tensor& in) {\n"
            "  auto out = torch::empty_like(in);\n"
            "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n"
            "  halve_kernel<<<1, 256, 0, stream>>>(in.data_ptr<float>(), out.data_ptr<float>(), "
            "in.numel());\n"
            "  return out;\n"
            "}\n"
            "void halve_into(const torch::Tensor& in, torch::Tensor out) {\n"
            "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n"
            "  halve_kernel<<<1, 256, 0, stream>>>(in.data_ptr<float>(), out.data_ptr<float>(), "
            "in.numel());\n"
            "}\n"
            "void guarded(const torch::Tensor& in, torch::Tensor out) {\n"
            "  const c10::cuda::OptionalCUDAGuard guard(in.device());\n"
            "  MissingType unused = halve_into(in, out);\n"
            "}\n"
            "template <typename T> __global__ void scale_kernel(T* data, T s, long n);\n"
            "template <typename T> void scale(torch::Tensor t, T s) {\n"
            "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n"
            "  scale_kernel<T><<<1, 256, 0, stream>>>(t.data_ptr<T>(), s, t.numel());\n"
            "}\n"
            "template void scale<float>(torch::Tensor, float);\n"
            "// shift: named again only in this comment and in a string.\n"
            "void shift(torch::Tensor t) {\n"
            "  cudaStream_t stream = at::cuda::getCurrentCUDAStream();\n"
            "  const char* op_name = \"shift\";\n"
            "  scale_kernel<float><<<1, 256, 0, stream>>>(t.data_ptr<float>(), 1.f, t.numel());\n"
            "}\n");
  CommandResult r =
      runCommand(cli + " --no-cache " + quote(source) + " --" + joinFlags(standInFlags()));
  INFO(r.out << r.err);
  CHECK(r.err.find("'python_binding_that_is_not_installed.h' file not found") != std::string::npos);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("binding.cu:9:3: warning: kernel launch on tensor data in 'halve' without a "
                   "device guard") != std::string::npos);
  CHECK(r.out.find("'halve_into'") == std::string::npos);
  // Named elsewhere only where it is explicitly instantiated.
  CHECK(r.out.find("binding.cu:23:3: warning: kernel launch on tensor data in 'scale' without a "
                   "device guard") != std::string::npos);
  // A comment or a string literal (AT_DISPATCH's name) calls nothing.
  CHECK(r.out.find("binding.cu:30:3: warning: kernel launch on tensor data in 'shift' without a "
                   "device guard") != std::string::npos);
  CHECK(warningsIn(r.out, "/binding.cu").size() == 3);
}

namespace {
// The CLI, without its cache, on some files of dir ("a.cpp b.cu"), with
// flags after them.
CommandResult runOnFiles(const std::string& dir,
                         const std::string& files,
                         const std::string& flags) {
  std::string args;
  std::istringstream names(files);
  for (std::string name; names >> name;)
    args += " " + quote(dir + "/" + name);
  return runCommand(cli + " --no-cache" + args + flags);
}

// The clang-tidy plugin's launch check on one CUDA file, given tensorplace's
// CUDA headers by hand (the CLI adds them itself).
CommandResult runPluginOnCuda(const std::string& file) {
  return runCommand(quote(TENSORPLACE_CLANG_TIDY) + " --quiet --load " + quote(TENSORPLACE_PLUGIN) +
                    " '--checks=-*,torch-cuda-launch-without-guard' " + quote(file) + " --" +
                    joinFlags(standInFlags()) + " -isystem " + quote(TENSORPLACE_CUDA_HEADERS_DIR) +
                    " --cuda-host-only -nocudainc -nocudalib -include cuda_runtime.h");
}
}  // namespace

TEST_CASE("a launcher called only from other files is settled over the whole run",
          "[checker][cli][cuda]") {
  // The binding's shape: a launcher in a .cu file, called from the op in a
  // .cpp file, which holds the guard. One file alone cannot tell.
  std::string dir = scratchDir("cuda-callers");
  writeFile(
      dir + "/kernels.h",
      "#pragma once\n"
      "#include <torch/torch.h>\n"
      "#include <cuda_runtime.h>\n"
      "void scale_launch(torch::Tensor t, float s, cudaStream_t stream);\n"
      "template <typename T> void shift_launch(torch::Tensor t, T s, cudaStream_t stream);\n");
  writeFile(dir + "/kernels.cu",
            "#include \"kernels.h\"\n"
            "__global__ void scale_kernel(float* data, float s, long n) {}\n"
            "template <typename T> __global__ void shift_kernel(T* data, T s, long n) {}\n"
            "void scale_launch(torch::Tensor t, float s, cudaStream_t stream) {\n"
            "  scale_kernel<<<1, 256, 0, stream>>>(t.data_ptr<float>(), s, t.numel());\n"
            "}\n"
            "template <typename T> void shift_launch(torch::Tensor t, T s, cudaStream_t stream) "
            "{\n"
            "  shift_kernel<T><<<1, 256, 0, stream>>>(t.data_ptr<T>(), s, t.numel());\n"
            "}\n"
            "template void shift_launch<float>(torch::Tensor, float, cudaStream_t);\n");
  // A header's wrapper, which every file that includes it defines.
  writeFile(dir + "/wrappers.h",
            "#pragma once\n"
            "#include \"kernels.h\"\n"
            "template <typename T> void shift(torch::Tensor t, T s) { shift_launch<T>(t, s, "
            "nullptr); }\n");
  writeFile(dir + "/ops.cpp",
            "#include \"wrappers.h\"\n"
            "#include <c10/cuda/CUDAGuard.h>\n"
            "static void scale_op(torch::Tensor t) { scale_launch(t, 2.f, nullptr); }\n"
            "void run(torch::Tensor t) {\n"
            "  const c10::cuda::OptionalCUDAGuard guard(t.device());\n"
            "  scale_op(t);\n"
            "  shift<float>(t, 1.f);\n"
            "}\n");
  // Includes the wrapper without calling it.
  writeFile(dir + "/unused.cpp", "#include \"wrappers.h\"\nint unused() { return 0; }\n");
  writeFile(dir + "/bare.cpp",
            "#include \"kernels.h\"\n"
            "void run_bare(torch::Tensor t) { scale_launch(t, 2.f, nullptr); }\n");
  // The CLI gives the .cpp files tensorplace's CUDA headers itself (no
  // toolkit here); the plugin is given them by hand.
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };
  const std::string scale_finding =
      "kernels.cu:5:3: warning: kernel launch on tensor data in 'scale_launch' without a device "
      "guard";
  const std::string shift_finding =
      "kernels.cu:8:3: warning: kernel launch on tensor data in 'shift_launch' without a device "
      "guard";

  SECTION("the launchers' file alone: reported, each with a note at the function no one calls") {
    CommandResult r = run("kernels.cu");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(scale_finding) != std::string::npos);
    CHECK(r.out.find(shift_finding) != std::string::npos);
    CHECK(r.out.find("kernels.h:4:6: note: 'scale_launch' has no caller in this file, and in the "
                     "files analysed it has none or one that holds no device guard") !=
          std::string::npos);
  }
  SECTION("with the op that calls them under a guard: nothing") {
    CommandResult r = run("kernels.cu ops.cpp unused.cpp");
    INFO(r.out << r.err);
    CHECK(r.err.find("analysed partially") == std::string::npos);
    CHECK(r.exit_code == 0);
  }
  SECTION("with a caller that holds no guard: the launcher it calls") {
    CommandResult r = run("kernels.cu ops.cpp bare.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(scale_finding) != std::string::npos);
    CHECK(r.out.find(shift_finding) == std::string::npos);
  }
  SECTION("the plugin sees one file and reports them") {
    CommandResult r = runPluginOnCuda(dir + "/kernels.cu");
    INFO(r.out << r.err);
    CHECK(warningsIn(r.out, "/kernels.cu").size() == 2);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(
        cli, "", {dir + "/kernels.cu", dir + "/ops.cpp", dir + "/bare.cpp", dir + "/unused.cpp"},
        flags, dir);
  }
}

TEST_CASE("a launcher on pointers is judged by what the callers in other files hand it",
          "[checker][cli][cuda]") {
  // Many extensions' shape: the op in a .cpp file takes data_ptr()s out of
  // its tensors and calls a helper in a .cu file that launches on them.
  std::string dir = scratchDir("cuda-pointer-callers");
  writeFile(dir + "/kernels.h",
            "#pragma once\n"
            "#include <cuda_runtime.h>\n"
            "void scale_ptrs(const float* in, float* out, long n, cudaStream_t stream);\n"
            "void fill_ptrs(float* out, long n);\n");
  writeFile(dir + "/kernels.cu",
            "#include \"kernels.h\"\n"
            "__global__ void scale_kernel(float* out, const float* in, long n) {}\n"
            "__global__ void fill_kernel(float* out, long n) {}\n"
            "void scale_ptrs(const float* in, float* out, long n, cudaStream_t stream) {\n"
            "  scale_kernel<<<1, 256, 0, stream>>>(out, in, n);\n"
            "}\n"
            "void fill_ptrs(float* out, long n) {\n"
            "  fill_kernel<<<1, 256>>>(out, n);\n"
            "}\n");
  writeFile(dir + "/guarded.cpp",
            "#include <torch/torch.h>\n"
            "#include <ATen/cuda/CUDAContext.h>\n"
            "#include <c10/cuda/CUDAGuard.h>\n"
            "#include \"kernels.h\"\n"
            "torch::Tensor scale(const torch::Tensor& in) {\n"
            "  const c10::cuda::OptionalCUDAGuard guard(at::device_of(in));\n"
            "  auto out = torch::empty_like(in);\n"
            "  scale_ptrs(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(),\n"
            "             at::cuda::getCurrentCUDAStream());\n"
            "  fill_ptrs(out.data_ptr<float>(), out.numel());\n"
            "  return out;\n"
            "}\n");
  writeFile(dir + "/bare.cpp",
            "#include <torch/torch.h>\n"
            "#include <ATen/cuda/CUDAContext.h>\n"
            "#include \"kernels.h\"\n"
            "void scale_bare(const torch::Tensor& in, torch::Tensor& out) {\n"
            "  scale_ptrs(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(),\n"
            "             at::cuda::getCurrentCUDAStream());\n"
            "}\n");
  // Code the compiler could not make sense of: after the call, it cannot
  // hold the call's guard; before it, it may (a guard whose header is
  // missing).
  writeFile(dir + "/late.cpp",
            "#include <torch/torch.h>\n"
            "#include \"kernels.h\"\n"
            "void scale_late(const torch::Tensor& in, torch::Tensor& out) {\n"
            "  scale_ptrs(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), nullptr);\n"
            "  synchronize_device(out);\n"
            "}\n");
  writeFile(dir + "/lost.cpp",
            "#include <torch/torch.h>\n"
            "#include \"kernels.h\"\n"
            "void scale_lost(const torch::Tensor& in, torch::Tensor& out) {\n"
            "  const c10::cuda::GuardFromAMissingHeader guard(in.device());\n"
            "  scale_ptrs(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), nullptr);\n"
            "}\n");
  // A check whose macro is gone (LibTorch 1.x's AT_CHECK) holds no guard.
  writeFile(dir + "/checked.cpp",
            "#include <torch/torch.h>\n"
            "#include \"kernels.h\"\n"
            "#define CHECK_INPUT(x) AT_CHECK(x.is_cuda(), #x \" must be a CUDA tensor\")\n"
            "void scale_checked(const torch::Tensor& in, torch::Tensor& out) {\n"
            "  CHECK_INPUT(in);\n"
            "  scale_ptrs(in.data_ptr<float>(), out.data_ptr<float>(), in.numel(), nullptr);\n"
            "}\n");
  // Memory of its own, with no guard: not PyTorch's concern.
  writeFile(dir + "/scratch.cpp",
            "#include \"kernels.h\"\n"
            "void scale_scratch(const float* in, float* out, long n) {\n"
            "  scale_ptrs(in, out, n, nullptr);\n"
            "  fill_ptrs(out, n);\n"
            "}\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };
  const std::string guard_finding =
      "kernels.cu:5:3: warning: kernel launch on tensor data passed to 'scale_ptrs' as pointers "
      "without a device guard";
  const std::string stream_finding =
      "kernels.cu:8:3: warning: kernel launch on tensor data passed to 'fill_ptrs' as pointers "
      "uses the default stream";

  SECTION("the launchers' file alone: whose memory it is is not known") {
    CommandResult r = run("kernels.cu");
    INFO(r.out << r.err);
    CHECK(r.err.find("analysed partially") == std::string::npos);
    CHECK(r.exit_code == 0);
  }
  SECTION("with callers that hand them only memory of their own: nothing") {
    CommandResult r = run("kernels.cu scratch.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("with an op that hands them tensors' memory under a guard: the default stream") {
    CommandResult r = run("kernels.cu guarded.cpp scratch.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(stream_finding) != std::string::npos);
    CHECK(r.out.find("kernels.cu:7:6: note: 'fill_ptrs' has no caller in this file; in the "
                     "files analysed, a call hands a tensor's memory to 'out'") !=
          std::string::npos);
    CHECK(warningsIn(r.out, "/kernels.cu").size() == 1);
  }
  SECTION("with an op that hands them tensors' memory without a guard: the launch") {
    CommandResult r = run("kernels.cu bare.cpp scratch.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(guard_finding) != std::string::npos);
    CHECK(r.out.find("kernels.cu:4:6: note: 'scale_ptrs' has no caller in this file; in the "
                     "files analysed, a call hands a tensor's memory to 'in', 'out' and holds no "
                     "device guard") != std::string::npos);
    CHECK(warningsIn(r.out, "/kernels.cu").size() == 1);
  }
  SECTION("with a caller whose errors come after the call: the launch") {
    CommandResult r = run("kernels.cu late.cpp");
    INFO(r.out << r.err);
    CHECK(r.err.find("late.cpp' was analysed partially") != std::string::npos);
    CHECK(r.out.find(guard_finding) != std::string::npos);
  }
  SECTION("with a caller whose lost code before the call is a check, not a guard: the launch") {
    CommandResult r = run("kernels.cu checked.cpp");
    INFO(r.out << r.err);
    CHECK(r.err.find("checked.cpp' was analysed partially") != std::string::npos);
    CHECK(r.out.find(guard_finding) != std::string::npos);
  }
  SECTION("with a caller whose lost code before the call may be a guard: nothing") {
    CommandResult r = run("kernels.cu lost.cpp");
    INFO(r.out << r.err);
    CHECK(r.err.find("lost.cpp' was analysed partially") != std::string::npos);
    CHECK(warningsIn(r.out, "/kernels.cu").empty());
  }
  SECTION("the plugin sees one file and says nothing of them") {
    CommandResult r = runPluginOnCuda(dir + "/kernels.cu");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(warningsIn(r.out, "/kernels.cu").empty());
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "",
                           {dir + "/kernels.cu", dir + "/guarded.cpp", dir + "/bare.cpp",
                            dir + "/scratch.cpp", dir + "/checked.cpp"},
                           flags, dir);
  }
}

TEST_CASE("a launcher in a shared header is judged by the files that call it",
          "[checker][cli][cuda]") {
  // Launcher templates in a .cuh that several .cu files include, each file
  // calling one of them under a guard: a file that never names a launcher
  // says nothing about it, even alone.
  std::string dir = scratchDir("cuda-shared-header");
  writeFile(dir + "/launch.cuh",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "#include <ATen/cuda/CUDAContext.h>\n"
            "template <typename T> __global__ void fill_kernel(T* out, long n, T v) {}\n"
            "template <typename T> void fill_launch(torch::Tensor& out, T v) {\n"
            "  auto stream = at::cuda::getCurrentCUDAStream();\n"
            "  fill_kernel<T><<<1, 256, 0, stream>>>(out.data_ptr<T>(), out.numel(), v);\n"
            "}\n"
            "template <typename T> void shift_launch(torch::Tensor& out, T v) {\n"
            "  auto stream = at::cuda::getCurrentCUDAStream();\n"
            "  fill_kernel<T><<<1, 256, 0, stream>>>(out.data_ptr<T>(), out.numel(), v);\n"
            "}\n");
  writeFile(dir + "/fill.cu",
            "#include \"launch.cuh\"\n"
            "#include <c10/cuda/CUDAGuard.h>\n"
            "void fill(torch::Tensor& out) {\n"
            "  const c10::cuda::OptionalCUDAGuard guard(out.device());\n"
            "  fill_launch<float>(out, 0.f);\n"
            "}\n");
  writeFile(dir + "/shift.cu",
            "#include \"launch.cuh\"\n"
            "void shift(torch::Tensor& out) { shift_launch<float>(out, 1.f); }\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  const std::string shift_finding =
      "launch.cuh:11:3: warning: kernel launch on tensor data in 'shift_launch' without a device "
      "guard";
  SECTION("the guarded caller's file alone: nothing") {
    CommandResult r = runOnFiles(dir, "fill.cu", flags);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("the file whose caller holds no guard: the launcher it calls, and only that") {
    CommandResult r = runOnFiles(dir, "shift.cu", flags);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(shift_finding) != std::string::npos);
    CHECK(r.out.find("'fill_launch'") == std::string::npos);
  }
  SECTION("both files: the unguarded one") {
    CommandResult r = runOnFiles(dir, "fill.cu shift.cu", flags);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(shift_finding) != std::string::npos);
    CHECK(r.out.find("'fill_launch'") == std::string::npos);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/fill.cu", dir + "/shift.cu"}, flags, dir);
  }
}

TEST_CASE("a CUDA extension parses with tensorplace's CUDA headers and no CUDA flags",
          "[checker][cli][cuda]") {
  // Constant memory, vector types, half2, atomics, shuffles, CUB, cuRAND,
  // cooperative groups and LibTorch's CUDA guards and streams, with the real
  // LibTorch headers (CPU-only on Debian) and no toolkit on the command line.
  std::string source = std::string(TENSORPLACE_CHECKER_TEST_SOURCE) + "/cuda/extension.cu";
  std::string flags = " --" + joinFlags(realTorchFlags());
  CommandResult r = runCommand(cli + " --no-cache " + quote(source) + flags);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("analysed partially") == std::string::npos);
  CHECK(r.err.find("error:") == std::string::npos);
  CHECK(warningsIn(r.out, "/extension.cu") == expectationsIn(source));

  SECTION("--cuda-headers-path names the directory the CLI used") {
    CommandResult path = runCommand(cli + " --cuda-headers-path");
    CHECK(path.exit_code == 0);
    std::string dir = path.out.substr(0, path.out.find('\n'));
    CHECK(readFile(dir + "/cuda_runtime.h") ==
          readFile(TENSORPLACE_CUDA_HEADERS_DIR "/cuda_runtime.h"));
  }
  SECTION("a C++ file of the extension includes them without a toolkit") {
    // The op's file: the runtime API, LibTorch's guards and streams, with
    // the real (CPU-only) LibTorch, whose own c10/cuda headers need a toolkit.
    std::string dir = scratchDir("cuda-host-file");
    writeFile(dir + "/op.cpp",
              "#include <torch/torch.h>\n"
              "#include <c10/cuda/CUDAGuard.h>\n"
              "#include <ATen/cuda/CUDAContext.h>\n"
              "#include <cuda_runtime.h>\n"
              "void scale_launch(torch::Tensor t, float s, cudaStream_t stream);\n"
              "void op(torch::Tensor t) {\n"
              "  const c10::cuda::OptionalCUDAGuard guard(t.device());\n"
              "  cudaDeviceProp props;\n"
              "  cudaGetDeviceProperties(&props, t.get_device());\n"
              "  scale_launch(t, 2.f, at::cuda::getCurrentCUDAStream());\n"
              "}\n");
    CommandResult host = runCommand(cli + " --no-cache " + quote(dir + "/op.cpp") + " --" +
                                    joinFlags(realTorchFlags()));
    INFO(host.out << host.err);
    CHECK(host.exit_code == 0);
    CHECK(host.err.find("partially") == std::string::npos);
  }
  SECTION("the same headers named by hand serve the clang-tidy plugin") {
    CommandResult tidy =
        runCommand(quote(TENSORPLACE_CLANG_TIDY) + " --quiet --load " + quote(TENSORPLACE_PLUGIN) +
                   " '--checks=-*,torch-*' " + quote(source) + " --" + joinFlags(realTorchFlags()) +
                   " --cuda-host-only -nocudainc -nocudalib -I" TENSORPLACE_CUDA_HEADERS_DIR
                   " -include cuda_runtime.h");
    INFO(tidy.out << tidy.err);
    CHECK(tidy.out.find("error:") == std::string::npos);
    CHECK(warningsIn(tidy.out, "/extension.cu") == expectationsIn(source));
  }
}

// A module set up across files: its constructor (net.cpp) calls a method
// another file defines. One file alone cannot tell whether that method
// registers the members, so nothing is said; a run over the whole project
// combines what each file's functions name (docs/checker.md).
TEST_CASE("a member's reads are judged by the file that defines the methods reading it",
          "[checker][cli]") {
  // The constructor is in the header; forward(), which places the table on
  // the input's device, is in the .cpp file beside it. A file that only
  // includes the header does not see the reads.
  std::string dir = scratchDir("reads-elsewhere");
  writeFile(dir + "/basis.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "struct BasisImpl : torch::nn::Module {\n"
            "  BasisImpl() : fc_(register_module(\"fc\", torch::nn::Linear(2, 2))) {}\n"
            "  torch::Tensor forward(torch::Tensor x);\n"
            "  torch::nn::Linear fc_{nullptr};\n"
            "  torch::Tensor coeffs_ = torch::ones({2});\n"
            "};\n");
  writeFile(dir + "/main.cpp", "#include \"basis.h\"\nint main() { BasisImpl m; return 0; }\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };
  SECTION("placed on the input's device where forward() is defined: nothing") {
    writeFile(dir + "/basis.cpp",
              "#include \"basis.h\"\n"
              "torch::Tensor BasisImpl::forward(torch::Tensor x) {\n"
              "  return fc_(x) * coeffs_.to(x.device());\n"
              "}\n");
    CommandResult r = run("main.cpp basis.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("read as it is there: reported, from that file") {
    writeFile(dir + "/basis.cpp",
              "#include \"basis.h\"\n"
              "torch::Tensor BasisImpl::forward(torch::Tensor x) { return fc_(x) * coeffs_; }\n");
    CommandResult r = run("main.cpp basis.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "basis.h").size() == 1);
    CHECK(r.out.find("'coeffs_' is a tensor member of module 'BasisImpl'") != std::string::npos);
    // The header's file alone says nothing: the reads are out of its sight.
    CommandResult alone = run("main.cpp");
    INFO(alone.out << alone.err);
    CHECK(alone.exit_code == 0);
  }
  SECTION("split into shards and merged: what one run reports") {
    writeFile(dir + "/basis.cpp",
              "#include \"basis.h\"\n"
              "torch::Tensor BasisImpl::forward(torch::Tensor x) { return fc_(x) * coeffs_; }\n");
    checkShardsMatchOneRun(cli, "", {dir + "/main.cpp", dir + "/basis.cpp"}, flags, dir);
  }
}

TEST_CASE("setup defined in another file of the run is settled over the whole run",
          "[checker][cli]") {
  std::string dir = scratchDir("project-facts");
  writeFile(dir + "/net.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "struct NetImpl : torch::nn::Module {\n"
            "  NetImpl();\n"
            "  void build();\n"
            "  torch::Tensor forward(torch::Tensor x) { return head_(body_(x)) * scale_; }\n"
            "  torch::nn::Linear body_{nullptr};\n"
            "  torch::nn::Linear head_{nullptr};\n"
            "  torch::Tensor scale_;\n"
            "};\n");
  writeFile(dir + "/net.cpp",
            "#include \"net.h\"\n"
            "NetImpl::NetImpl() {\n"
            "  head_ = torch::nn::Linear(4, 2);\n"
            "  scale_ = torch::ones({2});\n"
            "  build();\n"
            "}\n");
  // Registers body_ only.
  writeFile(
      dir + "/build.cpp",
      "#include \"net.h\"\n"
      "void NetImpl::build() { body_ = register_module(\"body\", torch::nn::Linear(4, 4)); }\n");
  // Registers everything, through a helper of its own file.
  writeFile(dir + "/build_all.cpp",
            "#include \"net.h\"\n"
            "static void keep(NetImpl& net) {\n"
            "  net.register_module(\"head\", net.head_);\n"
            "  net.register_buffer(\"scale\", net.scale_);\n"
            "}\n"
            "void NetImpl::build() {\n"
            "  body_ = register_module(\"body\", torch::nn::Linear(4, 4));\n"
            "  keep(*this);\n"
            "}\n");
  // Hands the work to a function that no file of the run defines.
  writeFile(dir + "/build_elsewhere.cpp",
            "#include \"net.h\"\n"
            "void finish_setup(NetImpl& net);\n"
            "void NetImpl::build() { finish_setup(*this); }\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) {
    return runCommand(cli + " --no-cache " + files + flags);
  };
  const std::string net = quote(dir + "/net.cpp");

  SECTION("the constructor's file alone: nothing") {
    CommandResult r = run(net);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("with the file that defines the method: the members it never names") {
    CommandResult r = run(net + " " + quote(dir + "/build.cpp"));
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "net.cpp").size() == 2);
    CHECK(r.out.find("'head_' holds a submodule of module 'NetImpl' that is never registered") !=
          std::string::npos);
    CHECK(r.out.find("'scale_' is a tensor member of module 'NetImpl'") != std::string::npos);
    CHECK(r.out.find("note: 'build()' is defined in another file of the project, and neither it "
                     "nor what it calls names 'head_'") != std::string::npos);
    CHECK(r.out.find("body_") == std::string::npos);
    // No fix-it: the other file might assign the member as well.
    CHECK(r.out.find("register_module(\"head\", torch::nn::Linear") == std::string::npos);
    // The JSON report carries the same findings.
    CommandResult json = runCommand(cli + " --no-cache --format=json " + net + " " +
                                    quote(dir + "/build.cpp") + flags);
    CHECK(json.out.find("\"rule\": \"torch-unregistered-tensor-member\"") != std::string::npos);
  }
  SECTION("the method registers them (through a helper): nothing") {
    CommandResult r = run(net + " " + quote(dir + "/build_all.cpp"));
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("the method calls what no file defines: nothing") {
    CommandResult r = run(net + " " + quote(dir + "/build_elsewhere.cpp"));
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("a second run takes both files from the cache and settles the same") {
    std::string cached = cli + " --cache-dir=" + quote(dir + "/cache") + " " + net + " " +
                         quote(dir + "/build.cpp") + flags;
    CommandResult first = runCommand(cached);
    CommandResult second = runCommand(cached);
    INFO(second.out << second.err);
    CHECK(second.err.find("from the cache: 2 of 2 files") != std::string::npos);
    CHECK(second.exit_code == 1);
    CHECK(warningsIn(second.out, "net.cpp") == warningsIn(first.out, "net.cpp"));
    CHECK(warningsIn(second.out, "net.cpp").size() == 2);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/net.cpp", dir + "/build.cpp"}, flags, dir);
  }
}

TEST_CASE("a member handed to setup defined in another file is left to that function",
          "[checker][cli]") {
  // The constructor gives cells_ to keep(), defined in another file, which
  // registers its elements under names of its own: no summary can tie them
  // to cells_. scale_ is not given to it, and keep() never names it.
  std::string dir = scratchDir("member-handed-over");
  writeFile(dir + "/anchors.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "struct AnchorsImpl : torch::nn::Module {\n"
            "  AnchorsImpl();\n"
            "  void keep(const std::vector<torch::Tensor>& cells);\n"
            "  torch::Tensor forward(torch::Tensor x) { return x * cells_[0] * scale_; }\n"
            "  std::vector<torch::Tensor> cells_;\n"
            "  torch::Tensor scale_;\n"
            "};\n");
  writeFile(dir + "/anchors.cpp",
            "#include \"anchors.h\"\n"
            "AnchorsImpl::AnchorsImpl() {\n"
            "  cells_.push_back(torch::ones({4}));\n"
            "  scale_ = torch::ones({1});\n"
            "  keep(cells_);\n"
            "}\n");
  writeFile(dir + "/keep.cpp",
            "#include \"anchors.h\"\n"
            "void AnchorsImpl::keep(const std::vector<torch::Tensor>& cells) {\n"
            "  for (size_t i = 0; i < cells.size(); ++i)\n"
            "    register_buffer(std::to_string(i), cells[i]);\n"
            "}\n");
  CommandResult r = runOnFiles(dir, "anchors.cpp keep.cpp", " --" + joinFlags(standInFlags()));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("partially") == std::string::npos);
  CHECK(r.out.find("'scale_' is a tensor member of module 'AnchorsImpl'") != std::string::npos);
  CHECK(r.out.find("'cells_'") == std::string::npos);
  CHECK(warningsIn(r.out, "anchors.cpp").size() == 1);
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/anchors.cpp", dir + "/keep.cpp"},
                           " --" + joinFlags(standInFlags()), dir);
  }
}

TEST_CASE("a held module whose setup is in another file is judged by that file", "[checker][cli]") {
  // The header shows no state of BlockImpl's own; its constructor, in
  // another file, decides whether leaving it unregistered loses anything.
  std::string dir = scratchDir("state-elsewhere");
  writeFile(dir + "/block.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "struct BlockImpl : torch::nn::Module {\n"
            "  explicit BlockImpl(int64_t width);\n"
            "  torch::Tensor forward(torch::Tensor x);\n"
            "  int64_t width_;\n"
            "};\n"
            "TORCH_MODULE(Block);\n"
            "struct StackImpl : torch::nn::SequentialImpl {\n"
            "  explicit StackImpl(int64_t width);\n"
            "};\n"
            "TORCH_MODULE(Stack);\n");
  writeFile(dir + "/net.cpp",
            "#include \"block.h\"\n"
            "struct NetImpl : torch::nn::Module {\n"
            "  NetImpl() : fc_(register_module(\"fc\", torch::nn::Linear(4, 4))) {\n"
            "    block_ = Block(4);\n"
            "    stack_ = Stack(4);\n"
            "  }\n"
            "  torch::Tensor forward(torch::Tensor x) {\n"
            "    return stack_->forward(inner_.forward(block_(fc_(x))));\n"
            "  }\n"
            "  torch::nn::Linear fc_{nullptr};\n"
            "  Block block_{nullptr};\n"
            "  Stack stack_{nullptr};\n"
            "  BlockImpl inner_{4};\n"
            "};\n"
            "struct ProbeImpl : torch::nn::Module {\n"
            "  torch::Tensor forward(torch::Tensor x) { return Block(4)(x); }\n"
            "};\n"
            "int main() { NetImpl net; return 0; }\n");
  // Registers a child without a member for it, and fills the Sequential.
  writeFile(
      dir + "/block_state.cpp",
      "#include \"block.h\"\n"
      "static torch::nn::Linear layer(int64_t n) { return torch::nn::Linear(n, n); }\n"
      "BlockImpl::BlockImpl(int64_t width) : width_(width) {\n"
      "  register_module(\"fc\", layer(width));\n"
      "}\n"
      "torch::Tensor BlockImpl::forward(torch::Tensor x) { return x * width_; }\n"
      "StackImpl::StackImpl(int64_t width) { push_back(torch::nn::Linear(width, width)); }\n");
  // Only an activation: nothing to move, train or save.
  writeFile(dir + "/block_stateless.cpp",
            "#include \"block.h\"\n"
            "BlockImpl::BlockImpl(int64_t width) : width_(width) {}\n"
            "torch::Tensor BlockImpl::forward(torch::Tensor x) { return torch::relu(x); }\n"
            "StackImpl::StackImpl(int64_t) { push_back(torch::nn::ReLU()); }\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };

  SECTION("the holder's file alone: nothing") {
    CommandResult r = run("net.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("with the file whose setup registers: the members holding it") {
    CommandResult r = run("net.cpp block_state.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("partially") == std::string::npos);
    CHECK(r.out.find("'block_' holds a submodule of module 'NetImpl' that is never registered") !=
          std::string::npos);
    CHECK(r.out.find("'inner_' holds a 'BlockImpl' module by value") != std::string::npos);
    CHECK(r.out.find("note: 'BlockImpl' has parameters, buffers or submodules: its setup, "
                     "defined in another file of the project, registers them") !=
          std::string::npos);
    // A new one made on every forward() holds the parameters its
    // constructor registers.
    CHECK(r.out.find("net.cpp:16:51: warning: module 'BlockImpl' is constructed inside "
                     "'ProbeImpl::forward'") != std::string::npos);
    CHECK(warningsIn(r.out, "net.cpp").size() == 4);
    // No finding names fc_ (LLVM 22 shows it in the source lines it quotes).
    CHECK(r.out.find("'fc_'") == std::string::npos);
    // Sequential::push_back() registers what it is given.
    CHECK(r.out.find("'stack_' holds a submodule") != std::string::npos);
  }
  SECTION("a second run takes both files from the cache and settles the same") {
    std::string cached = cli + " --cache-dir=" + quote(dir + "/cache") + " " +
                         quote(dir + "/net.cpp") + " " + quote(dir + "/block_state.cpp") + flags;
    CommandResult first = runCommand(cached);
    CommandResult second = runCommand(cached);
    INFO(second.out << second.err);
    CHECK(second.err.find("from the cache: 2 of 2 files") != std::string::npos);
    CHECK(second.out == first.out);
    CHECK(warningsIn(second.out, "net.cpp").size() == 4);
  }
  SECTION("with the file whose setup registers nothing: nothing") {
    CommandResult r = run("net.cpp block_stateless.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/net.cpp", dir + "/block_state.cpp"}, flags, dir);
  }
}

TEST_CASE("a helper that a forward() in another file calls is judged on its forward path",
          "[checker][cli]") {
  // ops.cpp holds free helpers and no module; net.cpp's forward() calls one
  // of them, main() another.
  std::string dir = scratchDir("reach-elsewhere");
  writeFile(dir + "/ops.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "torch::Tensor pool_rois(torch::Tensor feats, torch::Tensor boxes);\n"
            "torch::Tensor make_grid(int64_t n);\n"
            "torch::Tensor to_gpu(torch::Tensor x);\n");
  writeFile(dir + "/ops.cpp",
            "#include \"ops.h\"\n"
            "static torch::Tensor scaled(torch::Tensor boxes) {\n"
            "  auto scale = torch::full({1, 4}, 224.0);\n"
            "  return boxes * scale;\n"
            "}\n"
            "torch::Tensor pool_rois(torch::Tensor feats, torch::Tensor boxes) {\n"
            "  auto idx = torch::zeros({boxes.size(0)}, torch::kLong).cuda();\n"
            "  return feats.index_select(0, idx) + scaled(boxes);\n"
            "}\n"
            "torch::Tensor make_grid(int64_t n) { return torch::arange(n); }\n"
            "torch::Tensor to_gpu(torch::Tensor x) { return x.cuda() + torch::ones({4}); }\n");
  writeFile(dir + "/net.cpp",
            "#include \"ops.h\"\n"
            "struct NetImpl : torch::nn::Module {\n"
            "  NetImpl() { fc = register_module(\"fc\", torch::nn::Linear(4, 4)); }\n"
            "  torch::Tensor forward(torch::Tensor x) {\n"
            "    return fc(pool_rois(x, x)) + make_grid(4).to(x.device());\n"
            "  }\n"
            "  torch::nn::Linear fc{nullptr};\n"
            "};\n"
            "int main() {\n"
            "  NetImpl net;\n"
            "  net.forward(to_gpu(torch::ones({4, 4})));\n"
            "}\n");
  std::string flags = " --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };

  SECTION("the helpers' file alone: nothing, no forward() is seen to call them") {
    CommandResult r = run("ops.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("with the module's file: the helper forward() calls, and what it calls") {
    CommandResult r = run("net.cpp ops.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("partially") == std::string::npos);
    CHECK(r.out.find("ops.cpp:7:58: warning: 'Tensor::cuda' hard-codes the device in "
                     "'pool_rois', which 'NetImpl::forward' (in another file) calls") !=
          std::string::npos);
    CHECK(r.out.find("ops.cpp:3:16: warning: tensor factory 'full' has no device in its "
                     "options in 'scaled', which 'NetImpl::forward' (in another file) calls") !=
          std::string::npos);
    // make_grid's tensor goes back to a caller out of sight (which moves
    // it); to_gpu is main()'s, not the module's.
    CHECK(warningsIn(r.out, "ops.cpp").size() == 2);
    CHECK(warningsIn(r.out, "net.cpp").empty());
  }
  SECTION("a second run takes both files from the cache and settles the same") {
    std::string cached = cli + " --cache-dir=" + quote(dir + "/cache") + " " +
                         quote(dir + "/net.cpp") + " " + quote(dir + "/ops.cpp") + flags;
    CommandResult first = runCommand(cached);
    CommandResult second = runCommand(cached);
    INFO(second.out << second.err);
    CHECK(second.err.find("from the cache: 2 of 2 files") != std::string::npos);
    CHECK(second.out == first.out);
    CHECK(warningsIn(second.out, "ops.cpp").size() == 2);
  }
  SECTION("the JSON report names the forward() too") {
    CommandResult r = runCommand(cli + " --no-cache --format=json " + quote(dir + "/net.cpp") +
                                 " " + quote(dir + "/ops.cpp") + flags);
    INFO(r.out << r.err);
    CHECK(r.out.find("which 'NetImpl::forward' (in another file) calls") != std::string::npos);
    CHECK(r.out.find("a module's forward() in another file") == std::string::npos);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/net.cpp", dir + "/ops.cpp"}, flags, dir);
  }
}

TEST_CASE("a Cloneable filled by a base's helper defined in another file is judged over the run",
          "[checker][cli]") {
  // StageImpl's constructor fills it through append(), a helper of its
  // Cloneable base whose body is in another file; reset() registers nothing.
  std::string dir = scratchDir("register-elsewhere");
  writeFile(dir + "/chain.h",
            "#pragma once\n"
            "#include <torch/torch.h>\n"
            "struct ChainImpl : torch::nn::Cloneable<ChainImpl> {\n"
            "  void reset() override {}\n"
            "  void append(const std::string& name, std::shared_ptr<torch::nn::Module> m);\n"
            "  std::vector<std::shared_ptr<torch::nn::Module>> items;\n"
            "};\n"
            "struct StageImpl : ChainImpl {\n"
            "  explicit StageImpl(int64_t n);\n"
            "};\n");
  writeFile(
      dir + "/stage.cpp",
      "#include \"chain.h\"\n"
      "StageImpl::StageImpl(int64_t n) {\n"
      "  for (int64_t i = 0; i < n; ++i)\n"
      "    append(\"fc\" + std::to_string(i), std::make_shared<torch::nn::LinearImpl>(8, 8));\n"
      "}\n");
  writeFile(
      dir + "/chain.cpp",
      "#include \"chain.h\"\n"
      "void ChainImpl::append(const std::string& name, std::shared_ptr<torch::nn::Module> m) {\n"
      "  items.push_back(register_module(name, std::move(m)));\n"
      "}\n");
  // Keeps the modules without registering them.
  writeFile(dir + "/chain_plain.cpp",
            "#include \"chain.h\"\n"
            "void ChainImpl::append(const std::string&, std::shared_ptr<torch::nn::Module> m) {\n"
            "  items.push_back(std::move(m));\n"
            "}\n");
  std::string flags = " --header-filter=.* --" + joinFlags(standInFlags());
  auto run = [&](const std::string& files) { return runOnFiles(dir, files, flags); };

  SECTION("with the file where the helper registers: the call in the constructor") {
    CommandResult r = run("stage.cpp chain.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "stage.cpp").size() == 1);
    CHECK(r.out.find("stage.cpp:4:5: warning: 'append' registers into Cloneable module "
                     "'StageImpl' when its constructor calls it, instead of in reset()") !=
          std::string::npos);
    CHECK(r.out.find("note: 'append' is defined in another file of the project, where it "
                     "registers parameters, buffers or submodules") != std::string::npos);
  }
  SECTION("the constructor's file alone: nothing") {
    CommandResult r = run("stage.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("with a helper that registers nothing: nothing") {
    CommandResult r = run("stage.cpp chain_plain.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  // reset() declared in the header and defined beside the helper, calling
  // it: clone() registers the same names again. The file that builds the
  // module cannot see that reset() body, and says nothing.
  SECTION("reset() defined in the helper's file: nothing") {
    writeFile(dir + "/head.h",
              "#pragma once\n"
              "#include <torch/torch.h>\n"
              "struct HeadImpl : torch::nn::Cloneable<HeadImpl> {\n"
              "  explicit HeadImpl(int64_t n) : n_(n) { create(); }\n"
              "  void reset() override;\n"
              "  void create();\n"
              "  torch::Tensor forward(torch::Tensor x) { return fc(x); }\n"
              "  int64_t n_;\n"
              "  torch::nn::Linear fc{nullptr};\n"
              "};\n");
    writeFile(
        dir + "/head.cpp",
        "#include \"head.h\"\n"
        "void HeadImpl::create() { fc = register_module(\"fc\", torch::nn::Linear(n_, n_)); }\n"
        "void HeadImpl::reset() { create(); }\n");
    writeFile(dir + "/use_head.cpp",
              "#include \"head.h\"\n"
              "std::shared_ptr<HeadImpl> make_head() { return std::make_shared<HeadImpl>(4); }\n");
    CommandResult r = run("use_head.cpp head.cpp");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
  SECTION("split into shards and merged: what one run reports") {
    checkShardsMatchOneRun(cli, "", {dir + "/stage.cpp", dir + "/chain.cpp"}, flags, dir);
  }
}

// A header filter written as a plain path, with a '+' that the regex reads as
// a repetition, matches nothing and hides every finding in a header: said.
TEST_CASE("a header filter written as a path the regex does not match is warned about",
          "[checker][cli]") {
  std::string dir = scratchDir("owner+name");
  writeFile(dir + "/net.h",
            "#pragma once\n#include <torch/torch.h>\n"
            "struct NetImpl : torch::nn::Module {\n"
            "  NetImpl() { scale_ = torch::ones({2}); }\n"
            "  torch::Tensor forward(torch::Tensor x) { return x * scale_; }\n"
            "  torch::Tensor scale_;\n"
            "};\n");
  writeFile(dir + "/main.cpp", "#include \"net.h\"\nint main() { NetImpl net; }\n");
  std::string flags = " --" + joinFlags(standInFlags());
  std::string file = quote(dir + "/main.cpp");

  CommandResult raw =
      runCommand(cli + " --no-cache '--header-filter=^" + dir + "/' " + file + flags);
  INFO(raw.out << raw.err);
  CHECK(raw.exit_code == 0);
  CHECK(raw.err.find("warning: --header-filter='^" + dir +
                     "/' is a regex that matches none of the files read, though they lie under "
                     "that path") != std::string::npos);
  // A filter for other paths is no mistake: nothing is said.
  CommandResult other =
      runCommand(cli + " --no-cache '--header-filter=^/elsewhere/' " + file + flags);
  CHECK(other.err.find("--header-filter") == std::string::npos);

  std::string escaped = dir;
  escaped.replace(escaped.find('+'), 1, "\\+");
  CommandResult right =
      runCommand(cli + " --no-cache '--header-filter=^" + escaped + "/' " + file + flags);
  INFO(right.out << right.err);
  CHECK(right.exit_code == 1);
  CHECK(right.out.find("net.h:6:17: warning: 'scale_'") != std::string::npos);
  CHECK(right.err.find("--header-filter") == std::string::npos);
}

TEST_CASE("a project's own torch/include directory is user code, a pip torch's is not",
          "[checker][cli]") {
  // A project may keep the headers of its Torch front end in <dir>/torch/include; a pip torch's
  // (or a LibTorch archive's) torch/include holds ATen beside torch/extension.h and the rest.
  std::string dir = scratchDir("torch-include-dirs");
  const std::string header =
      "#pragma once\n"
      "#include <torch/torch.h>\n"
      "struct ProjImpl : torch::nn::Module {\n"
      "  ProjImpl() { fc_ = register_module(\"fc\", torch::nn::Linear(2, 2)); }\n"
      "  torch::Tensor forward(torch::Tensor x) { return fc_(x).cuda(); }\n"
      "  torch::nn::Linear fc_{nullptr};\n"
      "};\n";
  for (const char* sub :
       {"/project/torch/include/proj", "/pip/torch/include/ATen", "/pip/torch/include/torch"})
    REQUIRE(!llvm::sys::fs::create_directories(dir + sub));
  writeFile(dir + "/project/torch/include/proj/net.h", header);
  writeFile(dir + "/pip/torch/include/ATen/README", "");
  writeFile(dir + "/pip/torch/include/torch/extension_net.h", header);
  writeFile(dir + "/project.cpp", "#include \"proj/net.h\"\n");
  writeFile(dir + "/pip.cpp", "#include <torch/extension_net.h>\n");

  CommandResult own = runOnFiles(
      dir, "project.cpp",
      " --header-filter=.* -- -I" + dir + "/project/torch/include" + joinFlags(standInFlags()));
  INFO(own.out << own.err);
  CHECK(own.exit_code == 1);
  CHECK(warningsIn(own.out, "proj/net.h").size() == 1);

  CommandResult pip = runOnFiles(
      dir, "pip.cpp",
      " --header-filter=.* -- -I" + dir + "/pip/torch/include" + joinFlags(standInFlags()));
  INFO(pip.out << pip.err);
  CHECK(pip.exit_code == 0);
  CHECK(warningsIn(pip.out, "").empty());
}

TEST_CASE("a torch.utils.cpp_extension project is checked without a compilation database",
          "[checker][cli][extension]") {
  // The interpreter whose torch builds the extension. Debian's python3-torch
  // is the system python3's; a python3 earlier on PATH may have no torch.
  std::string python;
  for (const char* candidate : {"/usr/bin/python3", "python3"})
    if (runCommand(std::string(candidate) + " -c 'import torch.utils.cpp_extension'").exit_code ==
        0) {
      python = candidate;
      break;
    }
  if (python.empty()) {
    WARN("no Python interpreter with torch here: the --torch-python route is not tested");
    return;
  }
  std::string dir = std::string(TENSORPLACE_CHECKER_TEST_SOURCE) + "/extension";
  std::string in_dir = "cd " + quote(dir) + " && ";

  SECTION("its op and its kernel: the planted bugs, and every file parsed whole") {
    CommandResult r = runCommand(in_dir + cli + " --no-cache --torch-python=" + python +
                                 " csrc/scale.cpp csrc/scale_kernel.cu");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("partially") == std::string::npos);
    CHECK(r.err.find("could not be analysed") == std::string::npos);
    for (const char* file : {"csrc/scale.cpp", "csrc/scale_kernel.cu"}) {
      Findings expected = expectationsIn(dir + "/" + file);
      REQUIRE(!expected.empty());
      Findings actual = warningsIn(r.out, file);
      INFO(file << describeMismatch(expected, actual));
      CHECK(actual == expected);
    }
  }
  SECTION("flags after '--' are added to the extension's") {
    CommandResult r = runCommand(in_dir + cli + " --no-cache --torch-python=" + python +
                                 " csrc/scale.cpp -- -include planted_extra.h");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("'planted_extra.h' file not found") != std::string::npos);
  }
  SECTION("an interpreter without torch: 2, saying why") {
    CommandResult r = runCommand(in_dir + cli + " --torch-python=/bin/false csrc/scale.cpp");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--torch-python=/bin/false: cannot ask its torch for an extension's flags") !=
          std::string::npos);
  }
}
