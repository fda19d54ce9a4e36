// A small stand-in for <torch/torch.h>: the same namespaces, class names and
// signatures that the checker's rules look at (at::Tensor, torch::nn::Module,
// ModuleHolder, TORCH_MODULE, Cloneable, the built-in modules), so that rule
// tests parse in a fraction of a second. Every test input also runs against
// the real LibTorch headers. Included with -isystem, as LibTorch is.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

// <torch/version.h>: the LibTorch these declarations follow.
#define TORCH_VERSION_MAJOR 2
#define TORCH_VERSION_MINOR 14

namespace c10 {
struct nullopt_t {};
constexpr nullopt_t nullopt{};
template <typename T>
class optional {
 public:
  optional() = default;
  optional(nullopt_t) {}
  optional(T v) : v_(std::move(v)), has_(true) {}
  explicit operator bool() const {
    return has_;
  }
  T& operator*() {
    return v_;
  }
  T* operator->() {
    return &v_;
  }
  T& value() {
    return v_;
  }

 private:
  T v_{};
  bool has_ = false;
};
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };
enum class Backend { CPU, CUDA };
struct Device {
  Device(DeviceType type, int8_t index = -1) : type_(type), index_(index) {}
  Device(const std::string& spec)
      : type_(spec.rfind("cuda", 0) == 0 ? DeviceType::CUDA : DeviceType::CPU) {}
  bool operator==(const Device& other) const noexcept {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept {
    return !(*this == other);
  }
  DeviceType type() const noexcept {
    return type_;
  }
  bool is_cuda() const {
    return type_ == DeviceType::CUDA;
  }
  int8_t index() const noexcept {
    return index_;
  }
  DeviceType type_;
  int8_t index_ = -1;
};
enum class ScalarType : int8_t { Byte, Int, Long, Half, Float, Double, Bool, BFloat16 };
// Makes a device current for a scope (c10/core/DeviceGuard.h).
struct DeviceGuard {
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
};
struct OptionalDeviceGuard {
  OptionalDeviceGuard();
  explicit OptionalDeviceGuard(optional<Device> device);
  ~OptionalDeviceGuard();
};
// c10/core/Stream.h and StreamGuard.h: a stream guard makes the stream's
// device current as well; MultiStreamGuard only sets each device's stream.
using DeviceIndex = int8_t;
template <typename T>
class ArrayRef {
 public:
  ArrayRef(const std::vector<T>& values);
  ArrayRef(std::initializer_list<T> values);
};
struct Stream {
  Device device() const;
};
struct StreamGuard {
  explicit StreamGuard(Stream stream);
  ~StreamGuard();
};
struct OptionalStreamGuard {
  OptionalStreamGuard();
  explicit OptionalStreamGuard(Stream stream);
  explicit OptionalStreamGuard(optional<Stream> stream);
  ~OptionalStreamGuard();
};
struct MultiStreamGuard {
  explicit MultiStreamGuard(const std::vector<Stream>& streams);
  ~MultiStreamGuard();
};
enum class MemoryFormat : int8_t { Contiguous, Preserve };
using IntArrayRef = std::vector<int64_t>;
}  // namespace c10

