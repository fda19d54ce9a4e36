// The layers of facts under the rules, each on its own: the identity of
// values, the inventory of what is written, the construction and forward
// paths, the registration facts (ModuleFacts.h), and where a device guard is
// in force (DeviceGuards.h). Parsed against the stand-in headers; each rule's
// input checks what users see of these facts.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "catch.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "tensorplace/checker/CallGraph.h"
#include "tensorplace/checker/DeviceGuards.h"
#include "tensorplace/checker/ModuleFacts.h"
#include "tensorplace/checker/ProjectFacts.h"

using tensorplace::CallGraph;
using tensorplace::DeviceGuards;
using tensorplace::ModuleFacts;
using tensorplace::ModuleInventory;
using tensorplace::ValueIdentity;

namespace {

const char* const kSource = R"(
#include <torch/torch.h>

torch::Tensor keep(torch::Tensor& t) { return t; }
void add_buffer(torch::nn::Module& m, const char* name, torch::Tensor t) {
  m.register_buffer(name, t);
}

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(2, 3))) {
    idx_ = torch::arange(4);
    register_buffer("idx2", idx_ * 2);
    scale_ = torch::ones({3});
    register_buffer("scale", scale_.to(torch::kFloat));
    shift_ = torch::zeros({3});
    add_buffer(*this, "shift", shift_);
    auto w = torch::randn({3});
    register_parameter("w", w);
    w_ = w;
    a_ = torch::nn::Linear(3, 3);
    b_ = torch::nn::Linear(3, 3);
    seq_ = torch::nn::Sequential(a_, b_);
    register_module("seq", seq_);
    lone_ = torch::nn::Linear(3, 3);
    build();
  }
  void build() { extra_ = torch::zeros({1}); }
  torch::Tensor forward(torch::Tensor x) {
    cache_ = x * 2;
    return helper(x) + cache_ + fc(x) + lone_(x) + extra_;
  }
  torch::Tensor helper(torch::Tensor x) { return x + idx_ + state_; }
  torch::Tensor train_only(torch::Tensor x) { return x; }

  torch::nn::Linear fc{nullptr}, a_{nullptr}, b_{nullptr}, lone_{nullptr};
  torch::nn::Sequential seq_{nullptr};
  torch::Tensor idx_, scale_, shift_, w_, extra_, cache_, state_;
};

struct OutOfSightImpl : torch::nn::Module {
  OutOfSightImpl();
  torch::Tensor forward(torch::Tensor x) { return x + t_; }
  torch::Tensor t_;
};

struct CallsElsewhereImpl : torch::nn::Module {
  CallsElsewhereImpl() { init(); }
  void init();
  torch::Tensor forward(torch::Tensor x) { return x + t_; }
  torch::Tensor t_;
};

struct PoolImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

torch::Tensor identity_probe(torch::Tensor& a, torch::Tensor& b, bool c) {
  auto moved = std::move(a);
  auto& ref = b;
  auto sum = a + b;
  auto picked = c ? a : b;
  auto same = a.contiguous();
  auto copy = a.clone();
  auto kept = keep(b);
  return moved;
}
)";

struct Facts {
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      kSource, {"-std=c++17", "-isystem", TENSORPLACE_STAND_IN_DIR}, "facts.cpp");
  CallGraph calls{unit->getASTContext()};
  ModuleFacts facts{unit->getASTContext(), calls};

  const clang::CXXRecordDecl* moduleClass(const std::string& name) const {
    for (const clang::CXXRecordDecl* c : facts.moduleClasses())
      if (c->getNameAsString() == name)
        return c;
    FAIL("no module class " << name);
    return nullptr;
  }
  const clang::FieldDecl* field(const std::string& cls, const std::string& name) const {
    for (const clang::FieldDecl* f : moduleClass(cls)->fields())
      if (f->getNameAsString() == name)
        return f;
    FAIL("no member " << cls << "::" << name);
    return nullptr;
  }
  const clang::FunctionDecl* function(const std::string& name) const {
    for (const clang::FunctionDecl* f : calls.functions())
      if (f->getQualifiedNameAsString() == name)
        return f;
    FAIL("no function " << name);
    return nullptr;
  }
  // The names of what the local `var` of identity_probe() may be (identity)
  // or be computed from (origins).
  std::set<std::string> boundTo(const std::string& var, bool identity) const {
    const clang::VarDecl* local = nullptr;
    for (const auto& entry : facts.inventory().localInits())
      if (entry.first->getNameAsString() == var)
        local = entry.first;
    REQUIRE(local);
    ValueIdentity::Decls out;
    if (identity)
      facts.identity().identity(local->getInit(), out);
    else
      facts.identity().origins(local->getInit(), out);
    std::set<std::string> names;
    for (const clang::ValueDecl* d : out)
      names.insert(d->getNameAsString());
    return names;
  }
};

}  // namespace

