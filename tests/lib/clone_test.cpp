// Clone independence of every member type and every module of the library: a clone owns its
// tensors and children, its members read and replace them, and changing either module leaves the
// other as it was.
//
// Each module is cloned two ways, because LibTorch clones a module in two ways: `clone()` itself
// (a copy whose `reset()` binds the members), and as the child of a cloned `Cloneable`, where
// `Cloneable::clone_` clones the child and assigns the result, whole, to the copy's own child
// (a copy-assignment from LibTorch 2.2, a move before). The second way is what member assignment
// must get right.

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>

#include "catch.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tnn = tensorplace::nn;

namespace {

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

struct BlockImpl : torch::nn::Cloneable<BlockImpl> {
  BlockImpl() {
    reset();
  }
  void reset() override {
    scale.bind(this, "scale", torch::ones({3}));
    count.bind(this, "count", torch::zeros({1}, torch::kLong));
    extra.bind(this, "extra");
    proj.bind(this, "proj", torch::nn::Linear(3, 3));
  }
  tnn::Parameter scale;
  tnn::Buffer count;
  tnn::Buffer extra;
  tnn::Submodule<torch::nn::Linear> proj;
};
TORCH_MODULE(Block);

// A Submodule whose child holds members of its own.
struct OuterImpl : torch::nn::Cloneable<OuterImpl> {
  OuterImpl() {
    reset();
  }
  void reset() override {
    block.bind(this, "block", Block());
    steps.bind(this, "steps", torch::zeros({}, torch::kLong));
  }
  tnn::Submodule<Block> block;
  tnn::Buffer steps;
};
TORCH_MODULE(Outer);

// Holds one module of type `Holder`, made fresh by `make` in reset(), as a Cloneable model holds
// its layers.
template <typename Holder>
struct ParentImpl : torch::nn::Cloneable<ParentImpl<Holder>> {
  explicit ParentImpl(std::function<Holder()> make) : make(std::move(make)) {
    reset();
  }
  void reset() override {
    child.bind(this, "child", make());
  }
  std::function<Holder()> make;
  tnn::Submodule<Holder> child;
};

enum class CloneWay { clone, child_of_cloned_parent };

template <typename Holder>
std::shared_ptr<typename Holder::ContainedType> clone_of(const Holder& original,
                                                         const std::function<Holder()>& make,
                                                         CloneWay way) {
  using Contained = typename Holder::ContainedType;
  if (way == CloneWay::clone) {
    return std::dynamic_pointer_cast<Contained>(original->clone());
  }
  auto parent = std::make_shared<ParentImpl<Holder>>(make);
  parent->child = original;
  auto copy = std::dynamic_pointer_cast<ParentImpl<Holder>>(parent->clone());
  REQUIRE(copy);
  REQUIRE(copy->child.get() != original.get());
  return copy->child.holder().ptr();
}

NamedTensors registered_tensors(const torch::nn::Module& module) {
  NamedTensors all;
  for (const auto& item : module.named_parameters()) {
    all.emplace_back(item.key(), item.value());
  }
  for (const auto& item : module.named_buffers()) {
    all.emplace_back(item.key(), item.value());
  }
  return all;
}

NamedTensors values_of(const torch::nn::Module& module) {
  NamedTensors values;
  for (const auto& item : registered_tensors(module)) {
    values.emplace_back(item.first, item.second.clone());
  }
  return values;
}

void require_values(const torch::nn::Module& module, const NamedTensors& expected) {
  const NamedTensors actual = registered_tensors(module);
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO(actual[i].first);
    REQUIRE(actual[i].first == expected[i].first);
    REQUIRE(torch::equal(actual[i].second, expected[i].second));
  }
}

void change_in_place(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (auto& item : registered_tensors(module)) {
    item.second.add_(1);
  }
}

// The registered tensor that a member of `module` reads must be the very one registered under
// `name` in `module` (not one of the original's).
void require_members_read(const torch::nn::Module& module, const NamedTensors& member_reads) {
  const NamedTensors registered = registered_tensors(module);
  for (const auto& read : member_reads) {
    INFO("member reading " << read.first);
    bool found = false;
    for (const auto& item : registered) {
      if (item.first == read.first) {
        found = true;
        REQUIRE(item.second.is_same(read.second));
      }
    }
    REQUIRE(found);
  }
}

