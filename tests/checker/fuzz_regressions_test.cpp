// Every input the fuzzer (checker/fuzz) once broke the analysis core with,
// run through the core against the stand-in header: it must not crash, and
// its findings must be well formed, with fix-its that apply to the input.
#include "TestSupport.h"
#include "tensorplace/driver/Driver.h"

#include "catch.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"

#include <dirent.h>
#include <algorithm>
#include "tensorplace/checker/LLVMCompat.h"

using namespace tensorplace;
using namespace tensorplace::test;

namespace {
const std::string regressions = std::string(TENSORPLACE_CHECKER_TEST_SOURCE) + "/fuzz-regressions";

std::vector<std::string> regressionInputs() {
  std::vector<std::string> files;
  DIR* d = opendir(regressions.c_str());
  REQUIRE(d != nullptr);
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != ".." && name != "README.md")
      files.push_back(regressions + "/" + name);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}
}  // namespace

TEST_CASE("the analysis core survives every kept fuzzer input", "[checker][core][fuzz]") {
  std::vector<std::string> inputs = regressionInputs();
  REQUIRE_FALSE(inputs.empty());
  // Inputs are kept under the name libFuzzer gave them (no .cpp): the driver
  // is told they are C++, or CUDA (host side, with tensorplace's CUDA headers,
  // as the harness parses an input that looks like CUDA) for a .cu.
  std::vector<std::string> flags = standInFlags();
  flags.insert(flags.begin(), {"-x", "c++"});
  clang::tooling::FixedCompilationDatabase cxx_db(".", flags);
  std::vector<std::string> cuda_flags = standInFlags();
  cuda_flags.insert(cuda_flags.begin(),
                    {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                     "-I" TENSORPLACE_CUDA_HEADERS_DIR, "-include", "cuda_runtime.h"});
  clang::tooling::FixedCompilationDatabase cuda_db(".", cuda_flags);
  driver::RunOptions options;
  options.IsEnabled = [](llvm::StringRef name) {
    return tensorplace::compat::startsWith(name, "torch-");
  };
  options.ResourceDir = driver::defaultResourceDir();
  for (const std::string& path : inputs) {
    INFO("regression input " << path);
    bool cuda = path.size() > 3 && path.compare(path.size() - 3, 3, ".cu") == 0;
    driver::FileResult result = driver::analyzeFile(cuda ? cuda_db : cxx_db, path, options);
    CHECK((result.Ok || !result.Errors.empty()));
    std::string code = readFile(path);
    clang::tooling::Replacements fixes;
    for (const driver::PlainFinding& f : result.Findings) {
      INFO(f.Rendered);
      CHECK(f.Rule.rfind("torch-", 0) == 0);
      CHECK(f.Line > 0);
      CHECK(f.Column > 0);
      CHECK_FALSE(f.Rendered.empty());
      for (const auto& r : f.Fixes) {
        if (r.getFilePath() != path)
          continue;
        CHECK(r.getOffset() + r.getLength() <= code.size());
        llvm::Error e = fixes.add(r);
        CHECK_FALSE(static_cast<bool>(e));
        llvm::consumeError(std::move(e));
      }
    }
    llvm::Expected<std::string> fixed = clang::tooling::applyAllReplacements(code, fixes);
    CHECK(static_cast<bool>(fixed));
    if (!fixed)
      llvm::consumeError(fixed.takeError());
  }
}
