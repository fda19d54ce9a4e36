// Fused tensorplace operators against the unfused LibTorch composition they replace, measured
// side by side in one run on one device with the same thread count. On a GPU, also the
// achieved bandwidth as a fraction of a device-to-device copy measured in the same run.
//
//   bench_kernels [--device cpu|cuda] [--threads N]

#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "tensorplace/ops.h"

namespace {

const std::vector<double> kMean{0.485, 0.456, 0.406};
const std::vector<double> kStd{0.229, 0.224, 0.225};

struct Bench {
  torch::Device device;

  void sync() const {
    if (device.is_cuda()) {
      torch::cuda::synchronize(device.index());
    }
  }

  // Seconds per call: the best of 5 batches, each long enough (>= 50 ms) to swamp the timer.
  double time(const std::function<void()>& fn) const {
    for (int i = 0; i < 3; ++i) {
      fn();
    }
    sync();
    int64_t calls = 1;
    double best = 1e30;
    for (int batch = 0; batch < 5;) {
      const auto start = std::chrono::steady_clock::now();
      for (int64_t i = 0; i < calls; ++i) {
        fn();
      }
      sync();
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed < 0.05) {
        calls *= 2;
        continue;
      }
      best = std::min(best, elapsed / static_cast<double>(calls));
      ++batch;
    }
    return best;
  }
};

double copy_bandwidth(const Bench& bench) {
  const torch::Tensor src =
      torch::empty({int64_t{1} << 27}, torch::TensorOptions().device(bench.device));
  torch::Tensor dst = torch::empty_like(src);
  const double seconds = bench.time([&] { dst.copy_(src); });
  return 2.0 * static_cast<double>(src.nbytes()) / seconds;
}

void print_header(bool gpu) {
  std::printf("%-34s %-18s %11s %11s %8s%s\n", "op", "shape", "fused ms", "unfused ms", "speedup",
              gpu ? "   fused GB/s  % of copy" : "");
}

void print_row(const std::string& op,
               const std::string& shape,
               double fused,
               double unfused,
               double bytes,
               double copy_bw) {
  std::printf("%-34s %-18s %11.3f %11.3f %7.2fx", op.c_str(), shape.c_str(), fused * 1e3,
              unfused * 1e3, unfused / fused);
  if (copy_bw > 0) {
    const double bw = bytes / fused;
    std::printf("   %10.1f  %8.1f%%", bw / 1e9, 100.0 * bw / copy_bw);
  }
  std::printf("\n");
}

torch::Tensor unfused_activation(const torch::Tensor& z, const std::string& act) {
  if (act == "relu") {
    return torch::relu(z);
  }
  if (act == "gelu") {
    return torch::gelu(z);
  }
  if (act == "gelu_tanh") {
    return torch::gelu(z, "tanh");
  }
  return torch::silu(z);
}

torch::Tensor unfused_activation_backward(const torch::Tensor& grad,
                                          const torch::Tensor& z,
                                          const std::string& act) {
  if (act == "relu") {
    return torch::threshold_backward(grad, z, 0);
  }
  if (act == "gelu") {
    return torch::gelu_backward(grad, z);
  }
  if (act == "gelu_tanh") {
    return torch::gelu_backward(grad, z, "tanh");
  }
  return torch::silu_backward(grad, z);
}

void bench_bias_act(const Bench& bench, double copy_bw, torch::ScalarType dtype) {
  const auto options = torch::TensorOptions().device(bench.device).dtype(dtype);
  const std::vector<std::pair<int64_t, int64_t>> shapes{
      {8192, 1024}, {4096, 4096}, {64 * 197, 768}};
  const std::string type = dtype == torch::kFloat32   ? "f32"
                           : dtype == torch::kFloat16 ? "f16"
                                                      : "bf16";
  for (const std::string act : {"relu", "gelu", "gelu_tanh", "silu"}) {
    for (const auto& [rows, cols] : shapes) {
      const torch::Tensor x = torch::randn({rows, cols}, options);
      const torch::Tensor bias = torch::randn({cols}, options);
      const torch::Tensor grad = torch::randn({rows, cols}, options);
      const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
      const double element_bytes = static_cast<double>(x.element_size());
      const double n = static_cast<double>(x.numel());

      const double fused = bench.time([&] { tensorplace::bias_act(x, bias, act); });
      const double unfused = bench.time([&] { unfused_activation(x + bias, act); });
      print_row("bias_act " + act + " " + type + " forward", shape, fused, unfused,
                2 * n * element_bytes, copy_bw);

      const double fused_back =
          bench.time([&] { tensorplace::bias_act_backward(grad, x, bias, act); });
      const double unfused_back = bench.time([&] {
        const torch::Tensor grad_z = unfused_activation_backward(grad, x + bias, act);
        grad_z.sum(0);
      });
      print_row("bias_act " + act + " " + type + " backward", shape, fused_back, unfused_back,
                3 * n * element_bytes, copy_bw);
    }
  }
}

