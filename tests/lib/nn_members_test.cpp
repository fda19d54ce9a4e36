// Registered members (Parameter, Buffer, Submodule) and the buffer containers. Without a GPU,
// `to(torch::kFloat64)` stands in for a device move: it takes the same path through the module
// (LIBTORCH-FACTS 16), so a tensor that follows the dtype would follow the device.

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>

#include "catch.h"
#include "lib_test_utils.h"

#include <sstream>

namespace tnn = tensorplace::nn;

namespace {

using tensorplace::test::error_message;

struct PlainNet : torch::nn::Module {
  PlainNet() : torch::nn::Module("PlainNet") {}

  tnn::Parameter weight{this, "weight", torch::ones({4, 3})};
  tnn::Buffer running_mean{this, "running_mean", torch::zeros({4})};
  tnn::Buffer mask{this, "mask"};  // optional state: registered while undefined
  tnn::Submodule<torch::nn::Linear> fc{this, "fc", torch::nn::Linear(4, 2)};
  tnn::Submodule<torch::nn::Dropout> dropout{this, "dropout", torch::nn::Dropout(0.5)};

  torch::Tensor forward(const torch::Tensor& x) {
    auto h = torch::matmul(x, weight->t());
    if (is_training()) {
      torch::NoGradGuard no_grad;
      running_mean = 0.9 * running_mean + 0.1 * h.mean(0);  // the rebinding that goes wrong
    }                                                       // with a plain tensor member
    return fc(dropout(h));
  }
};

struct BlockOptions {
  BlockOptions(int64_t features) : features_(features) {}
  TORCH_ARG(int64_t, features);
};

struct BlockImpl : torch::nn::Cloneable<BlockImpl> {
  explicit BlockImpl(BlockOptions options) : options(options) {
    reset();
  }
  void reset() override {
    scale.bind(this, "scale", torch::ones({options.features()}));
    count.bind(this, "count", torch::zeros({1}, torch::kLong));
    extra.bind(this, "extra");
    proj.bind(this, "proj", torch::nn::Linear(options.features(), options.features()));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return proj(x) * scale;
  }

  BlockOptions options;
  tnn::Parameter scale;
  tnn::Buffer count;
  tnn::Buffer extra;
  tnn::Submodule<torch::nn::Linear> proj;
};
TORCH_MODULE(Block);

struct OuterImpl : torch::nn::Cloneable<OuterImpl> {
  OuterImpl() {
    reset();
  }
  void reset() override {
    block.bind(this, "block", Block(3));
    steps.bind(this, "steps", torch::zeros({}, torch::kLong));
  }
  tnn::Submodule<Block> block;
  tnn::Buffer steps;
};
TORCH_MODULE(Outer);

// The mistake Cloneable's own check catches: registration in the constructor, not reset().
struct MisplacedImpl : torch::nn::Cloneable<MisplacedImpl> {
  void reset() override {}
  tnn::Buffer state{this, "state", torch::zeros({2})};
};
TORCH_MODULE(Misplaced);

template <typename M>
void save_and_load(const M& from, M& into) {
  std::stringstream stream;
  torch::save(from, stream);
  torch::load(into, stream);
}

bool registered_as_buffer(const torch::nn::Module& m,
                          const std::string& name,
                          const torch::Tensor& t) {
  // named_buffers() returns a new dictionary: keep it alive while `found` points into it.
  const auto buffers = m.named_buffers(/*recurse=*/true);
  const auto* found = buffers.find(name);
  return found != nullptr && found->is_same(t);
}

}  // namespace

TEST_CASE("Parameter and Buffer are registered on declaration", "[nn][buffer][parameter]") {
  PlainNet net;
  REQUIRE(net.named_parameters(false).contains("weight"));
  REQUIRE(net.named_parameters(false)["weight"].is_same(net.weight));
  REQUIRE(net.named_parameters(false)["weight"].requires_grad());
  REQUIRE(registered_as_buffer(net, "running_mean", net.running_mean));
  REQUIRE(net.named_parameters().contains("fc.weight"));
  REQUIRE(net.named_children().contains("fc"));
  REQUIRE(net.named_children()["fc"].get() == net.fc.get());
}

