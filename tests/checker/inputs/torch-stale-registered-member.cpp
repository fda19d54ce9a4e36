// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-stale-registered-member. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

// --- must warn -------------------------------------------------------------

// Batch-norm-like running statistics updated by rebinding in forward().
struct RunningNormImpl : torch::nn::Module {
  RunningNormImpl() {
    running_mean = register_buffer("running_mean", torch::zeros({4}));
    running_var = torch::ones({4});
    register_buffer("running_var", running_var);
  }
  torch::Tensor forward(torch::Tensor x) {
    if (is_training()) {
      running_mean = 0.9 * running_mean + 0.1 * x; // expect: torch-stale-registered-member
      // message: 'running_mean' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
      // note@-6: 'running_mean' is registered here
      // note@+0: update it in place instead (running_mean.copy_(...), running_mean.mul_(...).add_(...), or running_mean.set_data(...) under torch::NoGradGuard)
      update_var(x);
    }
    return (x - running_mean) / running_var;
  }
  void update_var(const torch::Tensor& x) {
    running_var = running_var * 0.9; // expect: torch-stale-registered-member
    // message: 'running_var' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
    // note@-13: 'running_var' is registered here
    // note@+0: update it in place instead (running_var.copy_(...), running_var.mul_(...).add_(...), or running_var.set_data(...) under torch::NoGradGuard)
  }
  torch::Tensor running_mean, running_var;
};

// Loading weights by rebinding, and swapping a registered head.
struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() {
    weight = register_parameter("weight", torch::randn({4, 4}));
    head = register_module("head", torch::nn::Linear(4, 2));
  }
  void load(const torch::Tensor& pretrained) {
    weight = pretrained.clone(); // expect: torch-stale-registered-member
    // message: 'weight' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
    // note@-4: 'weight' is registered here
    // note@+0: update it in place instead (weight.copy_(...), weight.mul_(...).add_(...), or weight.set_data(...) under torch::NoGradGuard)
  }
  void set_classes(int64_t n) {
    head = torch::nn::Linear(4, n); // expect: torch-stale-registered-member
    // message: 'head' is a registered submodule, and this assignment rebinds it to another module; the parent keeps the registered one, so Module::to(), parameters(), train()/eval() and torch::save() act on a module forward() no longer uses
    // note@-9: 'head' is registered here
    // note@+0: swap it with head = replace_module("head", ...)
  }
  torch::Tensor weight;
  torch::nn::Linear head{nullptr};
};

// A per-call output refreshed on some calls only: after Module::to(), a call
// that skips the refresh reads the tensor from before the move.
struct GatedMeanImpl : torch::nn::Module {
  GatedMeanImpl() { mean_ = register_buffer("mean", torch::zeros({2})); }
  torch::Tensor forward(torch::Tensor x, bool refresh) {
    if (refresh)
      mean_ = x * 0.5; // expect: torch-stale-registered-member
    // message: 'mean_' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
    // note@-3: 'mean_' is registered here
    // note@+0: update it in place instead (mean_.copy_(...), mean_.mul_(...).add_(...), or mean_.set_data(...) under torch::NoGradGuard)
    return x - mean_;
  }
  torch::Tensor mean_;
};

// A buffer given a new table by a method and read by forward(): after
// Module::to(), forward() reads the table as it was given.
struct LookupImpl : torch::nn::Module {
  LookupImpl() { table_ = register_buffer("table", torch::zeros({8})); }
  void set_table(const torch::Tensor& t) {
    table_ = t; // expect: torch-stale-registered-member
    // message: 'table_' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
    // note@-2: 'table_' is registered here
    // note@+0: update it in place instead (table_.copy_(...), table_.mul_(...).add_(...), or table_.set_data(...) under torch::NoGradGuard)
  }
  torch::Tensor forward(torch::Tensor x) { return x * table_; }
  torch::Tensor table_;
};

