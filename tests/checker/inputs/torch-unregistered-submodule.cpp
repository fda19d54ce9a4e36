// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-unregistered-submodule. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return torch::relu(fc(x)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);

// --- must warn -------------------------------------------------------------

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() : proj_(torch::nn::Linear(8, 4)) {
    fc = torch::nn::Linear(4, 2);
    drop = torch::nn::Dropout(0.5);
    block_ = std::make_shared<BlockImpl>();
    block2 = Block();
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc(drop(block2(block_->forward(proj_(x)))));
  }
  torch::nn::Linear proj_; // expect: torch-unregistered-submodule
  // message: 'proj_' holds a submodule of module 'ClassifierImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-9: 'proj_' is given a module here; register it with proj_ = register_module("proj", ...)
  torch::nn::Linear fc{nullptr}; // expect: torch-unregistered-submodule
  // message: 'fc' holds a submodule of module 'ClassifierImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-11: 'fc' is given a module here; register it with fc = register_module("fc", ...)
  // fixed@-11: fc = register_module("fc", torch::nn::Linear(4, 2));
  torch::nn::Dropout drop{nullptr}; // expect: torch-unregistered-submodule
  // message: 'drop' holds a submodule of module 'ClassifierImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it, so 'DropoutImpl' stays in training mode after eval()
  // note@-14: 'drop' is given a module here; register it with drop = register_module("drop", ...)
  // fixed@-14: drop = register_module("drop", torch::nn::Dropout(0.5));
  std::shared_ptr<BlockImpl> block_; // expect: torch-unregistered-submodule
  // message: 'block_' holds a submodule of module 'ClassifierImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-17: 'block_' is given a module here; register it with block_ = register_module("block", ...)
  // fixed@-17: block_ = register_module("block", std::make_shared<BlockImpl>());
  Block block2{nullptr}; // expect: torch-unregistered-submodule
  // message: 'block2' holds a submodule of module 'ClassifierImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-20: 'block2' is given a module here; register it with block2 = register_module("block2", ...)
  // fixed@-20: block2 = register_module("block2", Block());
};

// Containers of handles, and a default-constructed Sequential that is filled
// but never registered.
struct MultiHeadImpl : torch::nn::Module {
  MultiHeadImpl() {
    for (int i = 0; i < 3; ++i)
      heads_.push_back(torch::nn::Linear(4, 2));
    body->push_back(torch::nn::Linear(2, 2));
  }
  std::vector<torch::nn::Linear> heads_; // expect: torch-unregistered-submodule
  // message: 'heads_' holds submodules of module 'MultiHeadImpl' that are never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach them
  // note@-3: 'heads_' is given a module here; register it with register_module(name, ...) for each element
  torch::nn::Sequential body; // expect: torch-unregistered-submodule
  // message: 'body' holds a submodule of module 'MultiHeadImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@+0: 'body' default-constructs a module here; register it with body = register_module("body", ...)
};

