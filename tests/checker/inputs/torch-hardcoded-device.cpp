// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-hardcoded-device. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

// --- must warn -------------------------------------------------------------

struct GpuNetImpl : torch::nn::Module {
  GpuNetImpl() {
    fc_ = register_module("fc", torch::nn::Linear(4, 2));
    fc_->to(torch::kCUDA); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'GpuNetImpl::GpuNetImpl'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
    scale_ = register_buffer("scale", torch::ones({2}, torch::TensorOptions(torch::kCUDA))); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'GpuNetImpl::GpuNetImpl'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  }
  torch::Tensor forward(torch::Tensor x) {
    x = x.cuda(); // expect: torch-hardcoded-device
    // message: 'Tensor::cuda' hard-codes the device inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
    x = x.toBackend(torch::Backend::CUDA); // expect: torch-hardcoded-device
    // message: 'Tensor::toBackend' hard-codes the device inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    auto y = fc_(x.to(torch::kCUDA)); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
    auto mask = torch::ones({2}, torch::TensorOptions().device(torch::Device("cuda:0"))); // expect: torch-hardcoded-device
    // message: hard-coded device 'cuda:0' inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
    auto bias = torch::zeros({2}, torch::device(torch::kCUDA)); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
    return (y * mask + bias).to("cuda") * scale_; // expect: torch-hardcoded-device
    // message: hard-coded device 'cuda' inside 'GpuNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  }
  torch::nn::Linear fc_{nullptr};
  torch::Tensor scale_;
};

// TensorOptions::device forwards its arguments to Device's constructor inside
// LibTorch: the literal is never converted in the user's code.
struct RasterImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::TensorOptions opts;
    auto depth = torch::zeros({4}, opts.device(torch::kCUDA)); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'RasterImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    auto alpha = torch::ones({4}, torch::TensorOptions().device("cuda")); // expect: torch-hardcoded-device
    // message: hard-coded device 'cuda' inside 'RasterImpl::forward'
    auto color = torch::zeros({4}, x.options().device(torch::kCUDA, 0)); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'RasterImpl::forward'
    auto same = torch::zeros({4}, x.options().device(x.device()));
    auto host = torch::zeros({4}, opts.device(torch::kCPU).dtype(torch::kFloat));
    return x + depth + alpha + color + same + host.sum();
  }
};

// The module picks a GPU for itself when one is there.
struct SelfPlacingImpl : torch::nn::Module {
  SelfPlacingImpl() : device_(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU) {} // expect: torch-hardcoded-device
  // message: hard-coded device 'kCUDA' inside 'SelfPlacingImpl::SelfPlacingImpl'; a module must follow the device its caller moves it to with Module::to()
  // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  torch::Tensor forward(torch::Tensor x) { return x.to(device_); }
  torch::Device device_;
};

// A default member initialiser runs in every constructor.
struct DefaultDeviceImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x.to(device_); }
  torch::Device device_{torch::kCUDA}; // expect: torch-hardcoded-device
  // message: hard-coded device 'kCUDA' in the initializer of 'DefaultDeviceImpl::device_'; a module must follow the device its caller moves it to with Module::to()
  // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
};

