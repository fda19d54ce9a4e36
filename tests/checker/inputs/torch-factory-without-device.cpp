// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-factory-without-device. A finding is expected on each line marked
// "expect:"; every other line must stay silent. "(fix-it)" marks the findings
// that come with a fix-it.
#include <torch/torch.h>

#include <exception>
#include <iostream>
#include <tuple>
#include <utility>

// --- must warn -------------------------------------------------------------

struct PositionalImpl : torch::nn::Module {
  PositionalImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    auto pos = torch::arange(x.size(1)); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'arange' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto pos = torch::arange(x.size(1), x.device()); // expect: torch-factory-without-device (fix-it)
    auto noise = torch::randn({x.size(0), 4}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'randn' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto noise = torch::randn({x.size(0), 4}, x.device()); // expect: torch-factory-without-device (fix-it)
    auto mask = torch::ones({4}, torch::kBool); // expect: torch-factory-without-device
    // message: tensor factory 'ones' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto diag = torch::eye(4, torch::TensorOptions().dtype(torch::kFloat)); // expect: torch-factory-without-device
    // message: tensor factory 'eye' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto opts = torch::dtype(torch::kLong);
    auto idx = torch::randint(4, {4}, opts); // expect: torch-factory-without-device
    // message: tensor factory 'randint' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto perm = torch::randperm(4); // expect: torch-factory-without-device
    // message: tensor factory 'randperm' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto weights = torch::tensor({1.0, 2.0, 3.0, 4.0}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'tensor' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto weights = torch::tensor({1.0, 2.0, 3.0, 4.0}, x.device()); // expect: torch-factory-without-device (fix-it)
    auto grid = torch::linspace(0, 1, 4).to(torch::kDouble); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'linspace' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto grid = torch::linspace(0, 1, 4, x.device()).to(torch::kDouble); // expect: torch-factory-without-device (fix-it)
    auto scales = torch::logspace(0, 1, 4); // expect: torch-factory-without-device
    // message: tensor factory 'logspace' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto base = at::zeros({4}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'zeros' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto base = at::zeros({4}, x.device()); // expect: torch-factory-without-device (fix-it)
    auto fill = torch::full({4}, 0.5); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'full' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto fill = torch::full({4}, 0.5, x.device()); // expect: torch-factory-without-device (fix-it)
    auto scratch = torch::empty({4}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'empty' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto scratch = torch::empty({4}, x.device()); // expect: torch-factory-without-device (fix-it)
    float host[4] = {1, 2, 3, 4};
    auto blob = torch::from_blob(host, {4}); // expect: torch-factory-without-device
    // message: tensor factory 'from_blob' has no device in its options inside 'PositionalImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: move the wrapped host memory with .to(x.device())
    auto h = fc_(x) + pos + noise + diag + weights + grid + scales + base + fill + scratch + blob;
    return h.index_select(1, perm) * mask + idx;
  }
  torch::nn::Linear fc_{nullptr};
};

// In a helper on the forward path, and in a lambda (no fix-it there).
static torch::Tensor add_noise(torch::Tensor h) {
  return h + torch::randn({4}); // expect: torch-factory-without-device (fix-it)
  // message: tensor factory 'randn' has no device in its options in 'add_noise', which 'NoisyImpl::forward' calls; it creates the tensor on the CPU wherever the module was moved
  // note@+11: 'add_noise' is called on the forward path of 'NoisyImpl::forward' here
  // note@+0: pass an input's device or options (h.device(), h.options()), use a '_like' factory
  // fixed: return h + torch::randn({4}, h.device()); // expect: torch-factory-without-device (fix-it)
}
struct NoisyImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto ones = [](int64_t n) { return torch::ones({n}); }; // expect: torch-factory-without-device
    // message: tensor factory 'ones' has no device in its options inside 'NoisyImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    return add_noise(x) + ones(4);
  }
};

// Macro case (reported, no fix-it inside a macro).
#define TP_NOISE(n) torch::randn({n})
struct MacroNoiseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + TP_NOISE(4); // expect: torch-factory-without-device
    // message: tensor factory 'randn' has no device in its options inside 'MacroNoiseImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
  }
};

// Template case.
template <int N>
struct TemplatedNoiseImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::randn({N}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'randn' has no device in its options inside 'TemplatedNoiseImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: return x + torch::randn({N}, x.device()); // expect: torch-factory-without-device (fix-it)
  }
};
template struct TemplatedNoiseImpl<4>;