TEST_CASE("the inventory lists module classes and the writes to their members", "[checker][core]") {
  Facts f;
  REQUIRE(f.unit);
  REQUIRE_FALSE(f.unit->getDiagnostics().hasErrorOccurred());
  std::set<std::string> classes;
  for (const clang::CXXRecordDecl* c : f.facts.moduleClasses())
    classes.insert(c->getNameAsString());
  CHECK(classes ==
        std::set<std::string>{"NetImpl", "OutOfSightImpl", "CallsElsewhereImpl", "PoolImpl"});

  auto fc = f.facts.writesTo(f.field("NetImpl", "fc"));
  REQUIRE(fc.size() == 2);  // The in-class {nullptr} and the constructor's initializer.
  std::set<ModuleInventory::WriteKind> kinds{fc[0].Kind, fc[1].Kind};
  CHECK(kinds == std::set<ModuleInventory::WriteKind>{ModuleInventory::WriteKind::InClassInit,
                                                      ModuleInventory::WriteKind::CtorInit});
  auto idx = f.facts.writesTo(f.field("NetImpl", "idx_"));
  REQUIRE(idx.size() == 1);
  CHECK(idx[0].Kind == ModuleInventory::WriteKind::Assign);
  CHECK(idx[0].Function->getNameAsString() == "NetImpl");
  CHECK(f.facts.writesTo(f.field("NetImpl", "state_")).empty());

  SECTION("members named in functions, and per-call caches") {
    CHECK(f.facts.isUsedInFunctions(f.field("NetImpl", "state_")));
    CHECK(f.facts.isPerCallCache(f.field("NetImpl", "cache_")));
    CHECK_FALSE(f.facts.isPerCallCache(f.field("NetImpl", "idx_")));
  }
  SECTION("module creations, and the ones made inside a registration") {
    unsigned linears = 0, registered = 0;
    for (const ModuleFacts::ModuleCreation& c : f.facts.moduleCreations()) {
      if (c.Impl->getNameAsString() == "LinearImpl")
        ++linears;
      registered += f.facts.isRegisteredWhereCreated(c.Creation);
    }
    CHECK(linears == 4);  // fc, a_, b_, lone_.
    CHECK(registered == 1);
  }
}

TEST_CASE("value identity tells the object a value is from what it is computed from",
          "[checker][core]") {
  Facts f;
  using Names = std::set<std::string>;
  CHECK(f.boundTo("moved", true) == Names{"a"});
  CHECK(f.boundTo("ref", true) == Names{"b"});
  CHECK(f.boundTo("picked", true) == Names{"a", "b"});
  CHECK(f.boundTo("same", true) == Names{"a"});
  CHECK(f.boundTo("kept", true) == Names{"b"});  // A user function may return its argument.
  // New tensors: they are not a or b.
  CHECK(f.boundTo("sum", true).empty());
  CHECK(f.boundTo("copy", true).empty());
  // Though they are computed from them.
  CHECK(f.boundTo("sum", false) == Names{"a", "b"});
  CHECK(f.boundTo("copy", false) == Names{"a"});
}

