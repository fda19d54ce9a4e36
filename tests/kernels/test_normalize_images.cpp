#include <torch/torch.h>

#include <string>
#include <vector>

#include "catch.h"
#include "kernel_test_utils.h"
#include "tensorplace/ops.h"

using tensorplace_test::reference_normalize_images;
using tensorplace_test::tolerance;

namespace {

const std::vector<double> kMean3{0.485, 0.456, 0.406};
const std::vector<double> kStd3{0.229, 0.224, 0.225};

torch::Tensor random_images(const std::vector<int64_t>& shape) {
  return torch::randint(0, 256, shape, torch::TensorOptions().dtype(torch::kUInt8));
}

std::vector<double> channel_values(int64_t channels, double first, double step) {
  std::vector<double> values;
  for (int64_t c = 0; c < channels; ++c) {
    values.push_back(first + step * static_cast<double>(c));
  }
  return values;
}

}  // namespace

TEST_CASE("normalize_images matches the LibTorch composition", "[ops][normalize]") {
  const std::string layout = GENERATE(as<std::string>{}, "NHWC", "NCHW");
  const torch::ScalarType out_dtype = GENERATE(torch::kFloat32, torch::kFloat16, torch::kBFloat16);
  // N, H, W, C
  const std::vector<int64_t> nhwc = GENERATE(values<std::vector<int64_t>>({{0, 4, 4, 3},
                                                                           {2, 0, 5, 3},
                                                                           {1, 1, 1, 1},
                                                                           {1, 1, 1, 3},
                                                                           {2, 5, 7, 3},
                                                                           {3, 17, 33, 4},
                                                                           {2, 64, 64, 3},
                                                                           {1, 9, 300, 1},
                                                                           {2, 31, 517, 3}}));
  CAPTURE(layout, out_dtype, nhwc);
  const int64_t channels = nhwc[3];
  const std::vector<double> mean = channels == 3 ? kMean3 : channel_values(channels, 0.3, 0.1);
  const std::vector<double> std = channels == 3 ? kStd3 : channel_values(channels, 0.2, 0.05);
  const torch::Tensor images =
      layout == "NHWC" ? random_images(nhwc) : random_images({nhwc[0], nhwc[3], nhwc[1], nhwc[2]});
  const torch::Tensor out = tensorplace::normalize_images(images, mean, std, layout, out_dtype);
  CHECK(out.sizes() == torch::IntArrayRef({nhwc[0], nhwc[3], nhwc[1], nhwc[2]}));
  CHECK(out.is_contiguous());
  TENSORPLACE_CHECK_CLOSE(out, reference_normalize_images(images, mean, std, layout, out_dtype),
                          tolerance(out_dtype));
}

TEST_CASE("normalize_images reads non-contiguous images", "[ops][normalize]") {
  SECTION("NCHW view of channels-last memory") {
    const torch::Tensor images = random_images({2, 6, 10, 3}).permute({0, 3, 1, 2});
    REQUIRE_FALSE(images.is_contiguous());
    TENSORPLACE_CHECK_CLOSE(
        tensorplace::normalize_images(images, kMean3, kStd3, "NCHW", torch::kFloat32),
        reference_normalize_images(images, kMean3, kStd3, "NCHW", torch::kFloat32),
        tolerance(torch::kFloat32));
  }
  SECTION("every other column of an NHWC batch") {
    const torch::Tensor images = random_images({2, 6, 20, 3}).slice(2, 0, 20, 2);
    REQUIRE_FALSE(images.is_contiguous());
    TENSORPLACE_CHECK_CLOSE(
        tensorplace::normalize_images(images, kMean3, kStd3, "NHWC", torch::kFloat16),
        reference_normalize_images(images, kMean3, kStd3, "NHWC", torch::kFloat16),
        tolerance(torch::kFloat16));
  }
}

TEST_CASE("normalize_images maps 0 and 255 to the ends of each channel's range",
          "[ops][normalize]") {
  torch::Tensor images = torch::zeros({1, 1, 2, 3}, torch::kUInt8);
  images.select(2, 1).fill_(255);
  const torch::Tensor out = tensorplace::normalize_images(images, kMean3, kStd3);
  for (int64_t c = 0; c < 3; ++c) {
    CHECK(out[0][c][0][0].item<double>() == Catch::Approx(-kMean3[c] / kStd3[c]).epsilon(1e-6));
    CHECK(out[0][c][0][1].item<double>() ==
          Catch::Approx((1 - kMean3[c]) / kStd3[c]).epsilon(1e-6));
  }
}

TEST_CASE("normalize_images rejects bad arguments with the documented errors", "[ops][normalize]") {
  const torch::Tensor images = random_images({1, 4, 4, 3});
  CHECK_THROWS_WITH(tensorplace::normalize_images(images.to(torch::kFloat32), kMean3, kStd3),
                    Catch::Matchers::ContainsSubstring("images should be uint8, got Float"));
  CHECK_THROWS_WITH(tensorplace::normalize_images(images[0], kMean3, kStd3),
                    Catch::Matchers::ContainsSubstring("images should be a 4-D batch"));
  CHECK_THROWS_WITH(tensorplace::normalize_images(images, kMean3, kStd3, "HWC"),
                    Catch::Matchers::ContainsSubstring("layout should be NHWC or NCHW, got 'HWC'"));
  CHECK_THROWS_WITH(
      tensorplace::normalize_images(images, {0.5}, kStd3),
      Catch::Matchers::ContainsSubstring("mean should have one value per channel (3), got 1"));
  CHECK_THROWS_WITH(
      tensorplace::normalize_images(images, kMean3, {0.5, 0.5}),
      Catch::Matchers::ContainsSubstring("std should have one value per channel (3), got 2"));
  CHECK_THROWS_WITH(tensorplace::normalize_images(images, kMean3, {0.5, 0.0, 0.5}),
                    Catch::Matchers::ContainsSubstring("std should have no zero"));
  // NCHW reads the channel count from dimension 1: here 4, not 3.
  CHECK_THROWS_WITH(
      tensorplace::normalize_images(images, kMean3, kStd3, "NCHW"),
      Catch::Matchers::ContainsSubstring("mean should have one value per channel (4), got 3"));
  CHECK_THROWS_WITH(tensorplace::normalize_images(images, kMean3, kStd3, "NHWC", torch::kFloat64),
                    Catch::Matchers::ContainsSubstring(
                        "out_dtype should be float32, float16 or bfloat16, got Double"));
}

TEST_CASE("to_device_normalized on the CPU is normalize_images", "[ops][normalize]") {
  const torch::Tensor images = random_images({2, 8, 8, 3});
  const torch::Tensor out = tensorplace::to_device_normalized(images, torch::kCPU, kMean3, kStd3,
                                                              "NHWC", torch::kBFloat16);
  CHECK(out.device() == torch::Device(torch::kCPU));
  CHECK(torch::equal(
      out, tensorplace::normalize_images(images, kMean3, kStd3, "NHWC", torch::kBFloat16)));
  CHECK_THROWS_WITH(
      tensorplace::to_device_normalized(images.to(torch::kFloat32), torch::kCPU, kMean3, kStd3),
      Catch::Matchers::ContainsSubstring("images should be uint8, got Float"));
}