// A host value, reassigned, meets the input before it is moved.
struct EarlyMixImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto ramp = torch::arange(x.size(1)); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'arange' has no device in its options inside 'EarlyMixImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto ramp = torch::arange(x.size(1), x.device()); // expect: torch-factory-without-device (fix-it)
    ramp = ramp * 2;
    auto mixed = x + ramp;
    ramp = ramp.to(x.device());
    return mixed + ramp;
  }
};

// Host arithmetic, then returned without a move.
struct HostGridImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto rows = torch::arange(x.size(2), torch::kFloat); // expect: torch-factory-without-device
    // message: tensor factory 'arange' has no device in its options inside 'HostGridImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    auto grid = torch::outer(rows, rows);
    grid = grid / grid.max();
    return grid;
  }
};

// Moved on one branch only: on the other the host value meets the input.
struct SometimesMovedImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({x.size(0), 1}); // expect: torch-factory-without-device (fix-it)
    // message: tensor factory 'ones' has no device in its options inside 'SometimesMovedImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    // fixed: auto mask = torch::ones({x.size(0), 1}, x.device()); // expect: torch-factory-without-device (fix-it)
    if (x.size(0) > 1)
      mask = mask.to(x.device());
    return x * mask;
  }
};

// A state reset inside a loop: only the next step reads the host value, over
// the loop's back edge.
struct RecurrentImpl : torch::nn::Module {
  RecurrentImpl() { cell_ = register_module("cell", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor steps, torch::Tensor done) {
    torch::Tensor h = torch::zeros_like(steps[0]);
    std::vector<torch::Tensor> outputs;
    for (int64_t t = 0; t < steps.size(0); ++t) {
      h = cell_(steps[t]) + h;
      outputs.push_back(h);
      if (done[t].item<bool>())
        h = torch::zeros({4}); // expect: torch-factory-without-device (fix-it)
      // note@-3: the new tensor meets 'cell_(steps[t])' here
      // fixed: h = torch::zeros({4}, steps.device()); // expect: torch-factory-without-device (fix-it)
    }
    return torch::cat(outputs);
  }
  torch::nn::Linear cell_{nullptr};
};

// A helper's host tensor returned to forward(), which adds it to the input.
struct OffsetImpl : torch::nn::Module {
  torch::Tensor offsets(int64_t n) {
    return torch::arange(n); // expect: torch-factory-without-device
    // message: tensor factory 'arange' has no device in its options in 'OffsetImpl::offsets', which 'OffsetImpl::forward' calls; it creates the tensor on the CPU wherever the module was moved
    // note@+12: 'OffsetImpl::offsets' is called on the forward path of 'OffsetImpl::forward' here
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
  }
  std::vector<torch::Tensor> weights(int64_t n) {
    std::vector<torch::Tensor> w = {torch::ones({n})}; // expect: torch-factory-without-device
    // message: tensor factory 'ones' has no device in its options in 'OffsetImpl::weights', which 'OffsetImpl::forward' calls; it creates the tensor on the CPU wherever the module was moved
    // note@+6: 'OffsetImpl::weights' is called on the forward path of 'OffsetImpl::forward' here
    // note@+0: pass an input's device or options (x.device(), x.options()), use a '_like' factory
    return w;
  }
  torch::Tensor forward(torch::Tensor x) { return x + offsets(x.size(0)) + weights(x.size(0))[0]; }
};

// Filled element by element through an accessor, then multiplied with the
// input: the mask is on the CPU when it meets x. A device in the factory
// would make accessor() throw, so no fix-it; the note says to move it after.
struct KeepMaskImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, int64_t keep) {
    auto mask = torch::zeros({x.size(0)}); // expect: torch-factory-without-device
    // message: tensor factory 'zeros' has no device in its options inside 'KeepMaskImpl::forward'; it creates the tensor on the CPU wherever the module was moved
    // note@+0: its elements are accessed through host memory here, so fill it on the host and move it with .to(x.device()) before it meets device data, or silence with // NOLINT(torch-factory-without-device)
    // note@+7: the new tensor meets 'x' here, which may be on the module's device
    auto m = mask.accessor<float, 1>();
    for (int64_t i = 0; i < keep && i < x.size(0); ++i)
      m[i] = 1;
    return x * mask;
  }
};