TEST_CASE("Assigning to a Buffer replaces the registered tensor", "[nn][buffer]") {
  PlainNet net;
  net.forward(torch::ones({5, 3}));
  // The forward rebound running_mean; the module must hold the new tensor, not the zeros.
  REQUIRE(registered_as_buffer(net, "running_mean", net.running_mean));
  REQUIRE(torch::allclose(net.named_buffers()["running_mean"], torch::full({4}, 0.3)));

  SECTION("to() moves the rebound tensor") {
    net.to(torch::kFloat64);
    REQUIRE(net.running_mean->scalar_type() == torch::kFloat64);
    REQUIRE(net.weight->scalar_type() == torch::kFloat64);
    REQUIRE(net.fc->weight.scalar_type() == torch::kFloat64);
    REQUIRE(torch::allclose(*net.running_mean, torch::full({4}, 0.3, torch::kFloat64)));
  }
  SECTION("save and load see the rebound tensor") {
    PlainNet loaded;
    std::stringstream stream;
    torch::serialize::OutputArchive out;
    net.save(out);
    out.save_to(stream);
    torch::serialize::InputArchive in;
    in.load_from(stream);
    loaded.load(in);
    REQUIRE(torch::allclose(*loaded.running_mean, torch::full({4}, 0.3)));
  }
}

TEST_CASE("Assigning to a Parameter keeps it a trainable parameter", "[nn][parameter]") {
  PlainNet net;
  net.weight = torch::full({4, 3}, 2.0);
  REQUIRE(net.named_parameters()["weight"].is_same(net.weight));
  REQUIRE(net.weight->requires_grad());

  torch::optim::SGD sgd(net.parameters(), torch::optim::SGDOptions(0.1));
  net.eval();
  net.forward(torch::ones({2, 3})).sum().backward();
  sgd.step();
  REQUIRE_FALSE(torch::allclose(*net.weight, torch::full({4, 3}, 2.0)));

  SECTION("a tensor with autograd history is refused, naming the parameter") {
    auto computed = net.weight * 2;
    auto message = error_message([&] { net.weight = computed; });
    REQUIRE_THAT(message, Catch::Matchers::ContainsSubstring("Parameter 'weight'") &&
                              Catch::Matchers::ContainsSubstring("leaf"));
  }
}

TEST_CASE("Optional state stays registered while undefined", "[nn][buffer][optional]") {
  PlainNet net;
  REQUIRE_FALSE(net.mask.defined());
  REQUIRE(tensorplace::detail::buffer_slots(net).contains("mask"));
  REQUIRE_FALSE(net.named_buffers().contains("mask"));

  net.mask = torch::ones({4}, torch::kBool);
  REQUIRE(registered_as_buffer(net, "mask", net.mask));
  net.to(torch::kFloat64);
  REQUIRE(net.mask->scalar_type() == torch::kFloat64);  // LibTorch's to(dtype) converts all
  REQUIRE(net.named_buffers()["mask"].is_same(net.mask));

  net.mask = torch::Tensor();
  REQUIRE(tensorplace::detail::buffer_slots(net).contains("mask"));
  REQUIRE_FALSE(net.named_buffers().contains("mask"));
}

TEST_CASE("Submodule assignment replaces the registered child", "[nn][submodule]") {
  PlainNet net;
  net.fc = torch::nn::Linear(4, 7);
  REQUIRE(net.named_parameters()["fc.weight"].sizes() == torch::IntArrayRef({7, 4}));
  REQUIRE(net.fc->weight.sizes() == torch::IntArrayRef({7, 4}));
  net.to(torch::kFloat64);
  REQUIRE(net.fc->weight.scalar_type() == torch::kFloat64);
  REQUIRE(net.fc.holder()->options.out_features() == 7);
}

TEST_CASE("train() and eval() reach Submodule members", "[nn][submodule]") {
  PlainNet net;
  net.eval();
  REQUIRE_FALSE(net.dropout->is_training());
  auto x = torch::ones({2, 3});
  REQUIRE(torch::equal(net.forward(x), net.forward(x)));
  net.train();
  REQUIRE(net.dropout->is_training());
}

