// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-register-outside-reset. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

// --- must warn -------------------------------------------------------------

struct ConstructorRegistersImpl : torch::nn::Cloneable<ConstructorRegistersImpl> {
  ConstructorRegistersImpl()
      : bias(register_parameter("bias", torch::zeros({4}))) { // expect: torch-register-outside-reset
      // message: 'register_parameter' is called in the constructor of Cloneable module 'ConstructorRegistersImpl' instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of parameters as the original module after calling reset()"
      // note@+0: move the registration into reset() and call reset() from the constructor
    weight = register_parameter("weight", torch::randn({4, 4})); // expect: torch-register-outside-reset
    // message: 'register_parameter' is called in the constructor of Cloneable module 'ConstructorRegistersImpl' instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of parameters as the original module after calling reset()"
    // note@+0: move the registration into reset() and call reset() from the constructor
    build_head();
  }
  void build_head() {
    head = register_module("head", torch::nn::Linear(4, 2)); // expect: torch-register-outside-reset
    // message: 'register_module' is called in 'ConstructorRegistersImpl::build_head', which the constructor of Cloneable module 'ConstructorRegistersImpl' calls, instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of child modules as the original module after calling reset()"
    // note@+0: move the registration into reset() and call reset() from the constructor
  }
  void reset() override {}
  torch::Tensor weight, bias;
  torch::nn::Linear head{nullptr};
};

// reset() registers one of the constructor's children again, not the other:
// the clone lacks "value".
struct HalfResetImpl : torch::nn::Cloneable<HalfResetImpl> {
  HalfResetImpl() {
    policy = register_module("policy", torch::nn::Linear(4, 2));
    value = register_module("value", torch::nn::Linear(4, 1)); // expect: torch-register-outside-reset
    // message: 'register_module' is called in the constructor of Cloneable module 'HalfResetImpl' instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of child modules as the original module after calling reset()"
    // note@+0: move the registration into reset() and call reset() from the constructor
  }
  void reset() override { policy = register_module("policy", torch::nn::Linear(4, 2)); }
  torch::nn::Linear policy{nullptr}, value{nullptr};
};

// Macro case.
#define TP_BUFFER(name, value) name = register_buffer(#name, value)
struct MacroRegistersImpl : torch::nn::Cloneable<MacroRegistersImpl> {
  MacroRegistersImpl() { TP_BUFFER(steps, torch::zeros({1})); } // expect: torch-register-outside-reset
  // message: 'register_buffer' is called in the constructor of Cloneable module 'MacroRegistersImpl' instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of buffers as the original module after calling reset()"
  // note@+0: move the registration into reset() and call reset() from the constructor
  void reset() override {}
  torch::Tensor steps;
};

// Template case.
template <int N>
struct FixedImpl : torch::nn::Cloneable<FixedImpl<N>> {
  FixedImpl() { w = this->register_parameter("w", torch::ones({N})); } // expect: torch-register-outside-reset
  // message: 'register_parameter' is called in the constructor of Cloneable module 'FixedImpl' instead of in reset(); clone() copies the module, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of parameters as the original module after calling reset()"
  // note@+0: move the registration into reset() and call reset() from the constructor
  void reset() override {}
  torch::Tensor w;
};

// Registered in a default member initializer: the copy that clone() makes
// does not run it, and reset() only fills the list, which the copy shares
// with the original.
struct InClassRegistersImpl : torch::nn::Cloneable<InClassRegistersImpl> {
  InClassRegistersImpl() { reset(); }
  void reset() override { layers->push_back(torch::nn::Linear(4, 4)); }
  torch::nn::ModuleList layers = register_module("layers", torch::nn::ModuleList()); // expect: torch-register-outside-reset
  // message: 'register_module' is called in the default member initializer of 'layers' of Cloneable module 'InClassRegistersImpl' instead of in reset(); clone() copies the module with its copy constructor, which does not run the initializer, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of child modules as the original module after calling reset()"
  // note@+0: declare the member empty and register it in reset()
  torch::Tensor scale{register_buffer("scale", torch::ones({1}))}; // expect: torch-register-outside-reset
  // message: 'register_buffer' is called in the default member initializer of 'scale' of Cloneable module 'InClassRegistersImpl' instead of in reset(); clone() copies the module with its copy constructor, which does not run the initializer, clears the copy's registrations and calls only reset(), so it throws "The cloned module does not have the same number of buffers as the original module after calling reset()"
};