// A module handle of an abstract base type: what it holds has state.
struct OutputLayer : torch::nn::Module {
  virtual torch::Tensor forward(torch::Tensor x) = 0;
};
struct CategoricalOutput : OutputLayer {
  CategoricalOutput() { linear = register_module("linear", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) override { return linear(x); }
  torch::nn::Linear linear{nullptr};
};
struct PolicyImpl : torch::nn::Module {
  PolicyImpl() { output_layer = std::make_shared<CategoricalOutput>(); }
  std::shared_ptr<OutputLayer> output_layer; // expect: torch-unregistered-submodule
  // message: 'output_layer' holds a submodule of module 'PolicyImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-1: 'output_layer' is given a module here; register it with output_layer = register_module("output_layer", ...)
  // fixed@-1: PolicyImpl() { output_layer = register_module("output_layer", std::make_shared<CategoricalOutput>()); }
};

// Macro case.
#define TP_MAKE_LAYER(member, in, out) member = torch::nn::Linear(in, out)
struct MacroNetImpl : torch::nn::Module {
  MacroNetImpl() { TP_MAKE_LAYER(hidden, 4, 4); }
  torch::nn::Linear hidden{nullptr}; // expect: torch-unregistered-submodule
  // message: 'hidden' holds a submodule of module 'MacroNetImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-1: 'hidden' is given a module here; register it with hidden = register_module("hidden", ...)
};

// Template case.
template <int Width>
struct StackImpl : torch::nn::Module {
  StackImpl() { layer = torch::nn::Linear(Width, Width); }
  torch::nn::Linear layer{nullptr}; // expect: torch-unregistered-submodule
  // message: 'layer' holds a submodule of module 'StackImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-1: 'layer' is given a module here; register it with layer = register_module("layer", ...)
  // fixed@-1: StackImpl() { layer = register_module("layer", torch::nn::Linear(Width, Width)); }
};

// A registered block whose setup is in another file, and a call of its
// method there, say nothing about the parent's other members.
struct GateImpl : torch::nn::Module {
  explicit GateImpl(int64_t width);
  torch::Tensor forward(torch::Tensor x);
  void calibrate();
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(Gate);

struct GatedStackImpl : torch::nn::Module {
  GatedStackImpl() {
    gate = register_module("gate", Gate(8));
    side = register_module("side", std::make_shared<GateImpl>(8));
    skip = torch::nn::Linear(8, 8);
    gate->calibrate();
  }
  torch::Tensor forward(torch::Tensor x) { return side->forward(gate(x)) + skip(x); }
  Gate gate{nullptr};
  std::shared_ptr<GateImpl> side;
  torch::nn::Linear skip{nullptr}; // expect: torch-unregistered-submodule
  // message: 'skip' holds a submodule of module 'GatedStackImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-6: 'skip' is given a module here; register it with skip = register_module("skip", ...)
  // fixed@-6: skip = register_module("skip", torch::nn::Linear(8, 8));
};

// Modules held by value: register_module() takes a handle, so what these
// members hold is never registered, whatever the constructor does.
struct ResidualUnit : torch::nn::Module {
  ResidualUnit(int64_t in, int64_t out) {
    conv = register_module("conv", torch::nn::Conv2d(in, out, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return x + conv(x); }
  torch::nn::Conv2d conv{nullptr};
};

static std::vector<ResidualUnit> make_stage(int64_t channels, int count) {
  std::vector<ResidualUnit> stage;
  for (int i = 0; i < count; ++i)
    stage.push_back(ResidualUnit(channels, channels));
  return stage;
}

struct ByValueNetImpl : torch::nn::Module {
  ByValueNetImpl() : head(8, 4) {
    stage1 = make_stage(8, 2);
    stage2.emplace_back(8, 8);
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& unit : stage1) x = unit.forward(x);
    for (auto& unit : stage2) x = unit.forward(x);
    return head.forward(norm.forward(x));
  }
  std::vector<ResidualUnit> stage1; // expect: torch-unregistered-submodule
  // message: 'stage1' holds 'ResidualUnit' modules by value in module 'ByValueNetImpl'; a module held by value cannot be registered, so Module::to(), parameters(), train()/eval() and torch::save() will not reach them
  // note@-8: hold the elements through module holders and register each with register_module(), or use a torch::nn::ModuleList
  std::vector<ResidualUnit> stage2; // expect: torch-unregistered-submodule
  // message: 'stage2' holds 'ResidualUnit' modules by value in module 'ByValueNetImpl'; a module held by value cannot be registered, so Module::to(), parameters(), train()/eval() and torch::save() will not reach them
  // note@-10: hold the elements through module holders and register each with register_module(), or use a torch::nn::ModuleList
  torch::nn::LinearImpl head; // expect: torch-unregistered-submodule
  // message: 'head' holds a 'LinearImpl' module by value in module 'ByValueNetImpl'; a module held by value cannot be registered, so Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@+0: hold it through a module holder or a std::shared_ptr and register it with register_module()
  torch::nn::BatchNorm2dImpl norm{8}; // expect: torch-unregistered-submodule
  // message: 'norm' holds a 'BatchNorm2dImpl' module by value in module 'ByValueNetImpl'; a module held by value cannot be registered, so Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@+0: hold it through a module holder or a std::shared_ptr and register it with register_module()
};

// A TorchScript backbone: register_module() cannot take it, and nothing here
// moves it.
struct FeatureNetImpl : torch::nn::Module {
  explicit FeatureNetImpl(torch::jit::script::Module net) {
    features = net;
    head = register_module("head", torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    return head(features.forward({x}).toTensor());
  }
  torch::jit::script::Module features; // expect: torch-unregistered-submodule
  // message: 'features' holds a TorchScript module (torch::jit::Module) in module 'FeatureNetImpl'; register_module() cannot take one, so Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-6: move it with features.to(device) where the module is moved (an override of to() does it for every caller)
  torch::nn::Linear head{nullptr};
};

// Registered in the initializer list, then replaced in the constructor body:
// the parent keeps the first Linear, forward() uses the second, which is never
// registered.
struct ReboundHeadImpl : torch::nn::Module {
  ReboundHeadImpl() : head(register_module("head", torch::nn::Linear(8, 4))) {
    head = torch::nn::Linear(8, 2); // expect: torch-unregistered-submodule
    // message: 'head' holds a submodule of module 'ReboundHeadImpl' that is never registered: this assignment replaces the module registered before it, so Module::to(), parameters(), train()/eval() and torch::save() reach the registered one, which forward() does not use
    // note@-1: 'head' is registered here
    // note@+0: give the registration this module instead, or swap it with head = replace_module("head", ...), or silence with // NOLINT(torch-unregistered-submodule)
  }
  torch::Tensor forward(torch::Tensor x) { return head(x); }
  torch::nn::Linear head{nullptr};
};

// The same in a setup helper the constructor calls, with a module that
// switches with train()/eval().
struct ReboundDropoutImpl : torch::nn::Module {
  ReboundDropoutImpl() { build(0.3); }
  void build(double p) {
    drop = register_module("drop", torch::nn::Dropout(0.1));
    drop = torch::nn::Dropout(p); // expect: torch-unregistered-submodule
    // message: 'drop' holds a submodule of module 'ReboundDropoutImpl' that is never registered: this assignment replaces the module registered before it, so Module::to(), parameters(), train()/eval() and torch::save() reach the registered one, which forward() does not use, and 'DropoutImpl' stays in training mode after eval()
    // note@-1: 'drop' is registered here
  }
  torch::Tensor forward(torch::Tensor x) { return drop(x); }
  torch::nn::Dropout drop{nullptr};
};

// The same chain, given a new layer as well: that layer is reached by nothing.
// No fix-it: registering chain_ as well would list a_ and b_ twice in
// parameters(), and an optimizer would step them twice.
struct GrownChainImpl : torch::nn::Module {
  GrownChainImpl() {
    a_ = register_module("a", torch::nn::Linear(4, 4));
    b_ = register_module("b", torch::nn::Linear(4, 4));
    chain_ = torch::nn::Sequential(a_, b_);
    chain_->push_back(torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) { return chain_->forward(x); }
  torch::nn::Linear a_{nullptr}, b_{nullptr};
  torch::nn::Sequential chain_{nullptr}; // expect: torch-unregistered-submodule
  // note@-5: 'chain_' is given a module here around modules that are registered on their own
};

// The same with one member: Sequential(a_) is a new container, not a copy of
// a_, and the layer pushed into it is reached by nothing.
struct GrownSingleChainImpl : torch::nn::Module {
  GrownSingleChainImpl() {
    a_ = register_module("a", torch::nn::Linear(4, 4));
    chain_ = torch::nn::Sequential(a_);
    chain_->push_back(torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) { return chain_->forward(x); }
  torch::nn::Linear a_{nullptr};
  torch::nn::Sequential chain_{nullptr}; // expect: torch-unregistered-submodule
  // note@-5: 'chain_' is given a module here around modules that are registered on their own
};

// A list given one block that is registered on its own and one that is not:
// the second is reached by nothing. No fix-it: registering the list as well
// would list the first block twice.
struct HalfListedImpl : torch::nn::Module {
  HalfListedImpl() {
    auto first = torch::nn::Linear(4, 4);
    register_module("first", first);
    layers->push_back(first);
    layers->push_back(torch::nn::Linear(4, 4));
  }
  torch::Tensor forward(torch::Tensor x) {
    return layers->ptr<torch::nn::LinearImpl>(1)->forward(layers->ptr<torch::nn::LinearImpl>(0)->forward(x));
  }
  torch::nn::ModuleList layers; // expect: torch-unregistered-submodule
  // note@+0: 'layers' default-constructs a module here around modules that are registered on their own
};

// Members listed in a container that is not registered either: registering
// the container reaches them, so only the container gets a fix-it
// (registering both would list a_ twice in parameters()).
struct UnregisteredChainImpl : torch::nn::Module {
  UnregisteredChainImpl() {
    a_ = torch::nn::Linear(4, 4);
    chain_ = torch::nn::Sequential(a_);
  }
  torch::Tensor forward(torch::Tensor x) { return chain_->forward(x); }
  torch::nn::Linear a_{nullptr}; // expect: torch-unregistered-submodule
  // note@-4: 'a_' is given a module here
  // note@-3: 'a_' is listed in 'chain_' here; register 'chain_' and it reaches 'a_' too
  torch::nn::Sequential chain_{nullptr}; // expect: torch-unregistered-submodule
  // fixed@-6: chain_ = register_module("chain", torch::nn::Sequential(a_));
};

// A Sequential built around blocks made with new[] here: the whole tower is
// new, and nothing registers it.
struct ResTowerImpl : torch::nn::Module {
  explicit ResTowerImpl(int n) {
    Block* blocks = new Block[n]();
    body = torch::nn::Sequential(*blocks);
    delete[] blocks;
  }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr}; // expect: torch-unregistered-submodule
  // message: 'body' holds a submodule of module 'ResTowerImpl' that is never registered
  // note@-4: 'body' is given a module here; register it with body = register_module("body", ...)
  // fixed@-4: body = register_module("body", torch::nn::Sequential(*blocks));
};

// Raw pointers to modules the class makes itself with new: a raw pointer
// cannot be registered as it is, and nothing registers a shared_ptr to it.
struct StemBlock : torch::nn::Module {
  StemBlock() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct StemImpl : torch::nn::Module {
  StemImpl() {
    head = register_module("head", torch::nn::Linear(8, 2));
    neck_ = new torch::nn::LinearImpl(8, 8);
  }
  torch::Tensor forward(torch::Tensor x) { return head(neck_->forward(body->forward(x))); }
  StemBlock* body = new StemBlock(); // expect: torch-unregistered-submodule
  // message: 'body' points to a 'StemBlock' module of module 'StemImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  torch::nn::Linear head{nullptr};
  torch::nn::LinearImpl* neck_ = nullptr; // expect: torch-unregistered-submodule
};

// The same in a class template: the pointee is a template of the module.
template <typename T>
struct StageImpl : torch::nn::Module {
  StageImpl() { conv = register_module("conv", torch::nn::Conv2d(3, 3, 1)); }
  T forward(T x) { return conv(x); }
  torch::nn::Conv2d conv{nullptr};
};
template <typename T>
struct StagesImpl : torch::nn::Module {
  T forward(T x) { return first->forward(x); }
  StageImpl<T>* first = new StageImpl<T>(); // expect: torch-unregistered-submodule
};
template struct StagesImpl<torch::Tensor>;

// A head built from a size read off another member: neither is listed in
// the other, and each is reported with its own advice.
struct ExtractorImpl : torch::nn::Module {
  ExtractorImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  int64_t out_features() const { return 4; }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Extractor);
torch::nn::Sequential make_predictor(int64_t in) { return torch::nn::Sequential(torch::nn::Linear(in, 1)); }
struct MaskHeadImpl : torch::nn::Module {
  MaskHeadImpl() : extractor(Extractor()), predictor(make_predictor(extractor->out_features())) {}
  torch::Tensor forward(torch::Tensor x) { return predictor->forward(extractor->forward(x)); }
  Extractor extractor; // expect: torch-unregistered-submodule
  // note@-2: 'extractor' is given a module here; register it with extractor = register_module("extractor", ...)
  torch::nn::Sequential predictor; // expect: torch-unregistered-submodule
  // note@-4: 'predictor' is given a module here; register it with predictor = register_module("predictor", ...)
};

// A network the policy moves by hand and also runs: its own forward() uses
// it, so a later policy->to(kCUDA) leaves what forward() runs on the CPU.
struct QHeadImpl : torch::nn::Module {
  QHeadImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor q_values(const torch::Tensor& x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct GreedyPolicyImpl : torch::nn::Module {
  void reset(torch::Device device) {
    q_net_ = std::make_shared<QHeadImpl>();
    q_net_->to(device);
  }
  torch::Tensor forward(const torch::Tensor& obs) { return q_net_->q_values(obs).argmax(-1); }
  std::shared_ptr<QHeadImpl> q_net_; // expect: torch-unregistered-submodule
};

// A module held by value whose class forgot to register its own layer: it
// has state all the same, and the parent's to() reaches neither.
struct ForgetfulAttnImpl : torch::nn::Module {
  ForgetfulAttnImpl() : proj(torch::nn::Linear(8, 8)) {}
  torch::Tensor forward(const torch::Tensor& x) { return proj(x); }
  torch::nn::Linear proj; // expect: torch-unregistered-submodule
};
struct ByValueBlockImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor& x) { return attn.forward(x); }
  ForgetfulAttnImpl attn; // expect: torch-unregistered-submodule
};

// A private module base, and the class registers part of its state: it is a
// module to its own code, which moves and saves it through that base.
class PrivateHeadImpl : torch::nn::Module {
 public:
  PrivateHeadImpl() {
    body_ = register_module("body", torch::nn::Linear(4, 4));
    head_ = torch::nn::Linear(4, 2);
  }
  torch::Tensor forward(torch::Tensor x) { return head_(body_(x)); }