namespace at {
using c10::Backend;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::MemoryFormat;
using c10::nullopt;
using c10::optional;
using c10::ScalarType;
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat64 = ScalarType::Double;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kBool = ScalarType::Bool;

// As in c10/core/TensorOptions.h: implicit from a Device, from anything a
// Device is constructible from (kCUDA, "cuda:1"), and from a dtype.
struct TensorOptions {
  TensorOptions() = default;
  template <typename T, typename = std::enable_if_t<std::is_same<std::decay_t<T>, Device>::value>>
  TensorOptions(T&& device) {}
  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible<Device, Args&&...>::value>>
  TensorOptions(Args&&... args) : TensorOptions(Device(std::forward<Args>(args)...)) {}
  TensorOptions(ScalarType) {}
  TensorOptions dtype(ScalarType) const {
    return *this;
  }
  // As in c10/core/TensorOptions.h: a forwarding template, so a
  // torch::kCUDA or "cuda" argument becomes a Device only inside LibTorch.
  template <typename... Args>
  TensorOptions device(Args&&...) const {
    return *this;
  }
  TensorOptions requires_grad(bool = true) const {
    return *this;
  }
};

class Tensor;
namespace indexing {
// What x.index({...}) takes: a tensor, an integer, a slice.
struct Slice {};
class TensorIndex;
}  // namespace indexing
class TensorBase {
 public:
  bool defined() const {
    return defined_;
  }
  int64_t dim() const {
    return 0;
  }
  int64_t size(int64_t) const {
    return 1;
  }
  IntArrayRef sizes() const {
    return {};
  }
  int64_t numel() const {
    return 1;
  }
  Device device() const {
    return Device(DeviceType::CPU);
  }
  TensorOptions options() const {
    return {};
  }
  bool is_cuda() const {
    return false;
  }
  int64_t get_device() const {
    return -1;
  }
  ScalarType scalar_type() const {
    return ScalarType::Float;
  }
  void* data_ptr() const {
    return nullptr;
  }
  template <typename T>
  T* data_ptr() const {
    return nullptr;
  }

 protected:
  bool defined_ = false;
};

class Tensor : public TensorBase {
 public:
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) = default;
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & = default;
  // Assigning to a view or an element (t[0] = 1.0, t.select(1, 0) = u) copies.
  Tensor& operator=(double) &&;
  Tensor& operator=(const Tensor&) &&;
  Tensor to(TensorOptions options = {}, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false) const;
  Tensor cuda() const;
  Tensor toBackend(Backend b) const;
  Tensor cpu() const;
  Tensor contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  Tensor pin_memory() const;
  Tensor toType(ScalarType) const;
  Tensor clone() const;
  Tensor detach() const;
  Tensor t() const;
  Tensor view(IntArrayRef) const;
  Tensor matmul(const Tensor&) const;
  Tensor& copy_(const Tensor&, bool non_blocking = false);
  Tensor& mul_(double);
  Tensor& add_(const Tensor&, double alpha = 1);
  Tensor& add_(double, double alpha = 1);
  Tensor select(int64_t dim, int64_t index) const;
  Tensor sum() const;
  Tensor std() const;
  Tensor sum(int64_t dim) const;
  Tensor& zero_();
  Tensor& uniform_(double from = 0, double to = 1) const;
  void set_data(const Tensor&);
  Tensor& requires_grad_(bool = true);
  template <typename T>
  T item() const {
    return T();
  }
  template <typename T, size_t N>
  struct Accessor {
    int64_t size(int64_t) const {
      return 1;
    }
    T& operator[](int64_t) const;
  };
  template <typename T, size_t N>
  Accessor<T, N> accessor() const& {
    return {};
  }
  template <typename T, size_t N>
  Accessor<T, N> accessor() && = delete;
  Tensor reshape(IntArrayRef) const;
  Tensor slice(int64_t dim = 0, int64_t start = 0, int64_t end = INT64_MAX, int64_t step = 1) const;
  Tensor unsqueeze(int64_t) const;
  Tensor squeeze() const;
  Tensor cumsum(int64_t) const;
  Tensor repeat(IntArrayRef) const;
  Tensor flatten() const;
  Tensor max() const;
  Tensor argmax(int64_t) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor type_as(const Tensor& other) const;
  Tensor index_select(int64_t, const Tensor&) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor masked_fill(const Tensor& mask, double value) const;
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& rhs);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, double v);
  Tensor operator[](int64_t) const;
};
Tensor operator+(const Tensor&, const Tensor&);
Tensor operator-(const Tensor&, const Tensor&);
Tensor operator*(const Tensor&, const Tensor&);
Tensor operator*(double, const Tensor&);
Tensor operator*(const Tensor&, double);
Tensor operator+(const Tensor&, double);
Tensor operator/(const Tensor&, double);
Tensor operator-(const Tensor&, double);
Tensor operator>(const Tensor&, const Tensor&);
Tensor operator<(const Tensor&, double);
Tensor operator/(const Tensor&, const Tensor&);

