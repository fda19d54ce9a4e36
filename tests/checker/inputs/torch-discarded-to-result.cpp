// Not reformatted: each "expect:" annotation must stay on the line of its finding.
// clang-format off
// torch-discarded-to-result. A finding is expected on each line marked
// "expect:"; every other line must stay silent.
#include <torch/torch.h>

// --- must warn -------------------------------------------------------------

void train_step(torch::Tensor x, torch::Tensor y, torch::Device device) {
  x.to(device); // expect: torch-discarded-to-result
  y.cuda(); // expect: torch-discarded-to-result
  x.to(torch::kFloat64); // expect: torch-discarded-to-result
  x.contiguous(); // expect: torch-discarded-to-result
  (y.cpu()); // expect: torch-discarded-to-result
  if (device.is_cuda())
    x.pin_memory(); // expect: torch-discarded-to-result
  x.to(device), y.to(device); // expect: torch-discarded-to-result, torch-discarded-to-result
  for (int i = 0; i < 2; y.to(device), ++i) { // expect: torch-discarded-to-result
  }
}

struct CacheImpl : torch::nn::Module {
  void to_device(torch::Device device) {
    table_.to(device); // expect: torch-discarded-to-result
    this->table_.cuda(); // expect: torch-discarded-to-result, torch-hardcoded-device
  }
  torch::Tensor table_;
};

// Macro case (reported, but no fix-it inside a macro).
#define TP_MOVE(t, d) t.to(d)
void move_with_macro(torch::Tensor t, torch::Device d) {
  TP_MOVE(t, d); // expect: torch-discarded-to-result
}

// Template case.
template <typename Batch>
Batch prepare(Batch batch, torch::Tensor weights) {
  weights.to(torch::kCUDA); // expect: torch-discarded-to-result
  return batch;
}
template int prepare<int>(int, torch::Tensor);

// --- must not warn ----------------------------------------------------------

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