 private:
  torch::nn::Linear body_{nullptr};
  torch::nn::Linear head_{nullptr}; // expect: torch-unregistered-submodule
  // fixed@-6: head_ = register_module("head", torch::nn::Linear(4, 2));
};

// A type-erased layer: a torch::nn::AnyModule is registered with
// register_module(name, any.ptr()), which this class never calls.
struct ConfigurableHeadImpl : torch::nn::Module {
  explicit ConfigurableHeadImpl(bool mix) {
    proj_ = register_module("proj", torch::nn::Linear(8, 8));
    if (mix)
      post_ = torch::nn::AnyModule(torch::nn::Linear(8, 8));
    else
      post_ = torch::nn::AnyModule(torch::nn::Identity());
  }
  torch::Tensor forward(torch::Tensor x) { return post_.forward(proj_(x)); }
  torch::nn::Linear proj_{nullptr};
  torch::nn::AnyModule post_; // expect: torch-unregistered-submodule
  // message: 'post_' holds a submodule of module 'ConfigurableHeadImpl' that is never registered; Module::to(), parameters(), train()/eval() and torch::save() will not reach it
  // note@-6: 'post_' is given a 'LinearImpl' here; register it with register_module("post", post_.ptr()), or silence with // NOLINT(torch-unregistered-submodule)
};

// --- must not warn ----------------------------------------------------------

// AnyModule members registered through ptr(), wrapping a registered member,
// holding a stateless layer, or made by a function whose body is elsewhere.
torch::nn::AnyModule make_activation(const std::string& kind);
struct AnyModuleBlockImpl : torch::nn::Module {
  AnyModuleBlockImpl() {
    norm_ = torch::nn::AnyModule(torch::nn::Linear(8, 8));
    register_module("norm", norm_.ptr());
    fc_ = register_module("fc", torch::nn::Linear(8, 8));
    shared_ = torch::nn::AnyModule(fc_);
    act_ = torch::nn::AnyModule(torch::nn::ReLU());
    chosen_ = make_activation("gelu");
  }
  torch::Tensor forward(torch::Tensor x) {
    return chosen_.forward(act_.forward(shared_.forward(norm_.forward(x))));
  }
  torch::nn::AnyModule norm_, shared_, act_, chosen_;
  torch::nn::Linear fc_{nullptr};
};

// A class with a private module base that uses nothing of it: nothing can
// call Module::to() on it, so its layer is placed by its own code alone.
class ProjectorTool : torch::nn::Module {
 public:
  explicit ProjectorTool(torch::Device device) : proj_(torch::nn::Linear(3, 2)) {
    proj_->to(device);
  }
  torch::Tensor project(const torch::Tensor& points) { return proj_(points); }