/// Clones `original` both ways and checks that the clone is independent of it:
/// - the same registered names and values, in storage of its own;
/// - in-place changes to either leave the other unchanged;
/// - `member_reads(clone)` (what the clone's members read) are the clone's registered tensors;
/// - `assign(module)` (assignments through the members) changes that module only.
template <typename Holder>
void require_clone_independence(
    const std::function<Holder()>& make,
    const std::function<void(Holder&)>& prepare,
    const std::function<NamedTensors(typename Holder::ContainedType&)>& member_reads,
    const std::function<void(typename Holder::ContainedType&)>& assign) {
  const CloneWay way = GENERATE(CloneWay::clone, CloneWay::child_of_cloned_parent);
  INFO((way == CloneWay::clone ? "clone()" : "child of a cloned Cloneable"));
  Holder original = make();
  prepare(original);
  const NamedTensors original_values = values_of(*original);
  auto copy = clone_of(original, make, way);
  REQUIRE(copy);
  REQUIRE(copy.get() != original.get());

  require_values(*copy, original_values);
  const NamedTensors original_tensors = registered_tensors(*original);
  const NamedTensors copy_tensors = registered_tensors(*copy);
  for (size_t i = 0; i < copy_tensors.size(); ++i) {
    INFO(copy_tensors[i].first);
    REQUIRE_FALSE(copy_tensors[i].second.is_same(original_tensors[i].second));
    if (copy_tensors[i].second.numel() > 0) {
      REQUIRE(copy_tensors[i].second.data_ptr() != original_tensors[i].second.data_ptr());
    }
  }
  require_members_read(*copy, member_reads(*copy));
  require_members_read(*original, member_reads(*original));

  SECTION("changing the clone's tensors in place leaves the original unchanged") {
    change_in_place(*copy);
    require_values(*original, original_values);
  }
  SECTION("changing the original's tensors in place leaves the clone unchanged") {
    change_in_place(*original);
    require_values(*copy, original_values);
  }
  SECTION("assigning through the clone's members replaces the clone's state only") {
    assign(*copy);
    require_values(*original, original_values);
    require_members_read(*copy, member_reads(*copy));
    REQUIRE_FALSE(
        torch::equal(member_reads(*copy).front().second, member_reads(*original).front().second));
  }
  SECTION("assigning through the original's members leaves the clone unchanged") {
    assign(*original);
    require_values(*copy, original_values);
    require_members_read(*original, member_reads(*original));
  }
}

torch::nn::Linear filled_linear(int64_t in, int64_t out, double value) {
  torch::nn::Linear linear(in, out);
  torch::NoGradGuard no_grad;
  linear->weight.fill_(value);
  linear->bias.fill_(value);
  return linear;
}

}  // namespace

TEST_CASE("A clone's Parameter, Buffer and Submodule members are the clone's own", "[nn][clone]") {
  require_clone_independence<Block>([] { return Block(); },
                                    [](Block& block) {
                                      block->extra =
                                          torch::arange(3.0);  // optional state set after reset()
                                      block->count->add_(5);
                                      block->scale = torch::full({3}, 2.0);
                                    },
                                    [](BlockImpl& block) {
                                      return NamedTensors{{"scale", block.scale},
                                                          {"count", block.count},
                                                          {"extra", block.extra},
                                                          {"proj.weight", block.proj->weight}};
                                    },
                                    [](BlockImpl& block) {
                                      block.scale = torch::full({3}, 7.0);
                                      block.count = torch::full({1}, 9, torch::kLong);
                                      block.extra = torch::full({3}, -1.0);
                                      block.proj = filled_linear(3, 3, 0.5);
                                    });
}

