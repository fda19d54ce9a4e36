// Bad input, end to end through the CLI: each case runs the bad file together
// with a good file whose findings are known, and checks the message (naming
// the file and the reason), the exit status, that nothing crashed, and that
// the good file was still analysed in full. Against the stand-in header, so
// every case takes a fraction of a second.
//
// Cases tagged [partial] are files the compiler could only partly parse
// (syntax errors, a missing header, a binary file, Clang's template depth and
// bracket limits): the CLI names them as analysed partially, with their first
// compiler error, and they do not change the exit status (1 here, for the
// good file's findings; --fail-on-partial makes it 2).
#include "TestSupport.h"

#include "catch.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>
#include <sstream>

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);
const std::string good = std::string(TENSORPLACE_CHECKER_INPUTS) + "/torch-discarded-to-result.cpp";
const std::string flags = " --" + joinFlags(standInFlags());

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The CLI over the bad file(s) and the good file.
CommandResult runWithGood(const std::string& bad_args) {
  CommandResult r = runCommand(cli + " " + bad_args + " " + quote(good) + flags);
  INFO("stdout:\n" << r.out << "stderr:\n" << r.err);
  // A crash shows as the shell's 128 + signal.
  CHECK(r.exit_code >= 0);
  CHECK(r.exit_code <= 2);
  return r;
}

/// Every finding the good file's annotations expect, and nothing else.
void checkGoodAnalysed(const CommandResult& r) {
  INFO("stdout:\n" << r.out << "stderr:\n" << r.err);
  Findings actual = warningsIn(r.out, "/torch-discarded-to-result.cpp");
  Findings expected = expectationsIn(good);
  INFO(describeMismatch(expected, actual));
  CHECK(actual == expected);
}

bool runningAsRoot() {
  return geteuid() == 0;
}
}  // namespace

TEST_CASE("bad input: a file with a syntax error is named with the compiler's error",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-syntax");
  writeFile(dir + "/broken.cpp",
            "#include <torch/torch.h>\nvoid f(torch::Tensor x {\n  x.to(;\n}}\n");
  CommandResult r = runWithGood(quote(dir + "/broken.cpp"));
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, dir + "/broken.cpp"));
  CHECK(contains(r.err, "broken.cpp:2:"));
  CHECK(contains(r.err, "error: expected"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: a missing header is named with the file that includes it",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-header");
  writeFile(dir + "/includes.cpp",
            "#include <torch/torch.h>\n#include \"no_such_header.h\"\n"
            "void f(torch::Tensor x) { x.cpu(); }\n");
  CommandResult r = runWithGood(quote(dir + "/includes.cpp"));
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "includes.cpp' was analysed partially"));
  CHECK(contains(r.err, "includes.cpp:2:10: error: 'no_such_header.h' file not found"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: code after a missing header and many errors is still analysed",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-header-first");
  std::string source = "#include \"no_such_header.h\"\n#include <torch/torch.h>\n";
  for (int i = 0; i < 30; ++i)
    source += "third_party::Thing thing" + std::to_string(i) + ";\n";
  source += "void f(torch::Tensor x) { x.to(torch::kFloat64); }\n";
  writeFile(dir + "/first.cpp", source);
  CommandResult r = runWithGood(quote(dir + "/first.cpp"));
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "first.cpp' was analysed partially"));
  CHECK(contains(r.out, "first.cpp:33:"));
  CHECK(contains(r.out, "[torch-discarded-to-result]"));
  checkGoodAnalysed(r);
}