// Results sent back to the host, and a caller in the file that uses them
// with data on the module's device: the next layer gets a CPU tensor
// wherever the module was moved.
struct HostOutputImpl : torch::nn::Module {
  HostOutputImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) {
    auto logits = fc_(x).cpu(); // expect: torch-hardcoded-device
    // message: 'Tensor::cpu' moves a result to the CPU inside 'HostOutputImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: leave results on the module's device for the caller to move, read them on the host right away (.item(), .data_ptr(), <<)
    // note@+4: the CPU copy is returned here, to a caller that may use it with data on the module's device
    return logits.to(torch::kCPU) + 1; // expect: torch-hardcoded-device
    // message: 'to(kCPU)' moves a result to the CPU inside 'HostOutputImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: leave results on the module's device for the caller to move, read them on the host right away (.item(), .data_ptr(), <<)
    // note@+0: the CPU copy is returned here, to a caller that may use it with data on the module's device
  }
  torch::Tensor predict(torch::Tensor x) { return forward(x).argmax(1).cpu(); } // expect: torch-hardcoded-device
  // message: 'Tensor::cpu' moves a result to the CPU inside 'HostOutputImpl::predict'; a module must follow the device its caller moves it to with Module::to()
  // note@+0: leave results on the module's device for the caller to move, read them on the host right away (.item(), .data_ptr(), <<)
  // note@+0: the CPU copy is returned here, to a caller that may use it with data on the module's device
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(HostOutput);
struct HostOutputUserImpl : torch::nn::Module {
  HostOutputUserImpl() {
    inner_ = register_module("inner", HostOutput());
    bias_ = register_parameter("bias", torch::zeros({2}));
  }
  torch::Tensor forward(torch::Tensor x) {
    return (inner_(x) + bias_).index_select(0, inner_->predict(x));
  }
  HostOutput inner_{nullptr};
  torch::Tensor bias_;
};

// A CPU copy handed back to a caller that asked for it on the host (an
// inference entry point, or a forward() whose callers here keep it on the
// host): no caller in the file uses it with device data.
struct InferenceImpl : torch::nn::Module {
  InferenceImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc_(x).to(torch::kCPU); }
  torch::Tensor predict_on_batch(torch::Tensor x) {
    x = x.to(fc_->weight.device());
    x = forward(x);
    return x.cpu();
  }
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(Inference);
double value_loss(Inference& critic, const torch::Tensor& obs, int64_t steps) {
  auto returns = torch::zeros({steps});
  auto v = critic->forward(obs);
  return (v - returns).sum().item<double>();
}
// A caller's tensor of unknown origin (a rollout buffer the caller keeps on
// the host) does not make the requested host copy a mistake.
double advantage(Inference& critic, const torch::Tensor& obs, const torch::Tensor& returns) {
  return (critic(obs) - returns).sum().item<double>();
}

// In a helper on the forward path.
static torch::Tensor positions(torch::Tensor x) {
  return x.cuda(); // expect: torch-hardcoded-device
  // message: 'Tensor::cuda' hard-codes the device in 'positions', which 'HelperNetImpl::forward' calls; a module must follow the device its caller moves it to with Module::to()
  // note@+6: 'positions' is called on the forward path of 'HelperNetImpl::forward' here
  // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
}
struct HelperNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return positions(x); }
};

// In a custom autograd function, whose forward() apply() runs.
struct RenderFn : torch::autograd::Function<RenderFn> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor x) {
    auto canvas = torch::zeros({4}, torch::TensorOptions().device(torch::kCUDA)); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' in 'RenderFn::forward', which 'RenderNetImpl::forward' calls; a module must follow the device its caller moves it to with Module::to()
    // note@+10: 'RenderFn::forward' is called on the forward path of 'RenderNetImpl::forward' here
    return x + canvas;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    return grads;
  }
};
struct RenderNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return RenderFn::apply(x); }
};

// Macro case.
#define TP_TO_GPU(t) (t).cuda()
struct MacroNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return TP_TO_GPU(x); // expect: torch-hardcoded-device
    // message: 'Tensor::cuda' hard-codes the device inside 'MacroNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  }
};

// Template case.
template <typename Scalar>
struct TemplatedNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x.to(torch::Device(torch::kCUDA, 1)) * Scalar(2); // expect: torch-hardcoded-device
    // message: hard-coded device 'kCUDA' inside 'TemplatedNetImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  }
};
template struct TemplatedNetImpl<float>;


// A device kept in an `auto` local (a DeviceType, not a Device): it places
// the identity matrix where it is read, on the CUDA device whatever the
// module was moved to.
struct TransformNetImpl : torch::nn::Module {
  TransformNetImpl() { fc = register_module("fc", torch::nn::Linear(4, 9)); }
  torch::Tensor forward(const torch::Tensor& x) {
    auto device = (torch::cuda::is_available() ? torch::kCUDA : torch::kCPU); // expect: torch-hardcoded-device
    // note@+2: the device is placed through 'device' here
    auto identity = torch::eye(3, torch::TensorOptions().device(device));
    auto gpu = torch::kCUDA; // expect: torch-hardcoded-device
    // note@+2: the device is placed through 'gpu' here
    auto bias = torch::zeros({9}, torch::Device(gpu));
    return fc(x).view({-1, 3, 3}) + identity + bias.view({-1, 3, 3});
  }
  torch::nn::Linear fc{nullptr};
};