// Macro case.
#define TP_DECAY(t) t = (t) * 0.5
struct DecayImpl : torch::nn::Module {
  DecayImpl() { scale = register_buffer("scale", torch::ones({1})); }
  void decay() { TP_DECAY(scale); } // expect: torch-stale-registered-member
  // message: 'scale' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
  // note@-1: 'scale' is registered here
  // note@+0: update it in place instead (scale.copy_(...), scale.mul_(...).add_(...), or scale.set_data(...) under torch::NoGradGuard)
  torch::Tensor scale;
};

// Template case.
template <typename T>
struct EmaImpl : torch::nn::Module {
  EmaImpl() { avg = register_buffer("avg", torch::zeros({1})); }
  void update(const torch::Tensor& v) {
    avg = avg * T(0.99) + v * T(0.01); // expect: torch-stale-registered-member
    // message: 'avg' is registered module state, and this assignment rebinds it to another tensor; the module keeps the registered one, so Module::to(), torch::save() and clone() no longer act on the tensor forward() uses
    // note@-2: 'avg' is registered here
    // note@+0: update it in place instead (avg.copy_(...), avg.mul_(...).add_(...), or avg.set_data(...) under torch::NoGradGuard)
  }
  torch::Tensor avg;
};

// A registered cache converted to a dtype written out: to() makes a new
// tensor whenever the dtype differs.
struct HalfCacheImpl : torch::nn::Module {
  HalfCacheImpl() { cache_ = register_buffer("cache", torch::zeros({2, 4})); }
  torch::Tensor forward(torch::Tensor x) {
    cache_ = cache_.to(torch::kHalf); // expect: torch-stale-registered-member
    return x + cache_;
  }
  torch::Tensor cache_;
};

// A child layer's weight re-laid out once, in forward(): LinearImpl::reset()
// registered the old tensor, which Module::to(), parameters() and
// torch::save() go on using; the layer's forward() reads the new one.
struct GatedMlpImpl : torch::nn::Module {
  GatedMlpImpl() { fc1 = register_module("fc1", torch::nn::Linear(4, 8)); }
  torch::Tensor forward(const torch::Tensor& x) {
    if (!interleaved) {
      fc1->weight = fc1->weight.view({-1, 4}).contiguous(); // expect: torch-stale-registered-member
      // message: 'weight' is state that LinearImpl::reset() registers, and this assignment rebinds it to another tensor; the layer keeps the registered one, so Module::to(), parameters(), torch::save() and clone() no longer act on the tensor its forward() uses
      // note@+0: update it in place instead (weight.copy_(...) or weight.set_data(...) under torch::NoGradGuard)
      interleaved = true;
    }
    return fc1(x);
  }
  torch::nn::Linear fc1{nullptr};
  bool interleaved = false;
};
TORCH_MODULE(GatedMlp);

// Pretrained weights loaded by rebinding a layer's tensors, from a free
// function: the optimizer built from parameters() trains the old ones.
torch::Tensor fresh_copy(torch::Tensor into, const torch::Tensor& from) {
  into = from.clone();
  return into;
}
void load_pretrained(GatedMlp& net, const torch::Tensor& w, const torch::Tensor& b) {
  net->fc1->bias = b.clone(); // expect: torch-stale-registered-member
  net->fc1->weight = fresh_copy(net->fc1->weight, w); // expect: torch-stale-registered-member
}

// --- must not warn ----------------------------------------------------------