TEST_CASE("A clone of a Submodule whose child holds members is the clone's own",
          "[nn][submodule][clone]") {
  require_clone_independence<Outer>([] { return Outer(); },
                                    [](Outer& outer) {
                                      outer->block->count->fill_(3);
                                      outer->steps->fill_(11);
                                    },
                                    [](OuterImpl& outer) {
                                      return NamedTensors{
                                          {"block.scale", outer.block->scale},
                                          {"block.count", outer.block->count},
                                          {"block.proj.weight", outer.block->proj->weight},
                                          {"steps", outer.steps}};
                                    },
                                    [](OuterImpl& outer) {
                                      outer.block->scale = torch::full({3}, 4.0);
                                      outer.block->count = torch::full({1}, 8, torch::kLong);
                                      outer.steps = torch::full({}, 1, torch::kLong);
                                    });

  SECTION("assigning the clone's Submodule replaces the clone's child only") {
    Outer outer;
    auto copy = std::dynamic_pointer_cast<OuterImpl>(outer->clone());
    Block replacement;
    copy->block = replacement;
    REQUIRE(copy->block.get() == replacement.get());
    REQUIRE(copy->named_children()["block"].get() == replacement.get());
    REQUIRE(outer->block.get() != replacement.get());
    REQUIRE(outer->named_children()["block"].get() == outer->block.get());
  }
}

TEST_CASE("A clone of a materialised LazyLinear is its own", "[lazy][clone]") {
  require_clone_independence<tnn::LazyLinear>(
      [] { return tnn::LazyLinear(4); },
      [](tnn::LazyLinear& lazy) {
        lazy(torch::randn({2, 3}));
      },
      [](tnn::LazyLinearImpl& lazy) {
        return NamedTensors{{"weight", lazy.weight}, {"bias", lazy.bias}};
      },
      [](tnn::LazyLinearImpl& lazy) {
        lazy.weight = torch::full({4, 3}, 0.25);
        lazy.bias = torch::full({4}, -0.25);
      });
}

TEST_CASE("A clone of an unmaterialised LazyLinear materialises on its own", "[lazy][clone]") {
  const auto way = GENERATE(CloneWay::clone, CloneWay::child_of_cloned_parent);
  const std::function<tnn::LazyLinear()> make = [] { return tnn::LazyLinear(4); };
  tnn::LazyLinear lazy = make();
  auto copy = clone_of(lazy, make, way);
  copy->forward(torch::randn({2, 7}));
  REQUIRE(copy->in_features() == 7);
  REQUIRE(copy->named_parameters()["weight"].is_same(copy->weight));
  REQUIRE(copy->weight->sizes() == torch::IntArrayRef({4, 7}));
  REQUIRE_FALSE(lazy->is_materialized());
  REQUIRE(lazy->weight->numel() == 0);
  REQUIRE(lazy->named_parameters()["weight"].is_same(lazy->weight));
}

TEST_CASE("A clone of a materialised LazyConv1d/2d/3d is its own", "[lazy][conv][clone]") {
  SECTION("LazyConv1d") {
    require_clone_independence<tnn::LazyConv1d>(
        [] { return tnn::LazyConv1d(tnn::LazyConvOptions<1>(4, 3)); },
        [](tnn::LazyConv1d& conv) {
          conv(torch::randn({1, 2, 8}));
        },
        [](tnn::LazyConv1dImpl& conv) {
          return NamedTensors{{"weight", conv.weight}, {"bias", conv.bias}};
        },
        [](tnn::LazyConv1dImpl& conv) {
          conv.weight = torch::full({4, 2, 3}, 0.5);
        });
  }
  SECTION("LazyConv2d") {
    require_clone_independence<tnn::LazyConv2d>(
        [] { return tnn::LazyConv2d(tnn::LazyConvOptions<2>(4, 3)); },
        [](tnn::LazyConv2d& conv) {
          conv(torch::randn({1, 2, 8, 8}));
        },
        [](tnn::LazyConv2dImpl& conv) {
          return NamedTensors{{"weight", conv.weight}, {"bias", conv.bias}};
        },
        [](tnn::LazyConv2dImpl& conv) {
          conv.weight = torch::full({4, 2, 3, 3}, 0.5);
        });
  }
  SECTION("LazyConv3d") {
    require_clone_independence<tnn::LazyConv3d>(
        [] { return tnn::LazyConv3d(tnn::LazyConvOptions<3>(4, 3).bias(false)); },
        [](tnn::LazyConv3d& conv) {
          conv(torch::randn({1, 2, 4, 4, 4}));
        },
        [](tnn::LazyConv3dImpl& conv) {
          return NamedTensors{{"weight", conv.weight}};
        },
        [](tnn::LazyConv3dImpl& conv) {
          conv.weight = torch::full({4, 2, 3, 3, 3}, 0.5);
        });
  }
}

