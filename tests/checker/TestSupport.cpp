#include "TestSupport.h"

#include "catch.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <sys/wait.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

namespace tensorplace::test {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

std::string quote(const std::string& arg) {
  std::string q = "'";
  for (char c : arg)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

namespace {
// A "message:", "note@N:" or "fixed:" line of an input (detailsIn).
const std::regex detail(R"(^\s*// (message|(?:note|fixed)@([+-]\d+)|fixed): (.*)$)");
}  // namespace

Findings expectationsIn(const std::string& path) {
  Findings expected;
  std::istringstream lines(readFile(path));
  std::string line;
  static const std::regex check(R"(torch-[a-z-]+)");
  for (unsigned number = 1; std::getline(lines, line); ++number) {
    auto at = line.find("// expect:");
    // A "fixed:" line shows the fixed code, its "expect:" comment included.
    if (at == std::string::npos || std::regex_match(line, detail))
      continue;
    std::string rest = line.substr(at + 10);
    for (std::sregex_iterator it(rest.begin(), rest.end(), check), end; it != end; ++it)
      expected.emplace(number, it->str());
  }
  return expected;
}

std::vector<Detail> detailsIn(const std::string& path) {
  std::vector<Detail> details;
  std::istringstream lines(readFile(path));
  std::string line;

  unsigned last_expect = 0;
  bool attached = false;  // only detail lines since the last "expect:" line
  for (unsigned number = 1; std::getline(lines, line); ++number) {
    std::smatch m;
    if (std::regex_match(line, m, detail)) {
      INFO(path << ":" << number << ": " << line);
      REQUIRE(attached);  // a detail belongs to the "expect:" line above it
      Detail d;
      d.line = last_expect;
      d.kind = m[1].str().substr(0, m[1].str().find('@'));
      d.offset = m[2].matched ? std::stoi(m[2].str()) : 0;
      d.text = m[3].str();
      details.push_back(d);
      continue;
    }
    attached = line.find("// expect:") != std::string::npos;
    if (attached)
      last_expect = number;
  }
  return details;
}

std::string readInput(const std::string& path) {
  std::istringstream lines(readFile(path));
  std::string line, text;
  while (std::getline(lines, line))
    if (!std::regex_match(line, detail))
      text += line + "\n";
  return text;
}

Findings warningsIn(const std::string& output, const std::string& file_suffix) {
  Findings found;
  std::istringstream lines(output);
  std::string line;
  static const std::regex warning(R"(^(.*):(\d+):\d+: warning: .* \[(torch-[a-z-]+)\]$)");
  static const std::regex error(R"(^(.*):\d+:\d+: (fatal )?error: )");
  for (std::smatch m; std::getline(lines, line);) {
    if (std::regex_search(line, m, error))
      FAIL("compiler error in output: " << line);
    if (std::regex_match(line, m, warning) && m[1].str().size() >= file_suffix.size() &&
        m[1].str().compare(m[1].str().size() - file_suffix.size(), file_suffix.size(),
                           file_suffix) == 0)
      found.emplace(static_cast<unsigned>(std::stoul(m[2].str())), m[3].str());
  }
  return found;
}

std::string describeMismatch(const Findings& expected, const Findings& actual) {
  std::ostringstream out;
  Findings missing, unexpected;
  for (const auto& e : expected)
    if (expected.count(e) > actual.count(e))
      missing.insert(e);
  for (const auto& a : actual)
    if (actual.count(a) > expected.count(a))
      unexpected.insert(a);
  for (const auto& m : missing)
    out << "  missing    line " << m.first << " [" << m.second << "]\n";
  for (const auto& u : unexpected)
    out << "  unexpected line " << u.first << " [" << u.second << "]\n";
  return out.str();
}

CommandResult runCommand(const std::string& command) {
  char err_path[] = "/tmp/tensorplace-test-stderr-XXXXXX";
  int fd = mkstemp(err_path);
  REQUIRE(fd >= 0);
  close(fd);
  CommandResult result;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = readFile(err_path);
  unlink(err_path);
  return result;
}

std::string scratchDir(const std::string& name) {
  std::string dir = std::string(TENSORPLACE_TEST_SCRATCH) + "/" + name;
  REQUIRE(std::system(("rm -rf " + quote(dir) + " && mkdir -p " + quote(dir)).c_str()) == 0);
  return dir;
}

std::vector<std::string> standInFlags() {
  return {"-std=c++17", "-isystem", TENSORPLACE_STAND_IN_DIR};
}

std::vector<std::string> realTorchFlags() {
  std::vector<std::string> flags;
  std::istringstream lines(readFile(TENSORPLACE_REAL_TORCH_FLAGS));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty())
      flags.push_back(line);
  return flags;
}

std::string joinFlags(const std::vector<std::string>& flags) {
  std::string joined;
  for (const auto& f : flags)
    joined += " " + quote(f);
  return joined;
}

namespace {

/// A report's findings, each as its JSON text, sorted: JSON and SARIF reports order them
/// differently, and a merge orders them by place.
std::vector<std::string> findingsOf(const std::string& report, bool sarif) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(report);
  if (!parsed) {
    FAIL("not JSON: " << llvm::toString(parsed.takeError()) << "\n" << report);
    return {};
  }
  const llvm::json::Array* findings = parsed->getAsArray();
  if (sarif) {
    const llvm::json::Object* log = parsed->getAsObject();
    const llvm::json::Array* runs = log ? log->getArray("runs") : nullptr;
    REQUIRE(runs);
    REQUIRE(!runs->empty());
    findings = (*runs)[0].getAsObject()->getArray("results");
  }
  REQUIRE(findings);
  std::vector<std::string> out;
  for (const llvm::json::Value& f : *findings)
    out.push_back(llvm::formatv("{0}", f).str());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void checkShardsMatchOneRun(const std::string& cli,
                            const std::string& options,
                            const std::vector<std::string>& files,
                            const std::string& flags,
                            const std::string& dir) {
  std::string list;
  for (const std::string& file : files)
    list += " " + quote(file);
  for (bool sarif : {false, true}) {
    std::string format = sarif ? "sarif" : "json";
    std::string common = " --no-cache --quiet --format=" + format + " " + options;
    CommandResult one = runCommand(cli + common + list + flags);
    INFO("one run (" << format << "): exit " << one.exit_code << "\n" << one.out << one.err);
    std::vector<std::string> expected = findingsOf(one.out, sarif);
    for (size_t count : {size_t(2), size_t(3), files.size()}) {
      std::string reports;
      for (size_t index = 1; index <= count; ++index) {
        std::string shard = std::to_string(index) + "/" + std::to_string(count);
        CommandResult part = runCommand(cli + common + " --shard=" + shard + list + flags);
        INFO("shard " << shard << ": exit " << part.exit_code << "\n" << part.err);
        CHECK(part.exit_code != 2);
        std::string report =
            dir + "/shard-" + format + "-" + std::to_string(index) + "-of-" + std::to_string(count);
        writeFile(report, part.out);
        reports += " " + quote(report);
      }
      CommandResult merged = runCommand(cli + " --quiet --merge" + reports);
      INFO(count << " shards (" << format << ") merged: exit " << merged.exit_code << "\n"
                 << merged.out << merged.err);
      CHECK(merged.exit_code == one.exit_code);
      CHECK(findingsOf(merged.out, sarif) == expected);
    }
  }
}

}  // namespace tensorplace::test
