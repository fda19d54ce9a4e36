//===- Workers.cpp --------------------------------------------------------===//

#include "Workers.h"
#include "Report.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace tensorplace {
namespace cli {

json::Object toWireJSON(const driver::PlainFinding &F) {
  json::Object O = findingToJSON(F);
  O["offset"] = F.Offset;
  O["rendered"] = F.Rendered;
  O["pendingMember"] = F.PendingMember;
  O["pendingOn"] = json::Array(F.PendingOn);
  O["pendingCallersOf"] = json::Array(F.PendingCallersOf);
  O["pendingStateOf"] = json::Array(F.PendingStateOf);
  O["pendingReachOf"] = json::Array(F.PendingReachOf);
  O["pendingDataOf"] =
      json::Object{{"function", F.PendingDataOf.Function},
                   {"params", json::Array(F.PendingDataOf.Params)},
                   {"unguarded", F.PendingDataOf.Unguarded}};
  return O;
}

json::Object toWireJSON(const driver::PlainSummary &S) {
  json::Array DeviceCalls;
  for (const DeviceCall &D : S.DeviceCalls)
    DeviceCalls.push_back(
        json::Object{{"callee", D.Callee},
                     {"state", static_cast<int>(D.State)},
                     {"openOn", json::Array(D.OpenOn)},
                     {"tensorArgs", json::Array(D.TensorArgs)}});
  return json::Object{{"key", S.Key},
                      {"file", S.File},
                      {"line", S.Line},
                      {"names", json::Array(S.MemberNames)},
                      {"calls", json::Array(S.Calls)},
                      {"opaque", S.Opaque},
                      {"registers", S.Registers},
                      {"forwardRoot", S.ForwardRoot},
                      {"deviceCalls", std::move(DeviceCalls)}};
}

json::Value toJSON(const driver::FileResult &Result) {
  json::Array Findings;
  for (const driver::PlainFinding &F : Result.Findings)
    Findings.push_back(toWireJSON(F));
  json::Array Summaries;
  for (const driver::PlainSummary &S : Result.Summaries)
    Summaries.push_back(toWireJSON(S));
  json::Array Warnings, Dependencies;
  for (const std::string &W : Result.Warnings)
    Warnings.push_back(W);
  for (const std::string &D : Result.Dependencies)
    Dependencies.push_back(D);
  return json::Object{{"file", Result.File},
                      {"ok", Result.Ok},
                      {"parsed", Result.Parsed},
                      {"errorCount", Result.ErrorCount},
                      {"errors", Result.Errors},
                      {"warnings", std::move(Warnings)},
                      {"findings", std::move(Findings)},
                      {"summaries", std::move(Summaries)},
                      {"dependencies", std::move(Dependencies)}};
}

namespace {

/// Reads the fields of one JSON object, remembering the first that is
/// missing or of the wrong type.
class Reader {
public:
  Reader(const json::Value *V, std::string &Problem, StringRef What)
      : Object(V ? V->getAsObject() : nullptr), Problem(Problem) {
    if (!Object && Problem.empty())
      Problem = (What + " is not an object").str();
  }
  explicit operator bool() const { return Object != nullptr; }
  std::string string(StringRef Key) {
    if (Object)
      if (std::optional<StringRef> S = compat::toStd(Object->getString(Key)))
        return S->str();
    fail(Key);
    return "";
  }
  unsigned number(StringRef Key) {
    if (Object)
      if (std::optional<int64_t> N = compat::toStd(Object->getInteger(Key)))
        if (*N >= 0 && *N <= UINT32_MAX)
          return static_cast<unsigned>(*N);
    fail(Key);
    return 0;
  }
  bool boolean(StringRef Key) {
    if (Object)
      if (std::optional<bool> B = compat::toStd(Object->getBoolean(Key)))
        return *B;
    fail(Key);
    return false;
  }
  const json::Value *object(StringRef Key) {
    if (Object)
      if (const json::Value *V = Object->get(Key))
        return V;
    fail(Key);
    return nullptr;
  }
  const json::Array &array(StringRef Key) {
    static const json::Array Empty;
    if (Object)
      if (const json::Array *A = Object->getArray(Key))
        return *A;
    fail(Key);
    return Empty;
  }

private:
  void fail(StringRef Key) {
    if (Problem.empty())
      Problem = ("field '" + Key + "' is missing or malformed").str();
  }
  const json::Object *Object;
  std::string &Problem;
};

/// The strings of a list named What, remembering the first problem.
std::vector<std::string> strings(const json::Array &Array, std::string &Problem,
                                 StringRef What) {
  std::vector<std::string> Out;
  for (const json::Value &V : Array) {
    if (std::optional<StringRef> Text = compat::toStd(V.getAsString()))
      Out.push_back(Text->str());
    else if (Problem.empty())
      Problem = ("'" + What + "' holds something that is not a string").str();
  }
  return Out;
}

/// The unsigned numbers of a list named What, remembering the first problem.
std::vector<unsigned> numbers(const json::Array &Array, std::string &Problem,
                              StringRef What) {
  std::vector<unsigned> Out;
  for (const json::Value &V : Array) {
    std::optional<int64_t> N = compat::toStd(V.getAsInteger());
    if (N && *N >= 0 && *N <= UINT32_MAX)
      Out.push_back(static_cast<unsigned>(*N));
    else if (Problem.empty())
      Problem = ("'" + What + "' holds something that is not a count").str();
  }
  return Out;
}

driver::PlainFinding readFinding(const json::Value &Value,
                                 std::string &Problem) {
  Reader FR(&Value, Problem, "a finding");
  driver::PlainFinding F;
  F.Rule = FR.string("rule");
  F.File = FR.string("file");
  F.Line = FR.number("line");
  F.Column = FR.number("column");
  F.Offset = FR.number("offset");
  F.Message = FR.string("message");
  F.Rendered = FR.string("rendered");
  F.PendingMember = FR.string("pendingMember");
  F.PendingOn = strings(FR.array("pendingOn"), Problem, "pendingOn");
  F.PendingCallersOf =
      strings(FR.array("pendingCallersOf"), Problem, "pendingCallersOf");
  F.PendingStateOf =
      strings(FR.array("pendingStateOf"), Problem, "pendingStateOf");
  F.PendingReachOf =
      strings(FR.array("pendingReachOf"), Problem, "pendingReachOf");
  {
    Reader PR(FR.object("pendingDataOf"), Problem, "pendingDataOf");
    F.PendingDataOf.Function = PR.string("function");
    F.PendingDataOf.Params = numbers(PR.array("params"), Problem, "params");
    F.PendingDataOf.Unguarded = PR.boolean("unguarded");
  }
  for (const json::Value &NV : FR.array("notes")) {
    Reader NR(&NV, Problem, "a note");
    driver::PlainNote N;
    N.File = NR.string("file");
    N.Line = NR.number("line");
    N.Column = NR.number("column");
    N.Message = NR.string("message");
    F.Notes.push_back(std::move(N));
  }
  for (const json::Value &XV : FR.array("fixes")) {
    Reader XR(&XV, Problem, "a fix");
    std::string File = XR.string("file");
    unsigned Offset = XR.number("offset"), Length = XR.number("length");
    F.Fixes.emplace_back(File, Offset, Length, XR.string("replacement"));
  }
  return F;
}

driver::PlainSummary readSummary(const json::Value &Value,
                                 std::string &Problem) {
  Reader SR(&Value, Problem, "a summary");
  driver::PlainSummary S;
  S.Key = SR.string("key");
  S.File = SR.string("file");
  S.Line = SR.number("line");
  S.MemberNames = strings(SR.array("names"), Problem, "names");
  S.Calls = strings(SR.array("calls"), Problem, "calls");
  S.Opaque = SR.boolean("opaque");
  S.Registers = SR.boolean("registers");
  S.ForwardRoot = SR.boolean("forwardRoot");
  for (const json::Value &DV : SR.array("deviceCalls")) {
    Reader DR(&DV, Problem, "a device call");
    DeviceCall D;
    D.Callee = DR.string("callee");
    unsigned State = DR.number("state");
    if (State > DeviceCall::Unknown)
      Problem = "a device call has an unknown state";
    D.State = static_cast<DeviceCall::Kind>(State);
    D.OpenOn = strings(DR.array("openOn"), Problem, "openOn");
    D.TensorArgs = numbers(DR.array("tensorArgs"), Problem, "tensorArgs");
    S.DeviceCalls.push_back(std::move(D));
  }
  return S;
}

/// T, or the first problem met while reading it.
template <typename T>
Expected<T> orProblem(T Value, const std::string &Problem) {
  if (!Problem.empty())
    return createStringError(inconvertibleErrorCode(), Problem);
  return std::move(Value);
}

} // namespace

Expected<driver::PlainFinding> wireFindingFromValue(const json::Value &Value) {
  std::string Problem;
  driver::PlainFinding F = readFinding(Value, Problem);
  return orProblem(std::move(F), Problem);
}

Expected<driver::PlainSummary> wireSummaryFromValue(const json::Value &Value) {
  std::string Problem;
  driver::PlainSummary S = readSummary(Value, Problem);
  return orProblem(std::move(S), Problem);
}

Expected<driver::FileResult> fileResultFromJSON(StringRef Text) {
  Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed)
    return Parsed.takeError();
  return fileResultFromValue(*Parsed);
}

