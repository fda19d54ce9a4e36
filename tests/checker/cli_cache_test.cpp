// The CLI's persistent cache: a warm run prints exactly what the analysis
// prints; editing a header analyses again exactly the units that read it; a
// corrupt entry is ignored and rewritten; the cache stays under its size limit,
// least recently used entries going first; concurrent runs share it safely;
// and a precompiled header kept from an earlier run serves a file analysed
// alone, and is built again when one of its headers changes.
//
// Each test has a cache directory of its own (--cache-dir) and uses the
// stand-in header, passed with -isystem as users pass LibTorch, so that its
// PCH is built in a second or two.
#include "TestSupport.h"

#include "catch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "tensorplace/checker/LLVMCompat.h"

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);

/// A fresh directory, and a cache directory inside it.
struct Project {
  std::string dir;
  std::string cache;
  explicit Project(const std::string& name) : dir(scratchDir(name)), cache(dir + "/cache") {}
  std::string run(const std::string& options, const std::string& files) const {
    return cli + " --cache-dir=" + quote(cache) + " " + options + " " + files;
  }
};

/// A stand-in unit that includes `header` and has one discarded conversion and one
/// unregistered tensor member (with a fix-it and a note).
std::string unit(const std::string& name, const std::string& header) {
  return "#include <torch/torch.h>\n#include \"" + header +
         "\"\n"
         "struct " +
         name +
         " : torch::nn::Module {\n"
         "  torch::Tensor w;\n"
         "  " +
         name +
         "() { w = torch::ones({2}); }\n"
         "  torch::Tensor forward(torch::Tensor x) {\n"
         "    x.to(torch::kCPU);\n"
         "    return x + w;\n"
         "  }\n"
         "};\n";
}

std::string standIn(const std::string& stand_in_dir = TENSORPLACE_STAND_IN_DIR) {
  return " -- -std=c++17 -isystem " + quote(stand_in_dir);
}

/// The files the --verbose run took from the cache, by file name.
std::set<std::string> fromCache(const std::string& err) {
  std::set<std::string> names;
  static const std::regex line(R"(tensorplace: from the cache: .*/([^/\n]+)\n)");
  for (std::sregex_iterator it(err.begin(), err.end(), line), end; it != end; ++it)
    names.insert((*it)[1].str());
  return names;
}

std::vector<std::string> entries(const std::string& cache) {
  std::vector<std::string> found;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(cache + "/results", ec), end;
       it != end && !ec; it.increment(ec))
    if (tensorplace::compat::endsWith(it->path(), ".json"))
      found.push_back(it->path());
  std::sort(found.begin(), found.end());
  return found;
}

uint64_t sizeOf(const std::string& path) {
  uint64_t size = 0;
  REQUIRE(!llvm::sys::fs::file_size(path, size));
  return size;
}
}  // namespace

TEST_CASE("a warm run prints exactly what the analysis printed, and filters it the same way",
          "[checker][cli][cache]") {
  Project p("cache-warm");
  writeFile(p.dir + "/shared.h", "inline void shared(torch::Tensor t) { t.cuda(); }\n");
  writeFile(p.dir + "/other.h", "\n");
  std::string files;
  for (const char* name : {"A", "B", "C"}) {
    writeFile(p.dir + "/" + name + ".cpp", unit(name, name[0] == 'C' ? "other.h" : "shared.h"));
    files += " " + quote(p.dir + "/" + name + ".cpp");
  }
  for (const char* format : {"text", "json", "sarif"}) {
    INFO("--format=" << format);
    std::string options = std::string("--format=") + format + " --header-filter=shared.h";
    CommandResult analysed = runCommand(p.run("--no-cache " + options, files + standIn()));
    CommandResult cold = runCommand(p.run(options, files + standIn()));
    CommandResult warm = runCommand(p.run(options + " --verbose", files + standIn()));
    INFO(cold.err << warm.err);
    REQUIRE(analysed.exit_code == 1);
    CHECK(cold.exit_code == 1);
    CHECK(warm.exit_code == 1);
    CHECK(cold.out == analysed.out);
    CHECK(warm.out == analysed.out);
    CHECK(fromCache(warm.err) == std::set<std::string>{"A.cpp", "B.cpp", "C.cpp"});
    CHECK(warm.err.find("from the cache: 3 of 3 files") != std::string::npos);
  }
  // The baseline and --fix apply to cached findings as to fresh ones.
  std::string baseline = p.dir + "/baseline.json";
  CommandResult write = runCommand(p.run("--write-baseline=" + quote(baseline), files + standIn()));
  CHECK(write.exit_code == 0);
  CommandResult suppressed = runCommand(p.run("--baseline=" + quote(baseline), files + standIn()));
  INFO(suppressed.err);
  CHECK(suppressed.exit_code == 0);
  CHECK(suppressed.out.empty());
  CHECK(suppressed.err.find("from the cache: 3 of 3 files") != std::string::npos);

  std::string before = readFile(p.dir + "/A.cpp");
  CommandResult fixed = runCommand(p.run("--fix --quiet", quote(p.dir + "/A.cpp") + standIn()));
  INFO(fixed.out << fixed.err);
  CHECK(readFile(p.dir + "/A.cpp") != before);
  CHECK(readFile(p.dir + "/A.cpp").find("x = x.to(torch::kCPU);") != std::string::npos);
  // The fixed file is analysed again, and the fix-it's finding is gone.
  CommandResult after = runCommand(p.run("--verbose", quote(p.dir + "/A.cpp") + standIn()));
  CHECK(fromCache(after.err).empty());
  CHECK(warningsIn(after.out, "/A.cpp").count({7, "torch-discarded-to-result"}) == 0);
}

