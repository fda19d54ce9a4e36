// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-lazily-created-layer. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

#include <memory>

// --- must warn -------------------------------------------------------------

struct EagerlyLazyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto proj = torch::nn::Linear(x.size(1), 16); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::LinearImpl' is constructed inside 'EagerlyLazyImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    auto drop = torch::nn::Dropout(0.1); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::DropoutImpl' is constructed inside 'EagerlyLazyImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return drop(proj(x));
  }
};

// Created once, on the first call, and registered then.
struct FirstCallImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (!fc_)
      fc_ = register_module("fc", torch::nn::Linear(x.size(1), 10)); // expect: torch-lazily-created-layer
      // message: module 'torch::nn::LinearImpl' is constructed inside 'FirstCallImpl::forward'; it is created on the CPU when this runs, so Module::to() calls and optimizers set up before never see it
      // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    if (!step_.defined())
      step_ = register_buffer("step", torch::zeros({1})); // expect: torch-lazily-created-layer
      // message: 'register_buffer' is called inside 'FirstCallImpl::forward'; state registered after construction is missed by Module::to() calls and optimizers set up before it, and registering the same name twice throws
      // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return fc_(x);
  }
  torch::nn::Linear fc_{nullptr};
  torch::Tensor step_;
};

// Built from a member's device, not the input's: not the lazy-module pattern.
struct MemberDeviceImpl : torch::nn::Module {
  MemberDeviceImpl() { w_ = register_parameter("w", torch::ones({2})); }
  torch::Tensor forward(torch::Tensor x) {
    if (!b_.defined())
      b_ = register_buffer("b", torch::zeros({1}, w_.device())); // expect: torch-lazily-created-layer
      // message: 'register_buffer' is called inside 'MemberDeviceImpl::forward'; state registered after construction is missed by Module::to() calls and optimizers set up before it, and registering the same name twice throws
      // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return x * w_ + b_;
  }
  torch::Tensor w_, b_;
};

// A loss with class weights holds them as a buffer.
struct WeightedLossImpl : torch::nn::Module {
  WeightedLossImpl() { w_ = register_buffer("w", torch::ones({3})); }
  torch::Tensor forward(torch::Tensor logits, torch::Tensor target) {
    auto loss = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().weight(w_)); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::CrossEntropyLossImpl' is constructed inside 'WeightedLossImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return loss(logits, target);
  }
  torch::Tensor w_;
};

// operator() and a second forward overload.
struct CallableImpl : torch::nn::Module {
  torch::Tensor operator()(torch::Tensor x) {
    auto block = std::make_shared<torch::nn::LinearImpl>(4, 4); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::LinearImpl' is constructed inside 'CallableImpl::operator()'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return block->forward(x);
  }
  torch::Tensor forward(torch::Tensor x, torch::Tensor y) {
    torch::nn::Linear mix(8, 4); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::LinearImpl' is constructed inside 'CallableImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return mix(torch::cat({x, y}, 1));
  }
};

// In a helper that forward() calls.
static torch::Tensor apply_head(torch::Tensor x) {
  torch::nn::Linear head(4, 2); // expect: torch-lazily-created-layer
  // message: module 'torch::nn::LinearImpl' is constructed in 'apply_head', which 'HelperCallerImpl::forward' calls; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
  // note@+7: 'apply_head' is called on the forward path of 'HelperCallerImpl::forward' here
  // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
  return head(x);
}
struct HelperCallerImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return apply_head(x); }
};

// Macro case.
#define TP_LAYER(in, out) torch::nn::Linear(in, out)
struct MacroLazyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto layer = TP_LAYER(4, 4); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::LinearImpl' is constructed inside 'MacroLazyImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return layer(x);
  }
};

// Template case.
template <int Out>
struct TemplatedLazyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::nn::Linear out(x.size(1), Out); // expect: torch-lazily-created-layer
    // message: module 'torch::nn::LinearImpl' is constructed inside 'TemplatedLazyImpl::forward'; each time this runs it makes a new module on the CPU that Module::to(), optimizers and train()/eval() never reach
    // note@+0: create and register it in the constructor (or in reset() for a Cloneable)
    return out(x);
  }
};

// A helper module that makes a tensor of its own when built: built per
// call, that tensor is made on the CPU each time.
struct Intrinsics : torch::nn::Module {
  explicit Intrinsics(torch::Tensor pose) : pose_(pose) {
    scale_ = register_buffer("scale", torch::ones({3}));
  }
  torch::Tensor apply(torch::Tensor p) { return p.matmul(pose_) * scale_; }
  torch::Tensor pose_, scale_;
};
struct ScaledReprojectionImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor pose, torch::Tensor points) {
    auto camera = std::make_shared<Intrinsics>(pose); // expect: torch-lazily-created-layer
    return camera->apply(points).sum();
  }
};

