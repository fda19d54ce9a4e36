// --fix never leaves a half-written file: each file is written through a
// temporary file and a rename, so a run killed at any moment leaves every
// file either untouched or fully fixed; temporary files a killed run leaves
// behind are removed by the next --fix. Identical fixes from several files
// are applied once; a symbolic link's target is fixed and the link kept.
#include "TestSupport.h"

#include "catch.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace tensorplace::test;

namespace {
const std::string cli = quote(TENSORPLACE_CLI);
const std::string flags = " --" + joinFlags(standInFlags());

std::string input(const std::string& name) {
  return std::string(TENSORPLACE_CHECKER_INPUTS) + "/" + name;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  REQUIRE(d != nullptr);
  while (dirent* e = readdir(d))
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
      names.push_back(e->d_name);
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> tempFiles(const std::string& dir) {
  std::vector<std::string> temps;
  for (const auto& name : entries(dir))
    if (name.find(".tensorplace-") != std::string::npos)
      temps.push_back(name);
  return temps;
}

/// Starts the CLI with --fix on the files, output discarded, and
/// TENSORPLACE_TEST_FIX_DELAY_MS set: a pause before each rename.
pid_t startFix(const std::vector<std::string>& files, int delay_ms) {
  std::vector<std::string> args{TENSORPLACE_CLI, "--fix", "--quiet"};
  args.insert(args.end(), files.begin(), files.end());
  args.push_back("--");
  for (const auto& f : standInFlags())
    args.push_back(f);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    setenv("TENSORPLACE_TEST_FIX_DELAY_MS", std::to_string(delay_ms).c_str(), 1);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}
}  // namespace

TEST_CASE("a --fix run killed at any moment leaves each file untouched or fully fixed",
          "[checker][cli][fix][kill]") {
  const std::string original = readInput(input("torch-discarded-to-result.cpp"));
  // The fully fixed version, from a run that is not interrupted.
  std::string reference_dir = scratchDir("fix-kill-reference");
  writeFile(reference_dir + "/f.cpp", original);
  REQUIRE(runCommand(cli + " --fix --quiet " + quote(reference_dir + "/f.cpp") + flags).exit_code ==
          1);
  const std::string fixed = readFile(reference_dir + "/f.cpp");
  REQUIRE(fixed != original);
  CHECK(tempFiles(reference_dir).empty());

  const int file_count = 4;
  std::string dir = scratchDir("fix-kill");
  std::vector<std::string> files;
  for (int i = 0; i < file_count; ++i)
    files.push_back(dir + "/f" + std::to_string(i) + ".cpp");

  // Kill while the k-th file's temporary file waits to be renamed (k files
  // already fixed), then once more at a moment that is not chosen.
  for (int k = 0; k <= file_count; ++k) {
    for (const auto& f : files)
      writeFile(f, original);
    pid_t pid = startFix(files, 300);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int done = 0;
    bool waiting_rename = false;
    while (std::chrono::steady_clock::now() < deadline) {
      done = 0;
      for (const auto& f : files)
        done += readFile(f) == fixed;
      waiting_rename = !tempFiles(dir).empty();
      if (k == file_count ? done == file_count : (done == k && waiting_rename))
        break;
      int status;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    INFO("kill point " << k << ": " << done << " files fixed when killed");
    REQUIRE(pid > 0);  // still running at the kill point
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));

    int fixed_count = 0;
    for (const auto& f : files) {
      std::string now = readFile(f);
      INFO(f);
      CHECK((now == original || now == fixed));
      fixed_count += now == fixed;
    }
    CHECK(fixed_count >= k);
    // At most the one temporary file that was waiting for its rename, named
    // after its file (documented in docs/reliability.md).
    std::vector<std::string> temps = tempFiles(dir);
    CHECK(temps.size() <= 1);
    for (const auto& t : temps)
      CHECK(t.rfind(".cpp.tensorplace-") == t.size() - 23);

    // The next --fix finishes the job and leaves no temporary file.
    CommandResult again = runCommand(cli + " --fix --quiet " + quote(dir) + flags);
    CHECK(again.exit_code == 1);
    for (const auto& f : files)
      CHECK(readFile(f) == fixed);
    CHECK(tempFiles(dir).empty());
  }