std::ostream& operator<<(std::ostream&, const Tensor&);
namespace indexing {
class TensorIndex {
 public:
  TensorIndex(Tensor tensor) : tensor_(std::move(tensor)) {}
  TensorIndex(int64_t) {}
  TensorIndex(int) {}
  TensorIndex(Slice) {}

 private:
  Tensor tensor_;
};
}  // namespace indexing

Tensor zeros(IntArrayRef, TensorOptions = {});
Tensor ones(IntArrayRef, TensorOptions = {});
Tensor empty(IntArrayRef, TensorOptions = {});
Tensor rand(IntArrayRef, TensorOptions = {});
Tensor randn(IntArrayRef, TensorOptions = {});
Tensor full(IntArrayRef, double, TensorOptions = {});
Tensor arange(double, TensorOptions = {});
Tensor arange(double, double, TensorOptions = {});
Tensor linspace(double, double, int64_t, TensorOptions = {});
Tensor logspace(double, double, int64_t, double base = 10.0, TensorOptions = {});
Tensor randint(int64_t high, IntArrayRef size, TensorOptions = ScalarType::Long);
Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions = ScalarType::Long);
Tensor randperm(int64_t n, TensorOptions = ScalarType::Long);
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& = {});
Tensor eye(int64_t, TensorOptions = {});
Tensor zeros_like(const Tensor&, TensorOptions = {});
Tensor ones_like(const Tensor&, TensorOptions = {});
Tensor empty_like(const Tensor&, TensorOptions = {});
Tensor relu(const Tensor&);
Tensor nonzero(const Tensor&);
Tensor sigmoid(const Tensor&);
Tensor triu(const Tensor&, int64_t diagonal = 0);
Tensor cat(const std::vector<Tensor>&, int64_t dim = 0);
Tensor matmul(const Tensor&, const Tensor&);
Tensor outer(const Tensor&, const Tensor&);
std::tuple<Tensor, Tensor> kthvalue(const Tensor&, int64_t k, int64_t dim = -1);
Tensor tensor(std::initializer_list<double>, TensorOptions = {});

// The free functions of c10/core/TensorOptions.h.
inline TensorOptions dtype(ScalarType d) {
  return TensorOptions().dtype(d);
}
inline TensorOptions device(Device d) {
  return TensorOptions().device(d);
}
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}
using c10::DeviceGuard;
using c10::OptionalDeviceGuard;
inline optional<Device> device_of(const Tensor& t) {
  return t.device();
}
// ATen/DeviceAccelerator.h (LibTorch 2.x): device selection for whichever
// accelerator is built in, for the rest of the thread's life.
namespace accelerator {
void setDeviceIndex(c10::DeviceIndex device_index);
c10::DeviceIndex exchangeDevice(c10::DeviceIndex device_index);
}  // namespace accelerator
}  // namespace at

// One case of ATen's type dispatch: the lambda runs with scalar_t defined.
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  [&] {                                             \
    using scalar_t = float;                         \
    return __VA_ARGS__();                           \
  }()