Expected<driver::FileResult> fileResultFromValue(const json::Value &Value) {
  std::string Problem;
  driver::FileResult Result;
  Reader R(&Value, Problem, "the result");
  Result.File = R.string("file");
  Result.Ok = R.boolean("ok");
  Result.Parsed = R.boolean("parsed");
  Result.ErrorCount = R.number("errorCount");
  Result.Errors = R.string("errors");
  Result.Warnings = strings(R.array("warnings"), Problem, "warnings");
  Result.Dependencies =
      strings(R.array("dependencies"), Problem, "dependencies");
  for (const json::Value &FV : R.array("findings"))
    Result.Findings.push_back(readFinding(FV, Problem));
  for (const json::Value &SV : R.array("summaries"))
    Result.Summaries.push_back(readSummary(SV, Problem));
  return orProblem(std::move(Result), Problem);
}

namespace {

struct Running {
  pid_t Pid = -1;
  size_t Index = 0;
  int ResultFd = -1, StderrFd = -1;
  std::string ResultText, StderrText;
};

void writeAll(int FD, StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(FD, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(3);
    Data = Data.drop_front(N);
  }
}

/// A test hook: TENSORPLACE_TEST_CRASH_ON=<suffix> makes the worker for a
/// file whose path ends with <suffix> crash, so that tests can check that a
/// crash costs only that file.
void crashIfAsked(StringRef File) {
  const char *Suffix = std::getenv("TENSORPLACE_TEST_CRASH_ON");
  if (Suffix && *Suffix && tensorplace::compat::endsWith(File, Suffix)) {
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
  }
}

[[noreturn]] void
runWorker(const std::string &File, int ResultFd, int StderrFd,
          function_ref<driver::FileResult(const std::string &)> Analyse) {
  // Anything the analysis prints goes to the parent through StderrFd, never
  // straight to the terminal where it would interleave with other files.
  ::dup2(StderrFd, STDOUT_FILENO);
  ::dup2(StderrFd, STDERR_FILENO);
  ::close(StderrFd);
  crashIfAsked(File);
  std::string Text;
  raw_string_ostream OS(Text);
  OS << toJSON(Analyse(File));
  OS.flush();
  writeAll(ResultFd, Text);
  ::close(ResultFd);
  errs().flush();
  // No exit handlers: they belong to the parent.
  _exit(0);
}

std::string describeExit(int Status) {
  if (WIFSIGNALED(Status)) {
    int Signal = WTERMSIG(Status);
    return "the analysis crashed (signal " + std::to_string(Signal) + ": " +
           ::strsignal(Signal) + ")";
  }
  if (WIFEXITED(Status))
    return "the analysis exited with status " +
           std::to_string(WEXITSTATUS(Status)) + " without a result";
  return "the analysis ended without a result";
}

} // namespace

