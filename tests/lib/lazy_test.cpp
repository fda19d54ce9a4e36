// Lazy modules and materialize(). Without a GPU the "device" a lazy module must follow is
// `meta` (and the dtype, float64): the parameters must be created where the first input is.

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>
#include <torch/version.h>

#include "catch.h"
#include "lib_test_utils.h"

#include <functional>
#include <sstream>

namespace tnn = tensorplace::nn;

namespace {

using tensorplace::test::error_message;

template <typename M>
std::string printed(const M& module) {
  std::ostringstream out;
  out << *module;
  return out.str();
}

class CapturedWarnings : public c10::WarningHandler {
 public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning& warning) override {
    messages.push_back(warning.msg());
  }
#else
  void process(const c10::SourceLocation&, const std::string& msg, const bool) override {
    messages.push_back(msg);
  }
#endif
  std::vector<std::string> messages;
};

#if TORCH_VERSION_MAJOR >= 2
using WarningHandlerGuard = c10::WarningUtils::WarningHandlerGuard;
#else
using WarningHandlerGuard = c10::Warning::WarningHandlerGuard;
#endif

struct TwoLayerImpl : torch::nn::Module {
  TwoLayerImpl() : torch::nn::Module("TwoLayer") {}
  torch::Tensor forward(const torch::Tensor& x) {
    return second(norm(torch::relu(first(x))));
  }
  tnn::Submodule<tnn::LazyLinear> first{this, "first", tnn::LazyLinear(8)};
  tnn::Submodule<torch::nn::BatchNorm1d> norm{this, "norm", torch::nn::BatchNorm1d(8)};
  tnn::Submodule<tnn::LazyLinear> second{this, "second", tnn::LazyLinear(2)};
  tnn::Submodule<tnn::LazyLinear> unused{this, "unused", tnn::LazyLinear(2)};
};
TORCH_MODULE(TwoLayer);

}  // namespace

TEST_CASE("LazyLinear materialises from its first input as Linear would", "[lazy]") {
  tnn::LazyLinear lazy(4);
  REQUIRE_FALSE(lazy->is_materialized());
  REQUIRE(lazy->weight->numel() == 0);
  REQUIRE_THAT(printed(lazy),
               Catch::Matchers::ContainsSubstring("in_features=<inferred>, out_features=4"));

  torch::manual_seed(7);
  torch::nn::Linear eager(3, 4);
  torch::manual_seed(7);
  auto x = torch::randn({5, 3});
  torch::manual_seed(7);
  auto y = lazy(x);

  REQUIRE(lazy->is_materialized());
  REQUIRE(lazy->in_features() == 3);
  REQUIRE(lazy->named_parameters()["weight"].is_same(lazy->weight));
  REQUIRE(lazy->named_parameters()["weight"].requires_grad());
  REQUIRE(torch::equal(*lazy->weight, eager->weight));
  REQUIRE(torch::equal(*lazy->bias, eager->bias));
  REQUIRE(torch::allclose(y, eager(x)));
  REQUIRE_THAT(printed(lazy),
               Catch::Matchers::ContainsSubstring("in_features=3, out_features=4, bias=true"));

  SECTION("inputs of another size are refused, naming the input") {
    REQUIRE_THAT(error_message([&] {
                   lazy(torch::randn({2, 5}));
                 }),
                 Catch::Matchers::ContainsSubstring(
                     "LazyLinear: input should have 3 features in its last dimension") &&
                     Catch::Matchers::ContainsSubstring("got input of shape [2, 5]"));
  }
  SECTION("an optimizer built afterwards trains the real parameters") {
    torch::optim::SGD sgd(lazy->parameters(), 0.1);
    auto before = lazy->weight->clone();
    lazy(x).sum().backward();
    sgd.step();
    REQUIRE_FALSE(torch::equal(*lazy->weight, before));
  }
}

TEST_CASE("Lazy parameters are created on the input's device and dtype", "[lazy]") {
  tnn::LazyLinear lazy(tnn::LazyLinearOptions(4).bias(false));
  lazy(torch::randn({2, 3}, torch::kFloat64));
  REQUIRE(lazy->weight->scalar_type() == torch::kFloat64);
  REQUIRE_FALSE(lazy->bias.defined());
  REQUIRE(tensorplace::detail::parameter_slots(*lazy).contains("bias"));

  tnn::LazyLinear on_meta(4);
  tensorplace::nn::materialize(on_meta, torch::empty({2, 6}, torch::Device("meta")));
  REQUIRE(on_meta->weight->device() == torch::Device("meta"));
  REQUIRE(on_meta->weight->sizes() == torch::IntArrayRef({4, 6}));
}

