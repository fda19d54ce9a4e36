// The call graph layer of the analysis core, on its own: the calls it records
// are the ones the rules follow (construction and forward paths, callers of a
// helper that returns a host tensor, callers that hold a CUDA guard).
#include <memory>
#include <set>
#include <string>

#include "catch.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "tensorplace/checker/CallGraph.h"

using tensorplace::CallGraph;

namespace {

const char* const kSource = R"(
int helper(int x) { return x + 1; }
int other(int x);
int visit(int);
int visit(double);
struct Net {
  Net() : v(helper(1)) { setup(); }
  void setup() {
    auto twice = [this] { return other(v) + other(v); };
    v = twice();
  }
  template <typename T> int run(T t) { return visit(t); }
  int v;
};
int other(int x) { return helper(x) * 2; }
int unused() { return 0; }
)";

struct Graph {
  std::unique_ptr<clang::ASTUnit> unit =
      clang::tooling::buildASTFromCodeWithArgs(kSource, {"-std=c++17"}, "graph.cpp");
  CallGraph calls{unit->getASTContext()};

  // The function defined here with this qualified name.
  const clang::FunctionDecl* function(const std::string& name) const {
    for (const clang::FunctionDecl* f : calls.functions())
      if (f->getQualifiedNameAsString() == name)
        return f;
    FAIL("no function " << name);
    return nullptr;
  }
  std::multiset<std::string> callees(const std::string& name) const {
    std::multiset<std::string> out;
    for (const CallGraph::Edge& e : calls.callsFrom(function(name)))
      out.insert(e.Callee->getQualifiedNameAsString());
    return out;
  }
  std::multiset<std::string> callers(const std::string& name) const {
    std::multiset<std::string> out;
    for (const CallGraph::Edge& e : calls.callsTo(function(name)))
      out.insert(e.Caller->getQualifiedNameAsString());
    return out;
  }
};

}  // namespace

TEST_CASE("the call graph holds every function defined in the file, lambdas excluded",
          "[checker][core]") {
  Graph g;
  REQUIRE(g.unit);
  std::set<std::string> names;
  for (const clang::FunctionDecl* f : g.calls.functions()) {
    CHECK(f->doesThisDeclarationHaveABody());
    names.insert(f->getQualifiedNameAsString());
  }
  CHECK(names ==
        std::set<std::string>{"helper", "Net::Net", "Net::setup", "Net::run", "other", "unused"});
}

TEST_CASE("the call graph follows calls in initializers, lambdas and templates",
          "[checker][core]") {
  Graph g;
  REQUIRE(g.unit);
  // A constructor's initializer calls as the constructor does.
  CHECK(g.callees("Net::Net") == std::multiset<std::string>{"helper", "Net::setup"});
  // A lambda's calls are its enclosing function's, each call once; calling
  // the lambda is a call of its operator().
  std::multiset<std::string> setup = g.callees("Net::setup");
  CHECK(setup.count("other") == 2);
  CHECK(setup.size() == 3);
  // A call whose callee depends on a template argument reaches every
  // candidate.
  CHECK(g.callees("Net::run") == std::multiset<std::string>{"visit", "visit"});
  CHECK(g.callees("unused").empty());
}

TEST_CASE("the call graph answers who calls a function, by any of its declarations",
          "[checker][core]") {
  Graph g;
  REQUIRE(g.unit);
  CHECK(g.callers("helper") == std::multiset<std::string>{"Net::Net", "other"});
  CHECK(g.callers("other") == std::multiset<std::string>{"Net::setup", "Net::setup"});
  CHECK(g.callers("unused").empty());
  // Asked through the declaration before the definition: the same calls.
  const clang::FunctionDecl* definition = g.function("other");
  const clang::FunctionDecl* first = definition->getPreviousDecl();
  REQUIRE(first);
  CHECK(g.calls.callsTo(first).size() == 2);
  // Each edge names the definition whose body holds the call.
  for (const CallGraph::Edge& e : g.calls.callsTo(definition))
    CHECK(e.Caller->doesThisDeclarationHaveABody());
}
