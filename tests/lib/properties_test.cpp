// Property tests of the module library: to_device and coalesced_copy over random tensors (every
// dtype, empty and scalar shapes, transposed, sliced, expanded and conjugated views) in random
// containers, against a reference walk that moves each tensor by itself; serialisation
// round-trips of every module type into freshly built instances; to_device from several threads.
//
// Each case draws from its own seed, printed when it fails. TENSORPLACE_PROPERTY_SEED and
// TENSORPLACE_PROPERTY_CASES change the first seed and the number of cases (docs/reliability.md).

#include <tensorplace/tensorplace.h>

#include <torch/torch.h>

#include "catch.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

namespace tnn = tensorplace::nn;

namespace {

const torch::Device meta("meta");
const torch::Device cpu(torch::kCPU);

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::strtoull(value, nullptr, 10) : fallback;
}

uint64_t first_seed() {
  return env_or("TENSORPLACE_PROPERTY_SEED", 20261121);
}

int property_cases() {
  return static_cast<int>(env_or("TENSORPLACE_PROPERTY_CASES", 300));
}

const c10::StorageImpl* storage_of(const torch::Tensor& t) {
  return t.storage().unsafeGetStorageImpl();
}

// Random tensors as a user's data would come: any dtype, any rank up to 4 with empty and
// one-element dimensions, and as views with the strides that views give.
class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed), generator_(at::detail::createCPUGenerator(seed)) {}

  int64_t integer(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool chance(double p) {
    return std::bernoulli_distribution(p)(rng_);
  }

  torch::ScalarType dtype() {
    static const std::vector<torch::ScalarType> dtypes = {
        torch::kFloat, torch::kDouble, torch::kHalf,         torch::kBFloat16,
        torch::kByte,  torch::kChar,   torch::kShort,        torch::kInt,
        torch::kLong,  torch::kBool,   torch::kComplexFloat, torch::kComplexDouble};
    return dtypes[integer(0, dtypes.size() - 1)];
  }

  std::vector<int64_t> shape() {
    std::vector<int64_t> sizes(integer(0, 4));
    for (auto& size : sizes) {
      size = chance(0.08) ? 0 : integer(1, 5);
    }
    return sizes;
  }

  torch::Tensor values(const std::vector<int64_t>& sizes, torch::ScalarType dtype) {
    const auto options = torch::TensorOptions().dtype(dtype);
    if (dtype == torch::kBool) {
      return torch::randint(0, 2, sizes, generator_, options);
    }
    if (c10::isIntegralType(dtype, /*includeBool=*/false)) {
      const int64_t lo = dtype == torch::kByte ? 0 : -100;
      return torch::randint(lo, 100, sizes, generator_, options);
    }
    return torch::randn(sizes, generator_, options);
  }

  // A tensor of `sizes` that is one of: contiguous, transposed, sliced with a step and an
  // offset, expanded (stride 0), a conjugate view, or a 0-d scalar.
  torch::Tensor tensor(std::string* how = nullptr) {
    const auto dt = dtype();
    auto sizes = shape();
    const int64_t kind = integer(0, 4);
    torch::Tensor result;
    std::string name;
    if (kind == 1 && sizes.size() >= 2) {
      auto swapped = sizes;
      std::swap(swapped[0], swapped.back());
      result = values(swapped, dt).transpose(0, static_cast<int64_t>(sizes.size()) - 1);
      name = "transposed";
    } else if (kind == 2 && !sizes.empty()) {
      auto larger = sizes;
      for (auto& size : larger) {
        size = 2 * size + 1;
      }
      result = values(larger, dt);
      for (size_t d = 0; d < sizes.size(); ++d) {
        result = result.slice(d, 1, 2 * sizes[d] + 1, 2);
      }
      name = "sliced";
    } else if (kind == 3 && !sizes.empty()) {
      auto base = sizes;
      for (auto& size : base) {
        size = chance(0.5) ? 1 : size;
      }
      result = values(base, dt).expand(sizes);
      name = "expanded";
    } else if (kind == 4 && c10::isComplexType(dt)) {
      result = values(sizes, dt).conj();
      name = "conjugated";
    } else {
      result = values(sizes, dt);
      name = "contiguous";
    }
    if (how != nullptr) {
      std::ostringstream out;
      out << name << " " << dt << " " << result.sizes() << " strides " << result.strides();
      *how = out.str();
    }
    return result;
  }

  // A defined tensor or, now and then, an undefined one (absent optional state).
  torch::Tensor maybe_tensor() {
    return chance(0.1) ? torch::Tensor() : tensor();
  }

  // A c10::IValue tree of lists, dicts and tuples holding tensors, ints and strings.
  c10::IValue ivalue(int depth) {
    const int64_t kind = depth >= 3 ? 0 : integer(0, 4);
    switch (kind) {
      case 1: {
        c10::List<torch::Tensor> list;
        for (int64_t i = integer(0, 3); i > 0; --i) {
          list.push_back(tensor());
        }
        return list;
      }
      case 2: {
        c10::Dict<std::string, torch::Tensor> dict;
        for (int64_t i = integer(0, 3); i > 0; --i) {
          dict.insert_or_assign("k" + std::to_string(i), tensor());
        }
        return dict;
      }
      case 3: {
        std::vector<c10::IValue> elements;
        for (int64_t i = integer(0, 3); i > 0; --i) {
          elements.push_back(ivalue(depth + 1));
        }
        return c10::ivalue::Tuple::create(std::move(elements));
      }
      case 4: {
        c10::impl::GenericList list(c10::AnyType::get());
        for (int64_t i = integer(0, 3); i > 0; --i) {
          list.push_back(ivalue(depth + 1));
        }
        return list;
      }
      default:
        return chance(0.3)   ? c10::IValue(integer(0, 9))
               : chance(0.2) ? c10::IValue(std::string("label"))
                             : c10::IValue(tensor());
    }
  }

 private:
  std::mt19937_64 rng_;
  at::Generator generator_;
};