TEST_CASE("An optimizer built before materialisation is caught", "[lazy][optimizer]") {
  tnn::LazyLinear lazy(4);
  auto x = torch::randn({2, 3});
  {
    torch::optim::SGD early(lazy->parameters(), 0.1);
    REQUIRE_THAT(error_message([&] { lazy(x); }),
                 Catch::Matchers::ContainsSubstring("still holds its placeholder 'weight'") &&
                     Catch::Matchers::ContainsSubstring("tensorplace::nn::materialize"));
    REQUIRE_FALSE(lazy->is_materialized());
  }
  REQUIRE_NOTHROW(lazy(x));
}

TEST_CASE("to() on an unmaterialised lazy module warns", "[lazy]") {
  CapturedWarnings warnings;
  WarningHandlerGuard guard(&warnings);
  tnn::LazyLinear lazy(4);
  lazy->to(torch::kFloat64);
  REQUIRE(warnings.messages.size() == 1);
  REQUIRE_THAT(warnings.messages[0],
               Catch::Matchers::ContainsSubstring("LazyLinear: to() on a module that is not "
                                                  "materialised") &&
                   Catch::Matchers::ContainsSubstring("tensorplace::nn::materialize"));
  lazy(torch::randn({2, 3}));
  lazy->to(torch::kFloat64);
  REQUIRE(warnings.messages.size() == 1);
  REQUIRE(lazy->weight->scalar_type() == torch::kFloat64);
}

TEST_CASE("materialize() runs a dry forward and reports lazy modules it missed", "[lazy]") {
  TwoLayer model;
  model->unused = tnn::LazyLinear(2);
  model->train();
  const auto message = error_message([&] { tnn::materialize(model, torch::randn({4, 5})); });
  REQUIRE_THAT(message, Catch::Matchers::ContainsSubstring("1 lazy module(s) of TwoLayer") &&
                            Catch::Matchers::ContainsSubstring("\n  unused"));
  REQUIRE(model->first->in_features() == 5);
  REQUIRE(model->second->in_features() == 8);
  REQUIRE(tnn::unmaterialized_modules(*model) == std::vector<std::string>{"unused"});
  // The dry run happened in eval mode: BatchNorm's statistics are untouched, modes restored.
  REQUIRE(torch::equal(model->norm->running_mean, torch::zeros({8})));
  REQUIRE(model->is_training());
  REQUIRE(model->norm->is_training());
  REQUIRE(model->first->weight->requires_grad());
  REQUIRE_FALSE(model->first->weight->grad().defined());
}

TEST_CASE("Lazy modules survive clone()", "[lazy][clone]") {
  SECTION("materialised") {
    tnn::LazyLinear lazy(4);
    lazy(torch::randn({2, 3}));
    auto copy = std::dynamic_pointer_cast<tnn::LazyLinearImpl>(lazy->clone());
    REQUIRE(copy->in_features() == 3);
    REQUIRE(torch::equal(*copy->weight, *lazy->weight));
    copy->weight->data().zero_();
    REQUIRE_FALSE(torch::equal(*copy->weight, *lazy->weight));
    REQUIRE(copy->named_parameters()["weight"].is_same(copy->weight));
  }
  SECTION("unmaterialised: each copy infers its own size") {
    tnn::LazyLinear lazy(4);
    auto copy = std::dynamic_pointer_cast<tnn::LazyLinearImpl>(lazy->clone());
    copy->forward(torch::randn({2, 7}));
    REQUIRE(copy->in_features() == 7);
    REQUIRE_FALSE(lazy->is_materialized());
  }
}

TEST_CASE("Loading into a fresh lazy module materialises it", "[lazy][serialize]") {
  tnn::LazyLinear trained(4);
  trained(torch::randn({2, 3}));
  std::stringstream stream;
  torch::save(trained, stream);

  tnn::LazyLinear fresh(4);
  torch::load(fresh, stream);
  REQUIRE(fresh->is_materialized());
  REQUIRE(fresh->in_features() == 3);
  REQUIRE(torch::equal(*fresh->weight, *trained->weight));
  REQUIRE(torch::equal(*fresh->bias, *trained->bias));
  REQUIRE(fresh->weight->requires_grad());
  auto x = torch::randn({1, 3});
  REQUIRE(torch::allclose(fresh(x), trained(x)));

  SECTION("into a materialised module of another size") {
    tnn::LazyLinear other(4);
    other(torch::randn({1, 5}));
    stream.seekg(0);
    REQUIRE_THAT(
        error_message([&] { torch::load(other, stream); }),
        Catch::Matchers::ContainsSubstring("saved 'weight' should have shape [4, 5], got [4, 3]"));
  }
  SECTION("an unmaterialised archive leaves the module lazy") {
    tnn::LazyLinear unmaterialised(4);
    std::stringstream lazy_stream;
    torch::save(unmaterialised, lazy_stream);
    tnn::LazyLinear target(4);
    torch::load(target, lazy_stream);
    REQUIRE_FALSE(target->is_materialized());
  }
}