TEST_CASE("setup paths place functions on the construction and forward paths", "[checker][core]") {
  Facts f;
  CHECK(f.facts.isConstructionFunction(f.function("NetImpl::NetImpl")));
  CHECK(f.facts.isConstructionFunction(f.function("NetImpl::build")));
  CHECK_FALSE(f.facts.isConstructionFunction(f.function("NetImpl::forward")));

  const ModuleFacts::ForwardPath* root = f.facts.forwardPath(f.function("NetImpl::forward"));
  REQUIRE(root);
  CHECK(root->Caller == nullptr);
  const ModuleFacts::ForwardPath* helper = f.facts.forwardPath(f.function("NetImpl::helper"));
  REQUIRE(helper);
  CHECK(helper->Root == root->Root);
  CHECK(helper->Caller->getNameAsString() == "forward");
  CHECK(f.facts.forwardPath(f.function("NetImpl::build")) == nullptr);
  CHECK(f.facts.forwardPath(f.function("NetImpl::train_only")) == nullptr);

  SECTION("setup out of sight") {
    CHECK_FALSE(f.facts.hasHiddenSetup(f.moduleClass("NetImpl")));
    // The constructor is defined in another file, which sees the setup whole.
    CHECK(f.facts.hasHiddenSetup(f.moduleClass("OutOfSightImpl")));
    CHECK(f.facts.settleableHiddenSetup(f.moduleClass("OutOfSightImpl")).empty());
    // init() may be defined in another file of the project: settled there.
    CHECK(f.facts.hasHiddenSetup(f.moduleClass("CallsElsewhereImpl")));
    auto hidden = f.facts.settleableHiddenSetup(f.moduleClass("CallsElsewhereImpl"));
    REQUIRE(hidden.size() == 1);
    CHECK(hidden[0].Callee->getNameAsString() == "init");
  }
}

TEST_CASE("registration facts count the registered object, not what it is made from",
          "[checker][core]") {
  Facts f;
  auto registered = [&](const char* name) {
    return f.facts.isRegistered(f.field("NetImpl", name));
  };
  CHECK(registered("fc"));      // Assigned what register_module returned.
  CHECK(registered("scale_"));  // to() returns its object when there is nothing to do.
  CHECK(registered("shift_"));  // Through a helper whose parameter reaches a registration.
  CHECK(registered("w_"));      // Given a local that was registered.
  CHECK(registered("seq_"));
  CHECK(registered("a_"));  // Listed in a registered container.
  CHECK(f.facts.listingContainer(f.field("NetImpl", "a_")) == f.field("NetImpl", "seq_"));
  CHECK_FALSE(registered("idx_"));  // idx_ * 2 is a new tensor.
  CHECK_FALSE(registered("lone_"));
  CHECK_FALSE(registered("extra_"));
  CHECK(f.facts.registrations().registers(f.function("add_buffer")));
  CHECK_FALSE(f.facts.registrations().registers(f.function("keep")));
}

TEST_CASE("a module class with no state of its own is stateless", "[checker][core]") {
  Facts f;
  CHECK(f.facts.isStatelessModuleClass(f.moduleClass("PoolImpl")));
  CHECK_FALSE(f.facts.isStatelessModuleClass(f.moduleClass("NetImpl")));
  // Its setup is elsewhere: it may register anything there.
  CHECK_FALSE(f.facts.isStatelessModuleClass(f.moduleClass("OutOfSightImpl")));
}

namespace {

const char* const kGuards = R"(
#include <torch/torch.h>
#include <c10/cuda/CUDAGuard.h>

void launch(torch::Tensor t);
void pick_device(int index) { cudaSetDevice(index); }

void guarded(torch::Tensor t) {
  const c10::cuda::OptionalCUDAGuard guard(t.device());
  launch(t);
}
void set_by_helper(torch::Tensor t) {
  pick_device(t.get_device());
  launch(t);
}
static void inner(torch::Tensor t) { launch(t); }
void outer_guarded(torch::Tensor t) {
  const c10::cuda::CUDAGuard guard(t.device());
  inner(t);
}
void outer_bare(torch::Tensor t) { inner(t); }
void entry(torch::Tensor t) { launch(t); }
static void dead(torch::Tensor t) { launch(t); }
template <typename T> void typed(torch::Tensor t) { launch(t); }
template void typed<float>(torch::Tensor);
struct Scale : torch::autograd::Function<Scale> {
  static torch::Tensor backward(torch::Tensor g) { launch(g); return g; }
};
)";