using Nested = std::tuple<std::vector<torch::Tensor>,
                          std::map<std::string, std::optional<torch::Tensor>>,
                          std::vector<std::pair<int64_t, torch::Tensor>>,
                          std::deque<std::variant<torch::Tensor, std::string>>,
                          c10::optional<std::list<torch::Tensor>>,
                          c10::IValue,
                          torch::Tensor>;

Nested random_nested(Random& random) {
  Nested value;
  for (int64_t i = random.integer(0, 4); i > 0; --i) {
    std::get<0>(value).push_back(random.maybe_tensor());
  }
  for (int64_t i = random.integer(0, 3); i > 0; --i) {
    std::get<1>(value)["k" + std::to_string(i)] =
        random.chance(0.3) ? std::nullopt : std::optional<torch::Tensor>(random.maybe_tensor());
  }
  for (int64_t i = random.integer(0, 3); i > 0; --i) {
    std::get<2>(value).emplace_back(random.integer(-5, 5), random.maybe_tensor());
  }
  for (int64_t i = random.integer(0, 3); i > 0; --i) {
    if (random.chance(0.5)) {
      std::get<3>(value).emplace_back(random.maybe_tensor());
    } else {
      std::get<3>(value).emplace_back(std::string("s") + std::to_string(i));
    }
  }
  if (random.chance(0.6)) {
    std::list<torch::Tensor> list;
    for (int64_t i = random.integer(0, 3); i > 0; --i) {
      list.push_back(random.maybe_tensor());
    }
    std::get<4>(value) = std::move(list);
  }
  std::get<5>(value) = random.ivalue(0);
  std::get<6>(value) = random.maybe_tensor();
  return value;
}

// The reference walk: every tensor slot of two values of the same type, paired in order, with
// the non-tensor parts compared on the way. Written independently of ToDeviceTraits.
struct Pairs {
  std::vector<std::pair<torch::Tensor, torch::Tensor>> tensors;
  bool same_structure = true;