 private:
  torch::nn::Linear proj_;
};

// Raw pointers that are registered through a shared_ptr, given by the caller,
// pointing back to the owner, or to a module with no state.
struct PointersImpl : torch::nn::Module {
  PointersImpl(StemBlock* shared, torch::nn::Module* owner) : shared_(shared), owner_(owner) {
    own_ = new StemBlock();
    register_module("own", std::shared_ptr<StemBlock>(own_));
    act_ = new torch::nn::ReLUImpl();
  }
  torch::Tensor forward(torch::Tensor x) { return act_->forward(own_->forward(shared_->forward(x))); }
  StemBlock* own_ = nullptr;
  StemBlock* shared_;
  torch::nn::Module* owner_;
  torch::nn::ReLUImpl* act_ = nullptr;
};

// A Sequential around a block the caller owns (and registers).
struct SharedTowerImpl : torch::nn::Module {
  explicit SharedTowerImpl(Block* shared) { body = torch::nn::Sequential(*shared); }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};

// The same around a layer handed in as a holder.
struct SharedHeadImpl : torch::nn::Module {
  explicit SharedHeadImpl(torch::nn::Linear head) { body = torch::nn::Sequential(head); }
  torch::Tensor forward(torch::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};

struct RegisteredImpl : torch::nn::Module {
  RegisteredImpl() : fc2(register_module("fc2", torch::nn::Linear(4, 4))) {
    fc1 = register_module("fc1", torch::nn::Linear(3, 4));
    fc3 = torch::nn::Linear(4, 4);
    register_module("fc3", fc3);
    head_ = add("head", torch::nn::Linear(4, 2));
  }
  template <typename M>
  M add(const std::string& name, M module) {
    register_module(name, module);
    return module;
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr}, head_{nullptr};
};

// Registration inside a local lambda the constructor calls. Found in public
// code.
struct UNetImpl : torch::nn::Module {
  UNetImpl() {
    auto block = [&](const std::string& name, int64_t in, int64_t out) {
      auto seq = torch::nn::Sequential(torch::nn::Linear(in, out), torch::nn::ReLU());
      return register_module(name, seq);
    };
    enc_ = block("enc", 4, 8);
    for (int i = 0; i < 2; ++i)
      dec_.push_back(block("dec" + std::to_string(i), 8, 8));
  }
  torch::nn::Sequential enc_{nullptr};
  std::vector<torch::nn::Sequential> dec_;
};

// A loss with default options holds no tensor.
struct TrainerImpl : torch::nn::Module {
  TrainerImpl() { criterion = torch::nn::CrossEntropyLoss(); }
  torch::nn::CrossEntropyLoss criterion{nullptr};
};

// Stateless built-ins and a user module without state of its own.
struct SwishImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * torch::sigmoid(x); }
};
TORCH_MODULE(Swish);
struct ActivationsImpl : torch::nn::Module {
  ActivationsImpl() { act = torch::nn::ReLU(); }
  torch::Tensor forward(torch::Tensor x) { return swish(flat(act(x))); }
  torch::nn::ReLU act{nullptr};
  torch::nn::Flatten flat;
  Swish swish;
};

// Modules built in a constructor loop, registered one by one.
struct TowerImpl : torch::nn::Module {
  explicit TowerImpl(int depth) {
    for (int i = 0; i < depth; ++i)
      layers_.push_back(register_module("layer" + std::to_string(i), torch::nn::Linear(4, 4)));
    for (int i = 0; i < 2; ++i)
      heads_.emplace_back(torch::nn::Linear(4, 2));
    for (size_t i = 0; i < heads_.size(); ++i)
      register_module("head" + std::to_string(i), heads_[i]);
  }
  std::vector<torch::nn::Linear> layers_;
  std::vector<torch::nn::Linear> heads_;
};

// A copy of the member's module registered: the copy holds the member's own
// parameter tensors, which Module::to() moves in place.
struct TwinImpl : torch::nn::Module {
  TwinImpl() {
    fc_ = torch::nn::Linear(4, 4);
    register_module("twin", std::make_shared<torch::nn::LinearImpl>(*fc_));
  }
  torch::Tensor forward(torch::Tensor x) { return fc_(x); }
  torch::nn::Linear fc_{nullptr};
};

// Each head stored in a plain vector and registered, in either order.
struct HeadsImpl : torch::nn::Module {
  explicit HeadsImpl(int n) {
    for (int i = 0; i < n; ++i) {
      auto head = std::make_shared<torch::nn::LinearImpl>(4, 4);
      heads_.push_back(head);
      register_module("head_" + std::to_string(i), head);
    }
  }
  std::vector<std::shared_ptr<torch::nn::LinearImpl>> heads_;
};

// A Sequential built from members registered on their own: to(),
// parameters(), eval() and torch::save() reach them through their own
// registration, and the container holds nothing else.
struct ChainImpl : torch::nn::Module {
  ChainImpl() {
    a_ = register_module("a", torch::nn::Linear(4, 4));
    b_ = register_module("b", torch::nn::Linear(4, 4));
    chain_ = torch::nn::Sequential(a_, b_);
  }
  torch::Tensor forward(torch::Tensor x) { return chain_->forward(x); }
  torch::nn::Linear a_{nullptr}, b_{nullptr};
  torch::nn::Sequential chain_{nullptr};
};

// A ModuleList kept to index blocks that are each registered as they are
// added: registration reaches every element, and registering the list as
// well would list each block twice in parameters().
struct IndexedBlocksImpl : torch::nn::Module {
  explicit IndexedBlocksImpl(int depth) {
    for (int i = 0; i < depth; ++i) {
      auto block = torch::nn::Linear(4, 4);
      register_module("block" + std::to_string(i), block);
      blocks->push_back(block);
      norms_->push_back(register_module("norm" + std::to_string(i), torch::nn::Linear(4, 4)));
    }
    head_ = register_module("head", torch::nn::Linear(4, 2));
    heads_ = torch::nn::ModuleList();
    heads_->push_back(head_);
  }
  torch::Tensor forward(torch::Tensor x) {
    for (size_t i = 0; i < blocks->size(); ++i)
      x = norms_->ptr<torch::nn::LinearImpl>(i)->forward(blocks->ptr<torch::nn::LinearImpl>(i)->forward(x));
    return heads_->ptr<torch::nn::LinearImpl>(0)->forward(x);
  }
  torch::nn::ModuleList blocks;
  torch::nn::ModuleList norms_;
  torch::nn::Linear head_{nullptr};
  torch::nn::ModuleList heads_{nullptr};
};

// Pushed into a registered container module; a Sequential filled, then
// registered; a ModuleList registered first, then filled.
struct ContainersImpl : torch::nn::Module {
  ContainersImpl() {
    inner = torch::nn::Linear(2, 2);
    seq = register_module("seq", torch::nn::Sequential());
    seq->push_back(inner);
    features->push_back(torch::nn::Linear(2, 2));
    features->push_back(torch::nn::ReLU());
    register_module("features", features);
    list = register_module("list", torch::nn::ModuleList());
    list->push_back(torch::nn::Linear(1, 1));
  }
  torch::nn::Linear inner{nullptr};
  torch::nn::Sequential seq{nullptr};
  torch::nn::Sequential features;
  torch::nn::ModuleList list{nullptr};
};

// A module handed in by the caller is registered by whoever owns it; an
// empty holder never assigned holds nothing.
struct HeadImpl : torch::nn::Module {
  HeadImpl(torch::nn::Linear shared, torch::nn::Linear moved)
      : shared_(shared), moved_(std::move(moved)) {}
  torch::nn::Linear shared_;
  torch::nn::Linear moved_;
  torch::nn::Linear unused{nullptr};
};

// Cloneable: registration in reset().
struct ResidualImpl : torch::nn::Cloneable<ResidualImpl> {
  ResidualImpl() { reset(); }
  void reset() override { body = register_module("body", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return x + body(x); }
  torch::nn::Linear body{nullptr};
};

// Template case: a dependent holder type registered through this->.
template <typename Inner>
struct WrapperImpl : torch::nn::Cloneable<WrapperImpl<Inner>> {
  explicit WrapperImpl(Inner inner) : inner_(inner) { reset(); }
  void reset() override { inner_ = this->register_module("inner", inner_); }
  Inner inner_;
};
template struct WrapperImpl<torch::nn::Linear>;

// Silenced on purpose.
struct DebugImpl : torch::nn::Module {
  DebugImpl() { probe = torch::nn::Linear(1, 1); }
  torch::nn::Linear probe{nullptr}; // NOLINT(torch-unregistered-submodule)
};

// A user module whose methods are defined in another file and that has no
// tensor or module members: whether it holds state is not known here, so it
// is not claimed.
struct ShiftImpl : torch::nn::Module {
  explicit ShiftImpl(double amount);
  torch::Tensor forward(torch::Tensor x);
  double amount;
};
TORCH_MODULE(Shift);

struct ShiftedImpl : torch::nn::Module {
  ShiftedImpl() : shift(0.5) { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return shift(fc(x)); }
  torch::nn::Linear fc{nullptr};
  Shift shift;
};

// Held by value, but stateless, never given a module, or unused.
struct ScaleOnly : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};

struct ValueMembersImpl : torch::nn::Module {
  ValueMembersImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& unit : spare) x = unit.forward(x);
    return act.forward(scale.forward(fc(x)));
  }
  torch::nn::Linear fc{nullptr};
  ScaleOnly scale;
  torch::nn::ReLUImpl act;
  std::vector<ResidualUnit> spare;
  std::vector<ResidualUnit> unused{ResidualUnit(4, 4)};
  torch::nn::LinearImpl prototype{4, 4};
};

// TorchScript backbones moved by an override of to(), or by hand.
struct MovedBackboneImpl : torch::nn::Module {
  explicit MovedBackboneImpl(torch::jit::Module net) : backbone(net) {}
  torch::Tensor forward(torch::Tensor x) { return backbone.forward({x}).toTensor(); }
  void to(torch::Device device, bool non_blocking = false) override {
    backbone.to(device, non_blocking);
    torch::nn::Module::to(device, non_blocking);
  }
  torch::jit::Module backbone;
};

struct HandMovedImpl : torch::nn::Module {
  explicit HandMovedImpl(std::shared_ptr<torch::jit::Module> net) : backbone(std::move(net)) {}
  torch::Tensor forward(torch::Tensor x) { return backbone->forward({x}).toTensor(); }
  std::shared_ptr<torch::jit::Module> backbone;
};

void place(HandMovedImpl& model, torch::Device device) {
  model.backbone->to(device);
}

// Per-device replicas, one of which is the module itself: registering them
// would make the module its own child.
struct ReplicatedImpl : torch::nn::Module {
  ReplicatedImpl() : fc_(register_module("fc", torch::nn::Linear(8, 8))) {}
  torch::Tensor forward(torch::Tensor x) { return fc_(x); }
  void replicate(const std::vector<torch::Device>& devices) {
    replicas_.assign(devices.size(), nullptr);
    for (size_t i = 0; i < devices.size(); ++i) {
      if (i == 0) {
        replicas_[i] = std::dynamic_pointer_cast<ReplicatedImpl>(shared_from_this());
      } else {
        replicas_[i] = std::make_shared<ReplicatedImpl>();
        replicas_[i]->to(devices[i]);
      }
    }
  }
  torch::nn::Linear fc_{nullptr};
  std::vector<std::shared_ptr<ReplicatedImpl>> replicas_;
};

// Children of the module's own class, new ones: never registered.
struct TreeNodeImpl : torch::nn::Module {
  explicit TreeNodeImpl(int depth) : fc_(register_module("fc", torch::nn::Linear(4, 4))) {
    if (depth > 0)
      children_.push_back(std::make_shared<TreeNodeImpl>(depth - 1));
  }
  torch::nn::Linear fc_{nullptr};
  std::vector<std::shared_ptr<TreeNodeImpl>> children_; // expect: torch-unregistered-submodule
};

// Blocks kept in a std::vector for typed access and pushed into a registered
// ModuleList as well: the list registers them, and the vector shares them.
// A vector whose blocks go into an unregistered list is reported with it.
struct TypedBlocksImpl : torch::nn::Module {
  TypedBlocksImpl() {
    blocks_ = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < 2; ++i) {
      auto block = torch::nn::Linear(4, 4);
      layers_.push_back(block);
      blocks_->push_back(block);
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& layer : layers_)
      x = layer(x);
    return x;
  }
  torch::nn::ModuleList blocks_{nullptr};
  std::vector<torch::nn::Linear> layers_;
};
struct UnlistedBlocksImpl : torch::nn::Module {
  UnlistedBlocksImpl() {
    for (int i = 0; i < 2; ++i) {
      auto block = torch::nn::Linear(4, 4);
      layers_.push_back(block);
      blocks_->push_back(block);
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& layer : layers_)
      x = layer(x);
    return blocks_->size() > 0 ? x : x * 2;
  }
  torch::nn::ModuleList blocks_; // expect: torch-unregistered-submodule
  std::vector<torch::nn::Linear> layers_;
};

// A Sequential that chains registered members and a module with no state of
// its own: everything it would reach is registered already.
struct ClampImpl : torch::nn::Module {
  ClampImpl(double lo, double hi) : lo_(lo), hi_(hi) {}
  torch::Tensor forward(torch::Tensor x) { return x * lo_ + hi_; }
  double lo_, hi_;
};
TORCH_MODULE(Clamp);
struct ClampedEncoderImpl : torch::nn::Module {
  ClampedEncoderImpl() {
    a_ = register_module("a", torch::nn::Linear(4, 4));
    b_ = register_module("b", torch::nn::Linear(4, 4));
    clamp_ = Clamp(-5.0, 5.0);
    encoder_ = torch::nn::Sequential(a_, b_, clamp_);
  }
  torch::Tensor forward(torch::Tensor x) { return encoder_->forward(x); }
  torch::nn::Linear a_{nullptr}, b_{nullptr};
  Clamp clamp_{nullptr};
  torch::nn::Sequential encoder_{nullptr};
};

// A class template whose member initializers are dependent calls (Clang
// keeps them as a ParenListExpr, which has no type).
template <typename Block>
struct StagedNetImpl : torch::nn::Module {
  explicit StagedNetImpl(const std::vector<int>& depths)
      : stage1_(make_stage(64, depths[0], 1)), stage2_(make_stage(128, depths[1], 2)) {
    register_module("stage1", stage1_);
    register_module("stage2", stage2_);
  }
  torch::nn::Sequential make_stage(int64_t width, int blocks, int stride) {
    torch::nn::Sequential stage;
    for (int i = 0; i < blocks; ++i)
      stage->push_back(Block(width, stride));
    return stage;
  }
  torch::Tensor forward(torch::Tensor x) { return stage2_->forward(stage1_->forward(x)); }
  torch::nn::Sequential stage1_, stage2_;
};

// An actor that keeps its critic out of its module tree on purpose: the
// actor's optimizer is built from its parameters(), and the critic has its
// own. The actor moves and switches the critic itself and never runs it; the
// training loop takes it through critic().
struct CriticNetImpl : torch::nn::Module {
  CriticNetImpl() { fc = register_module("fc", torch::nn::Linear(6, 1)); }
  torch::Tensor forward(const torch::Tensor& x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct ActorImpl : torch::nn::Module {
  ActorImpl() { mu = register_module("mu", torch::nn::Linear(4, 2)); }
  void reset(torch::Device device) {
    this->to(device);
    critic_ = std::make_shared<CriticNetImpl>();
    critic_->to(device);
    critic_target_ = std::make_shared<CriticNetImpl>();
    critic_target_->to(device);
    critic_target_->eval();
  }
  void set_training(bool on) {
    train(on);
    critic_->train(on);
  }
  torch::Tensor forward(const torch::Tensor& obs) { return torch::relu(mu(obs)); }
  std::shared_ptr<CriticNetImpl> critic() const { return critic_; }
  std::shared_ptr<CriticNetImpl> critic_target() const { return critic_target_; }
  torch::nn::Linear mu{nullptr};
  std::shared_ptr<CriticNetImpl> critic_, critic_target_;
};

// The holder assigned inside register_module's own argument: the argument
// is evaluated before the call, so the registered module is the member's.
struct InlineAssignImpl : torch::nn::Module {
  InlineAssignImpl() {
    register_module("conv", conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(4, 4, 3)));
    register_module("norm", (norm = torch::nn::BatchNorm2d(4)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return norm(conv(x)); }
  torch::nn::Conv2d conv = nullptr;
  torch::nn::BatchNorm2d norm = nullptr;
};

// A module class that derives privately (`class`'s default): a pointer to it
// does not convert to one to Module, so register_module("block", block) would
// not compile. Reported, with no fix-it: the base must be made public first.
class PrivateBlock : torch::nn::Module {
 public:
  PrivateBlock() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
struct PrivateHolderImpl : torch::nn::Module {
  PrivateHolderImpl() { block = std::make_shared<PrivateBlock>(); }
  torch::Tensor forward(torch::Tensor x) { return block->forward(x); }
  std::shared_ptr<PrivateBlock> block; // expect: torch-unregistered-submodule
};