TEST_CASE("editing a header analyses again exactly the units that include it",
          "[checker][cli][cache]") {
  Project p("cache-edit");
  writeFile(p.dir + "/layers.h", "// layers\n");
  writeFile(p.dir + "/io.h", "// io\n");
  std::string files;
  for (const auto& [name, header] : std::vector<std::pair<std::string, std::string>>{
           {"Net", "layers.h"}, {"Head", "layers.h"}, {"Loader", "io.h"}, {"Tail", "io.h"}}) {
    writeFile(p.dir + "/" + name + ".cpp", unit(name, header));
    files += " " + quote(p.dir + "/" + name + ".cpp");
  }
  CommandResult cold = runCommand(p.run("--verbose", files + standIn()));
  REQUIRE(cold.exit_code == 1);
  CHECK(fromCache(cold.err).empty());

  writeFile(p.dir + "/layers.h", "// layers, edited\n");
  CommandResult edited = runCommand(p.run("--verbose", files + standIn()));
  INFO(edited.err);
  CHECK(fromCache(edited.err) == std::set<std::string>{"Loader.cpp", "Tail.cpp"});
  CHECK(edited.out == cold.out);

  // A change that is only a new modification time changes nothing.
  writeFile(p.dir + "/io.h", "// io\n");
  CommandResult touched = runCommand(p.run("--verbose", files + standIn()));
  CHECK(fromCache(touched.err) ==
        std::set<std::string>{"Net.cpp", "Head.cpp", "Loader.cpp", "Tail.cpp"});

  // A finding that appears in a header is seen by the units that include it.
  writeFile(p.dir + "/io.h", "inline void io(torch::Tensor t) { t.cuda(); }\n");
  CommandResult bug = runCommand(p.run("--verbose --header-filter=io.h", files + standIn()));
  INFO(bug.err);
  CHECK(fromCache(bug.err).empty());  // Another --header-filter: another key.
  CommandResult again = runCommand(p.run("--verbose --header-filter=io.h", files + standIn()));
  CHECK(fromCache(again.err).size() == 4);
  CHECK(again.out == bug.out);
  CHECK(warningsIn(again.out, "/io.h") == Findings{{1, "torch-discarded-to-result"}});

  // Options and configuration are part of the key: another .clang-tidy, other results.
  writeFile(p.dir + "/.clang-tidy", "Checks: '-torch-discarded-to-result'\n");
  CommandResult configured = runCommand(p.run("--verbose --header-filter=io.h", files + standIn()));
  CHECK(fromCache(configured.err).empty());
  CHECK(warningsIn(configured.out, "/io.h").empty());
}

TEST_CASE("a corrupt or truncated cache entry is ignored and written again",
          "[checker][cli][cache]") {
  Project p("cache-corrupt");
  std::string files;
  for (const char* name : {"A", "B", "C"}) {
    writeFile(p.dir + "/" + name + ".cpp", unit(name, "cstddef"));
    files += " " + quote(p.dir + "/" + name + ".cpp");
  }
  CommandResult cold = runCommand(p.run("", files + standIn()));
  std::vector<std::string> stored = entries(p.cache);
  REQUIRE(stored.size() == 3);
  // Truncated, emptied, and replaced by something that is JSON but no entry.
  std::string text = readFile(stored[0]);
  writeFile(stored[0], text.substr(0, text.size() / 2));
  writeFile(stored[1], "");
  writeFile(stored[2], "{\"format\": 1, \"key\": \"another\"}");
  CommandResult damaged = runCommand(p.run("--verbose", files + standIn()));
  INFO(damaged.err);
  CHECK(damaged.exit_code == cold.exit_code);
  CHECK(damaged.out == cold.out);
  CHECK(fromCache(damaged.err).empty());
  CommandResult repaired = runCommand(p.run("--verbose", files + standIn()));
  CHECK(fromCache(repaired.err).size() == 3);
  CHECK(repaired.out == cold.out);
}