#define TORCH_CHECK(COND, ...) \
  if (!(COND))                 \
  throw std::runtime_error("check failed: " #COND)

namespace torch {
using namespace at;

namespace detail {
// torch::tensor's argument: a scalar (a 0-dimensional tensor) or nested
// braced lists.
struct TensorDataContainer {
  TensorDataContainer(double) {}
  TensorDataContainer(int) {}
  TensorDataContainer(std::initializer_list<TensorDataContainer>) {}
  TensorDataContainer(const std::vector<double>&) {}
  TensorDataContainer(const std::vector<int64_t>&) {}
};
}  // namespace detail
inline Tensor tensor(detail::TensorDataContainer, const TensorOptions& = {}) {
  return {};
}

template <typename Key, typename Value>
class OrderedDict {
 public:
  Value& operator[](const Key&);
  Value* find(const Key&);
  size_t size() const;
};

struct NoGradGuard {};

namespace nn {
template <typename Contained>
class ModuleHolder;

class Module : public std::enable_shared_from_this<Module> {
 public:
  explicit Module(std::string name) : name_(std::move(name)) {}
  Module() = default;
  virtual ~Module() = default;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  virtual void train(bool on = true);
  void eval();
  virtual bool is_training() const noexcept;
  virtual void to(Device device, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void zero_grad(bool set_to_none = true);
  virtual std::shared_ptr<Module> clone(const c10::optional<Device>& device = c10::nullopt) const;

  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);
  void unregister_module(const std::string& name);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              ModuleHolder<ModuleType> module_holder);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             ModuleHolder<ModuleType> module_holder);

 private:
  std::string name_;
};

template <typename Contained>
class ModuleHolder {
 protected:
  std::shared_ptr<Contained> impl_;

 public:
  using ContainedType = Contained;
  ModuleHolder() : impl_(std::make_shared<Contained>()) {}
  ModuleHolder(std::nullptr_t) : impl_(nullptr) {}
  bool is_empty() const noexcept {
    return impl_ == nullptr;
  }
  template <typename Head,
            typename... Tail,
            typename = typename std::enable_if<
                !(std::is_same<typename std::decay<Head>::type, std::nullptr_t>::value &&
                  sizeof...(Tail) == 0)>::type>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(new Contained(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}
  explicit operator bool() const noexcept {
    return impl_ != nullptr;
  }
  Contained* operator->() {
    return impl_.get();
  }
  const Contained* operator->() const {
    return impl_.get();
  }
  Contained& operator*() {
    return *impl_;
  }
  const std::shared_ptr<Contained>& ptr() const {
    return impl_;
  }
  Contained* get() {
    return impl_.get();
  }
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return impl_->forward(std::forward<Args>(args)...);
  }
};

template <typename Derived>
class Cloneable : public virtual Module {
 public:
  using Module::Module;
  virtual void reset() = 0;
};

#define TORCH_MODULE_IMPL(Name, ImplType)                  \
  class Name : public torch::nn::ModuleHolder<ImplType> {  \
   public:                                                 \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder; \
    using Impl = ImplType;                                 \
  }
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

struct LinearOptions {
  LinearOptions(int64_t in, int64_t out) : in_(in), out_(out) {}
  LinearOptions& bias(bool b) {
    bias_ = b;
    return *this;
  }
  int64_t in_, out_;
  bool bias_ = true;
};
class LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in, int64_t out) : LinearImpl(LinearOptions(in, out)) {}
  explicit LinearImpl(const LinearOptions& options) : options(options) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& input);
  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

struct Conv2dOptions {
  Conv2dOptions(int64_t in, int64_t out, int64_t kernel) {}
  Conv2dOptions& stride(int64_t) {
    return *this;
  }
  Conv2dOptions& padding(int64_t) {
    return *this;
  }
  Conv2dOptions& bias(bool) {
    return *this;
  }
};
class Conv2dImpl : public Cloneable<Conv2dImpl> {
 public:
  Conv2dImpl(int64_t in, int64_t out, int64_t kernel)
      : Conv2dImpl(Conv2dOptions(in, out, kernel)) {}
  explicit Conv2dImpl(Conv2dOptions options) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& input);
  Tensor weight, bias;
};
TORCH_MODULE(Conv2d);

class BatchNorm2dImpl : public Cloneable<BatchNorm2dImpl> {
 public:
  explicit BatchNorm2dImpl(int64_t features) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& input);
  Tensor weight, bias, running_mean, running_var;
};
TORCH_MODULE(BatchNorm2d);

struct DropoutOptions {
  DropoutOptions(double p = 0.5) {}
};
class DropoutImpl : public Cloneable<DropoutImpl> {
 public:
  explicit DropoutImpl(DropoutOptions options = {}) {}
  void reset() override {}
  Tensor forward(Tensor input);
};
TORCH_MODULE(Dropout);

class EmbeddingImpl : public Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num, int64_t dim) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& indices);
  Tensor weight;
};
TORCH_MODULE(Embedding);

#define TORCH_STANDIN_STATELESS(Name)               \
  class Name##Impl : public Cloneable<Name##Impl> { \
   public:                                          \
    Name##Impl() = default;                         \
    template <typename... Args>                     \
    explicit Name##Impl(Args&&...) {}               \
    void reset() override {}                        \
    Tensor forward(const Tensor& input);            \
  };                                                \
  TORCH_MODULE(Name)