// Nested calls that do not resolve (here torch::max/min, which the stand-in
// lacks, so std::max/min are tried) send Clang's delayed typo correction
// through every combination of candidates: with no error limit, clang++
// takes minutes on these four lines. The CLI turns spelling correction off:
// a guessed name is nothing a finding should rest on.
TEST_CASE("bad input: code that Clang's typo correction explodes on is analysed in time",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-typo-correction");
  writeFile(dir + "/overlap.cpp",
            "#include <torch/torch.h>\n"
            "torch::Tensor overlap(torch::Tensor a, torch::Tensor b) {\n"
            "  auto w = torch::max(torch::min(a.select(1, 2), b.select(1, 2)) -\n"
            "                          torch::max(a.select(1, 0), b.select(1, 0)),\n"
            "                      torch::zeros(b.select(1, 0).sizes()));\n"
            "  return w;\n"
            "}\n"
            "void f(torch::Tensor x) { x.to(torch::kFloat64); }\n");
  // timeout's 124 fails the exit-status checks instead of hanging the suite.
  CommandResult r = runCommand("timeout 120 " + cli + " " + quote(dir + "/overlap.cpp") + " " +
                               quote(good) + flags);
  INFO("stdout:\n" << r.out << "stderr:\n" << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "overlap.cpp' was analysed partially"));
  CHECK(contains(r.out, "overlap.cpp:8:"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: an empty file is analysed and has no findings", "[checker][cli][bad-input]") {
  std::string dir = scratchDir("bad-empty");
  writeFile(dir + "/empty.cpp", "");
  CommandResult r = runWithGood(quote(dir + "/empty.cpp"));
  CHECK(r.exit_code == 1);  // the good file's findings
  CHECK_FALSE(contains(r.err, "empty.cpp"));
  CHECK_FALSE(contains(r.out, "empty.cpp"));
  CHECK(contains(r.err, "in 2 files"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: a binary file is named with the compiler's errors",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-binary");
  std::string bytes;
  unsigned state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1103515245u + 12345u;
    bytes += static_cast<char>((state >> 16) & 0xff);
  }
  bytes[100] = '\0';
  writeFile(dir + "/blob.cpp", bytes);
  CommandResult r = runWithGood(quote(dir + "/blob.cpp"));
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, dir + "/blob.cpp' was analysed partially"));
  CHECK(contains(r.err, "error:"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: invalid UTF-8 in comments and strings does not hide findings",
          "[checker][cli][bad-input]") {
  std::string dir = scratchDir("bad-utf8");
  writeFile(dir + "/latin1.cpp",
            "// caf\xe9 na\xefve \xff\xfe\xc3\x28\n"
            "#include <torch/torch.h>\n"
            "const char* label = \"\xe9t\xe9 \xc3\x28 \xed\xa0\x80\";\n"
            "void f(torch::Tensor x, torch::Device d) {\n"
            "  x.to(d); /* \xf8\x88\x80\x80\x80 */\n"
            "}\n");
  CommandResult r = runWithGood(quote(dir + "/latin1.cpp"));
  CHECK(r.exit_code == 1);
  CHECK_FALSE(contains(r.err, "could not be analysed"));
  CHECK(warningsIn(r.out, "/latin1.cpp") == Findings{{5, "torch-discarded-to-result"}});
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: a 5 MB generated file is analysed whole", "[checker][cli][bad-input]") {
  std::string dir = scratchDir("bad-large");
  std::ostringstream source;
  source << "#include <torch/torch.h>\n";
  unsigned lines = 1;
  for (int i = 0; source.tellp() < 5 * 1024 * 1024; ++i, ++lines)
    source << "inline torch::Tensor moved_" << i
           << "(torch::Tensor x, torch::Device d) { x = x.to(d); return x + 1; }\n";
  source << "void last(torch::Tensor x, torch::Device d) { x.to(d); }\n";
  ++lines;
  writeFile(dir + "/large.cpp", source.str());
  CommandResult r = runWithGood(quote(dir + "/large.cpp"));
  CHECK(r.exit_code == 1);
  CHECK_FALSE(contains(r.err, "could not be analysed"));
  CHECK(warningsIn(r.out, "/large.cpp") == Findings{{lines, "torch-discarded-to-result"}});
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: deeply nested templates and macros and long expressions do not crash",
          "[checker][cli][bad-input][partial]") {
  std::string dir = scratchDir("bad-nesting");
  std::string header = "#include <torch/torch.h>\n#include <vector>\n";

  SECTION("a member type nested 16 templates deep") {
    // Clang's own time doubles with each level past about 20 (26: 20 s).
    std::string type = "torch::Tensor";
    for (int i = 0; i < 16; ++i)
      type = "std::vector<" + type + ">";
    writeFile(dir + "/deep.cpp", header +
                                     "struct NetImpl : torch::nn::Module {\n"
                                     "  NetImpl() { plain = torch::zeros({2}); }\n  " +
                                     type + " nested;\n  torch::Tensor plain;\n};\n");
    CommandResult r = runWithGood(quote(dir + "/deep.cpp"));
    CHECK(r.exit_code == 1);
    CHECK_FALSE(contains(r.err, "could not be analysed"));
    CHECK(warningsIn(r.out, "/deep.cpp").count({6, "torch-unregistered-tensor-member"}) == 1);
    checkGoodAnalysed(r);
  }
  SECTION("a template instantiated past the compiler's depth limit") {
    writeFile(dir + "/recursive.cpp",
              header +
                  "template <int N> struct Deep { using T = typename Deep<N - 1>::T; };\n"
                  "template <> struct Deep<0> { using T = torch::Tensor; };\n"
                  "Deep<5000>::T make();\n");
    CommandResult r = runWithGood(quote(dir + "/recursive.cpp"));
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "recursive.cpp' was analysed partially"));
    CHECK(contains(r.err, "recursive template instantiation exceeded maximum depth"));
    checkGoodAnalysed(r);
  }
  SECTION("a chain of 5000 macros around a finding") {
    std::string source = header + "#define M0(x) x\n";
    for (int i = 1; i < 5000; ++i)
      source += "#define M" + std::to_string(i) + "(x) M" + std::to_string(i - 1) + "(x)\n";
    source += "void f(torch::Tensor t, torch::Device d) { M4999(t.to(d)); }\n";
    writeFile(dir + "/macros.cpp", source);
    CommandResult r = runWithGood(quote(dir + "/macros.cpp"));
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "/macros.cpp") == Findings{{5003, "torch-discarded-to-result"}});
    checkGoodAnalysed(r);
  }
  SECTION("an expression of 20000 operands on a module's forward path") {
    std::string sum = "x";
    for (int i = 0; i < 20000; ++i)
      sum += " + x";
    writeFile(dir + "/long_expr.cpp",
              header +
                  "struct NetImpl : torch::nn::Module {\n"
                  "  torch::Tensor forward(torch::Tensor x) {\n    return " +
                  sum + " + torch::zeros({4});\n  }\n};\n");
    CommandResult r = runWithGood(quote(dir + "/long_expr.cpp"));
    CHECK(r.exit_code == 1);
    CHECK(warningsIn(r.out, "/long_expr.cpp") == Findings{{5, "torch-factory-without-device"}});
    checkGoodAnalysed(r);
  }
  SECTION("parentheses nested past the compiler's limit") {
    // Clang 21 raised its default limit from 256: name it, so that every
    // version stops at the same depth.
    std::string open(2000, '('), close(2000, ')');
    writeFile(dir + "/parens.cpp",
              header + "int f(int x) { return " + open + "x" + close + "; }\n");
    CommandResult r = runWithGood("--extra-arg=-fbracket-depth=256 " + quote(dir + "/parens.cpp"));
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "parens.cpp' was analysed partially"));
    CHECK(contains(r.err, "bracket nesting level exceeded maximum"));
    checkGoodAnalysed(r);
  }
  SECTION("parentheses nested past any default limit and any stack") {
    // Past the limit (Clang before 21) the file is analysed partially; with
    // no limit the parser may run out of stack, which costs this file only.
    std::string open(100000, '('), close(100000, ')');
    writeFile(dir + "/deep_parens.cpp",
              header + "int f(int x) { return " + open + "x" + close + "; }\n");
    CommandResult r = runWithGood(quote(dir + "/deep_parens.cpp"));
    CHECK(r.exit_code >= 1);
    CHECK((contains(r.err, "deep_parens.cpp' was analysed partially") ||
           contains(r.err, "deep_parens.cpp' could not be analysed")));
    checkGoodAnalysed(r);
  }
}

