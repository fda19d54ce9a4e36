// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-discarded-to-result. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

#include <exception>
#include <string>

// --- must warn -------------------------------------------------------------

void train_step(torch::Tensor x, torch::Tensor y, torch::Device device) {
  x.to(device); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
  // fixed: x = x.to(device); // expect: torch-discarded-to-result
  y.cuda(); // expect: torch-discarded-to-result
  // message: result of 'Tensor::cuda' is discarded; it returns a new tensor and leaves 'y' unchanged, so this statement has no effect
  // fixed: y = y.cuda(); // expect: torch-discarded-to-result
  x.to(torch::kFloat64); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
  // fixed: x = x.to(torch::kFloat64); // expect: torch-discarded-to-result
  x.contiguous(); // expect: torch-discarded-to-result
  // message: result of 'Tensor::contiguous' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
  // fixed: x = x.contiguous(); // expect: torch-discarded-to-result
  (y.cpu()); // expect: torch-discarded-to-result
  // message: result of 'Tensor::cpu' is discarded; it returns a new tensor and leaves 'y' unchanged, so this statement has no effect
  // fixed: (y = y.cpu()); // expect: torch-discarded-to-result
  if (device.is_cuda())
    x.pin_memory(); // expect: torch-discarded-to-result
    // message: result of 'Tensor::pin_memory' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
    // fixed: x = x.pin_memory(); // expect: torch-discarded-to-result
  x.to(device), y.to(device); // expect: torch-discarded-to-result, torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'x' unchanged, so this statement has no effect
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'y' unchanged, so this statement has no effect
  // fixed: x = x.to(device), y = y.to(device); // expect: torch-discarded-to-result, torch-discarded-to-result
  for (int i = 0; i < 2; y.to(device), ++i) { // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'y' unchanged, so this statement has no effect
  // fixed: for (int i = 0; i < 2; y = y.to(device), ++i) { // expect: torch-discarded-to-result
  }
}

struct CacheImpl : torch::nn::Module {
  void to_device(torch::Device device) {
    table_.to(device); // expect: torch-discarded-to-result
    // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'table_' unchanged, so this statement has no effect
    this->table_.cuda(); // expect: torch-discarded-to-result, torch-hardcoded-device
    // message: result of 'Tensor::cuda' is discarded; it returns a new tensor and leaves 'table_' unchanged, so this statement has no effect
    // message: 'Tensor::cuda' hard-codes the device inside 'CacheImpl::to_device'; a module must follow the device its caller moves it to with Module::to()
    // note@+0: take the device from an input or a registered parameter (x.device(), x.options()) or a device argument
  }
  torch::Tensor table_;
};

// Macro case (reported, but no fix-it inside a macro).
#define TP_MOVE(t, d) t.to(d)
void move_with_macro(torch::Tensor t, torch::Device d) {
  TP_MOVE(t, d); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 't' unchanged, so this statement has no effect
}

// Template case.
template <typename Batch>
Batch prepare(Batch batch, torch::Tensor weights) {
  weights.to(torch::kCUDA); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'weights' unchanged, so this statement has no effect
  // fixed: weights = weights.to(torch::kCUDA); // expect: torch-discarded-to-result
  return batch;
}
template int prepare<int>(int, torch::Tensor);

// A local read after the discarded conversion.
torch::Tensor local_read_after(torch::Device device) {
  torch::Tensor mask = torch::ones({2});
  mask.to(device); // expect: torch-discarded-to-result
  // message: result of 'Tensor::to' is discarded; it returns a new tensor and leaves 'mask' unchanged, so this statement has no effect
  // fixed: mask = mask.to(device); // expect: torch-discarded-to-result
  return mask;
}

// --- must not warn ----------------------------------------------------------

// A device probe: a throw-away tensor converted only to learn whether the
// device works (to() throws where it does not). Nothing reads it afterwards.
bool device_works(const std::string& name) {
  try {
    torch::Tensor probe = torch::tensor({-1, 1});
    probe.to(torch::Device(name));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

torch::Tensor used(torch::Tensor x, torch::Device device,
                   std::shared_ptr<torch::nn::Module> model) {
  x = x.to(device);
  auto y = x.cuda();
  (void)x.to(torch::kFloat64);
  model->to(device); // Module::to works in place.
  torch::nn::Linear fc(2, 2);
  fc->to(torch::kFloat64);
  const bool ok = x.to(device).defined();
  return ok ? y.to(device) : x.contiguous();
}

struct Converter {
  int to(int v) { return v; }
};
void other_to(Converter c) { c.to(1); }

// Silenced on purpose.
void warm_up(torch::Tensor x) {
  x.cuda(); // NOLINT(torch-discarded-to-result)
}