TEST_CASE("A clone of DeviceChecked wraps a module of its own", "[audit][device_checked][clone]") {
  using Checked = tnn::DeviceChecked<torch::nn::Linear>;
  require_clone_independence<Checked>(
      [] { return Checked(torch::nn::Linear(3, 2), {"features"}); },
      [](Checked& checked) { checked->module->weight.data().fill_(0.5); },
      [](tnn::DeviceCheckedImpl<torch::nn::Linear>& checked) {
        return NamedTensors{{"module.weight", checked.module->weight},
                            {"module.bias", checked.module->bias}};
      },
      [](tnn::DeviceCheckedImpl<torch::nn::Linear>& checked) {
        checked.module = filled_linear(3, 2, -2.0);
      });
}

TEST_CASE("A clone of a BufferList or BufferDict holds buffers of its own",
          "[nn][buffer_list][buffer_dict][clone]") {
  SECTION("BufferList") {
    require_clone_independence<tnn::BufferList>(
        [] { return tnn::BufferList(std::vector<torch::Tensor>{torch::zeros({2})}); },
        [](tnn::BufferList& list) {
          list[0].fill_(3);
          list->append(torch::arange(4));
        },
        [](tnn::BufferListImpl& list) {
          return NamedTensors{{"0", list[0]}, {"1", list[1]}};
        },
        [](tnn::BufferListImpl& list) {
          list[0] = torch::full({2}, -3.0);
          list[1] = torch::arange(5);
        });
  }
  SECTION("BufferDict") {
    require_clone_independence<tnn::BufferDict>(
        [] {
          return tnn::BufferDict(
              std::vector<std::pair<std::string, torch::Tensor>>{{"mean", torch::zeros({4})}});
        },
        [](tnn::BufferDict& dict) { dict->insert("var", torch::ones({4})); },
        [](tnn::BufferDictImpl& dict) {
          return NamedTensors{{"mean", dict["mean"]}, {"var", dict["var"]}};
        },
        [](tnn::BufferDictImpl& dict) { dict.insert("mean", torch::full({4}, 6.0)); });
  }
}

TEST_CASE("Assigning one member to another assigns its tensor, never its binding",
          "[nn][buffer][parameter][submodule]") {
  Block a;
  Block b;
  b->scale = torch::full({3}, 5.0);
  b->count = torch::full({1}, 2, torch::kLong);

  a->scale = b->scale;
  a->count = b->count;
  a->proj = b->proj;
  // `a`'s members still read and write `a`'s registrations, which now hold `b`'s tensors.
  REQUIRE(a->named_parameters()["scale"].is_same(b->scale));
  REQUIRE(a->named_parameters()["scale"].is_same(a->scale));
  REQUIRE(a->named_children()["proj"].get() == b->proj.get());
  a->count = torch::full({1}, 7, torch::kLong);
  REQUIRE(b->count->item<int64_t>() == 2);
  REQUIRE(b->named_buffers()["count"].item<int64_t>() == 2);
  REQUIRE(a->named_buffers()["count"].item<int64_t>() == 7);

  SECTION("an unbound member assigns nothing; an unbound target is an error naming it") {
    tnn::Buffer unbound;
    a->count = unbound;
    REQUIRE(a->count->item<int64_t>() == 7);
    REQUIRE_THROWS_WITH(unbound = a->count,
                        Catch::Matchers::ContainsSubstring("is not bound to a module"));
  }
}
