// Per-tensor `.to()` against `tensorplace::to_device` for three shapes of batch:
//   (a) 1,000 tensors of 1 KiB, (b) 64 of 64 KiB, (c) 8 of 16 MiB.
// On a CUDA machine both move CPU tensors (pageable memory, as a data loader makes them) to
// cuda:0 with blocking copies, and each timing ends with a device synchronisation. Without CUDA
// the program measures what can be measured on the CPU, and says so: the same-device call
// (both sides return their input) and the packing path CPU to CPU (one packed copy against a
// per-tensor clone).
//
// Usage: bench_to_device [repetitions]   (default 20; each figure is the median)

#include <tensorplace/to_device.h>

#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Case {
  const char* label;
  int count;
  int64_t bytes;
};

double time_ms(const std::function<void()>& run, const std::function<void()>& sync) {
  const auto start = std::chrono::steady_clock::now();
  run();
  sync();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(stop - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Runs both sides alternately, `repetitions` times after two warm-up rounds, and prints the
// medians and their ratio.
void compare(const Case& c,
             const char* baseline_name,
             const char* candidate_name,
             const std::function<void()>& baseline,
             const std::function<void()>& candidate,
             const std::function<void()>& sync,
             int repetitions) {
  std::vector<double> base_ms;
  std::vector<double> cand_ms;
  for (int i = 0; i < repetitions + 2; ++i) {
    const double b = time_ms(baseline, sync);
    const double t = time_ms(candidate, sync);
    if (i >= 2) {
      base_ms.push_back(b);
      cand_ms.push_back(t);
    }
  }
  const double b = median(base_ms);
  const double t = median(cand_ms);
  std::printf("  %-18s %-20s %10.4f ms   %-16s %10.4f ms   ratio %6.2fx\n", c.label, baseline_name,
              b, candidate_name, t, b / t);
}

std::vector<torch::Tensor> make_batch(const Case& c) {
  std::vector<torch::Tensor> batch;
  for (int i = 0; i < c.count; ++i) {
    batch.push_back(torch::randn({c.bytes / 4}));
  }
  return batch;
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const std::vector<Case> cases = {{"(a) 1000 x 1 KiB", 1000, 1 << 10},
                                   {"(b) 64 x 64 KiB", 64, 64 << 10},
                                   {"(c) 8 x 16 MiB", 8, 16 << 20}};
  std::printf("bench_to_device: median of %d runs, both sides alternated in one process\n",
              repetitions);
  if (torch::cuda::is_available()) {
    const torch::Device cuda("cuda:0");
    auto sync = [] { torch::cuda::synchronize(); };
    std::printf("CPU (pageable) -> cuda:0, blocking copies, synchronised after each run\n");
    for (const auto& c : cases) {
      auto batch = make_batch(c);
      std::vector<torch::Tensor> out;
      compare(
          c, "per-tensor .to()", "to_device",
          [&] {
            out.clear();
            for (const auto& t : batch) {
              out.push_back(t.to(cuda));
            }
          },
          [&] { out = tensorplace::to_device(batch, cuda); }, sync, repetitions);
    }
    return 0;
  }

  auto no_sync = [] {};
  const torch::Device cpu(torch::kCPU);
  std::printf("no CUDA device: measuring on the CPU\n");
  std::printf(
      "same device (cpu -> cpu): both sides hand back their inputs; this is to_device's "
      "traversal overhead\n");
  for (const auto& c : cases) {
    auto batch = make_batch(c);
    std::vector<torch::Tensor> out;
    compare(
        c, "per-tensor .to(cpu)", "to_device",
        [&] {
          out.clear();
          for (const auto& t : batch) {
            out.push_back(t.to(cpu));
          }
        },
        [&] { out = tensorplace::to_device(batch, cpu); }, no_sync, repetitions);
  }
  std::printf(
      "packing path cpu -> cpu: per-tensor clone() vs detail::coalesced_copy (pack into one "
      "staging buffer, one copy, views). On the CPU the packing is an extra copy, so it costs;\n"
      "to CUDA it replaces one transfer per tensor. to_device packs only tensors up to "
      "coalesce_threshold (1 MiB by default), so it would send (c) directly.\n");
  for (const auto& c : cases) {
    auto batch = make_batch(c);
    std::vector<torch::Tensor> out;
    compare(
        c, "per-tensor clone()", "coalesced_copy",
        [&] {
          out.clear();
          for (const auto& t : batch) {
            out.push_back(t.clone());
          }
        },
        [&] { out = tensorplace::detail::coalesced_copy(batch, cpu, {}); }, no_sync, repetitions);
  }
  return 0;
}