// The notes say where the new tensor goes: into a function of the project,
// which may combine it with anything, or into a member.
struct ShiftImpl : torch::nn::Module {
  torch::Tensor last_;
  torch::Tensor shift(torch::Tensor t, torch::Tensor x) { return x + t; }
  torch::Tensor forward(torch::Tensor x) {
    auto table = torch::ones({4}); // expect: torch-factory-without-device (fix-it)
    // note@+3: the new tensor is passed here to 'ShiftImpl::shift', which may use it with data on the module's device
    // fixed: auto table = torch::ones({4}, x.device()); // expect: torch-factory-without-device (fix-it)
    auto y = shift(table, x);
    last_ = torch::zeros({4}); // expect: torch-factory-without-device (fix-it)
    // note@+0: the new tensor is stored in 'last_' here
    // fixed: last_ = torch::zeros({4}, x.device()); // expect: torch-factory-without-device (fix-it)
    return y + torch::randn({4}); // expect: torch-factory-without-device (fix-it)
    // note@+0: the new tensor meets 'y' here, which may be on the module's device
    // fixed: return y + torch::randn({4}, x.device()); // expect: torch-factory-without-device (fix-it)
  }
};

// A helper whose body is here and that returns nothing, adding the new tensor
// to the input's clone.
struct AccumulateImpl : torch::nn::Module {
  void add_into(torch::Tensor& acc, const torch::Tensor& t) { acc.add_(t); }
  torch::Tensor forward(torch::Tensor x) {
    auto y = x.clone();
    add_into(y, torch::ones({4})); // expect: torch-factory-without-device (fix-it)
    // fixed: add_into(y, torch::ones({4}, x.device())); // expect: torch-factory-without-device (fix-it)
    return y;
  }
};

// Passed to a function whose body is in another file and that returns a
// tensor: it may combine the new tensor with the input it is also given.
torch::Tensor quantize(const torch::Tensor& x, const torch::Tensor& zero_point);
struct QuantImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto zero_point = torch::zeros({1}); // expect: torch-factory-without-device (fix-it)
    // fixed: auto zero_point = torch::zeros({1}, x.device()); // expect: torch-factory-without-device (fix-it)
    return quantize(x, zero_point);
  }
};

// After a try whose body returns: the handler runs when it throws.
struct FallbackImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    try {
      return x.clone();
    } catch (const std::exception&) {
      return x + torch::ones({1}); // expect: torch-factory-without-device (fix-it)
      // fixed: return x + torch::ones({1}, x.device()); // expect: torch-factory-without-device (fix-it)
    }
  }
};

// A CPU tensor added to an element of a list that holds the input.
struct FirstFeatureImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> features{x, x * 2};
    return features.at(0) + torch::zeros({4}); // expect: torch-factory-without-device (fix-it)
    // fixed: return features.at(0) + torch::zeros({4}, x.device()); // expect: torch-factory-without-device (fix-it)
  }
};

// A mask built on the CPU and applied to scores on the module's device: it
// meets the scores, the tensor the method is called on.
struct CausalImpl : torch::nn::Module {
  CausalImpl() { fill_ = register_buffer("fill", torch::tensor(-1e9)); }
  torch::Tensor forward(torch::Tensor scores) {
    auto mask = torch::ones({scores.size(0), scores.size(1)}).to(torch::kBool); // expect: torch-factory-without-device (fix-it)
    // note@+3: the new tensor meets 'scores' here, which may be on the module's device
    // fixed: auto mask = torch::ones({scores.size(0), scores.size(1)}, scores.device()).to(torch::kBool); // expect: torch-factory-without-device (fix-it)
    return scores.masked_fill(mask, fill_);
  }
  torch::Tensor fill_;
};

// A CPU tensor run through a layer: the layer's weight is on the module's
// device. Through a stateless layer it meets nothing.
struct PromptedImpl : torch::nn::Module {
  PromptedImpl() {
    fc_ = register_module("fc", torch::nn::Linear(4, 4));
    act_ = register_module("act", torch::nn::ReLU());
  }
  torch::Tensor forward(torch::Tensor x) {
    auto prompt = fc_(torch::zeros({1, 4})); // expect: torch-factory-without-device (fix-it)
    // note@+0: the new tensor meets 'fc_' here, which may be on the module's device
    // fixed: auto prompt = fc_(torch::zeros({1, 4}, x.device())); // expect: torch-factory-without-device (fix-it)
    double floor = act_(torch::ones({1})).sum().item<double>();
    return x + prompt * floor;
  }
  torch::nn::Linear fc_{nullptr};
  torch::nn::ReLU act_{nullptr};
};