struct Guards {
  std::unique_ptr<clang::ASTUnit> unit =
      clang::tooling::buildASTFromCodeWithArgs(kGuards,
                                               {"-std=c++17", "-isystem", TENSORPLACE_STAND_IN_DIR,
                                                "-isystem", TENSORPLACE_CUDA_HEADERS_DIR},
                                               "guards.cpp");
  CallGraph calls{unit->getASTContext()};
  DeviceGuards guards{unit->getASTContext(), calls};

  // The state at the call of launch() in the function named name.
  DeviceGuards::State at(const std::string& name) const {
    for (const clang::FunctionDecl* f : calls.functions())
      if (f->getQualifiedNameAsString() == name)
        for (const clang::Stmt* s : f->getBody()->children())
          if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s))
            if (call->getDirectCallee() && call->getDirectCallee()->getNameAsString() == "launch")
              return guards.stateAt(f, call->getBeginLoc());
    FAIL("no call of launch() in " << name);
    return {};
  }
  std::set<std::string> openOn(const std::string& name) const {
    std::set<std::string> keys;
    for (const clang::FunctionDecl* f : at(name).OpenOn)
      keys.insert(tensorplace::functionKey(f));
    return keys;
  }
};

}  // namespace

TEST_CASE("device guards: a guard, a helper that sets the device, or guarded callers",
          "[checker][core]") {
  Guards g;
  REQUIRE(g.unit);
  REQUIRE_FALSE(g.unit->getDiagnostics().hasErrorOccurred());
  CHECK(g.at("guarded").K == DeviceGuards::State::Guarded);
  CHECK(g.at("set_by_helper").K == DeviceGuards::State::Guarded);
  CHECK(g.at("Scale::backward").K == DeviceGuards::State::Guarded);
  // One of its two callers holds no guard.
  CHECK(g.at("inner").K == DeviceGuards::State::Open);
  CHECK(g.openOn("inner") == std::set<std::string>{"outer_bare(at::Tensor)"});
  // No caller here: other files may call it, under a guard or not.
  CHECK(g.at("entry").K == DeviceGuards::State::Open);
  CHECK(g.openOn("entry") == std::set<std::string>{"entry(at::Tensor)"});
  // A template is called from other files through its explicit instantiations.
  CHECK(g.at("typed").K == DeviceGuards::State::Open);
  CHECK(g.openOn("typed").size() == 1);
  // Nothing else can call a file-local function.
  CHECK(g.at("dead").K == DeviceGuards::State::Unguarded);
}

