// The placement audit: placement_report, expect_on_device, check_inputs and DeviceChecked.
// Without a GPU, the second device is `meta`: plain tensors can live there, so a module can be
// split across two devices on any machine.

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>

#include "catch.h"
#include "lib_test_utils.h"

#include <functional>
#include <sstream>

namespace tnn = tensorplace::nn;

namespace {

using tensorplace::test::error_message;

struct EncoderImpl : torch::nn::Cloneable<EncoderImpl> {
  EncoderImpl() : TENSORPLACE_CLONEABLE_BASE(EncoderImpl, "Encoder") {
    reset();
  }
  void reset() override {
    fc.bind(this, "fc", torch::nn::Linear(3, 4));
    norm.bind(this, "norm", torch::nn::BatchNorm1d(4));
    scale.bind(this, "scale", torch::ones({4}));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return norm(fc(x)) * scale;
  }
  tnn::Submodule<torch::nn::Linear> fc;
  tnn::Submodule<torch::nn::BatchNorm1d> norm;
  tnn::Parameter scale;
};
TORCH_MODULE(Encoder);

const torch::Device meta("meta");

// Module::to(kMeta) and set_data refuse meta (LIBTORCH-FACTS 16), so a tensor is put on meta by
// replacing its registered slot.
void put_on_meta(torch::nn::Module& module, const std::string& name) {
  auto& parameters = tensorplace::detail::parameter_slots(module);
  if (auto* slot = parameters.find(name)) {
    *slot = slot->detach().to(meta);
    return;
  }
  auto* slot = tensorplace::detail::buffer_slots(module).find(name);
  REQUIRE(slot != nullptr);
  *slot = slot->to(meta);
}

}  // namespace

TEST_CASE("placement_report lists every parameter and buffer by qualified name", "[audit]") {
  Encoder encoder;
  auto report = tensorplace::placement_report(encoder);
  auto entries = report.entries();
  std::vector<std::string> names;
  for (const auto& e : entries) {
    names.push_back(e.name);
  }
  REQUIRE(names == std::vector<std::string>{"scale", "fc.weight", "fc.bias", "norm.weight",
                                            "norm.bias", "norm.running_mean", "norm.running_var",
                                            "norm.num_batches_tracked"});
  REQUIRE(report.groups.size() == 1);
  const auto& group = report.groups[0];
  REQUIRE(group.device == torch::Device(torch::kCPU));
  REQUIRE(group.parameter_count == 5);
  REQUIRE(group.buffer_count == 3);
  const int64_t expected_bytes = (4 + 12 + 4 + 4 + 4 + 4 + 4) * 4 + 8;
  REQUIRE(group.bytes == expected_bytes);
  REQUIRE(report.bytes == expected_bytes);
  REQUIRE(entries[1].kind == tensorplace::TensorKind::parameter);
  REQUIRE(entries[1].shape == std::vector<int64_t>{4, 3});
  REQUIRE(entries[1].bytes == 48);
  REQUIRE(entries[7].kind == tensorplace::TensorKind::buffer);
  REQUIRE(entries[7].dtype == torch::kLong);

  SECTION("the report follows to()") {
    encoder->to(torch::kFloat64);
    auto moved = tensorplace::placement_report(encoder).entries();
    REQUIRE(moved[1].dtype == torch::kFloat64);
    REQUIRE(moved[1].bytes == 96);
  }
}

TEST_CASE("placement_report groups tensors by device with totals", "[audit]") {
  Encoder encoder;
  put_on_meta(*encoder->norm, "running_mean");
  put_on_meta(*encoder->fc, "weight");
  auto report = tensorplace::placement_report(encoder);
  REQUIRE(report.devices() == std::vector<torch::Device>{torch::kCPU, meta});
  const auto* on_meta = report.find(meta);
  REQUIRE(on_meta != nullptr);
  REQUIRE(on_meta->parameter_count == 1);
  REQUIRE(on_meta->buffer_count == 1);
  REQUIRE(on_meta->bytes == 48 + 16);
  REQUIRE(on_meta->entries[0].name == "fc.weight");
  REQUIRE(on_meta->entries[1].name == "norm.running_mean");

  const std::string table = report.to_string();
  INFO(table);
  REQUIRE_THAT(
      table,
      Catch::Matchers::ContainsSubstring("placement of Encoder: ") &&
          Catch::Matchers::ContainsSubstring("on 2 devices") &&
          Catch::Matchers::ContainsSubstring("total on meta: 1 parameters, 1 buffers, 64 B") &&
          Catch::Matchers::ContainsSubstring("total on cpu: 4 parameters, 2 buffers"));
  // Aligned: every row places the device column at the same offset as the header.
  std::istringstream lines(table);
  std::string line;
  std::getline(lines, line);
  std::getline(lines, line);
  const auto device_column = line.find("device");
  REQUIRE(device_column != std::string::npos);
  int rows = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("  total", 0) == 0) {
      continue;
    }
    ++rows;
    const auto at = line.substr(device_column, 4);
    REQUIRE((at == "cpu " || at == "meta"));
  }
  REQUIRE(rows == 8);
}