TEST_CASE("Members of a Cloneable module survive clone()", "[nn][buffer][clone]") {
  Block block(3);
  block->extra = torch::arange(3.0);  // optional state that became defined after reset()
  block->count.tensor().add_(5);

  auto copy = std::dynamic_pointer_cast<BlockImpl>(block->clone());
  REQUIRE(copy);
  REQUIRE_FALSE(copy->scale->is_same(*block->scale));
  REQUIRE(torch::equal(*copy->extra, torch::arange(3.0)));
  REQUIRE(copy->count->item<int64_t>() == 5);
  REQUIRE(torch::equal(copy->proj->weight, block->proj->weight));

  SECTION("the clone's members point at the clone's own tensors") {
    copy->scale = torch::full({3}, 7.0);
    copy->count.tensor().add_(1);
    REQUIRE(torch::allclose(copy->named_parameters()["scale"], torch::full({3}, 7.0)));
    REQUIRE(torch::allclose(*block->scale, torch::ones({3})));
    REQUIRE(block->count->item<int64_t>() == 5);
    REQUIRE(registered_as_buffer(*copy, "count", copy->count));
  }
  SECTION("the clone's submodule is its own") {
    copy->proj->weight.data().fill_(0);
    REQUIRE_FALSE(torch::equal(copy->proj->weight, block->proj->weight));
  }
  SECTION("clone(device) places every member") {
    auto moved = std::dynamic_pointer_cast<BlockImpl>(block->clone(torch::Device(torch::kCPU)));
    REQUIRE(moved->named_buffers().contains("extra"));
  }
}

TEST_CASE("A nested Cloneable's members point into the clone", "[nn][submodule][clone]") {
  Outer outer;
  outer->block->count.tensor().fill_(3);
  auto copy = std::dynamic_pointer_cast<OuterImpl>(outer->clone());
  REQUIRE(copy);
  // Cloneable::clone_ assigns the cloned block to the copy's own child (by copy from LibTorch
  // 2.2, by move before): its members must keep reading that child, whose registered tensors are
  // the clone's.
  auto* copied_block = copy->block.get();
  REQUIRE(copied_block != outer->block.get());
  REQUIRE(copied_block->count->item<int64_t>() == 3);
  copied_block->count = torch::full({1}, 9, torch::kLong);
  REQUIRE(copy->named_buffers()["block.count"].item<int64_t>() == 9);
  REQUIRE(outer->block->count->item<int64_t>() == 3);
  REQUIRE(outer->named_buffers()["block.count"].item<int64_t>() == 3);
}

TEST_CASE("Members of a Cloneable module are saved and loaded", "[nn][buffer][serialize]") {
  Block block(3);
  block->count = torch::full({1}, 4, torch::kLong);
  block->scale = torch::full({3}, 0.5);
  Block loaded(3);
  save_and_load(block, loaded);
  REQUIRE(loaded->count->item<int64_t>() == 4);
  REQUIRE(torch::allclose(*loaded->scale, torch::full({3}, 0.5)));
  REQUIRE(torch::equal(loaded->proj->weight, block->proj->weight));
}

TEST_CASE("Misused members fail with a message naming them", "[nn][buffer][errors]") {
  SECTION("an unbound member") {
    tnn::Buffer unbound;
    REQUIRE_THAT(error_message([&] { (void)unbound.tensor(); }),
                 Catch::Matchers::ContainsSubstring("not bound to a module"));
  }
  SECTION("binding without an owner") {
    tnn::Buffer buffer;
    REQUIRE_THAT(error_message([&] { buffer.bind(nullptr, "mean"); }),
                 Catch::Matchers::ContainsSubstring("Buffer 'mean'") &&
                     Catch::Matchers::ContainsSubstring("owner"));
  }
  SECTION("registration in the constructor of a Cloneable module") {
    Misplaced misplaced;
    REQUIRE_THAT(error_message([&] { misplaced->clone(); }),
                 Catch::Matchers::ContainsSubstring("register_buffer() inside reset()"));
  }
}