// A helper that returns its result with a CPU scratch tensor in a pair; the
// caller adds the scratch part to the layer's output.
struct PairedHelperImpl : torch::nn::Module {
  PairedHelperImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  std::pair<torch::Tensor, torch::Tensor> with_bias(torch::Tensor probs, int64_t n) {
    return {probs, torch::zeros({n})}; // expect: torch-factory-without-device (fix-it)
    // fixed: return {probs, torch::zeros({n}, probs.device())}; // expect: torch-factory-without-device (fix-it)
  }
  torch::Tensor forward(torch::Tensor x) {
    auto out = fc(x);
    return out + with_bias(out, 4).second;
  }
  torch::nn::Linear fc{nullptr};
};

// An element-less tensor that an operation takes: cat() with a CPU tensor
// and the layer's output fails, empty or not.
struct GrowingImpl : torch::nn::Module {
  GrowingImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    return torch::cat({fc(x), torch::zeros({0, 4})}); // expect: torch-factory-without-device (fix-it)
    // fixed: return torch::cat({fc(x), torch::zeros({0, 4}, x.device())}); // expect: torch-factory-without-device (fix-it)
  }
  torch::nn::Linear fc{nullptr};
};

// The same function given the new tensor alone, its result used as it
// comes: the host result meets the input.
torch::Tensor normalise(const torch::Tensor& t);
struct NormalisedBiasImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + normalise(torch::ones({4})); // expect: torch-factory-without-device (fix-it)
    // fixed: return x + normalise(torch::ones({4}, x.device())); // expect: torch-factory-without-device (fix-it)
  }
};

// A shape table returned beside the features, and added to them.
std::vector<torch::Tensor> with_shape(torch::Tensor x, double h, double w) {
  return {x * 2, torch::tensor({h, w})}; // expect: torch-factory-without-device (fix-it)
  // fixed: return {x * 2, torch::tensor({h, w}, x.device())}; // expect: torch-factory-without-device (fix-it)
}
struct ShapeMixerImpl : torch::nn::Module {
  ShapeMixerImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) {
    auto parts = with_shape(fc(x), 4, 4);
    return parts[0] + parts[1];
  }
  torch::nn::Linear fc{nullptr};
};

// A sine-cosine embedding helper given the module's input: its table meets it.
static torch::Tensor sincos_of(int64_t dim, const torch::Tensor& pos) {
  auto omega = torch::arange(dim / 2, torch::kDouble); // expect: torch-factory-without-device
  return torch::outer(pos.reshape({-1}), omega);
}
struct PositionNetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor q) { return q + sincos_of(8, q); }
};

// --- must not warn ----------------------------------------------------------

// The same kind of helper fed only host data by its callers here (a grid
// made on the CPU, through another helper): it computes on the host, and
// forward() moves the result.
static torch::Tensor sincos_1d(int64_t dim, const torch::Tensor& pos) {
  auto omega = torch::arange(dim / 2, torch::kDouble);
  return torch::outer(pos.reshape({-1}), omega);
}
static torch::Tensor sincos_grid(int64_t dim, const torch::Tensor& grid) {
  return torch::cat({sincos_1d(dim / 2, grid[0]), sincos_1d(dim / 2, grid[1])}, 1);
}
static torch::Tensor sincos_2d(int64_t dim, int64_t h, int64_t w) {
  auto grid_h = torch::arange(h, torch::kFloat);
  auto grid_w = torch::arange(w, torch::kFloat);
  auto grid = torch::cat({grid_h.unsqueeze(0), grid_w.unsqueeze(0)}, 0);
  return sincos_grid(dim, grid);
}
struct TrackerImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor q) {
    auto embed = sincos_2d(8, q.size(1), q.size(2));
    return q + embed.to(q.device());
  }
};

// The lengths of pack_padded_sequence must be a CPU int64 tensor, whatever
// the device of the sequences packed.
struct PackedEncoderImpl : torch::nn::Module {
  PackedEncoderImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x, std::vector<int64_t> lengths) {
    auto packed = torch::nn::utils::rnn::pack_padded_sequence(fc(x), torch::tensor(lengths),
                                                              /*batch_first=*/true);
    return packed.data();
  }
  torch::nn::Linear fc{nullptr};
};