TORCH_STANDIN_STATELESS(ReLU);
TORCH_STANDIN_STATELESS(GELU);
TORCH_STANDIN_STATELESS(Tanh);
TORCH_STANDIN_STATELESS(Flatten);
TORCH_STANDIN_STATELESS(Identity);
TORCH_STANDIN_STATELESS(MaxPool2d);
TORCH_STANDIN_STATELESS(AdaptiveAvgPool2d);
TORCH_STANDIN_STATELESS(MSELoss);
#undef TORCH_STANDIN_STATELESS

struct CrossEntropyLossOptions {
  CrossEntropyLossOptions& weight(const Tensor&) {
    return *this;
  }
};
class CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
 public:
  explicit CrossEntropyLossImpl(CrossEntropyLossOptions options = {}) {
    reset();
  }
  void reset() override;
  Tensor forward(const Tensor& input, const Tensor& target);
  Tensor weight;
};
TORCH_MODULE(CrossEntropyLoss);

class AnyModule {
 public:
  AnyModule() = default;
  template <typename M>
  AnyModule(M module) {}
  template <typename... Args>
  Tensor forward(Args&&... args);
  std::shared_ptr<Module> ptr() const;
  bool is_empty() const;
};

class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  SequentialImpl() = default;
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules) {}
  void reset() override {}
  template <typename M>
  void push_back(M module) {}
  template <typename M>
  void push_back(std::string name, M module) {}
  Tensor forward(Tensor input);
  size_t size() const;
};
TORCH_MODULE(Sequential);

class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  ModuleListImpl() = default;
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules) {}
  void reset() override {}
  // As LibTorch's: a shared_ptr to a module class converts to
  // std::shared_ptr<Module>.
  void push_back(std::shared_ptr<Module> module) {}
  template <typename M,
            typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M&& module) {}
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {}
  size_t size() const;
  std::shared_ptr<Module> operator[](size_t) const;
  template <typename T>
  T* ptr(size_t) const;
};
TORCH_MODULE(ModuleList);

class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  ModuleDictImpl() = default;
  void reset() override {}
  template <typename M>
  void insert(std::string key, M module) {}
};
TORCH_MODULE(ModuleDict);

namespace init {
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
}  // namespace init

namespace utils {
namespace rnn {
class PackedSequence {
 public:
  const Tensor& data() const;
};
PackedSequence pack_padded_sequence(Tensor input,
                                    Tensor lengths,
                                    bool batch_first = false,
                                    bool enforce_sorted = true);
}  // namespace rnn
}  // namespace utils
namespace functional {
Tensor relu(const Tensor&);
Tensor dropout(const Tensor&, double p, bool training);
}  // namespace functional
}  // namespace nn

namespace optim {
class Adam {
 public:
  Adam(std::vector<Tensor> params, double lr = 1e-3);
  void step();
  void zero_grad();
};
}  // namespace optim

namespace cuda {
bool is_available();
}  // namespace cuda

// Custom autograd functions (torch/csrc/autograd/custom_function.h).
namespace autograd {
using variable_list = std::vector<Tensor>;
struct AutogradContext {
  void save_for_backward(variable_list to_save);
  variable_list get_saved_variables() const;
};
template <class T>
struct Function {
  template <typename... Args>
  static auto apply(Args&&... args) {
    return T::forward(nullptr, std::forward<Args>(args)...);
  }
};
}  // namespace autograd

// TorchScript modules (torch/csrc/jit/api/module.h): not torch::nn::Module,
// so register_module() cannot take one.
namespace jit {
struct IValue {
  IValue(Tensor t);
  Tensor toTensor() const;
};
struct Module {
  IValue forward(std::vector<IValue> inputs);
  void to(at::Device device, bool non_blocking = false);
  void train(bool on = true);
  void eval();
};
namespace script {
using Module = ::torch::jit::Module;
}  // namespace script
Module load(const std::string& path);
}  // namespace jit

using at::Device;
using at::kCPU;
using at::kCUDA;
void save(const std::shared_ptr<nn::Module>&, const std::string&);
template <typename Value>
void load(Value& value, const std::string& path);
}  // namespace torch
