// Not reformatted: each expected finding sits on the line it is about.
// clang-format off
#include <torch/extension.h>

void scale_cuda(torch::Tensor out, const torch::Tensor& x, double factor);

torch::Tensor scale(const torch::Tensor& x, double factor) {
  auto out = torch::empty_like(x);
  if (x.is_cuda()) {
    scale_cuda(out, x, factor);
    return out;
  }
  auto source = x.contiguous();
  source.to(torch::kFloat);  // expect: torch-discarded-to-result
  return source * factor;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale, "x * factor");
}