TEST_CASE("the cache stays under its size limit, least recently used entries going first",
          "[checker][cli][cache]") {
  Project p("cache-limit");
  for (const char* name : {"A", "B", "C", "D"})
    writeFile(p.dir + "/" + name + ".cpp", unit(name, "cstddef"));
  auto file = [&](const char* name) { return quote(p.dir + "/" + name + ".cpp"); };
  // One file per run: A, B and C, then A again (a hit, so it is used most recently).
  for (const char* name : {"A", "B", "C", "A"})
    runCommand(p.run("", file(name) + standIn()));
  std::vector<std::string> stored = entries(p.cache);
  REQUIRE(stored.size() == 3);
  uint64_t largest = 0;
  for (const std::string& e : stored)
    largest = std::max(largest, sizeOf(e));
  // Room for two entries and a half: storing D leaves the two most recently used.
  std::string limit = "--cache-max-size=" + std::to_string(largest * 5 / 2);
  CommandResult d = runCommand(p.run(limit, file("D") + standIn()));
  CHECK(d.exit_code == 1);
  CHECK(entries(p.cache).size() == 2);
  CommandResult all =
      runCommand(p.run(limit + " --verbose", file("A") + " " + file("B") + " " + file("C") + " " +
                                                 file("D") + standIn()));
  INFO(all.err);
  CHECK(fromCache(all.err) == std::set<std::string>{"A.cpp", "D.cpp"});

  CommandResult bad = runCommand(p.run("--cache-max-size=lots", file("A") + standIn()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--cache-max-size='lots' is not a size") != std::string::npos);
}

TEST_CASE("concurrent runs share one cache safely", "[checker][cli][cache]") {
  Project p("cache-concurrent");
  std::string files;
  for (int i = 0; i < 6; ++i) {
    std::string name = "U" + std::to_string(i);
    writeFile(p.dir + "/" + name + ".cpp", unit(name, "cstddef"));
    files += " " + quote(p.dir + "/" + name + ".cpp");
  }
  CommandResult expected = runCommand(p.run("--no-cache --quiet", files + standIn()));
  REQUIRE(expected.exit_code == 1);
  // Three runs at once, each writing every entry; then each output is compared.
  std::string script;
  for (int i = 0; i < 3; ++i)
    script += p.run("--quiet -j 1", files + standIn()) + " > " +
              quote(p.dir + "/out" + std::to_string(i)) + " 2>&1 & ";
  CommandResult together = runCommand("(" + script + "wait)");
  CHECK(together.exit_code == 0);
  for (int i = 0; i < 3; ++i)
    CHECK(readFile(p.dir + "/out" + std::to_string(i)) == expected.out);
  CommandResult warm = runCommand(p.run("--verbose", files + standIn()));
  CHECK(fromCache(warm.err).size() == 6);
  CHECK(warm.out == expected.out);
  // No temporary file is left behind.
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(p.cache, ec), end; it != end && !ec;
       it.increment(ec))
    CHECK(llvm::sys::path::filename(it->path()).find(".tmp-") == llvm::StringRef::npos);
}

TEST_CASE(
    "a kept precompiled header serves a file analysed alone, and is rebuilt when a "
    "header in it changes",
    "[checker][cli][cache][pch]") {
  Project p("cache-pch");
  // A copy of the stand-in LibTorch, to change one of its headers.
  std::string torch = p.dir + "/torch-include";
  REQUIRE(!llvm::sys::fs::create_directories(torch + "/torch"));
  writeFile(torch + "/torch/torch.h",
            readFile(std::string(TENSORPLACE_STAND_IN_DIR) + "/torch/torch.h"));
  std::string files;
  for (const char* name : {"A", "B", "C"}) {
    writeFile(p.dir + "/" + name + ".cpp", unit(name, "cstddef"));
    files += " " + quote(p.dir + "/" + name + ".cpp");
  }
  CommandResult cold = runCommand(p.run("--verbose -j 1", files + standIn(torch)));
  INFO(cold.err);
  REQUIRE(cold.exit_code == 1);
  CHECK(cold.err.find("tensorplace: built PCH '" + p.cache + "/pch/") != std::string::npos);

  // One file, edited, alone: the PCH is kept from the run before.
  writeFile(p.dir + "/B.cpp", unit("B", "cstddef") + "// edited\n");
  CommandResult alone = runCommand(p.run("--verbose", quote(p.dir + "/B.cpp") + standIn(torch)));
  INFO(alone.err);
  CHECK(alone.err.find("tensorplace: using the kept PCH") != std::string::npos);
  CHECK(fromCache(alone.err).empty());
  CHECK(warningsIn(alone.out, "/B.cpp") == warningsIn(cold.out, "/B.cpp"));

  // LibTorch upgraded: every unit is analysed again, and the PCH is built again.
  writeFile(torch + "/torch/torch.h", readFile(torch + "/torch/torch.h") +
                                          "\nnamespace torch { inline void upgraded() {} }\n");
  CommandResult upgraded = runCommand(p.run("--verbose -j 1", files + standIn(torch)));
  INFO(upgraded.err);
  CHECK(fromCache(upgraded.err).empty());
  CHECK(upgraded.err.find("using the kept PCH") == std::string::npos);
  CHECK(upgraded.err.find("tensorplace: built PCH") != std::string::npos);
  CHECK(upgraded.out == cold.out);
}