TEST_CASE("bad input: a file that does not exist is named", "[checker][cli][bad-input]") {
  std::string dir = scratchDir("bad-missing");
  CommandResult r = runWithGood(quote(dir + "/missing.cpp"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, dir + "/missing.cpp' could not be analysed: no such file"));
  checkGoodAnalysed(r);
}

TEST_CASE("bad input: a file that cannot be read is named", "[checker][cli][bad-input]") {
  std::string dir = scratchDir("bad-unreadable");
  // The tests run as root, which reads any file whatever its mode: a FIFO, a
  // dangling symbolic link and a directory stand for files that cannot be
  // read, and a mode 000 file is tried when not root.
  SECTION("a FIFO, which would block a reader forever") {
    REQUIRE(mkfifo((dir + "/fifo.cpp").c_str(), 0644) == 0);
    CommandResult r = runWithGood(quote(dir + "/fifo.cpp"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, dir + "/fifo.cpp' could not be analysed: not a regular file"));
    checkGoodAnalysed(r);
  }
  SECTION("a dangling symbolic link") {
    REQUIRE(symlink((dir + "/gone.cpp").c_str(), (dir + "/link.cpp").c_str()) == 0);
    CommandResult r = runWithGood(quote(dir + "/link.cpp"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, dir + "/link.cpp' could not be analysed: no such file"));
    checkGoodAnalysed(r);
  }
  SECTION("a directory named like a source file, inside a directory argument") {
    // A directory argument expands to the sources below it; one of them is
    // itself a directory.
    REQUIRE(std::system(("mkdir -p " + quote(dir + "/tree/odd.cpp")).c_str()) == 0);
    writeFile(dir + "/tree/fine.cpp", "#include <torch/torch.h>\n");
    CommandResult r = runWithGood(quote(dir + "/tree"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, dir + "/tree/odd.cpp' could not be analysed: not a regular file"));
    CHECK_FALSE(contains(r.err, "fine.cpp"));
    checkGoodAnalysed(r);
  }
  SECTION("a file without read permission") {
    if (runningAsRoot()) {
      WARN("skipped: root reads a file of mode 000");
      return;
    }
    writeFile(dir + "/secret.cpp", "#include <torch/torch.h>\n");
    REQUIRE(chmod((dir + "/secret.cpp").c_str(), 0) == 0);
    CommandResult r = runWithGood(quote(dir + "/secret.cpp"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, dir + "/secret.cpp' could not be analysed: permission denied"));
    checkGoodAnalysed(r);
  }
}