void runInWorkers(
    ArrayRef<std::string> Files, unsigned Jobs,
    function_ref<driver::FileResult(const std::string &)> Analyse,
    function_ref<void(size_t Index, WorkerOutcome Outcome)> OnDone,
    function_ref<void()> OnTick) {
  if (Jobs == 0)
    Jobs = 1;
  std::vector<Running> Workers;
  size_t Next = 0;

  auto Spawn = [&](size_t Index) -> bool {
    int ResultPipe[2], StderrPipe[2];
    if (::pipe2(ResultPipe, O_CLOEXEC) != 0)
      return false;
    if (::pipe2(StderrPipe, O_CLOEXEC) != 0) {
      ::close(ResultPipe[0]);
      ::close(ResultPipe[1]);
      return false;
    }
    // Buffered output would otherwise be written by the child as well.
    outs().flush();
    errs().flush();
    pid_t Pid = ::fork();
    if (Pid == 0) {
      ::close(ResultPipe[0]);
      ::close(StderrPipe[0]);
      for (const Running &W : Workers) {
        ::close(W.ResultFd);
        ::close(W.StderrFd);
      }
      runWorker(Files[Index], ResultPipe[1], StderrPipe[1], Analyse);
    }
    ::close(ResultPipe[1]);
    ::close(StderrPipe[1]);
    if (Pid < 0) {
      ::close(ResultPipe[0]);
      ::close(StderrPipe[0]);
      return false;
    }
    Running W;
    W.Pid = Pid;
    W.Index = Index;
    W.ResultFd = ResultPipe[0];
    W.StderrFd = StderrPipe[0];
    Workers.push_back(std::move(W));
    return true;
  };

  auto Finish = [&](Running &W) {
    int Status = 0;
    struct rusage Usage = {};
    while (::wait4(W.Pid, &Status, 0, &Usage) < 0 && errno == EINTR) {
    }
    WorkerOutcome Outcome;
    Outcome.MaxRssKiB = Usage.ru_maxrss;
    Outcome.Stderr = std::move(W.StderrText);
    if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
      Expected<driver::FileResult> Result = fileResultFromJSON(W.ResultText);
      if (Result) {
        Outcome.Completed = true;
        Outcome.Result = std::move(*Result);
      } else {
        Outcome.Failure = "the analysis sent back an unreadable result: " +
                          toString(Result.takeError());
      }
    } else {
      Outcome.Failure = describeExit(Status);
    }
    OnDone(W.Index, std::move(Outcome));
  };

  while (Next < Files.size() || !Workers.empty()) {
    while (Workers.size() < Jobs && Next < Files.size()) {
      if (Spawn(Next)) {
        ++Next;
        continue;
      }
      if (!Workers.empty())
        break; // Out of processes or descriptors: wait for one to finish.
      WorkerOutcome Outcome;
      Outcome.Failure =
          std::string("cannot start a worker process: ") + std::strerror(errno);
      OnDone(Next++, std::move(Outcome));
    }
    if (Workers.empty())
      continue;

    std::vector<pollfd> Polled;
    for (const Running &W : Workers) {
      if (W.ResultFd >= 0)
        Polled.push_back({W.ResultFd, POLLIN, 0});
      if (W.StderrFd >= 0)
        Polled.push_back({W.StderrFd, POLLIN, 0});
    }
    int Ready = ::poll(Polled.data(), Polled.size(), 500);
    if (Ready < 0 && errno != EINTR)
      break;
    OnTick();
    if (Ready <= 0)
      continue;
    for (const pollfd &P : Polled) {
      if (!(P.revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      for (Running &W : Workers) {
        bool IsResult = W.ResultFd == P.fd;
        if (!IsResult && W.StderrFd != P.fd)
          continue;
        char Buffer[65536];
        ssize_t N = ::read(P.fd, Buffer, sizeof Buffer);
        if (N < 0 && (errno == EINTR || errno == EAGAIN))
          break;
        if (N > 0) {
          (IsResult ? W.ResultText : W.StderrText).append(Buffer, N);
          break;
        }
        ::close(P.fd);
        (IsResult ? W.ResultFd : W.StderrFd) = -1;
        break;
      }
    }
    for (size_t I = 0; I < Workers.size();) {
      if (Workers[I].ResultFd >= 0 || Workers[I].StderrFd >= 0) {
        ++I;
        continue;
      }
      Running Done = std::move(Workers[I]);
      Workers.erase(Workers.begin() + I);
      Finish(Done);
    }
  }
}

} // namespace cli
} // namespace tensorplace