// A helper that returns the features beside a small shape table kept in a
// local, whose every use takes one element: the table is read on the host.
std::vector<torch::Tensor> halve_with_shape(torch::Tensor x, double h, double w) {
  return {x * 2, torch::tensor({h / 2, w / 2})};
}
// A host buffer returned inside an aggregate; the caller moves its field.
struct BoxRows {
  torch::Tensor rows;
};
BoxRows empty_rows(int64_t n) {
  torch::Tensor b = torch::zeros({n, 4});
  return BoxRows{b};
}
struct HalvingImpl : torch::nn::Module {
  HalvingImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) {
    auto parts = halve_with_shape(fc(x), 8, 8);
    double h = parts[1][0].item<double>();
    auto rows = empty_rows(4).rows.to(x.device());
    return parts[0] * h + rows.sum();
  }
  torch::nn::Linear fc{nullptr};
};

// A window built on the host by a helper of the file from host data only,
// combined with another host tensor, then moved to the input's device.
static torch::Tensor hann_window_of(int64_t n) {
  auto k = torch::arange(n) / (n - 1);
  return torch::ones({n}) - k * k;
}
struct WindowedImpl : torch::nn::Module {
  WindowedImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) {
    auto w = torch::arange(8) * hann_window_of(8);
    return fc(x * w.to(x.device()));
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Windowed);

// A host buffer handed to a function whose body is in another file (an NMS
// that fills it through data_ptr()), then moved; and a random index kept in a
// local and used only to index a tensor of the module's device, which
// advanced indexing allows from the CPU.
int nms_fill(const torch::Tensor& boxes, torch::Tensor& keep, double threshold);
struct NmsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor boxes, torch::Tensor scores) {
    torch::Tensor keep = torch::empty({boxes.size(0)}, torch::kLong);
    int64_t n = nms_fill(boxes, keep, 0.5);
    auto drop = torch::randperm(scores.size(0)).slice(0, 0, 2);
    scores.index_put_({drop}, -1);
    return keep.slice(0, 0, n).to(boxes.device()) + scores.sum();
  }
};

// After a block that returns on every path: the factory never runs.
struct HalfScaleImpl : torch::nn::Module {
  HalfScaleImpl() { s_ = register_buffer("s", torch::ones({1})); }
  torch::Tensor forward(torch::Tensor x, bool half) {
    {
      torch::NoGradGuard no_grad;
      if (half)
        return x * s_ * 0.5;
      else
        return x * s_;
    }
    return x + torch::empty({0});
  }
  torch::Tensor s_;
};

// A helper whose body is here and that returns nothing only fills the new
// tensor and prints it.
struct CountsImpl : torch::nn::Module {
  void fill(torch::Tensor counts, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      counts[i] = i;
    std::cout << counts << "\n";
  }
  torch::Tensor forward(torch::Tensor x) {
    auto counts = torch::zeros({4});
    fill(counts, 4);
    return x;
  }
};

// A reduction over every element is 0-dimensional: it takes part in
// elementwise operations with a tensor on any device like a number.
struct NormalizeImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto total = torch::ones({x.size(1)}).sum();
    return x / total;
  }
};

static torch::Tensor make_mask(int64_t n, torch::Device device) {
  return torch::ones({n}, device);
}