TEST_CASE("expect_on_device names every misplaced tensor", "[audit]") {
  Encoder encoder;
  REQUIRE_NOTHROW(tensorplace::expect_on_device(encoder, torch::kCPU));
  REQUIRE_NOTHROW(tensorplace::expect_on_device(encoder, "cpu"));

  put_on_meta(*encoder->fc, "bias");
  put_on_meta(*encoder->norm, "running_var");
  const auto message = error_message([&] { tensorplace::expect_on_device(encoder, "cpu"); });
  REQUIRE_THAT(
      message,
      Catch::Matchers::ContainsSubstring("2 of 8 tensors of module Encoder are not on cpu") &&
          Catch::Matchers::ContainsSubstring("fc.bias (parameter) on meta") &&
          Catch::Matchers::ContainsSubstring("norm.running_var (buffer) on meta"));
  REQUIRE_THAT(message, !Catch::Matchers::ContainsSubstring("fc.weight"));

  SECTION("a device string that does not parse is named") {
    REQUIRE_THAT(error_message([&] { tensorplace::expect_on_device(encoder, "gpu0"); }),
                 Catch::Matchers::ContainsSubstring("device should be a device such as") &&
                     Catch::Matchers::ContainsSubstring("got 'gpu0'"));
  }
}

TEST_CASE("check_inputs names the misplaced input and both devices", "[audit]") {
  Encoder encoder;
  auto x = torch::ones({2, 3});
  auto mask = torch::ones({2}, torch::TensorOptions().device(meta));
  REQUIRE_NOTHROW(tensorplace::check_inputs(encoder, {{"input", x}}));
  const auto message = error_message([&] {
    tensorplace::check_inputs(encoder, {{"input", x}, {"mask", mask}});
  });
  REQUIRE_THAT(message, Catch::Matchers::ContainsSubstring(
                            "input 'mask' is on meta but module Encoder is on cpu"));

  SECTION("an undefined input is named") {
    REQUIRE_THAT(error_message([&] {
                   tensorplace::check_inputs(encoder, {{"mask", torch::Tensor()}});
                 }),
                 Catch::Matchers::ContainsSubstring("input 'mask'") &&
                     Catch::Matchers::ContainsSubstring("undefined"));
  }
  SECTION("a module split across devices is reported") {
    encoder->scale = encoder->scale->detach().to(meta);
    REQUIRE_THAT(error_message([&] {
                   tensorplace::check_inputs(encoder, {{"input", x}});
                 }),
                 Catch::Matchers::ContainsSubstring("tensors on several devices") &&
                     Catch::Matchers::ContainsSubstring("'scale'"));
  }
  SECTION("a module without tensors checks its inputs against each other") {
    torch::nn::ReLU relu;
    REQUIRE_THAT(error_message([&] {
                   tensorplace::check_inputs(relu, {{"input", x}, {"mask", mask}});
                 }),
                 Catch::Matchers::ContainsSubstring("input 'mask' is on meta but input 'input'"));
  }
}

TEST_CASE("DeviceChecked checks inputs before forward", "[audit][device_checked]") {
  torch::nn::Linear linear(3, 2);
  tnn::DeviceChecked<torch::nn::Linear> checked(linear, {"features"});
  auto x = torch::randn({4, 3});
  REQUIRE(torch::equal(checked(x), linear(x)));
  REQUIRE(checked->named_parameters().contains("module.weight"));

  const auto message = error_message([&] { checked(x.to(meta)); });
  REQUIRE_THAT(message,
               Catch::Matchers::ContainsSubstring("input 'features' is on meta but module") &&
                   Catch::Matchers::ContainsSubstring("is on cpu"));

  SECTION("clone() copies the wrapped module and keeps the check") {
    auto copy =
        std::dynamic_pointer_cast<tnn::DeviceCheckedImpl<torch::nn::Linear>>(checked->clone());
    REQUIRE(copy);
    copy->module->weight.data().zero_();
    REQUIRE_FALSE(torch::equal(copy->forward(x), linear(x)));
    REQUIRE_THAT(error_message([&] { copy->forward(x.to(meta)); }),
                 Catch::Matchers::ContainsSubstring("input 'features'"));
  }
  SECTION("the wrapped module moves with to()") {
    checked->to(torch::kFloat64);
    REQUIRE(linear->weight.scalar_type() == torch::kFloat64);
  }
}

TEST_CASE("A module moved to CUDA passes the audit", "[audit][cuda]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  Encoder encoder;
  encoder->to(torch::kCUDA);
  REQUIRE_NOTHROW(tensorplace::expect_on_device(encoder, "cuda"));
  REQUIRE_NOTHROW(tensorplace::expect_on_device(encoder, "cuda:0"));
  auto report = tensorplace::placement_report(encoder);
  REQUIRE(report.groups.size() == 1);
  REQUIRE(report.groups[0].device.is_cuda());
  REQUIRE_THAT(error_message([&] { tensorplace::expect_on_device(encoder, "cpu"); }),
               Catch::Matchers::ContainsSubstring("8 of 8 tensors"));
  auto x = torch::ones({2, 3});
  REQUIRE_THAT(error_message([&] {
                 tensorplace::check_inputs(encoder, {{"input", x}});
               }),
               Catch::Matchers::ContainsSubstring(
                   "input 'input' is on cpu but module Encoder is on cuda:0"));
  tnn::DeviceChecked<Encoder> checked(encoder, {"input"});
  REQUIRE_NOTHROW(checked(x.cuda()));
  REQUIRE_THROWS(checked(x));
}
