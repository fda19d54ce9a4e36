// tensorplace::to_device. Without a GPU the target is `meta`, a real second device for plain
// tensors; the coalescing path (pinned staging, one copy, views) is run CPU to CPU through
// detail::coalesced_copy, which takes the same steps without pinning.

#include <tensorplace/to_device.h>

#include <torch/torch.h>

#include "catch.h"
#include "lib_test_utils.h"

#include <functional>
#include <thread>

namespace {

using tensorplace::test::error_message;

const torch::Device meta("meta");
const torch::Device cpu(torch::kCPU);

const c10::StorageImpl* storage_of(const torch::Tensor& t) {
  return t.storage().unsafeGetStorageImpl();
}

}  // namespace

struct Batch {
  torch::Tensor image;
  std::vector<torch::Tensor> masks;
  int64_t id;
};

template <>
struct tensorplace::ToDeviceTraits<Batch> {
  template <typename Fn>
  static Batch map(const Batch& b, Fn&& move) {
    return {move(b.image), move(b.masks), b.id};
  }
};

struct Label {
  std::string text;
};
template <>
struct tensorplace::ToDeviceTraits<Label> : tensorplace::ToDeviceLeaf {};

TEST_CASE("to_device returns the very same tensors when nothing moves", "[to_device]") {
  std::vector<torch::Tensor> tensors = {torch::ones({2}), torch::zeros({3, 3})};
  auto same = tensorplace::to_device(tensors, cpu);
  REQUIRE(same.size() == 2);
  REQUIRE(same[0].is_same(tensors[0]));
  REQUIRE(same[1].is_same(tensors[1]));

  std::map<std::string, std::tuple<torch::Tensor, int>> nested = {{"a", {tensors[0], 7}}};
  auto nested_same = tensorplace::to_device(nested, "cpu");
  REQUIRE(std::get<0>(nested_same.at("a")).is_same(tensors[0]));
  REQUIRE(std::get<1>(nested_same.at("a")) == 7);
}