// A host NMS helper given the CPU copy and the module's own input: the copy
// meets the input inside it.
static torch::Tensor overlap_of(torch::Tensor box1, torch::Tensor box2) {
  torch::Tensor a1, a2, b1, b2;
  a1 = box1.select(1, 0);
  a2 = box1.select(1, 2);
  b1 = box2.select(1, 0);
  b2 = box2.select(1, 2);
  auto inter = torch::relu(a2 - b1) + torch::zeros(b1.sizes());
  return inter / (a2 - a1 + b2 - b1);
}
struct MixedNmsImpl : torch::nn::Module {
  MixedNmsImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  float suppress(torch::Tensor pred) {
    auto rows = pred.cpu(); // expect: torch-hardcoded-device
    return overlap_of(rows, pred).sum().item<float>();
  }
  torch::nn::Linear fc{nullptr};
};

// The overlaps of the input's own rows are on the input's device, so the
// host copy meets them, also round a suppression loop.
struct DeviceOverlapImpl : torch::nn::Module {
  DeviceOverlapImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  float weighted(torch::Tensor pred) {
    auto rows = pred.cpu(); // expect: torch-hardcoded-device
    // note@+3: the CPU copy meets 'ious' here, which may be on the module's device
    auto ious = overlap_of(pred, pred);
    return (rows * ious).sum().item<float>();
  }
  torch::Tensor filtered(torch::Tensor pred) {
    auto rows = pred.cpu(); // expect: torch-hardcoded-device
    auto gain = torch::ones({4});
    for (int64_t i = 1; i < 4; ++i) {
      auto ious = overlap_of(rows.slice(0, 0, i), gain.unsqueeze(0));
      rows = rows.index_select(0, torch::nonzero(ious < 0.5).squeeze());
      gain = gain * pred.select(1, 4);
    }
    return rows.sum();
  }
  torch::nn::Linear fc{nullptr};
};

// A module that moves itself to the CPU for good, or "back" to a device it
// names itself, or moves another module back.
void write_weights(const torch::nn::Module& module, const std::string& path);
struct ParkingImpl : torch::nn::Module {
  ParkingImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  void park() { to(torch::kCPU); } // expect: torch-hardcoded-device
  void snapshot(const std::string& path) {
    to(torch::kCPU); // expect: torch-hardcoded-device
    write_weights(*this, path);
    to(torch::kCUDA); // expect: torch-hardcoded-device
  }
  void export_head(const std::string& path) {
    torch::Device device = fc->weight.device();
    fc->to(torch::kCPU); // expect: torch-hardcoded-device
    write_weights(*fc, path);
    to(device);
  }
  torch::nn::Linear fc{nullptr};
};

// A CPU copy of one part of a structured binding, then mixed with the
// layer's output.
struct DetectHeadImpl : torch::nn::Module {
  DetectHeadImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  std::tuple<torch::Tensor, torch::Tensor> heads(torch::Tensor x) { return {fc(x), x}; }
  torch::Tensor forward(torch::Tensor x) {
    auto [boxes, scores] = heads(x);
    boxes = boxes.cpu(); // expect: torch-hardcoded-device
    return fc(boxes + scores);
  }
  torch::nn::Linear fc{nullptr};
};

// --- must not warn ----------------------------------------------------------

// Host copies of the parts of a structured binding, returned to a caller
// outside the file: what the detector hands back is wanted on the host.
struct HostDetectorImpl : torch::nn::Module {
  HostDetectorImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  std::tuple<torch::Tensor, torch::Tensor> heads(torch::Tensor x) { return {fc(x), x}; }
  std::tuple<torch::Tensor, torch::Tensor> detect(torch::Tensor x) {
    auto [boxes, scores] = heads(x);
    boxes = boxes.cpu();
    scores = scores.to(torch::kCPU);
    return {boxes, scores};
  }
  torch::nn::Linear fc{nullptr};
};