TEST_CASE("bad input: a malformed or empty compile_commands.json is named with the reason",
          "[checker][cli][bad-input]") {
  // Outside the build tree: -p looks in parent directories too, as
  // clang-tidy does, and must not fall back to the build's own database.
  char temp[] = "/tmp/tensorplace-bad-compdb-XXXXXX";
  REQUIRE(mkdtemp(temp) != nullptr);
  const std::string dir = temp;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::system(("rm -rf " + quote(dir)).c_str());
    }
  } cleanup{dir};
  std::string args;
  for (const auto& f : standInFlags())
    args += ", \"" + f + "\"";
  auto entry = [&](const std::string& file) {
    return "{\"directory\": \"" + dir + "\", \"file\": \"" + file + "\", \"arguments\": [\"c++\"" +
           args + ", \"-c\", \"" + file + "\"]}";
  };
  writeFile(dir + "/good.cpp", readFile(good));
  REQUIRE(std::system(("mkdir -p " + quote(dir + "/build")).c_str()) == 0);
  std::string db = dir + "/build/compile_commands.json";

  SECTION("not JSON") {
    writeFile(db, "[{\"directory\": \"" + dir + "\", \"file\": ");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "cannot load a compilation database from '" + dir + "/build'"));
    CHECK(contains(r.err, "compile_commands.json"));
    CHECK(r.out.empty());
  }
  SECTION("not JSON, below a directory with a good database") {
    // The broken database is the user's mistake: reported, not skipped for
    // the parent directory's.
    writeFile(dir + "/compile_commands.json", "[" + entry("good.cpp") + "]");
    writeFile(db, "{ not json");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "cannot load a compilation database from '" + dir + "/build'"));
    CHECK(r.out.empty());
  }
  SECTION("an empty file") {
    writeFile(db, "");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "cannot load a compilation database from '" + dir + "/build'"));
    CHECK(r.out.empty());
  }
  SECTION("an empty list") {
    writeFile(db, "[]");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "no source files to analyse"));
  }
  SECTION("an entry without a file, beside a good one") {
    writeFile(db, "[{\"directory\": \"" + dir + "\", \"arguments\": [\"c++\"]}, " +
                      entry("good.cpp") + "]");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "cannot load a compilation database from '" + dir + "/build'"));
    CHECK(contains(r.err, "file"));
  }
  SECTION("an entry for a file that is gone, beside a good one") {
    writeFile(db, "[" + entry("gone.cpp") + ", " + entry("good.cpp") + "]");
    CommandResult r = runCommand(cli + " -p " + quote(dir + "/build"));
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, dir + "/gone.cpp' could not be analysed: no such file"));
    CHECK(warningsIn(r.out, "/good.cpp") == expectationsIn(dir + "/good.cpp"));
  }
}