TEST_CASE("to_device moves tensors in every supported container", "[to_device]") {
  // Distinct shapes: a tensor handed back in the wrong slot shows up as a shape mismatch.
  auto t = [](int64_t n) { return torch::full({n}, static_cast<double>(n)); };

  SECTION("sequences") {
    std::vector<torch::Tensor> v = {t(1), t(2)};
    std::deque<torch::Tensor> d = {t(3), t(4)};
    std::list<torch::Tensor> l = {t(5), t(6)};
    std::array<torch::Tensor, 2> a = {t(7), t(8)};
    auto value = std::make_tuple(v, d, l, a);
    auto moved = tensorplace::to_device(value, meta);
    auto check = [](const torch::Tensor& x, int64_t n) {
      REQUIRE(x.device() == meta);
      REQUIRE(x.sizes() == torch::IntArrayRef({n}));
    };
    check(std::get<0>(moved)[0], 1);
    check(std::get<0>(moved)[1], 2);
    check(std::get<1>(moved)[0], 3);
    check(std::get<1>(moved)[1], 4);
    check(std::get<2>(moved).front(), 5);
    check(std::get<2>(moved).back(), 6);
    check(std::get<3>(moved)[0], 7);
    check(std::get<3>(moved)[1], 8);
    REQUIRE(std::get<0>(value)[0].device() == cpu);  // the input is left as it was
  }
  SECTION("maps, pairs, optionals and variants") {
    std::map<std::string, torch::Tensor> m = {{"x", t(1)}, {"y", t(2)}};
    std::unordered_map<int, std::pair<torch::Tensor, std::string>> u = {{4, {t(4), "four"}}};
    std::optional<torch::Tensor> present = t(5);
    std::optional<torch::Tensor> absent;
    c10::optional<torch::Tensor> c10_present = t(6);
    std::variant<int, torch::Tensor> holds_tensor = t(7);
    std::variant<int, torch::Tensor> holds_int = 3;

    auto m2 = tensorplace::to_device(m, meta);
    REQUIRE(m2.at("x").device() == meta);
    REQUIRE(m2.at("y").sizes() == torch::IntArrayRef({2}));
    auto u2 = tensorplace::to_device(u, meta);
    REQUIRE(u2.at(4).first.device() == meta);
    REQUIRE(u2.at(4).second == "four");
    REQUIRE(tensorplace::to_device(present, meta)->device() == meta);
    REQUIRE_FALSE(tensorplace::to_device(absent, meta).has_value());
    REQUIRE(tensorplace::to_device(c10_present, meta)->device() == meta);
    REQUIRE(std::get<torch::Tensor>(tensorplace::to_device(holds_tensor, meta)).device() == meta);
    REQUIRE(std::get<int>(tensorplace::to_device(holds_int, meta)) == 3);
  }
  SECTION("undefined tensors stay undefined") {
    std::vector<torch::Tensor> v = {t(1), torch::Tensor(), t(3)};
    auto moved = tensorplace::to_device(v, meta);
    REQUIRE(moved[0].device() == meta);
    REQUIRE_FALSE(moved[1].defined());
    REQUIRE(moved[2].sizes() == torch::IntArrayRef({3}));
  }
  SECTION("c10::IValue lists, dicts and tuples") {
    c10::impl::GenericDict dict(c10::StringType::get(), c10::TensorType::get());
    dict.insert("w", t(2));
    c10::List<torch::Tensor> list({t(3), t(4)});
    c10::IValue value(c10::ivalue::Tuple::create({c10::IValue(t(1)), dict, list, 5, "s"}));
    auto moved = tensorplace::to_device(value, meta);
    const auto& elements = moved.toTupleRef().elements();
    REQUIRE(elements[0].toTensor().device() == meta);
    REQUIRE(elements[1].toGenericDict().at("w").toTensor().device() == meta);
    REQUIRE(elements[1].toGenericDict().at("w").toTensor().sizes() == torch::IntArrayRef({2}));
    REQUIRE(elements[2].isTensorList());
    REQUIRE(elements[2].toTensorList().get(1).device() == meta);
    REQUIRE(elements[2].toTensorList().get(1).sizes() == torch::IntArrayRef({4}));
    REQUIRE(elements[3].toInt() == 5);
    REQUIRE(elements[4].toStringRef() == "s");
  }
  SECTION("torch::data::Example and user types") {
    torch::data::Example<> example(t(2), t(3));
    auto moved = tensorplace::to_device(example, meta);
    REQUIRE(moved.data.device() == meta);
    REQUIRE(moved.target.sizes() == torch::IntArrayRef({3}));
    torch::data::Example<torch::Tensor, torch::data::example::NoTarget> unlabeled(t(4));
    REQUIRE(tensorplace::to_device(unlabeled, meta).data.device() == meta);

    std::vector<Batch> batches = {{t(1), {t(2), t(3)}, 42}};
    auto moved_batches = tensorplace::to_device(std::make_pair(batches, Label{"l"}), meta);
    REQUIRE(moved_batches.first[0].image.device() == meta);
    REQUIRE(moved_batches.first[0].masks[1].sizes() == torch::IntArrayRef({3}));
    REQUIRE(moved_batches.first[0].id == 42);
    REQUIRE(moved_batches.second.text == "l");
  }
}

TEST_CASE("to_device leaves tensors already on the target untouched", "[to_device]") {
  auto on_meta = torch::empty({2}, torch::TensorOptions().device(meta));
  std::vector<torch::Tensor> mixed = {on_meta, torch::ones({2})};
  auto moved = tensorplace::to_device(mixed, meta);
  REQUIRE(moved[0].is_same(on_meta));
  REQUIRE(moved[1].device() == meta);
}

TEST_CASE("to_device names a bad device or option", "[to_device][errors]") {
  std::vector<torch::Tensor> v = {torch::ones({1})};
  REQUIRE_THAT(error_message([&] { tensorplace::to_device(v, "gpu:1"); }),
               Catch::Matchers::ContainsSubstring("to_device: device should be a device such as") &&
                   Catch::Matchers::ContainsSubstring("got 'gpu:1'"));
  REQUIRE_THAT(error_message([&] {
                 tensorplace::to_device(v, meta,
                                        tensorplace::ToDeviceOptions().coalesce_threshold(-1));
               }),
               Catch::Matchers::ContainsSubstring(
                   "options.coalesce_threshold should be at least 0, got -1"));
}