TEST_CASE("LazyConv2d materialises as Conv2d would", "[lazy][conv]") {
  const bool reflect = GENERATE(false, true);
  auto options = tnn::LazyConvOptions<2>(6, 3).padding(1).stride(2);
  auto eager_options = torch::nn::Conv2dOptions(4, 6, 3).padding(1).stride(2);
  if (reflect) {
    options.padding_mode(torch::kReflect);
    eager_options.padding_mode(torch::kReflect);
  }
  auto x = torch::randn({2, 4, 9, 9});
  torch::manual_seed(3);
  torch::nn::Conv2d eager(eager_options);
  torch::manual_seed(3);
  tnn::LazyConv2d lazy(options);
  auto y = lazy(x);
  REQUIRE(lazy->in_channels() == 4);
  REQUIRE(lazy->weight->sizes() == torch::IntArrayRef({6, 4, 3, 3}));
  REQUIRE(torch::equal(*lazy->weight, eager->weight));
  REQUIRE(torch::allclose(y, eager(x), 1e-5, 1e-6));
  REQUIRE_THAT(printed(lazy),
               Catch::Matchers::ContainsSubstring("LazyConv2d(in_channels=4, out_channels=6"));

  REQUIRE_THAT(error_message([&] {
                 lazy(torch::randn({2, 5, 9, 9}));
               }),
               Catch::Matchers::ContainsSubstring("LazyConv2d: input should have 4 channels") &&
                   Catch::Matchers::ContainsSubstring("got input of shape [2, 5, 9, 9]"));
}

TEST_CASE("LazyConv1d and LazyConv3d infer their channels", "[lazy][conv]") {
  auto x1 = torch::randn({2, 6, 10});
  torch::manual_seed(1);
  torch::nn::Conv1d eager1(torch::nn::Conv1dOptions(6, 4, 3).groups(2));
  tnn::LazyConv1d lazy1(tnn::LazyConvOptions<1>(4, 3).groups(2));
  torch::manual_seed(1);  // the parameters are drawn when the first input arrives
  REQUIRE(torch::allclose(lazy1(x1), eager1(x1), 1e-5, 1e-6));
  REQUIRE(lazy1->in_channels() == 6);

  tnn::LazyConv3d lazy3(tnn::LazyConvOptions<3>(2, 1).bias(false));
  lazy3(torch::randn({3, 4, 4, 4}));  // unbatched: channels first
  REQUIRE(lazy3->in_channels() == 3);
  REQUIRE(lazy3->weight->sizes() == torch::IntArrayRef({2, 3, 1, 1, 1}));
  REQUIRE_FALSE(lazy3->bias.defined());

  tnn::LazyConv1d grouped(tnn::LazyConvOptions<1>(4, 3).groups(2));
  REQUIRE_THAT(error_message([&] {
                 grouped(torch::randn({1, 3, 8}));
               }),
               Catch::Matchers::ContainsSubstring("divisible by groups=2"));

  std::stringstream stream;
  torch::save(lazy1, stream);
  tnn::LazyConv1d loaded(tnn::LazyConvOptions<1>(4, 3).groups(2));
  torch::load(loaded, stream);
  REQUIRE(loaded->in_channels() == 6);
  REQUIRE(torch::equal(*loaded->weight, *lazy1->weight));
}

TEST_CASE("Lazy modules materialise on a CUDA input's device", "[lazy][cuda]") {
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device; skipped");
    return;
  }
  TwoLayer model;
  model->to(torch::kCUDA);
  tnn::materialize(model->first, torch::randn({2, 5}, torch::kCUDA));
  REQUIRE(model->first->weight->is_cuda());
  tnn::LazyConv2d conv(tnn::LazyConvOptions<2>(4, 3));
  auto y = conv(torch::randn({1, 2, 8, 8}, torch::kCUDA));
  REQUIRE(conv->weight->is_cuda());
  REQUIRE(y.is_cuda());
}
