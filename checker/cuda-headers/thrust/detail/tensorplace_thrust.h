// Stand-in, declarations only: the parts of Thrust that PyTorch extensions
// use most, so that a .cu file that includes them parses. Every public header
// of this directory includes this one.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

namespace thrust {

// Execution policies: thrust::device, thrust::host, thrust::seq, and
// thrust::cuda::par.on(stream) (also with an allocator).
namespace detail {
struct execution_policy_base {};
} // namespace detail
struct device_execution_policy : detail::execution_policy_base {};
struct host_execution_policy : detail::execution_policy_base {};
struct sequential_execution_policy : detail::execution_policy_base {};
static const device_execution_policy device{};
static const host_execution_policy host{};
static const sequential_execution_policy seq{};
namespace cuda {
struct stream_policy : detail::execution_policy_base {};
struct par_t : detail::execution_policy_base {
  stream_policy on(cudaStream_t) const;
  template <typename Allocator> par_t operator()(Allocator &) const;
};
static const par_t par{};
static const par_t par_nosync{};
} // namespace cuda
namespace system {
namespace cuda = ::thrust::cuda;
} // namespace system
namespace cuda_cub = ::thrust::cuda;

// Pointers.
template <typename T> class device_ptr {
public:
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = T *;
  using reference = T &;
  using iterator_category = std::random_access_iterator_tag;
  __host__ __device__ device_ptr() : p(nullptr) {}
  __host__ __device__ explicit device_ptr(T *p) : p(p) {}
  __host__ __device__ T *get() const { return p; }
  __host__ __device__ T &operator*() const { return *p; }
  __host__ __device__ T &operator[](std::ptrdiff_t i) const { return p[i]; }
  __host__ __device__ device_ptr operator+(std::ptrdiff_t n) const {
    return device_ptr(p + n);
  }
  __host__ __device__ device_ptr operator-(std::ptrdiff_t n) const {
    return device_ptr(p - n);
  }
  __host__ __device__ std::ptrdiff_t operator-(const device_ptr &o) const {
    return p - o.p;
  }
  __host__ __device__ device_ptr &operator++() {
    ++p;
    return *this;
  }
  __host__ __device__ device_ptr &operator+=(std::ptrdiff_t n) {
    p += n;
    return *this;
  }
  __host__ __device__ bool operator==(const device_ptr &o) const {
    return p == o.p;
  }
  __host__ __device__ bool operator!=(const device_ptr &o) const {
    return p != o.p;
  }

private:
  T *p;
};
template <typename T>
__host__ __device__ device_ptr<T> device_pointer_cast(T *p) {
  return device_ptr<T>(p);
}
template <typename T>
__host__ __device__ device_ptr<T> device_pointer_cast(const device_ptr<T> &p) {
  return p;
}
template <typename T> __host__ __device__ T *raw_pointer_cast(T *p) {
  return p;
}
template <typename T>
__host__ __device__ T *raw_pointer_cast(const device_ptr<T> &p) {
  return p.get();
}

// Containers.
template <typename T> class device_vector {
public:
  using value_type = T;
  using iterator = device_ptr<T>;
  using const_iterator = device_ptr<const T>;
  device_vector();
  explicit device_vector(std::size_t n, const T &value = T());
  template <typename InputIterator>
  device_vector(InputIterator first, InputIterator last);
  device_vector(const std::vector<T> &v);
  device_vector(const device_vector &);
  device_vector &operator=(const device_vector &);
  device_vector &operator=(const std::vector<T> &);
  std::size_t size() const;
  bool empty() const;
  void resize(std::size_t n, const T &value = T());
  void reserve(std::size_t n);
  void clear();
  void push_back(const T &value);
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  device_ptr<T> data();
  device_ptr<const T> data() const;
  T operator[](std::size_t i) const;
  T &operator[](std::size_t i);
};
template <typename T> class host_vector : public std::vector<T> {
public:
  using std::vector<T>::vector;
  host_vector() = default;
  host_vector(const device_vector<T> &);
  host_vector(const std::vector<T> &v) : std::vector<T>(v) {}
};

// Iterators.
template <typename T> class counting_iterator {
public:
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = T *;
  using reference = T;
  using iterator_category = std::random_access_iterator_tag;
  __host__ __device__ counting_iterator(T v = T()) : v(v) {}
  __host__ __device__ T operator*() const { return v; }
  __host__ __device__ T operator[](std::ptrdiff_t i) const { return v + i; }
  __host__ __device__ counting_iterator operator+(std::ptrdiff_t n) const {
    return counting_iterator(v + n);
  }
  __host__ __device__ std::ptrdiff_t
  operator-(const counting_iterator &o) const {
    return v - o.v;
  }
  __host__ __device__ counting_iterator &operator++() {
    ++v;
    return *this;
  }
  __host__ __device__ bool operator!=(const counting_iterator &o) const {
    return v != o.v;
  }

private:
  T v;
};
template <typename T>
__host__ __device__ counting_iterator<T> make_counting_iterator(T v) {
  return counting_iterator<T>(v);
}

// Function objects.
template <typename T = void> struct plus {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a + b;
  }
};
template <typename T = void> struct minus {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a - b;
  }
};
template <typename T = void> struct multiplies {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a * b;
  }
};
template <typename T = void> struct maximum {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a < b ? b : a;
  }
};
template <typename T = void> struct minimum {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return b < a ? b : a;
  }
};
template <typename T = void> struct less {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return a < b;
  }
};
template <typename T = void> struct greater {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return b < a;
  }
};
template <typename T = void> struct equal_to {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return a == b;
  }
};
template <typename T = void> struct identity {
  __host__ __device__ const T &operator()(const T &x) const { return x; }
};