// Saving from the CPU and moving back to the device the module was on: the
// round trip leaves it where its caller put it.
struct RoundTripSaveImpl : torch::nn::Module {
  RoundTripSaveImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  void save_to(const std::string& path) {
    torch::Device original = fc->weight.device();
    this->to(torch::kCPU);
    write_weights(*this, path);
    this->to(original);
  }
  void save_head(const std::string& path, torch::Device device) {
    fc->to(torch::kCPU);
    write_weights(*fc, path);
    fc->to(device);
  }
  torch::nn::Linear fc{nullptr};
};

// Module::to() on modules that hold nothing to move: a stateless built-in
// and a user module with no parameters, buffers or submodules.
struct Swish : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * torch::sigmoid(x); }
};
struct ActivatedImpl : torch::nn::Module {
  ActivatedImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    act->to(torch::kCUDA);
    swish.to(torch::kCUDA);
    swish.to(torch::kCPU);
  }
  torch::Tensor forward(torch::Tensor x) { return swish.forward(act(fc(x))); }
  torch::nn::Linear fc{nullptr};
  torch::nn::ReLU act;
  Swish swish;
};

// The caller decides: devices come from inputs, parameters and arguments.
struct FollowerImpl : torch::nn::Module {
  FollowerImpl() {
    w_ = register_parameter("w", torch::randn({4, 4}));
    b_ = register_buffer("b", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto noise = torch::randn({4}, x.options());
    auto ids = torch::arange(4.0, torch::TensorOptions().device(x.device()));
    auto pos = torch::zeros({4}, w_.device());
    if (x.is_cuda() && x.device().is_cuda() && torch::cuda::is_available())
      noise = noise * 2;
    if (x.device() == torch::kCUDA || x.device().type() == torch::kCUDA ||
        x.device() != torch::Device("cuda:1"))
      noise = noise * 3;
    return torch::matmul(x, w_) + b_ + noise + ids + pos;
  }
  torch::Tensor weight_on(torch::Device device) const { return w_.to(device); }
  torch::Tensor w_, b_;
};

// A device given by the caller, with a CPU default until then.
struct ConfigurableImpl : torch::nn::Module {
  explicit ConfigurableImpl(torch::Device device = torch::kCUDA) : device_(device) {}
  torch::Tensor forward(torch::Tensor x) { return x.to(device_); }
  torch::Device device_ = torch::kCPU;
};

// Device members of classes that are not modules.
struct TrainerConfig {
  torch::Device device{torch::kCUDA};
};

// .cpu() whose result is only read on the host.
struct InspectorImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    float first = x.cpu().argmax(1).item<float>();
    float* raw = x.cpu().contiguous().data_ptr<float>();
    auto snapshot = x.detach().cpu();
    auto acc = snapshot.accessor<float, 2>();
    std::cout << "input: " << x.cpu() << "\n";
    auto host = x.cpu();
    std::vector<float> values(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
    std::cout << host << " " << first << raw << acc.size(0) << values.size() << "\n";
    auto stats = x.to(torch::kCPU);
    std::cout << stats.item<float>() << "\n";
    return x;
  }
};

// Training and inference code outside modules chooses the device.
void train(std::shared_ptr<FollowerImpl> model, torch::Tensor batch) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  auto out = model->forward(batch.to(device)).cpu();
  auto gpu = batch.cuda().to("cuda:0");
  std::cout << out << gpu << "\n";
}

// forward() of something that is not a module.
struct Preprocess {
  torch::Tensor forward(torch::Tensor x) { return x.cuda().cpu(); }
};

// Silenced on purpose.
struct PinnedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x.cuda(); // NOLINT(torch-hardcoded-device)
  }
};

int main() {
  auto model = std::make_shared<FollowerImpl>();
  train(model, torch::ones({2, 4}).to(torch::kCUDA));
}