  // Kills at spread-out delays, without waiting for a particular step.
  for (int delay_ms : {150, 700, 1300, 2100}) {
    for (const auto& f : files)
      writeFile(f, original);
    pid_t pid = startFix(files, 40);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    for (const auto& f : files) {
      std::string now = readFile(f);
      INFO(f << " killed after " << delay_ms << " ms");
      CHECK((now == original || now == fixed));
    }
    CHECK(tempFiles(dir).size() <= 1);
  }
  REQUIRE(runCommand(cli + " --fix --quiet " + quote(dir) + flags).exit_code == 1);
  CHECK(tempFiles(dir).empty());
}

TEST_CASE("the --fix option keeps a file's mode and a symbolic link and leaves no temporary file",
          "[checker][cli][fix]") {
  std::string dir = scratchDir("fix-attributes");
  const std::string original = readInput(input("torch-discarded-to-result.cpp"));
  writeFile(dir + "/real.cpp", original);
  REQUIRE(chmod((dir + "/real.cpp").c_str(), 0640) == 0);
  REQUIRE(symlink("real.cpp", (dir + "/link.cpp").c_str()) == 0);
  writeFile(dir + "/script.cpp", original);
  REQUIRE(chmod((dir + "/script.cpp").c_str(), 0755) == 0);

  CommandResult r = runCommand(cli + " --fix " + quote(dir + "/link.cpp") + " " +
                               quote(dir + "/script.cpp") + flags);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  struct stat st;
  REQUIRE(lstat((dir + "/link.cpp").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  std::string fixed = readFile(dir + "/real.cpp");
  CHECK(fixed.find("  x = x.to(device); // expect") != std::string::npos);
  REQUIRE(stat((dir + "/real.cpp").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(readFile(dir + "/script.cpp") == fixed);
  REQUIRE(stat((dir + "/script.cpp").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0755);
  CHECK(entries(dir) == std::vector<std::string>{"link.cpp", "real.cpp", "script.cpp"});
}

TEST_CASE("the --fix option removes the temporary files a killed run left behind",
          "[checker][cli][fix]") {
  std::string dir = scratchDir("fix-stale-temp");
  const std::string original = readInput(input("torch-discarded-to-result.cpp"));
  writeFile(dir + "/net.cpp", original);
  writeFile(dir + "/net.cpp.tensorplace-a1b2c3", original.substr(0, 100));
  // Not ours: another suffix, or another file's name.
  writeFile(dir + "/net.cpp.tensorplace-notes", "keep");
  writeFile(dir + "/other.cpp.tensorplace-a1b2c3", "keep");

  CommandResult r = runCommand(cli + " --fix --quiet " + quote(dir + "/net.cpp") + flags);
  CHECK(r.exit_code == 1);
  CHECK(entries(dir) == std::vector<std::string>{"net.cpp", "net.cpp.tensorplace-notes",
                                                 "other.cpp.tensorplace-a1b2c3"});
}

TEST_CASE("the --fix option applies a header's fix once when several files include it",
          "[checker][cli][fix]") {
  std::string dir = scratchDir("fix-shared-header");
  writeFile(dir + "/move.h",
            "#pragma once\n#include <torch/torch.h>\n"
            "inline void move(torch::Tensor x, torch::Device d) {\n  x.to(d);\n}\n");
  writeFile(dir + "/a.cpp", "#include \"move.h\"\n");
  writeFile(dir + "/b.cpp", "#include \"move.h\"\n");
  writeFile(dir + "/c.cpp", "#include \"move.h\"\n");

  CommandResult r = runCommand(cli + " --fix --header-filter=move " + quote(dir + "/a.cpp") + " " +
                               quote(dir + "/b.cpp") + " " + quote(dir + "/c.cpp") + flags);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(readFile(dir + "/move.h") ==
        "#pragma once\n#include <torch/torch.h>\n"
        "inline void move(torch::Tensor x, torch::Device d) {\n  x = x.to(d);\n}\n");
  CHECK(r.err.find("conflict") == std::string::npos);
  CHECK(r.err.find("applied 1 fix to '" + dir + "/move.h'") != std::string::npos);
}