// --- must not warn ----------------------------------------------------------

// A module-derived helper that holds only the tensors it is given (the
// inputs' intrinsics and pose), built per call: it makes nothing of its own,
// and what it holds is where the inputs are.
struct PinholeCamera : torch::nn::Module {
  PinholeCamera(torch::Tensor k, torch::Tensor pose) : k_(k), pose_(pose) {}
  torch::Tensor project(torch::Tensor p) { return k_.matmul(pose_).matmul(p); }
  torch::Tensor k_, pose_;
};
struct ReprojectionImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor k, torch::Tensor pose, torch::Tensor points) {
    auto camera = std::make_shared<PinholeCamera>(k, pose);
    return camera->project(points).sum();
  }
};

// Layers made by a helper that only the constructor calls.
static torch::nn::Sequential make_layer(int64_t in, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, out), torch::nn::ReLU());
}
struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    layer1 = register_module("layer1", make_layer(4, 8));
    layer2 = register_module("layer2", make_layer(8, 8));
    fc = register_module("fc", torch::nn::Linear(8, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    // Stateless modules and the functional API are fine on the forward path,
    // and so is a Sequential that only arranges registered modules.
    x = torch::nn::ReLU()(layer2->forward(layer1->forward(x)));
    x = torch::nn::functional::relu(x);
    auto unused = torch::nn::CrossEntropyLoss()(x, x);
    auto same = fc;
    return torch::nn::Sequential(same)->forward(x);
  }
  torch::nn::Sequential layer1{nullptr}, layer2{nullptr};
  torch::nn::Linear fc{nullptr};
};

// The lazy-module pattern: the parameter is created from the input's options,
// so it materialises on the input's device and dtype.
struct LazyScaleImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (!scale_.defined())
      scale_ = register_parameter("scale", torch::ones({x.size(1)}, x.options()));
    return x * scale_;
  }
  torch::Tensor scale_;
};

// A lazy module initialised like its eager counterpart: the eager module is
// built only to read its parameters out, on the input's device.
struct LazyDenseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    if (!weight_.defined()) {
      torch::nn::Linear eager(x.size(1), 4);
      weight_ = register_parameter("weight", eager->weight.to(x.device()));
    }
    return torch::matmul(x, weight_.t());
  }
  torch::Tensor weight_;
};

// forward() of something that is not a module.
struct Pipeline {
  torch::Tensor forward(torch::Tensor x) {
    torch::nn::Linear adhoc(4, 4);
    return adhoc(x);
  }
};

// Cloneable: construction in reset(), which clone() calls.
struct HeadImpl : torch::nn::Cloneable<HeadImpl> {
  HeadImpl() { reset(); }
  void reset() override { out = register_module("out", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return out(x); }
  torch::nn::Linear out{nullptr};
};

// Dropout applied only when the caller's flag, or the module's training
// mode, says so: the branch decides whether it runs, not train()/eval().
struct GatedDropoutImpl : torch::nn::Module {
  GatedDropoutImpl() : proj_(register_module("proj", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor h, bool train) {
    if (train) {
      auto drop = torch::nn::Dropout(0.2);
      h = drop(h);
    }
    if (is_training())
      h = torch::nn::Dropout(0.1)(h);
    return proj_(h);
  }
  torch::nn::Linear proj_{nullptr};
};

// A flag that is not about training decides nothing of the sort; and a
// layer with parameters is lost to the optimizer whatever the flag.
struct FlaggedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor h, bool wide, bool train) {
    if (wide)
      h = torch::nn::Dropout(0.2)(h); // expect: torch-lazily-created-layer
    if (train)
      h = torch::nn::Linear(4, 4)(h); // expect: torch-lazily-created-layer
    return h;
  }
};

// A helper module built per call from the inputs, whose constructor is in
// another file: only that file can tell whether a new one holds parameters.
// (Over a whole project, the CLI asks that file; docs/checks.)
struct FrameWarper : torch::nn::Module {
  FrameWarper(torch::Tensor intrinsics, torch::Tensor pose);
  torch::Tensor warp(torch::Tensor points);
  torch::Tensor intrinsics_, pose_;
};
struct ReprojectionLossImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor K, torch::Tensor pose, torch::Tensor pts) {
    auto warper = std::make_shared<FrameWarper>(K, pose);
    return warper->warp(pts);
  }
};

// Silenced on purpose.
struct ProbeImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::nn::Linear probe(4, 4); // NOLINT(torch-lazily-created-layer)
    return probe(x);
  }
};