// Host copies read on the host after host operations, and the CPU branch of
// a choice made on CUDA's availability.
struct HostStatsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    double median = std::get<0>(torch::kthvalue(x.cpu().flatten(), x.numel() / 2)).item<double>();
    auto flat = x.detach().cpu().reshape({-1});
    double first = flat[0].item<double>();
    auto spread = x.detach().cpu().std();
    torch::Tensor y;
    if (torch::cuda::is_available())
      y = x * 2;
    else
      y = x.to(torch::kCPU) * 2;
    return y * (median + first) / spread;
  }
};

// Host copies handed to the class's own helpers: one whose body is here and
// only works on the host (an image written to a file), one whose body is in
// another file (not known to mix it with device data), and one whose body is
// here and adds it to a registered buffer, which is on the module's device.
struct SamplerImpl : torch::nn::Module {
  SamplerImpl() {
    fc_ = register_module("fc", torch::nn::Linear(4, 4));
    total_ = register_buffer("total", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor z) { return fc_(z); }
  torch::Tensor sample(torch::Tensor z, const std::string& path) {
    auto out = forward(z);
    auto image = (out * 255).to(torch::kByte).cpu().contiguous();
    save_image(image, path);
    log_image(out.cpu());
    return out;
  }
  void accumulate(torch::Tensor z) {
    auto host = forward(z).cpu(); // expect: torch-hardcoded-device
    // note@+2: the CPU copy is passed here to 'SamplerImpl::add_to_total', which may use it with data on the module's device
    add_to_total(host);
  }
  static void save_image(const torch::Tensor& image, const std::string& path) {
    auto canvas = torch::zeros({4, 4}, torch::kByte);
    canvas.index_put_({0}, image);
    std::ofstream(path).write(static_cast<const char*>(canvas.data_ptr()), canvas.numel());
  }
  static void log_image(const torch::Tensor& image);
  void add_to_total(const torch::Tensor& value) { total_.add_(value); }
  torch::nn::Linear fc_{nullptr};
  torch::Tensor total_;
};

// Constants of the program that name the CUDA device, used in a module.
const auto kCudaFloat = torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA);
struct Gpu {
  static constexpr torch::DeviceType kType = torch::kCUDA;
};
struct GridImpl : torch::nn::Module {
  GridImpl() {
    table_ = register_parameter("table", torch::rand({16, 2}, kCudaFloat)); // expect: torch-hardcoded-device
    // message: 'kCudaFloat' hard-codes the CUDA device inside 'GridImpl::GridImpl'; a module must follow the device its caller moves it to with Module::to()
    // note@-6: 'kCudaFloat' is a constant that names the CUDA device here
  }
  torch::Tensor forward(torch::Tensor x) {
    auto offsets = torch::zeros({2}, kCudaFloat); // expect: torch-hardcoded-device
    return (x + offsets).to(Gpu::kType) * table_.sum(); // expect: torch-hardcoded-device
  }
  torch::Tensor table_;
};

// Device variables that are not such constants: one main() may set, one
// chosen by CUDA's availability (reported where it is chosen, when that is
// in a module), and a constant that is only compared with.
torch::Device g_device(torch::kCPU);
const torch::Device kBest(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
const torch::Device kGpu0(torch::kCUDA, 0);
struct DeviceVarsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto y = x.to(g_device) + torch::ones({1}, torch::TensorOptions().device(kBest));
    if (x.device() == kGpu0)
      return y * 2;
    return y;
  }
};

// Host copies put into a local vector are followed through it: concatenated
// and returned, they leave the module on the CPU; read element by element on
// the host, they never meet device data.
struct GatherImpl : torch::nn::Module {
  GatherImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> parts;
    for (int64_t i = 0; i < 2; ++i) {
      auto part = fc_(x + i).to(torch::kCPU); // expect: torch-hardcoded-device
      parts.push_back(part);
    }
    return torch::cat(parts, 0) * x;
  }
  std::vector<double> summary(torch::Tensor x) {
    std::vector<torch::Tensor> rows;
    rows.push_back(fc_(x).cpu());
    rows.push_back(x.cpu());
    std::vector<double> out;
    for (size_t i = 0; i < rows.size(); ++i)
      out.push_back(rows[i].sum().item<double>());
    return out;
  }
  torch::nn::Linear fc_{nullptr};
};