// --- must not warn ----------------------------------------------------------

// Registered in the class and again, under the same name, in reset(): the
// copy that clone() makes registers it in reset() as the original did.
struct ReRegisteredImpl : torch::nn::Cloneable<ReRegisteredImpl> {
  void reset() override { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::nn::Linear fc = register_module("fc", torch::nn::Linear(4, 4));
};

// A plain module registers in its member initializers freely: it has no
// clone() that runs reset().
struct PlainInClassImpl : torch::nn::Module {
  torch::nn::Linear fc = register_module("fc", torch::nn::Linear(4, 4));
  torch::Tensor scale = register_buffer("scale", torch::ones({1}));
};

// The idiom: the constructor calls reset(), which registers everything, also
// through helpers.
struct IdiomaticImpl : torch::nn::Cloneable<IdiomaticImpl> {
  explicit IdiomaticImpl(int64_t n) : n(n) { reset(); }
  void reset() override {
    weight = register_parameter("weight", torch::randn({n, n}));
    make_head();
  }
  void make_head() { head = register_module("head", torch::nn::Linear(n, 2)); }
  int64_t n;
  torch::Tensor weight;
  torch::nn::Linear head{nullptr};
};

// A plain Module may register in its constructor.
struct PlainImpl : torch::nn::Module {
  PlainImpl() { w = register_parameter("w", torch::ones({2})); }
  torch::Tensor w;
};

// Registering into another module is that module's business.
struct BuilderImpl : torch::nn::Cloneable<BuilderImpl> {
  BuilderImpl() {
    auto other = std::make_shared<PlainImpl>();
    other->register_buffer("extra", torch::zeros({1}));
    reset();
  }
  void reset() override {}
};

// A container that copies itself: clone() is overridden and does not go
// through reset() (LibTorch's ParameterList works this way).
struct TensorListImpl : torch::nn::Cloneable<TensorListImpl> {
  explicit TensorListImpl(int n) {
    for (int i = 0; i < n; ++i)
      append(torch::zeros({1}));
  }
  void append(torch::Tensor t) { register_buffer(std::to_string(size_++), std::move(t)); }
  void reset() override {}
  std::shared_ptr<torch::nn::Module> clone(
      const torch::optional<torch::Device>& device = torch::nullopt) const override {
    return std::make_shared<TensorListImpl>(size_);
  }
  int size_ = 0;
};

// Silenced on purpose.
struct LegacyImpl : torch::nn::Cloneable<LegacyImpl> {
  LegacyImpl() {
    w = register_parameter("w", torch::ones({1})); // NOLINT(torch-register-outside-reset)
  }
  void reset() override {}
  torch::Tensor w;
};

// The constructor registers children it may first load from a checkpoint,
// and reset() registers the same names again: the copy that clone() makes
// has them after reset(), and clone() copies the weights into them.
struct TwinHeadImpl : torch::nn::Cloneable<TwinHeadImpl> {
  explicit TwinHeadImpl(int64_t dim, bool load = false) : dim_(dim) {
    torch::nn::Linear policy(dim_, 4);
    if (load)
      torch::load(policy, "policy.pt");
    policy_ = register_module("policy", policy);
    value_ = register_module("value", torch::nn::Linear(dim_, 1));
  }
  void reset() override {
    policy_ = register_module("policy", torch::nn::Linear(dim_, 4));
    value_ = register_module("value", torch::nn::Linear(dim_, 1));
  }
  int64_t dim_;
  torch::nn::Linear policy_{nullptr}, value_{nullptr};
};