TEST_CASE("project facts: calls of another file's functions, with their guard state",
          "[checker][core]") {
  using tensorplace::DeviceCall;
  Guards g;
  std::map<std::string, DeviceCall> calls;  // Of launch(), by caller.
  for (const tensorplace::FunctionSummary& s :
       tensorplace::summarizeFunctions(g.unit->getASTContext(), g.calls, g.guards))
    for (const DeviceCall& call : s.DeviceCalls)
      if (call.Callee == "launch(at::Tensor)")
        calls[s.Key.substr(0, s.Key.find('('))] = call;
  CHECK(calls.at("guarded").State == DeviceCall::Guarded);
  CHECK(calls.at("set_by_helper").State == DeviceCall::Guarded);
  CHECK(calls.at("entry").State == DeviceCall::Open);
  CHECK(calls.at("entry").OpenOn == std::vector<std::string>{"entry(at::Tensor)"});
  // File-local: summarised under a key of its own, for its calls.
  CHECK(calls.at("dead").State == DeviceCall::Unguarded);

  SECTION("settled over the project") {
    auto call = [](DeviceCall::Kind state, std::vector<std::string> open_on = {}) {
      DeviceCall c;
      c.Callee = "launch(at::Tensor)";
      c.State = state;
      c.OpenOn = std::move(open_on);
      return c;
    };
    const std::vector<std::string> launch{"launch(at::Tensor)"};
    tensorplace::ProjectSummaries project;
    // Called nowhere: an entry point of a library.
    CHECK(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
    project["ops()"].DeviceCalls = {call(DeviceCall::Guarded)};
    CHECK_FALSE(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
    // A caller with compiler errors may hold a guard among what was lost.
    project["broken()"].DeviceCalls = {call(DeviceCall::Unknown)};
    CHECK_FALSE(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
    // Open on wrapper(): as guarded as the calls of wrapper() elsewhere.
    project["wrapper()"].DeviceCalls = {call(DeviceCall::Open, {"wrapper()"})};
    CHECK(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
    DeviceCall guarded_wrapper = call(DeviceCall::Guarded);
    guarded_wrapper.Callee = "wrapper()";
    project["main()"].DeviceCalls = {guarded_wrapper};
    CHECK_FALSE(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
    project["bare()"].DeviceCalls = {call(DeviceCall::Unguarded)};
    CHECK(tensorplace::calledWithoutGuard(launch, tensorplace::indexDeviceCalls(project)));
  }
}

TEST_CASE("project facts: which setup functions register state here or through their calls",
          "[checker][core]") {
  const char* const source = R"(
#include <torch/torch.h>
void add_layers(torch::nn::Module& m);
struct BlockImpl : torch::nn::Module {
  BlockImpl();
  explicit BlockImpl(int n);
  void build();
};
struct StackImpl : torch::nn::SequentialImpl {
  StackImpl();
  explicit StackImpl(int n);
};
static void keep(torch::nn::Module& m) { m.register_buffer("b", torch::zeros({1})); }
BlockImpl::BlockImpl() { keep(*this); }
BlockImpl::BlockImpl(int n) { add_layers(*this); }
void BlockImpl::build() {}
StackImpl::StackImpl() { push_back(torch::nn::Linear(2, 2)); }
StackImpl::StackImpl(int n) { push_back(torch::nn::ReLU()); }
)";
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      source, {"-std=c++17", "-isystem", TENSORPLACE_STAND_IN_DIR}, "state.cpp");
  REQUIRE(unit);
  REQUIRE_FALSE(unit->getDiagnostics().hasErrorOccurred());
  CallGraph calls{unit->getASTContext()};
  DeviceGuards guards{unit->getASTContext(), calls};
  tensorplace::ProjectSummaries project;
  for (const tensorplace::FunctionSummary& s :
       tensorplace::summarizeFunctions(unit->getASTContext(), calls, guards)) {
    project[s.Key].Registers = s.Registers;
    project[s.Key].Calls = s.Calls;
  }
  auto registers = [&](const std::string& key) {
    INFO(key);
    REQUIRE(project.count(key));
    return project[key].Registers;
  };
  // Through a helper of its own file.
  CHECK(registers("BlockImpl::BlockImpl()"));
  // Only through a function no file here defines: not known yet.
  CHECK_FALSE(registers("BlockImpl::BlockImpl(int)"));
  CHECK(project["BlockImpl::BlockImpl(int)"].Calls ==
        std::vector<std::string>{"add_layers(torch::nn::Module &)"});
  CHECK_FALSE(registers("BlockImpl::build()"));
  // Sequential::push_back() registers what it is given; an activation has no state.
  CHECK(registers("StackImpl::StackImpl()"));
  CHECK_FALSE(registers("StackImpl::StackImpl(int)"));

  // Over the project: the call is followed to the file that defines it.
  const std::vector<std::string> ctor{"BlockImpl::BlockImpl(int)"};
  CHECK_FALSE(tensorplace::registersState(ctor, project));
  project["add_layers(torch::nn::Module &)"].Registers = true;
  CHECK(tensorplace::registersState(ctor, project));
  CHECK_FALSE(tensorplace::registersState({"BlockImpl::build()"}, project));
  CHECK_FALSE(tensorplace::registersState({"never_summarised()"}, project));
}