// Host copies handed to the class's helpers that return a tensor, followed
// into them: one builds its result on the host from reads of the copy, which
// is then only read; one hands the copy back scaled, and forward() returns it.
struct ControlImpl : torch::nn::Module {
  ControlImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    auto y = fc_(x);
    auto control = to_control(y.select(0, 0).to(torch::kCPU));
    std::cout << control.sum().item<double>() << "\n";
    return scaled(y.cpu()) + y; // expect: torch-hardcoded-device
    // note@+0: the CPU copy meets 'y' here, which may be on the module's device
  }
  torch::Tensor to_control(const torch::Tensor& action) {
    torch::Tensor control = torch::zeros({3});
    control[0] = action[0];
    if (action[1].item<double>() > 0)
      control[1] = action[1];
    return control;
  }
  static torch::Tensor scaled(const torch::Tensor& t) { return t * 2; }
  torch::nn::Linear fc_{nullptr};
};

struct Batches {
  torch::Tensor inputs;
  torch::Tensor targets;
};

// A model that is its own placement API and trainer: the caller picks the
// device through a parameter, and the training loop keeps its dataset on the
// host, moving each batch to the model's device. Assigned to a parameter
// taken by value, a CPU copy is the function's own and followed on.
struct SelfTrainingImpl : torch::nn::Module {
  SelfTrainingImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  void to_device(bool use_cuda) {
    device_ = use_cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
    to(device_);
  }
  torch::Tensor forward(torch::Tensor x) { return fc_(x.to(device_)); }
  void fit(torch::Tensor inputs) {
    if (inputs.device().is_cuda())
      inputs = inputs.to(torch::kCPU);
    for (int64_t i = 0; i < inputs.size(0); i += 2)
      forward(inputs.slice(0, i, i + 2).to(device_));
  }
  void use_gpu(bool gpu) {
    if (gpu) {
      device_ = torch::Device(torch::kCUDA, 0);
    } else {
      device_ = torch::Device(torch::kCPU);
    }
    to(device_);
  }
  torch::Tensor predict(torch::Tensor x) {
    x = forward(x).to(torch::kCPU);
    return x;
  }
  // A field of a local dataset kept on the host, batches moved one by one;
  // and one whose CPU copy meets the input.
  void fit_dataset(const torch::Tensor& inputs, const torch::Tensor& targets) {
    Batches data{inputs, targets};
    if (data.inputs.device().is_cuda())
      data.inputs = data.inputs.to(torch::kCPU);
    for (int64_t i = 0; i < data.inputs.size(0); i += 2)
      forward(data.inputs.slice(0, i, i + 2).to(device_));
  }
  torch::Tensor residual(torch::Tensor x) {
    Batches out{x, x};
    out.targets = forward(x).to(torch::kCPU); // expect: torch-hardcoded-device
    return out.targets + out.inputs;
  }
  // A parameter that decides something else: the device is the module's.
  torch::Tensor jitter(torch::Tensor x, bool noisy) {
    if (noisy)
      return x + torch::ones({4}, torch::kCUDA); // expect: torch-hardcoded-device
    return x;
  }
  torch::nn::Linear fc_{nullptr};
  torch::Device device_{torch::kCPU};
};

// Copies returned for a host-side rollout: the caller binds them and keeps
// them on the host. A Q-network whose copy the caller subtracts from a
// reward it moved to the device is reported.
struct RolloutImpl : torch::nn::Module {
  RolloutImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    auto y = fc_(x);
    return {y.to(torch::kCPU), y.sum().to(torch::kCPU)};
  }
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(Rollout);
void collect(Rollout& policy, const torch::Tensor& obs, std::vector<torch::Tensor>& buffer) {
  auto [action, value] = policy->forward(obs);
  buffer.push_back(action);
  buffer.push_back(value);
}
struct QNetImpl : torch::nn::Module {
  QNetImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc_(x).to(torch::kCPU); } // expect: torch-hardcoded-device
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(QNet);
double q_loss(QNet& q, const torch::Tensor& obs, torch::Tensor reward, torch::Device device) {
  reward = reward.to(device);
  return (q->forward(obs) - reward).sum().item<double>();
}

