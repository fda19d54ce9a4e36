// Not reformatted: each expected finding sits on the line it is about.
// clang-format off
//
// A project that describes its own framework to the checks through
// CheckOptions (the .clang-tidy file next to this one): a module base whose
// derivation from torch::nn::Module is not visible here, registration helpers
// defined elsewhere, a stateless module type, an extra forward method, and an
// extra tensor factory.
#include <torch/torch.h>

namespace fw {
// Defined in the framework's library, which derives it from torch::nn::Module.
struct Layer {
  virtual ~Layer() = default;
};
// Register a tensor with the module that owns it; defined in the framework.
void track(torch::nn::Module& owner, const std::string& name, torch::Tensor& value);
void keep(torch::nn::Module& owner, const char* name, torch::Tensor& value);
// A stateless activation; its constructor is defined in the framework.
struct GeluImpl : torch::nn::Module {
  GeluImpl();
  torch::Tensor forward(const torch::Tensor& x);
};
TORCH_MODULE(Gelu);
// Makes a coordinate grid; takes options like torch::zeros.
torch::Tensor grid(int64_t height, int64_t width,
                   const torch::TensorOptions& options = {});
}  // namespace fw

#define FW_KEEP(member) fw::keep(*this, #member, member)

// ModuleBaseClasses: a fw::Layer is a module, so its tensor member must be
// registered.
struct Head : fw::Layer {
  Head() { scale = torch::ones({8}); }
  torch::Tensor scale;  // expect: torch-unregistered-tensor-member
  // message: 'scale' is a tensor member of module 'Head' that is never registered; Module::to() will not move it, and parameters(), buffers(), torch::save() and clone() will not see it
  // note@-1: 'scale' is given a tensor here; register it with register_buffer("scale", ...) or register_parameter("scale", ...) and keep the returned tensor
  // fixed@-1: Head() { scale = register_buffer("scale", torch::ones({8})); }
};

// RegistrationHelpers: a function and a macro that register their argument.
struct Tracked : torch::nn::Module {
  Tracked() {
    mean = torch::zeros({8});
    fw::track(*this, "mean", mean);
    var = torch::ones({8});
    FW_KEEP(var);
  }
  torch::Tensor mean, var;
};

// IgnoredModuleTypes: a stateless module type left unregistered is harmless.
struct Block : torch::nn::Module {
  Block() {
    fc = register_module("fc", torch::nn::Linear(8, 8));
    act = fw::Gelu();
  }
  torch::Tensor forward(const torch::Tensor& x) { return act(fc(x)); }
  torch::nn::Linear fc{nullptr};
  fw::Gelu act{nullptr};
};

// ForwardMethods and FactoryFunctions: forward_train is a forward path, and
// fw::grid is a factory that needs a device there.
struct Sampler : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor& x) {
    return x + fw::grid(x.size(0), x.size(1), x.options());
  }
  torch::Tensor forward_train(const torch::Tensor& x) {
    auto g = fw::grid(x.size(0), x.size(1));  // expect: torch-factory-without-device
    // message: tensor factory 'grid' has no device in its options inside 'Sampler::forward_train'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto g = fw::grid(x.size(0), x.size(1), x.device());  // expect: torch-factory-without-device
    auto noise = torch::randn({x.size(0), x.size(1)});  // expect: torch-factory-without-device
    // message: tensor factory 'randn' has no device in its options inside 'Sampler::forward_train'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto noise = torch::randn({x.size(0), x.size(1)}, x.device());  // expect: torch-factory-without-device
    return x + g + noise;
  }
  // Not a forward path: building a grid on the host at set-up time.
  torch::Tensor describe() { return fw::grid(2, 2); }
};