// Algorithms: with or without an execution policy first. Each overload set
// takes the policy as its own template parameter, constrained to policies, so
// that the iterator-only overloads stay apart.
#define TP_THRUST_POLICY                                                       \
  typename Policy,                                                             \
      typename = typename std::enable_if<                                      \
          std::is_base_of<detail::execution_policy_base, Policy>::value>::type

template <typename It, typename T> void fill(It first, It last, const T &v);
template <TP_THRUST_POLICY, typename It, typename T>
void fill(const Policy &, It first, It last, const T &v);
template <typename It> void sequence(It first, It last);
template <typename It, typename T> void sequence(It first, It last, T init);
template <typename It, typename T>
void sequence(It first, It last, T init, T step);
template <TP_THRUST_POLICY, typename It>
void sequence(const Policy &, It first, It last);
template <TP_THRUST_POLICY, typename It, typename T>
void sequence(const Policy &, It first, It last, T init);
template <TP_THRUST_POLICY, typename It, typename T>
void sequence(const Policy &, It first, It last, T init, T step);
template <typename It> void sort(It first, It last);
template <typename It, typename Cmp> void sort(It first, It last, Cmp cmp);
template <TP_THRUST_POLICY, typename It>
void sort(const Policy &, It first, It last);
template <TP_THRUST_POLICY, typename It, typename Cmp>
void sort(const Policy &, It first, It last, Cmp cmp);
template <typename It> void stable_sort(It first, It last);
template <TP_THRUST_POLICY, typename It>
void stable_sort(const Policy &, It first, It last);
template <typename K, typename V> void sort_by_key(K first, K last, V values);
template <typename K, typename V, typename Cmp>
void sort_by_key(K first, K last, V values, Cmp cmp);
template <TP_THRUST_POLICY, typename K, typename V>
void sort_by_key(const Policy &, K first, K last, V values);
template <TP_THRUST_POLICY, typename K, typename V, typename Cmp>
void sort_by_key(const Policy &, K first, K last, V values, Cmp cmp);
template <typename K, typename V>
void stable_sort_by_key(K first, K last, V values);
template <TP_THRUST_POLICY, typename K, typename V>
void stable_sort_by_key(const Policy &, K first, K last, V values);
template <typename It>
typename std::iterator_traits<It>::value_type reduce(It first, It last);
template <typename It, typename T> T reduce(It first, It last, T init);
template <typename It, typename T, typename Op>
T reduce(It first, It last, T init, Op op);
template <TP_THRUST_POLICY, typename It>
typename std::iterator_traits<It>::value_type reduce(const Policy &, It first,
                                                     It last);
template <TP_THRUST_POLICY, typename It, typename T>
T reduce(const Policy &, It first, It last, T init);
template <TP_THRUST_POLICY, typename It, typename T, typename Op>
T reduce(const Policy &, It first, It last, T init, Op op);
template <typename In, typename Out, typename Op>
Out transform(In first, In last, Out result, Op op);
template <typename In1, typename In2, typename Out, typename Op>
Out transform(In1 first1, In1 last1, In2 first2, Out result, Op op);
template <TP_THRUST_POLICY, typename In, typename Out, typename Op>
Out transform(const Policy &, In first, In last, Out result, Op op);
template <TP_THRUST_POLICY, typename In1, typename In2, typename Out,
          typename Op>
Out transform(const Policy &, In1 first1, In1 last1, In2 first2, Out result,
              Op op);
template <typename In, typename Out>
Out inclusive_scan(In first, In last, Out result);
template <TP_THRUST_POLICY, typename In, typename Out>
Out inclusive_scan(const Policy &, In first, In last, Out result);
template <typename In, typename Out>
Out exclusive_scan(In first, In last, Out result);
template <TP_THRUST_POLICY, typename In, typename Out>
Out exclusive_scan(const Policy &, In first, In last, Out result);
template <typename In, typename Out> Out copy(In first, In last, Out result);
template <TP_THRUST_POLICY, typename In, typename Out>
Out copy(const Policy &, In first, In last, Out result);
template <typename It> It unique(It first, It last);
template <TP_THRUST_POLICY, typename It>
It unique(const Policy &, It first, It last);
template <typename It, typename F> void for_each(It first, It last, F f);
template <TP_THRUST_POLICY, typename It, typename F>
void for_each(const Policy &, It first, It last, F f);
template <typename It, typename T>
std::ptrdiff_t count(It first, It last, const T &v);
template <TP_THRUST_POLICY, typename It, typename T>
std::ptrdiff_t count(const Policy &, It first, It last, const T &v);
template <typename It> It max_element(It first, It last);
template <TP_THRUST_POLICY, typename It>
It max_element(const Policy &, It first, It last);
template <typename It> It min_element(It first, It last);
template <TP_THRUST_POLICY, typename It>
It min_element(const Policy &, It first, It last);

#undef TP_THRUST_POLICY
} // namespace thrust