struct DeviceAwareImpl : torch::nn::Module {
  // Made in the constructor and registered: Module::to() moves them.
  DeviceAwareImpl() {
    w_ = register_parameter("w", torch::randn({4, 4}));
    b_ = register_buffer("b", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor x) {
    // Options and devices taken from tensors or arguments.
    auto a = torch::zeros({4}, x.options());
    auto b = torch::ones({4}, torch::TensorOptions().dtype(torch::kLong).device(x.device()));
    auto c = torch::arange(4.0, x.device());
    auto d = torch::randn({4}, w_.options().dtype(torch::kFloat));
    auto like = torch::zeros_like(x) + torch::ones_like(w_);
    auto opts = x.options().dtype(torch::kLong);
    auto e = torch::zeros({4}, opts);
    auto mask = make_mask(4, x.device());
    // Moved where they belong right away.
    auto f = torch::eye(4).to(x.device());
    auto g = torch::linspace(0, 1, 4).to(x);
    auto h = torch::tensor({1.0, 2.0, 3.0, 4.0}).to(x.options());
    auto i = torch::arange(4.0).view({2, 2}).triu(1).to(x.device());
    // 0-dimensional: combine with CUDA tensors like scalars.
    auto j = torch::tensor(2.0);
    auto k = torch::full({}, 0.5);
    // Only read on the host.
    float r = torch::rand({1}).item<float>();
    auto shape = torch::ones({2, 3});
    int64_t n = shape.size(0) * shape.numel();
    std::cout << torch::randn({2}) << "\n";
    // Indices of advanced indexing may stay on the CPU.
    auto picked = x.index({torch::arange(4.0), torch::randint(4, {4})});
    x.index_put_({torch::randperm(4)}, picked);
    return torch::matmul(x, w_) + picked + b_ + a + b + c + d + like + e + mask + f + g + h + i + j * k * r * n;
  }
  torch::Tensor w_, b_;
};

// Training code outside modules decides where its tensors go.
void train(std::shared_ptr<DeviceAwareImpl> model) {
  auto batch = torch::randn({8, 4});
  auto target = torch::zeros({8, 4});
  auto loss = model->forward(batch) - target;
}

// forward() of something that is not a module.
struct Sampler {
  torch::Tensor forward(torch::Tensor x) { return x + torch::rand({4}); }
};

// Silenced on purpose.
struct SeededImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return x + torch::rand({4}); // NOLINT(torch-factory-without-device)
  }
};

// Coordinates built on the host, reshaped and scaled there, and moved to the
// input's device before they meet it.
struct CoordChannelsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    int64_t h = x.size(2), w = x.size(3);
    auto ys = torch::arange(h, torch::kLong).view({1, 1, h, 1});
    auto xs = torch::ones({1, 1, 1, w}, torch::kLong);
    auto channel = torch::matmul(ys, xs).to(torch::kFloat32);
    channel = channel / (h - 1);
    channel = channel * 2 - 1;
    channel = channel.repeat({x.size(0), 1, 1, 1}).to(x.device());
    return torch::cat({x, channel}, 1);
  }
};

// Changed in place on the host (a method, an element, a view), then moved.
struct FilledImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto a = torch::zeros({x.size(0)});
    a.add_(2.0);
    auto b = torch::zeros({x.size(0)});
    b[0] = 1.0;
    auto c = torch::zeros({x.size(0), 2});
    auto d = torch::ones({x.size(0)});
    c.select(1, 0) = d;
    // Elements given values computed from the input, and a copy of it.
    auto e = torch::zeros({x.size(0)});
    e[0] = x[0] * 2;
    auto f = torch::zeros({x.size(0)});
    f.copy_(x);
    return x + a.to(x.device()) + b.to(x.device()) + c.sum(1).to(x.device()) +
           e.to(x.device()) + f.to(x.device());
  }
};

// Built by a helper on the forward path and returned; every caller moves what
// it gets before using it.
struct TargetsImpl : torch::nn::Module {
  std::vector<torch::Tensor> build_targets(int64_t n) {
    auto mask = torch::zeros({n});
    auto weight = torch::ones({n});
    return {mask, weight};
  }
  torch::Tensor scale(int64_t n) { return torch::full({n}, 0.5); }
  std::vector<torch::Tensor> build_keep(int64_t n) {
    auto keep = torch::ones({n});
    keep[0] = 0;
    std::vector<torch::Tensor> out = {keep};
    return out;
  }
  torch::Tensor forward(torch::Tensor pred) {
    pred = pred * build_keep(pred.size(0))[0].to(pred.device());
    auto targets = build_targets(pred.size(0));
    auto mask = targets[0].to(pred.device());
    auto weight = targets[1].to(pred.device());
    return ((pred - mask) * weight * scale(pred.size(0)).to(pred.device())).sum();
  }
};

// A CPU tensor put into a local list that is concatenated and returned; and
// host tensors listed only to be read on the host.
struct PadListImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> pieces{x};
    pieces.push_back(torch::zeros({1, 4})); // expect: torch-factory-without-device (fix-it)
    // fixed: pieces.push_back(torch::zeros({1, 4}, x.device())); // expect: torch-factory-without-device (fix-it)
    return torch::cat(pieces, 0);
  }
  double total(torch::Tensor x) {
    std::vector<torch::Tensor> counts;
    counts.push_back(torch::zeros({1}));
    counts.push_back(torch::ones({1}));
    double sum = 0;
    for (size_t i = 0; i < counts.size(); ++i)
      sum += counts[i].item<double>();
    return sum + x.size(0);
  }
};