TEST_CASE("BufferList registers, moves and copies its elements", "[nn][buffer][buffer_list]") {
  tnn::BufferList list(std::vector<torch::Tensor>{torch::zeros({2}), torch::ones({3})});
  list->append(torch::Tensor());
  REQUIRE(list->size() == 3);
  REQUIRE(list->buffers().size() == 2);  // the undefined element is registered but not listed
  REQUIRE(list->named_buffers()["1"].is_same(list[1]));

  list[0] = torch::full({2}, 4.0);
  REQUIRE(torch::allclose(list->named_buffers()["0"], torch::full({2}, 4.0)));

  list->to(torch::kFloat64);
  REQUIRE(list[0].scalar_type() == torch::kFloat64);
  REQUIRE(list[1].scalar_type() == torch::kFloat64);

  auto copy = std::dynamic_pointer_cast<tnn::BufferListImpl>(list->clone());
  REQUIRE(copy->size() == 3);
  (*copy)[0].fill_(1);
  REQUIRE(torch::allclose(list[0], torch::full({2}, 4.0, torch::kFloat64)));

  tnn::BufferList loaded(std::vector<torch::Tensor>{torch::zeros({2}), torch::zeros({3})});
  loaded->append(torch::Tensor());
  // LibTorch 1.13's torch::load copies raw bytes into tensors of another dtype: load into a
  // module of the saved dtype.
  loaded->to(torch::kFloat64);
  save_and_load(list, loaded);
  REQUIRE(torch::allclose(loaded[0], torch::full({2}, 4.0, torch::kFloat64)));

  std::ostringstream printed;
  printed << *list;
  REQUIRE_THAT(printed.str(), Catch::Matchers::ContainsSubstring("(0): [Double [2] on cpu]") &&
                                  Catch::Matchers::ContainsSubstring("(2): [undefined]"));
  REQUIRE_THAT(
      error_message([&] { (void)list->at(3); }),
      Catch::Matchers::ContainsSubstring("index should be less than the list's size 3, got 3"));
}

TEST_CASE("BufferDict registers, replaces and removes buffers by key",
          "[nn][buffer][buffer_dict]") {
  tnn::BufferDict dict(std::vector<std::pair<std::string, torch::Tensor>>{
      {"mean", torch::zeros({4})}, {"var", torch::ones({4})}});
  dict->insert("mean", torch::full({4}, 2.0));
  REQUIRE(dict->size() == 2);
  REQUIRE(dict->keys() == std::vector<std::string>{"mean", "var"});
  REQUIRE(torch::allclose(dict->named_buffers()["mean"], torch::full({4}, 2.0)));

  dict["var"] = dict["var"] * 3;
  REQUIRE(torch::allclose(dict->named_buffers()["var"], torch::full({4}, 3.0)));

  struct Holder : torch::nn::Module {
    tnn::Submodule<tnn::BufferDict> stats{this, "stats", tnn::BufferDict()};
  } holder;
  holder.stats->insert("count", torch::zeros({1}));
  holder.to(torch::kFloat64);
  REQUIRE(holder.named_buffers()["stats.count"].scalar_type() == torch::kFloat64);

  auto popped = dict->pop("mean");
  REQUIRE(torch::allclose(popped, torch::full({4}, 2.0)));
  REQUIRE_FALSE(dict->contains("mean"));
  REQUIRE_FALSE(dict->named_buffers().contains("mean"));

  auto copy = std::dynamic_pointer_cast<tnn::BufferDictImpl>(dict->clone());
  (*copy)["var"].zero_();
  REQUIRE(torch::allclose(dict["var"], torch::full({4}, 3.0)));

  REQUIRE_THAT(
      error_message([&] { dict->insert("a.b", torch::zeros({1})); }),
      Catch::Matchers::ContainsSubstring("key should be a non-empty name without '.', got 'a.b'"));
  REQUIRE_THAT(error_message([&] { (void)dict["missing"]; }),
               Catch::Matchers::ContainsSubstring("'missing'"));
}