// A DeviceType local that is only compared with, or that a parameter chooses.
struct DeviceAwareImpl : torch::nn::Module {
  DeviceAwareImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor& x, bool use_cuda) {
    auto gpu = torch::kCUDA;
    auto chosen = use_cuda ? torch::kCUDA : torch::kCPU;
    auto y = fc(x);
    if (x.device().type() == gpu)
      y = y * 2;
    return y + torch::ones({4}, torch::TensorOptions().device(chosen));
  }
  torch::nn::Linear fc{nullptr};
};

// A deliberate host round trip through a free function of the project whose
// body is in another file: it is given only the host copy, so it computes
// on the host, and its result is moved back to the input's device.
// The same through a method of a helper object made right there.
torch::Tensor to_rgb(torch::Tensor states);
struct GridTools {
  torch::Tensor to_rgb(torch::Tensor states);
};
struct RoundTripImpl : torch::nn::Module {
  RoundTripImpl() { fc_ = register_module("fc", torch::nn::Linear(12, 4)); }
  torch::Tensor forward(torch::Tensor s) {
    auto x = to_rgb(s.to(torch::Device(torch::kCPU))).to(s.device());
    auto y = GridTools().to_rgb(s.to(torch::Device(torch::kCPU))).to(s.device());
    return fc_(x + y);
  }
  torch::nn::Linear fc_{nullptr};
};

// Host NMS: the CPU copy of the predictions handed twice to a helper of the
// file that combines its arguments only with each other (views of the same
// host copy) and with host factories.
struct HostNmsImpl : torch::nn::Module {
  HostNmsImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::Tensor suppress(torch::Tensor pred) {
    auto rows = pred.contiguous().cpu();
    auto ious = overlap_of(rows[0].unsqueeze(0), rows.slice(0, 1));
    return rows.slice(0, 1) * ious.sum().item<float>();
  }
  torch::nn::Linear fc{nullptr};
};

// Host NMS round a loop: each pass drops the rows that overlap the last one
// too much, with a mask made from the helper's overlaps of host rows. The
// copy is rebound to a filtered view of itself; nothing of the device's
// comes in along the way.
struct LoopNmsImpl : torch::nn::Module {
  LoopNmsImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::Tensor suppress(torch::Tensor pred, double threshold) {
    auto rows = pred.index_select(0, pred.select(1, 4).argmax(0)).cpu();
    for (int64_t w = 0; w < rows.size(0) - 1; ++w) {
      int64_t last = rows.size(0) - 1 - w;
      auto ious = overlap_of(rows[last].unsqueeze(0), rows.slice(0, 0, last));
      auto keep = (ious < threshold).to(torch::kFloat).unsqueeze(1);
      rows.slice(0, 0, last) = rows.slice(0, 0, last) * keep;
      rows = rows.index_select(0, torch::nonzero(rows.select(1, 4)).squeeze());
    }
    return torch::cat({torch::ones({rows.size(0), 1}), rows}, 1);
  }
  torch::nn::Linear fc{nullptr};
};

// In a class template, cuda() on an object whose type depends on the
// template's arguments: in LibTorch's API every cuda() (a tensor's, a
// PackedSequence's) hard-codes the device. A dependent cpu() is not judged:
// whether its result meets device data needs its type.
template <class Embedding>
struct EncoderImpl : torch::nn::Module {
  explicit EncoderImpl(Embedding e) : features(register_module("features", e)) {}
  torch::Tensor forward(const torch::Tensor& nodes) {
    auto feats = features(nodes).cuda(); // expect: torch-hardcoded-device
    // message: 'cuda()' hard-codes the device inside 'EncoderImpl::forward'; a module must follow the device its caller moves it to with Module::to()
    return feats + features(nodes).cpu();
  }
  Embedding features;
};