// A registered cache re-placed where the call's own tensors are: to()
// returns the tensor itself when the module was moved with its input, so the
// member stays the registered tensor.
struct KvCacheImpl : torch::nn::Module {
  KvCacheImpl() {
    wq_ = register_module("wq", torch::nn::Linear(4, 4));
    cache_k_ = register_buffer("cache_k", torch::zeros({2, 4}));
    cache_v_ = register_buffer("cache_v", torch::zeros({2, 4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto q = wq_(x);
    cache_k_ = cache_k_.to(q);
    cache_v_ = cache_v_.to(x.device());
    cache_k_.index_put_({0}, q);
    return q + cache_k_ + cache_v_;
  }
  torch::nn::Linear wq_{nullptr};
  torch::Tensor cache_k_, cache_v_;
};

// In-place updates keep the registration.
struct InPlaceNormImpl : torch::nn::Module {
  InPlaceNormImpl() {
    running_mean = register_buffer("running_mean", torch::zeros({4}));
    weight = register_parameter("weight", torch::ones({4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    if (is_training()) {
      torch::NoGradGuard no_grad;
      running_mean.mul_(0.9).add_(x, 0.1);
    }
    return (x - running_mean) * weight;
  }
  void load(const torch::Tensor& pretrained) {
    torch::NoGradGuard no_grad;
    weight.copy_(pretrained);
    running_mean.set_data(pretrained.clone());
  }
  torch::Tensor running_mean, weight;
};

// Assignments during construction and in reset(), and swapping through
// replace_module or registering under a new name.
struct RebuiltImpl : torch::nn::Cloneable<RebuiltImpl> {
  RebuiltImpl() { reset(); }
  void reset() override {
    table = register_buffer("table", torch::zeros({8}));
    table = table * 2;
    fc = register_module("fc", torch::nn::Linear(4, 4));
  }
  void widen() {
    fc = replace_module("fc", torch::nn::Linear(4, 4));
    table = register_buffer("wide_table", torch::zeros({16}));
  }
  torch::Tensor table;
  torch::nn::Linear fc{nullptr};
};

// Members that are not registered are not stale (per-call state).
struct CacheImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    last_ = x * 2;
    return last_;
  }
  torch::Tensor last_;
};

// Silenced on purpose.
struct SwapImpl : torch::nn::Module {
  SwapImpl() { w = register_buffer("w", torch::zeros({1})); }
  void swap_in(const torch::Tensor& t) {
    w = t; // NOLINT(torch-stale-registered-member)
  }
  torch::Tensor w;
};

// Built by a setup method that assigns the member, then registers it: the
// member and the registered module are one object.
struct LateHeadImpl : torch::nn::Module {
  LateHeadImpl() = default;
  void build(int64_t classes) {
    head = torch::nn::Linear(8, classes);
    scale = torch::ones({classes});
    register_module("head", head);
    register_buffer("scale", scale);
  }
  torch::Tensor forward(torch::Tensor x) { return head(x) * scale; }
  torch::nn::Linear head{nullptr};
  torch::Tensor scale;
};

// A per-call output kept in a registered buffer so that a fresh module has
// one: every forward() writes it anew, through update(), before reading it,
// so no read sees a tensor from before Module::to().
struct GaussianHeadImpl : torch::nn::Module {
  explicit GaussianHeadImpl(int64_t n) : loc_(torch::zeros({n})), scale_(torch::ones({n})) {
    register_buffer("loc", loc_);
    register_parameter("scale", scale_);
  }
  void update(const torch::Tensor& out) { loc_ = out; }
  torch::Tensor forward(const torch::Tensor& out) {
    update(out);
    return loc_ + scale_;
  }
  torch::Tensor mode() const { return loc_; }
  torch::Tensor loc_, scale_;
};

// Written first thing in forward() itself.
struct LastOutputImpl : torch::nn::Module {
  LastOutputImpl() : fc(register_module("fc", torch::nn::Linear(4, 4))) {
    out_ = register_buffer("out", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    out_ = fc(x);
    return out_ * 2;
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor out_;
};

// An optional child dropped for good: the holder is emptied, not given
// another module, and forward() checks for that.
struct ConvNormImpl : torch::nn::Module {
  ConvNormImpl() {
    conv = register_module("conv", torch::nn::Conv2d(3, 8, 3));
    norm = register_module("norm", torch::nn::BatchNorm2d(8));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = conv(x);
    return norm.is_empty() ? x : norm(x);
  }
  void fold() {
    conv = replace_module("conv", torch::nn::Conv2d(3, 8, 3));
    norm = nullptr;
    unregister_module("norm");
  }
  void drop_norm() { norm = torch::nn::BatchNorm2d(nullptr); }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d norm{nullptr};
};

// A distribution head with no forward(): its owner calls update() with the
// network's output, then sample() or log_prob(). The buffer keeps the last
// call's value (so that a fresh module has one), not state carried across
// calls.
struct DistributionImpl : torch::nn::Module {
  explicit DistributionImpl(int64_t n) : std_(torch::ones({n})), mean_(torch::zeros({n})) {
    register_parameter("std", std_);
    register_buffer("mean", mean_);
  }
  virtual void update(const torch::Tensor& out) = 0;
  torch::Tensor sample() const { return mean_ + std_ * torch::relu(mean_); }
  torch::Tensor std_, mean_;
};
struct SquashedImpl : DistributionImpl {
  using DistributionImpl::DistributionImpl;
  void update(const torch::Tensor& out) override { mean_ = torch::relu(out); }
};

// The same, with the buffer kept from register_buffer()'s result.
struct ClampedHeadImpl : torch::nn::Module {
  explicit ClampedHeadImpl(int64_t n) { mean_ = register_buffer("mean", torch::zeros({n})); }
  void update(const torch::Tensor& out) { mean_ = torch::relu(out); }
  torch::Tensor mode() const { return mean_; }
  torch::Tensor mean_;
};

// Weight tying, in-place initialisers, and a loader whose helper copies into
// the tensor it is given and returns it: the member is still a registered
// tensor, which Module::to() moves in place.
torch::Tensor copy_into(torch::Tensor left, const torch::Tensor& right) {
  {
    torch::NoGradGuard no_grad;
    left.copy_(right);
  }
  return left;
}
struct TiedLmImpl : torch::nn::Module {
  TiedLmImpl() {
    emb = register_module("emb", torch::nn::Embedding(16, 4));
    head = register_module("head", torch::nn::Linear(4, 16));
    scale = register_parameter("scale", torch::ones({4}));
    head->weight = emb->weight;
  }
  void init_weights() {
    head->weight = torch::nn::init::xavier_uniform_(head->weight);
    head->bias = head->bias.zero_();
    scale = scale.requires_grad_(false);
  }
  void load(const torch::Tensor& w) { emb->weight = copy_into(emb->weight, w); }
  torch::Tensor forward(const torch::Tensor& x) { return head(emb(x) * scale); }
  torch::nn::Embedding emb{nullptr};
  torch::nn::Linear head{nullptr};
  torch::Tensor scale;
};

// The same loader with the helper written as a lambda.
void load_tied(std::shared_ptr<TiedLmImpl> lm, const torch::Tensor& w) {
  auto assign = [](torch::Tensor left, const torch::Tensor& right) {
    torch::NoGradGuard no_grad;
    left.copy_(right);
    return left;
  };
  lm->head->weight = assign(lm->head->weight, w);
}

// A child layer's weight re-placed where the call's input is: to() returns
// the tensor itself once the model moved with its input.
struct ProjectImpl : torch::nn::Module {
  ProjectImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor& x) {
    fc->weight = fc->weight.to(x.device());
    return fc(x);
  }
  torch::nn::Linear fc{nullptr};
};

// A setter that assigns the member and registers the same holder in place of
// the old child: the member and the registered module are one object.
struct SwappableHeadImpl : torch::nn::Module {
  SwappableHeadImpl() { head = register_module("head", torch::nn::Linear(4, 2)); }
  void set_head(const torch::nn::Linear& h) {
    head = h;
    replace_module("head", h);
  }
  torch::Tensor forward(const torch::Tensor& x) { return head(x); }
  torch::nn::Linear head{nullptr};
};