  void walk(const torch::Tensor& a, const torch::Tensor& b) {
    tensors.emplace_back(a, b);
  }
  void walk(const std::string& a, const std::string& b) {
    same_structure = same_structure && a == b;
  }
  void walk(int64_t a, int64_t b) {
    same_structure = same_structure && a == b;
  }
  template <typename T>
  void walk(const std::vector<T>& a, const std::vector<T>& b) {
    walk_range(a, b);
  }
  template <typename T>
  void walk(const std::deque<T>& a, const std::deque<T>& b) {
    walk_range(a, b);
  }
  template <typename T>
  void walk(const std::list<T>& a, const std::list<T>& b) {
    walk_range(a, b);
  }
  template <typename K, typename V>
  void walk(const std::map<K, V>& a, const std::map<K, V>& b) {
    same_structure = same_structure && a.size() == b.size();
    for (auto i = a.begin(), j = b.begin(); same_structure && i != a.end(); ++i, ++j) {
      walk(i->first, j->first);
      walk(i->second, j->second);
    }
  }
  template <typename A, typename B>
  void walk(const std::pair<A, B>& a, const std::pair<A, B>& b) {
    walk(a.first, b.first);
    walk(a.second, b.second);
  }
  template <typename T>
  void walk(const std::optional<T>& a, const std::optional<T>& b) {
    same_structure = same_structure && a.has_value() == b.has_value();
    if (same_structure && a) {
      walk(*a, *b);
    }
  }
  // A type of its own in LibTorch 1.13; from 2.2 c10::optional is std::optional, walked above.
  template <typename T,
            typename = std::enable_if_t<!std::is_same<c10::optional<T>, std::optional<T>>::value>>
  void walk(const c10::optional<T>& a, const c10::optional<T>& b) {
    same_structure = same_structure && a.has_value() == b.has_value();
    if (same_structure && a) {
      walk(*a, *b);
    }
  }
  template <typename... Ts>
  void walk(const std::variant<Ts...>& a, const std::variant<Ts...>& b) {
    same_structure = same_structure && a.index() == b.index();
    if (same_structure) {
      std::visit([&](const auto& x) { walk(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
    }
  }
  template <typename... Ts>
  void walk(const std::tuple<Ts...>& a, const std::tuple<Ts...>& b) {
    std::apply([&](const auto&... x) { walk_tuple(b, std::index_sequence_for<Ts...>(), x...); }, a);
  }
  void walk(const c10::IValue& a, const c10::IValue& b) {
    same_structure = same_structure && a.tagKind() == b.tagKind();
    if (!same_structure) {
      return;
    }
    if (a.isTensor()) {
      walk(a.toTensor(), b.toTensor());
    } else if (a.isList()) {
      const auto la = a.toListRef();
      const auto lb = b.toListRef();
      same_structure = same_structure && la.size() == lb.size() &&
                       a.toList().elementType() == b.toList().elementType();
      for (size_t i = 0; same_structure && i < la.size(); ++i) {
        walk(la[i], lb[i]);
      }
    } else if (a.isGenericDict()) {
      const auto da = a.toGenericDict();
      const auto db = b.toGenericDict();
      same_structure = same_structure && da.size() == db.size();
      for (auto i = da.begin(), j = db.begin(); same_structure && i != da.end(); ++i, ++j) {
        same_structure = i->key() == j->key();
        walk(i->value(), j->value());
      }
    } else if (a.isTuple()) {
      const auto& ta = a.toTupleRef().elements();
      const auto& tb = b.toTupleRef().elements();
      same_structure = same_structure && ta.size() == tb.size();
      for (size_t i = 0; same_structure && i < ta.size(); ++i) {
        walk(ta[i], tb[i]);
      }
    } else {
      same_structure = same_structure && a == b;
    }
  }

 private:
  template <typename Range>
  void walk_range(const Range& a, const Range& b) {
    same_structure = same_structure && a.size() == b.size();
    for (auto i = a.begin(), j = b.begin(); same_structure && i != a.end(); ++i, ++j) {
      walk(*i, *j);
    }
  }
  template <typename Tuple, size_t... I, typename... Xs>
  void walk_tuple(const Tuple& b, std::index_sequence<I...>, const Xs&... x) {
    (walk(x, std::get<I>(b)), ...);
  }
};

std::string case_seed(uint64_t seed) {
  return "seed " + std::to_string(seed) +
         " (rerun one case: TENSORPLACE_PROPERTY_SEED=" + std::to_string(seed) +
         " TENSORPLACE_PROPERTY_CASES=1)";
}

template <typename M>
void save_then_load(const M& from, M& into) {
  std::stringstream stream;
  torch::save(from, stream);
  torch::load(into, stream);
}

// Every parameter and buffer of `loaded` equals the one of the same name in `saved`, and both
// have the same names; undefined (registered but absent) state must match too.
void check_same_state(const torch::nn::Module& saved, const torch::nn::Module& loaded) {
  const auto compare = [](const torch::OrderedDict<std::string, torch::Tensor>& a,
                          const torch::OrderedDict<std::string, torch::Tensor>& b) {
    REQUIRE(a.keys() == b.keys());
    for (const auto& item : a) {
      const auto& other = b[item.key()];
      INFO(item.key());
      REQUIRE(other.scalar_type() == item.value().scalar_type());
      REQUIRE(torch::equal(other, item.value()));
    }
  };
  compare(saved.named_parameters(), loaded.named_parameters());
  compare(saved.named_buffers(), loaded.named_buffers());
}

// Registered slots by qualified name, undefined ones included, as "name:defined".
std::vector<std::string> registered_slots(const torch::nn::Module& module) {
  std::vector<std::string> names;
  auto add = [&](const std::string& prefix, const torch::nn::Module& m) {
    for (const auto& item : tensorplace::detail::parameter_slots(m)) {
      names.push_back(prefix + item.key() + (item.value().defined() ? ":defined" : ":undefined"));
    }
    for (const auto& item : tensorplace::detail::buffer_slots(m)) {
      names.push_back(prefix + item.key() + (item.value().defined() ? ":defined" : ":undefined"));
    }
  };
  add("", module);
  for (const auto& item : module.named_modules("", /*include_self=*/false)) {
    add(item.key() + ".", *item.value());
  }
  return names;
}

}  // namespace

TEST_CASE("to_device keeps the structure and moves every tensor of random nested values",
          "[to_device][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, property_cases()));
  INFO(case_seed(seed));
  Random random(seed);
  const Nested value = random_nested(random);
  const auto options = tensorplace::ToDeviceOptions()
                           .non_blocking(random.chance(0.5))
                           .coalesce_threshold(random.integer(0, 4096))
                           .share_allocation(random.chance(0.5));

  const Nested on_meta = tensorplace::to_device(value, meta, options);
  Pairs moved;
  moved.walk(value, on_meta);
  REQUIRE(moved.same_structure);
  for (const auto& [before, after] : moved.tensors) {
    REQUIRE(before.defined() == after.defined());
    if (before.defined()) {
      REQUIRE(after.device() == meta);
      REQUIRE(after.sizes() == before.sizes());
      REQUIRE(after.scalar_type() == before.scalar_type());
    }
  }

  // Already there: the very same tensor objects come back.
  const Nested on_cpu = tensorplace::to_device(value, cpu, options);
  Pairs kept;
  kept.walk(value, on_cpu);
  REQUIRE(kept.same_structure);
  REQUIRE(kept.tensors.size() == moved.tensors.size());
  for (const auto& [before, after] : kept.tensors) {
    REQUIRE(before.is_same(after));
  }
}

TEST_CASE("coalesced_copy gives each random tensor back equal, packed and detached from it",
          "[to_device][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, property_cases()));
  INFO(case_seed(seed));
  Random random(seed);
  std::vector<torch::Tensor> tensors;
  std::vector<std::string> described;
  for (int64_t i = random.integer(0, 8); i > 0; --i) {
    std::string how;
    tensors.push_back(random.tensor(&how));
    described.push_back(how);
  }
  const bool share = random.chance(0.5);
  const auto copies = tensorplace::detail::coalesced_copy(
      tensors, cpu, tensorplace::ToDeviceOptions().share_allocation(share));
  REQUIRE(copies.size() == tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    INFO("tensor " << i << ": " << described[i]);
    const auto& copy = copies[i];
    REQUIRE(copy.device() == cpu);
    REQUIRE(copy.scalar_type() == tensors[i].scalar_type());
    REQUIRE(copy.sizes() == tensors[i].sizes());
    REQUIRE(copy.is_contiguous());
    REQUIRE_FALSE(copy.is_conj());
    REQUIRE(torch::equal(copy, tensors[i].resolve_conj()));
    REQUIRE(storage_of(copy) != storage_of(tensors[i]));
    if (i > 0 && copy.numel() > 0 && copies[0].numel() > 0) {
      REQUIRE((storage_of(copy) == storage_of(copies[0])) == share);
    }
  }
  // The copies hold their own data: writing the inputs leaves them alone.
  std::vector<torch::Tensor> before;
  for (const auto& copy : copies) {
    before.push_back(copy.clone());
  }
  for (auto& tensor : tensors) {
    if (tensor.numel() > 0 && !tensor.is_conj()) {
      tensor.zero_();
    }
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    REQUIRE(torch::equal(copies[i], before[i]));
  }
}

TEST_CASE("to_device gives correct results from several threads", "[to_device][threads]") {
  constexpr int kThreads = 6;
  std::vector<Nested> values;
  std::vector<std::vector<torch::Tensor>> flats;
  for (int k = 0; k < kThreads; ++k) {
    Random random(first_seed() + 1000 + k);
    values.push_back(random_nested(random));
    std::vector<torch::Tensor> flat;
    for (int i = 0; i < 40; ++i) {
      flat.push_back(random.tensor());
    }
    flats.push_back(std::move(flat));
  }
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < kThreads; ++k) {
    threads.emplace_back([&, k] {
      for (int round = 0; round < 10; ++round) {
        const Nested on_meta = tensorplace::to_device(values[k], meta);
        Pairs moved;
        moved.walk(values[k], on_meta);
        bool good = moved.same_structure;
        for (const auto& [before, after] : moved.tensors) {
          good = good && before.defined() == after.defined() &&
                 (!before.defined() || (after.device() == meta && after.sizes() == before.sizes()));
        }
        const auto copies = tensorplace::detail::coalesced_copy(flats[k], cpu, {});
        for (size_t i = 0; i < copies.size(); ++i) {
          good = good && torch::equal(copies[i], flats[k][i].resolve_conj());
        }
        if (!good) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  REQUIRE(failures.load() == 0);
}

TEST_CASE("BufferList round-trips through torch::save into a fresh list",
          "[nn][buffer_list][serialize][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, 50));
  INFO(case_seed(seed));
  Random random(seed);
  tnn::BufferList saved;
  for (int64_t i = random.integer(0, 5); i > 0; --i) {
    saved->append(random.chance(0.2) ? torch::Tensor()
                                     : random.values(random.shape(), random.dtype()));
  }
  tnn::BufferList fresh;
  save_then_load(saved, fresh);
  REQUIRE(registered_slots(*fresh) == registered_slots(*saved));
  check_same_state(*saved, *fresh);
}

TEST_CASE("BufferDict round-trips through torch::save into a fresh dictionary",
          "[nn][buffer_dict][serialize][property]") {
  const uint64_t seed = first_seed() + GENERATE(range(0, 50));
  INFO(case_seed(seed));
  Random random(seed);
  tnn::BufferDict saved;
  for (int64_t i = random.integer(0, 5); i > 0; --i) {
    saved->insert(
        "b" + std::to_string(random.integer(0, 9)),
        random.chance(0.2) ? torch::Tensor() : random.values(random.shape(), random.dtype()));
  }
  tnn::BufferDict fresh;
  save_then_load(saved, fresh);
  REQUIRE(registered_slots(*fresh) == registered_slots(*saved));
  check_same_state(*saved, *fresh);
}

namespace {

struct MembersImpl : torch::nn::Cloneable<MembersImpl> {
  explicit MembersImpl(bool with_mask) : with_mask(with_mask) {
    reset();
  }
  void reset() override {
    weight.bind(this, "weight", torch::randn({3, 2}));
    steps.bind(this, "steps", torch::zeros({}, torch::kLong));
    mask.bind(this, "mask", with_mask ? torch::ones({3}, torch::kBool) : torch::Tensor());
    stats.bind(this, "stats", tnn::BufferDict());
    anchors.bind(this, "anchors", tnn::BufferList());
    head.bind(this, "head", tnn::LazyLinear(2));
  }
  bool with_mask;
  tnn::Parameter weight;
  tnn::Buffer steps;
  tnn::Buffer mask;
  tnn::Submodule<tnn::BufferDict> stats;
  tnn::Submodule<tnn::BufferList> anchors;
  tnn::Submodule<tnn::LazyLinear> head;
};
TORCH_MODULE(Members);

}  // namespace

TEST_CASE("Every module type of the library round-trips through torch::save", "[nn][serialize]") {
  SECTION("members, containers and a lazy child in one module") {
    const bool with_mask = GENERATE(false, true);
    Members saved(with_mask);
    saved->steps = torch::full({}, 7, torch::kLong);
    saved->stats->insert("mean", torch::randn({4}));
    saved->stats->insert("absent", torch::Tensor());
    saved->anchors->append(torch::randn({2, 2}));
    saved->anchors->append(torch::Tensor());
    saved->anchors->append(torch::arange(3));
    saved->head(torch::randn({1, 5}));
    Members fresh(with_mask);
    save_then_load(saved, fresh);
    REQUIRE(registered_slots(*fresh) == registered_slots(*saved));
    check_same_state(*saved, *fresh);
    REQUIRE(fresh->head->in_features() == 5);
  }
  SECTION("lazy modules, with and without bias") {
    const bool bias = GENERATE(false, true);
    tnn::LazyLinear linear(tnn::LazyLinearOptions(3).bias(bias));
    linear(torch::randn({2, 4}, torch::kFloat64));
    tnn::LazyLinear fresh_linear(tnn::LazyLinearOptions(3).bias(bias));
    save_then_load(linear, fresh_linear);
    REQUIRE(registered_slots(*fresh_linear) == registered_slots(*linear));
    check_same_state(*linear, *fresh_linear);

    auto conv_options = [&](auto d) {
      return tnn::LazyConvOptions<decltype(d)::value>(4, 3).groups(2).bias(bias).padding(1);
    };
    tnn::LazyConv1d conv1(conv_options(std::integral_constant<size_t, 1>()));
    tnn::LazyConv2d conv2(conv_options(std::integral_constant<size_t, 2>()));
    tnn::LazyConv3d conv3(conv_options(std::integral_constant<size_t, 3>()));
    conv1(torch::randn({1, 6, 5}));
    conv2(torch::randn({1, 6, 5, 5}));
    conv3(torch::randn({6, 5, 5, 5}));
    tnn::LazyConv1d fresh1(conv_options(std::integral_constant<size_t, 1>()));
    tnn::LazyConv2d fresh2(conv_options(std::integral_constant<size_t, 2>()));
    tnn::LazyConv3d fresh3(conv_options(std::integral_constant<size_t, 3>()));
    save_then_load(conv1, fresh1);
    save_then_load(conv2, fresh2);
    save_then_load(conv3, fresh3);
    check_same_state(*conv1, *fresh1);
    check_same_state(*conv2, *fresh2);
    check_same_state(*conv3, *fresh3);
    REQUIRE(fresh1->in_channels() == 6);
    REQUIRE(fresh2->in_channels() == 6);
    REQUIRE(fresh3->in_channels() == 6);
  }
  SECTION("DeviceChecked around an eager and a lazy module") {
    tnn::DeviceChecked<torch::nn::Linear> checked(torch::nn::Linear(3, 2), {"input"});
    tnn::DeviceChecked<torch::nn::Linear> fresh(torch::nn::Linear(3, 2), {"input"});
    save_then_load(checked, fresh);
    check_same_state(*checked, *fresh);

    tnn::DeviceChecked<tnn::LazyLinear> lazy(tnn::LazyLinear(2));
    lazy(torch::randn({1, 3}));
    tnn::DeviceChecked<tnn::LazyLinear> fresh_lazy(tnn::LazyLinear(2));
    save_then_load(lazy, fresh_lazy);
    check_same_state(*lazy, *fresh_lazy);
  }
}