TEST_CASE("coalesced_copy packs tensors into one allocation and hands back views",
          "[to_device][coalesce]") {
  auto strided = torch::arange(12, torch::kFloat32).reshape({3, 4}).t();  // not contiguous
  std::vector<torch::Tensor> tensors = {
      torch::arange(5, torch::kFloat32),
      torch::arange(3, torch::kFloat64) + 0.5,
      torch::tensor({true, false, true}),
      torch::empty({0}, torch::kInt64),
      strided,
      torch::arange(7, torch::kInt64) * 3,
      torch::complex(torch::ones({2}), torch::full({2}, 2.0)).conj(),
  };
  SECTION("views of one allocation") {
    auto copies = tensorplace::detail::coalesced_copy(tensors, cpu, {});
    REQUIRE(copies.size() == tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      INFO("tensor " << i);
      REQUIRE(copies[i].dtype() == tensors[i].dtype());
      REQUIRE(copies[i].sizes() == tensors[i].sizes());
      REQUIRE(torch::equal(copies[i], tensors[i].resolve_conj()));
      REQUIRE(copies[i].is_contiguous());
      REQUIRE(storage_of(copies[i]) == storage_of(copies[0]));
      REQUIRE(storage_of(copies[i]) != storage_of(tensors[i]));
      REQUIRE(copies[i].storage_offset() * copies[i].element_size() % 64 == 0);
    }
  }
  SECTION("separate allocations when sharing is off") {
    auto copies = tensorplace::detail::coalesced_copy(
        tensors, cpu, tensorplace::ToDeviceOptions().share_allocation(false));
    for (size_t i = 0; i < tensors.size(); ++i) {
      REQUIRE(torch::equal(copies[i], tensors[i].resolve_conj()));
      if (i > 0) {
        REQUIRE(storage_of(copies[i]) != storage_of(copies[0]));
      }
    }
  }
}

TEST_CASE("to_device and coalesced_copy are safe from several threads", "[to_device][threads]") {
  std::vector<std::thread> threads;
  std::vector<int> ok(8, 0);
  for (int k = 0; k < 8; ++k) {
    threads.emplace_back([k, &ok] {
      bool good = true;
      for (int round = 0; round < 20; ++round) {
        std::vector<torch::Tensor> tensors;
        for (int i = 0; i < 50; ++i) {
          tensors.push_back(torch::full({i + 1}, k * 1000 + i));
        }
        auto copies = tensorplace::detail::coalesced_copy(tensors, cpu, {});
        auto moved = tensorplace::to_device(tensors, meta);
        for (int i = 0; i < 50; ++i) {
          good = good && torch::equal(copies[i], tensors[i]) && moved[i].device() == meta &&
                 moved[i].size(0) == i + 1;
        }
      }
      ok[k] = good ? 1 : 0;
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  REQUIRE(ok == std::vector<int>(8, 1));
}

TEST_CASE("to_device coalesces small tensors bound for CUDA", "[to_device][cuda]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  std::vector<torch::Tensor> tensors;
  for (int i = 0; i < 100; ++i) {
    tensors.push_back(torch::randn({i + 1}));
  }
  tensors.push_back(torch::randn({1 << 20}));  // 4 MiB: above the threshold, copied directly
  const bool non_blocking = GENERATE(false, true);
  auto moved = tensorplace::to_device(tensors, "cuda",
                                      tensorplace::ToDeviceOptions().non_blocking(non_blocking));
  torch::cuda::synchronize();
  for (size_t i = 0; i < tensors.size(); ++i) {
    REQUIRE(moved[i].is_cuda());
    REQUIRE(torch::equal(moved[i].cpu(), tensors[i]));
  }
  REQUIRE(storage_of(moved[0]) == storage_of(moved[99]));
  REQUIRE(storage_of(moved[100]) != storage_of(moved[0]));

  auto back = tensorplace::to_device(moved, cpu);
  REQUIRE(torch::equal(back[5], tensors[5]));
  auto same = tensorplace::to_device(moved, "cuda:0");
  REQUIRE(same[3].is_same(moved[3]));

  auto separate = tensorplace::to_device(tensors, torch::kCUDA,
                                         tensorplace::ToDeviceOptions().share_allocation(false));
  REQUIRE(storage_of(separate[0]) != storage_of(separate[1]));
  REQUIRE(torch::equal(separate[1].cpu(), tensors[1]));
}