void bench_normalize(const Bench& bench, double copy_bw) {
  const auto device = torch::TensorOptions().device(bench.device);
  const torch::Tensor mean = torch::tensor(kMean, device.dtype(torch::kFloat32)).view({1, 3, 1, 1});
  const torch::Tensor std = torch::tensor(kStd, device.dtype(torch::kFloat32)).view({1, 3, 1, 1});
  for (const auto out_dtype : {torch::kFloat32, torch::kFloat16}) {
    for (const auto& shape :
         std::vector<std::vector<int64_t>>{{64, 224, 224, 3}, {8, 1080, 1920, 3}}) {
      const torch::Tensor images = torch::randint(0, 256, shape, device.dtype(torch::kUInt8));
      const std::string name = std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
                               std::to_string(shape[2]) + "x3";
      const double fused = bench.time(
          [&] { tensorplace::normalize_images(images, kMean, kStd, "NHWC", out_dtype); });
      const double unfused = bench.time([&] {
        images.permute({0, 3, 1, 2})
            .to(torch::kFloat32)
            .div(255)
            .sub(mean)
            .div(std)
            .to(out_dtype)
            .contiguous();
      });
      const double n = static_cast<double>(images.numel());
      print_row(
          std::string("normalize_images NHWC->") + (out_dtype == torch::kFloat32 ? "f32" : "f16"),
          name, fused, unfused, n * (1 + torch::elementSize(out_dtype)), copy_bw);
    }
  }
}

// End to end from pageable host memory: uint8 over the bus and normalised on the GPU, against
// normalised on the CPU (tensorplace's own CPU kernel) and float32 over the bus.
void bench_to_device(const Bench& bench) {
  const torch::Tensor images = torch::randint(0, 256, {64, 224, 224, 3}, torch::kUInt8);
  const double fused =
      bench.time([&] { tensorplace::to_device_normalized(images, bench.device, kMean, kStd); });
  const double unfused =
      bench.time([&] { tensorplace::normalize_images(images, kMean, kStd).to(bench.device); });
  print_row("to_device_normalized (end to end)", "64x224x224x3", fused, unfused, 0, 0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string device_name = "cpu";
  int threads = at::get_num_threads();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--device") {
      device_name = argv[i + 1];
    } else if (flag == "--threads") {
      threads = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "usage: %s [--device cpu|cuda] [--threads N]\n", argv[0]);
      return 2;
    }
  }
  at::set_num_threads(threads);
  const Bench bench{torch::Device(device_name)};
  if (bench.device.is_cuda() && !torch::cuda::is_available()) {
    std::fprintf(stderr, "bench_kernels: no CUDA device available\n");
    return 1;
  }
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  const bool gpu = bench.device.is_cuda();
  std::printf("device %s, %d CPU threads for both fused and unfused, CPU kernels %s\n",
              bench.device.str().c_str(), at::get_num_threads(),
              tensorplace::cpu_kernel_capability());
  double copy_bw = 0;
  if (gpu) {
    copy_bw = copy_bandwidth(bench);
    std::printf("device-to-device copy: %.1f GB/s (read + write)\n", copy_bw / 1e9);
  }
  print_header(gpu);
  bench_bias_act(bench, copy_bw, torch::kFloat32);
  if (gpu) {
    bench_bias_act(bench, copy_bw, torch::kFloat16);
    bench_bias_act(bench, copy_bw, torch::kBFloat16);
  }
  bench_normalize(bench, copy_bw);
  if (gpu) {
    bench_to_device(bench);
  }
  return 0;
}