// A rendering helper on the forward path: it copies the input to the host
// and draws into host tensors, which meet only that copy.
struct RenderedImpl : torch::nn::Module {
  RenderedImpl() { fc_ = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    draw(x);
    return fc_(x);
  }
  void draw(const torch::Tensor& x) {
    auto host = x.select(0, 0).to(torch::kCPU);
    auto tint = torch::tensor({0, 0, 255}, torch::kByte);
    auto canvas = torch::zeros({4, 3}, torch::kByte);
    auto mask = host.to(torch::kBool);
    auto shade = (host / 255.0).unsqueeze(1).index({mask}) * tint;
    canvas.index_put_({mask}, shade.to(torch::kByte));
    std::vector<torch::Tensor> layers;
    layers.push_back(host.select(0, 1));
    for (size_t i = 0; i < layers.size(); ++i) {
      auto layer = (layers.at(i) / 255.0).unsqueeze(1) * tint;
      canvas.index_put_({mask}, layer.to(torch::kByte));
    }
    std::cout << canvas.sum().item<double>() << "\n";
  }
  torch::nn::Linear fc_{nullptr};
};

// Moved with type_as(), which is to(other.options()): the other tensor's
// device as well as its dtype.
struct TypedMaskImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor scores) {
    auto mask = torch::full({scores.size(0), scores.size(1)}, -1e9);
    mask = torch::triu(mask, 1).type_as(scores);
    return scores + mask;
  }
};

// Helpers that return a CPU placeholder beside their result, in a pair, a
// tuple or a struct, to a caller that keeps only the result: the placeholder
// is dropped, and being put in the same pair is not an operation.
struct PhaseParts {
  torch::Tensor keep;
  torch::Tensor scratch;
};
struct PhasingImpl : torch::nn::Module {
  PhasingImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  std::pair<torch::Tensor, torch::Tensor> phase(torch::Tensor probs, int64_t n) {
    if (n < 2)
      return {probs, torch::zeros({n})};
    return {probs.t(), torch::ones({n}, probs.options())};
  }
  std::tuple<torch::Tensor, torch::Tensor> split(torch::Tensor probs, int64_t n) {
    return std::make_tuple(probs, torch::zeros({n}));
  }
  PhaseParts parts(torch::Tensor probs, int64_t n) { return {probs, torch::zeros({n})}; }
  torch::Tensor forward(torch::Tensor x) {
    auto out = fc(x);
    out = phase(out, x.size(0)).first;
    out = std::get<0>(split(out, 2));
    return parts(out, 3).keep;
  }
  torch::nn::Linear fc{nullptr};
};

// An element-less tensor handed straight to a child module as the "no
// features" sentinel (code from before c10::optional): nothing in it to put
// on a device; the child only tests its rank.
struct PropagateImpl : torch::nn::Module {
  PropagateImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor xyz, torch::Tensor points);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Propagate);
struct SegmenterImpl : torch::nn::Module {
  SegmenterImpl() {
    fp1 = register_module("fp1", Propagate());
    fp2 = register_module("fp2", Propagate());
  }
  torch::Tensor forward(torch::Tensor xyz) {
    auto coarse = fp2(xyz, torch::zeros({0}));
    return fp1->forward(coarse, torch::empty({0}));
  }
  Propagate fp1{nullptr}, fp2{nullptr};
};

// A free function whose body is in another file, given only host data: its
// result is followed on, and moved where the input is before it meets it.
struct HostTableImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto table = normalise(torch::arange(4)).to(x.device());
    return x + table;
  }
};

// Moved only when the input is on CUDA (`if (boxes.is_cuda()) t = t.cuda();`,
// whose cuda() torch-hardcoded-device reports): otherwise the input is on the
// CPU, where the tensor already is. Without the test, the tensor that skips
// the move is reported.
struct RoiLevelsImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor boxes) {
    auto area = torch::full({1}, 1024.0);
    if (boxes.is_cuda())
      area = area.to(boxes.device());
    auto level = boxes.flatten() / torch::sigmoid(area);
    auto scale = torch::full({1}, 2.0); // expect: torch-factory-without-device (fix-it)
    // fixed: auto scale = torch::full({1}, 2.0, boxes.device()); // expect: torch-factory-without-device (fix-it)
    if (boxes.numel() > 4)
      scale = scale.to(boxes.device());
    return level * scale;
  }
};