TEST_CASE("bad input: a header whose fixes differ between two files is left unchanged",
          "[checker][cli][bad-input][fix]") {
  std::string dir = scratchDir("bad-fix-conflict");
  // The same factory call gets a different device argument in each file: the
  // forward() parameter's name depends on a macro the file defines.
  std::string header =
      "#pragma once\n#include <torch/torch.h>\n"
      "struct NoiseImpl : torch::nn::Module {\n"
      "#ifdef NOISE_FROM_INPUT\n"
      "  torch::Tensor forward(torch::Tensor input) {\n"
      "#else\n"
      "  torch::Tensor forward(torch::Tensor h) {\n"
      "#endif\n"
      "    return torch::randn({4});\n"
      "  }\n"
      "};\n";
  writeFile(dir + "/noise.h", header);
  writeFile(dir + "/a.cpp", "#define NOISE_FROM_INPUT\n#include \"noise.h\"\n");
  writeFile(dir + "/b.cpp", "#include \"noise.h\"\n");
  writeFile(dir + "/good.cpp", readFile(good));
  std::string original_good = readFile(dir + "/good.cpp");

  CommandResult r = runCommand(cli + " --fix --header-filter=noise " + quote(dir + "/a.cpp") + " " +
                               quote(dir + "/b.cpp") + " " + quote(dir + "/good.cpp") + flags);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(readFile(dir + "/noise.h") == header);
  CHECK(contains(r.err, "warning: not fixing '" + dir + "/noise.h': its fix-its conflict"));
  CHECK(contains(r.out, "noise.h:9:"));
  // The other file is still fixed.
  std::string fixed_good = readFile(dir + "/good.cpp");
  CHECK(fixed_good != original_good);
  CHECK(contains(fixed_good, "  x = x.to(device); // expect"));
}

TEST_CASE("bad input: a read-only file under --fix is named and the others are still fixed",
          "[checker][cli][bad-input][fix]") {
  std::string dir = scratchDir("bad-fix-readonly");
  std::string original = readFile(good);
  writeFile(dir + "/locked.cpp", original);
  writeFile(dir + "/open.cpp", original);
  REQUIRE(chmod((dir + "/locked.cpp").c_str(), 0444) == 0);

  CommandResult r = runCommand(cli + " --fix " + quote(dir + "/locked.cpp") + " " +
                               quote(dir + "/open.cpp") + flags);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "error: cannot fix '" + dir + "/locked.cpp': the file is read-only"));
  CHECK(readFile(dir + "/locked.cpp") == original);
  CHECK(contains(readFile(dir + "/open.cpp"), "  x = x.to(device); // expect"));
  // Both files' findings are reported.
  CHECK(warningsIn(r.out, "/locked.cpp") == expectationsIn(good));
  CHECK(warningsIn(r.out, "/open.cpp") == expectationsIn(good));
  struct stat st;
  REQUIRE(stat((dir + "/locked.cpp").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0444);
}
