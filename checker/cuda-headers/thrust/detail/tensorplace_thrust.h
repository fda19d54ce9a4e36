// Stand-in, declarations only: the parts of Thrust that PyTorch extensions
// use most, so that a .cu file that includes them parses. Every public header
// of this directory includes this one.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <iterator>
#include <tuple>
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

// Fancy iterators, enough to be passed to the algorithms above.
template <typename It, typename F> class transform_iterator {
public:
  using value_type = decltype(std::declval<F>()(*std::declval<It>()));
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = value_type;
  using iterator_category = std::random_access_iterator_tag;
  __host__ __device__ transform_iterator(It it, F f) : it(it), f(f) {}
  __host__ __device__ value_type operator*() const { return f(*it); }
  __host__ __device__ value_type operator[](std::ptrdiff_t i) const {
    return f(it[i]);
  }
  __host__ __device__ transform_iterator operator+(std::ptrdiff_t n) const {
    return transform_iterator(it + n, f);
  }
  __host__ __device__ std::ptrdiff_t
  operator-(const transform_iterator &o) const {
    return it - o.it;
  }

private:
  It it;
  F f;
};
template <typename It, typename F>
__host__ __device__ transform_iterator<It, F> make_transform_iterator(It it,
                                                                      F f) {
  return transform_iterator<It, F>(it, f);
}
template <typename T> class constant_iterator {
public:
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T *;
  using reference = T;
  using iterator_category = std::random_access_iterator_tag;
  __host__ __device__ constant_iterator(T v = T()) : v(v) {}
  __host__ __device__ T operator*() const { return v; }
  __host__ __device__ T operator[](std::ptrdiff_t) const { return v; }
  __host__ __device__ constant_iterator operator+(std::ptrdiff_t) const {
    return *this;
  }

private:
  T v;
};
template <typename T>
__host__ __device__ constant_iterator<T> make_constant_iterator(T v) {
  return constant_iterator<T>(v);
}

// Pairs and tuples, as std::pair and std::tuple (their functions are
// constexpr, so Clang lets device code call them), and the zip iterator over
// a tuple of iterators, as in sort_by_key(k, k + n, make_zip_iterator(t)).
using std::get;
using std::make_pair;
using std::make_tuple;
using std::pair;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
template <typename IteratorTuple> class zip_iterator {
public:
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::random_access_iterator_tag;
  zip_iterator() = default;
  __host__ __device__ explicit zip_iterator(IteratorTuple its) : its(its) {}
  __host__ __device__ const IteratorTuple &get_iterator_tuple() const {
    return its;
  }
  __host__ __device__ zip_iterator operator+(std::ptrdiff_t) const {
    return *this;
  }
  __host__ __device__ std::ptrdiff_t operator-(const zip_iterator &) const {
    return 0;
  }

private:
  IteratorTuple its;
};
template <typename... Its>
__host__ __device__ zip_iterator<tuple<Its...>>
make_zip_iterator(tuple<Its...> its) {
  return zip_iterator<tuple<Its...>>(its);
}
template <typename... Its>
__host__ __device__ zip_iterator<tuple<Its...>> make_zip_iterator(Its... its) {
  return zip_iterator<tuple<Its...>>(tuple<Its...>(its...));
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
template <typename T = void> struct divides {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a / b;
  }
};
template <typename T = void> struct modulus {
  __host__ __device__ T operator()(const T &a, const T &b) const {
    return a % b;
  }
};
template <typename T = void> struct negate {
  __host__ __device__ T operator()(const T &a) const { return -a; }
};
template <typename T = void> struct less_equal {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return !(b < a);
  }
};
template <typename T = void> struct greater_equal {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return !(a < b);
  }
};
template <typename T = void> struct not_equal_to {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return !(a == b);
  }
};
template <typename T = void> struct logical_and {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return a && b;
  }
};
template <typename T = void> struct logical_or {
  __host__ __device__ bool operator()(const T &a, const T &b) const {
    return a || b;
  }
};
template <typename T = void> struct logical_not {
  __host__ __device__ bool operator()(const T &a) const { return !a; }
};
template <typename T = void> struct identity {
  __host__ __device__ const T &operator()(const T &x) const { return x; }
};

// Algorithms: with or without an execution policy first. Each is defined
// (doing nothing), so that one called with a lambda, whose type has no
// linkage, needs no definition elsewhere. Each overload set
// takes the policy as its own template parameter, constrained to policies, so
// that the iterator-only overloads stay apart.
#define TP_THRUST_POLICY                                                       \
  typename Policy,                                                             \
      typename = typename std::enable_if<                                      \
          std::is_base_of<detail::execution_policy_base, Policy>::value>::type

template <typename It, typename T> void fill(It first, It last, const T &v) {}
template <TP_THRUST_POLICY, typename It, typename T>
void fill(const Policy &, It first, It last, const T &v) {}
template <typename It> void sequence(It first, It last) {}
template <typename It, typename T> void sequence(It first, It last, T init) {}
template <typename It, typename T>
void sequence(It first, It last, T init, T step) {}
template <TP_THRUST_POLICY, typename It>
void sequence(const Policy &, It first, It last) {}
template <TP_THRUST_POLICY, typename It, typename T>
void sequence(const Policy &, It first, It last, T init) {}
template <TP_THRUST_POLICY, typename It, typename T>
void sequence(const Policy &, It first, It last, T init, T step) {}
template <typename It> void sort(It first, It last) {}
template <typename It, typename Cmp> void sort(It first, It last, Cmp cmp) {}
template <TP_THRUST_POLICY, typename It>
void sort(const Policy &, It first, It last) {}
template <TP_THRUST_POLICY, typename It, typename Cmp>
void sort(const Policy &, It first, It last, Cmp cmp) {}
template <typename It> void stable_sort(It first, It last) {}
template <TP_THRUST_POLICY, typename It>
void stable_sort(const Policy &, It first, It last) {}
template <typename K, typename V> void sort_by_key(K first, K last, V values) {}
template <typename K, typename V, typename Cmp>
void sort_by_key(K first, K last, V values, Cmp cmp) {}
template <TP_THRUST_POLICY, typename K, typename V>
void sort_by_key(const Policy &, K first, K last, V values) {}
template <TP_THRUST_POLICY, typename K, typename V, typename Cmp>
void sort_by_key(const Policy &, K first, K last, V values, Cmp cmp) {}
template <typename K, typename V>
void stable_sort_by_key(K first, K last, V values) {}
template <TP_THRUST_POLICY, typename K, typename V>
void stable_sort_by_key(const Policy &, K first, K last, V values) {}
template <typename It>
typename std::iterator_traits<It>::value_type reduce(It first, It last) {
  return {};
}
template <typename It, typename T> T reduce(It first, It last, T init) {
  return {};
}
template <typename It, typename T, typename Op>
T reduce(It first, It last, T init, Op op) {
  return {};
}
template <TP_THRUST_POLICY, typename It>
typename std::iterator_traits<It>::value_type reduce(const Policy &, It first,
                                                     It last) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename T>
T reduce(const Policy &, It first, It last, T init) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename T, typename Op>
T reduce(const Policy &, It first, It last, T init, Op op) {
  return {};
}
template <typename In, typename Out, typename Op>
Out transform(In first, In last, Out result, Op op) {
  return result;
}
template <typename In1, typename In2, typename Out, typename Op>
Out transform(In1 first1, In1 last1, In2 first2, Out result, Op op) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename Op>
Out transform(const Policy &, In first, In last, Out result, Op op) {
  return result;
}
template <TP_THRUST_POLICY, typename In1, typename In2, typename Out,
          typename Op>
Out transform(const Policy &, In1 first1, In1 last1, In2 first2, Out result,
              Op op) {
  return result;
}
template <typename In, typename Out>
Out inclusive_scan(In first, In last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out>
Out inclusive_scan(const Policy &, In first, In last, Out result) {
  return result;
}
template <typename In, typename Out>
Out exclusive_scan(In first, In last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out>
Out exclusive_scan(const Policy &, In first, In last, Out result) {
  return result;
}
template <typename In, typename Out> Out copy(In first, In last, Out result) {
  return {};
}
template <TP_THRUST_POLICY, typename In, typename Out>
Out copy(const Policy &, In first, In last, Out result) {
  return result;
}
template <typename It> It unique(It first, It last) { return first; }
template <TP_THRUST_POLICY, typename It>
It unique(const Policy &, It first, It last) {
  return first;
}
template <typename It, typename F> void for_each(It first, It last, F f) {}
template <TP_THRUST_POLICY, typename It, typename F>
void for_each(const Policy &, It first, It last, F f) {}
template <typename It, typename T>
std::ptrdiff_t count(It first, It last, const T &v) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename T>
std::ptrdiff_t count(const Policy &, It first, It last, const T &v) {
  return {};
}
template <typename It> It max_element(It first, It last) { return first; }
template <TP_THRUST_POLICY, typename It>
It max_element(const Policy &, It first, It last) {
  return first;
}
template <typename It> It min_element(It first, It last) { return first; }
template <TP_THRUST_POLICY, typename It>
It min_element(const Policy &, It first, It last) {
  return first;
}

// More algorithms (thrust/transform.h, count.h, copy.h, remove.h, replace.h,
// fill.h, transform_reduce.h, inner_product.h, reduce.h, unique.h, gather.h,
// scatter.h, tabulate.h, generate.h, scan.h, adjacent_difference.h, find.h,
// logical.h, equal.h, extrema.h, binary_search.h, reverse.h).
template <typename In, typename Out, typename Op, typename Pred>
Out transform_if(In first, In last, Out result, Op op, Pred pred) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename Op,
          typename Pred>
Out transform_if(const Policy &, In first, In last, Out result, Op op,
                 Pred pred) {
  return result;
}
template <typename In, typename S, typename Out, typename Op, typename Pred>
Out transform_if(In first, In last, S stencil, Out result, Op op, Pred pred) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename S, typename Out, typename Op,
          typename Pred>
Out transform_if(const Policy &, In first, In last, S stencil, Out result,
                 Op op, Pred pred) {
  return result;
}
template <typename In1, typename In2, typename S, typename Out, typename Op,
          typename Pred>
Out transform_if(In1 first1, In1 last1, In2 first2, S stencil, Out result,
                 Op op, Pred pred) {
  return result;
}
template <TP_THRUST_POLICY, typename In1, typename In2, typename S,
          typename Out, typename Op, typename Pred>
Out transform_if(const Policy &, In1 first1, In1 last1, In2 first2, S stencil,
                 Out result, Op op, Pred pred) {
  return result;
}
template <typename It, typename Pred>
std::ptrdiff_t count_if(It first, It last, Pred pred) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename Pred>
std::ptrdiff_t count_if(const Policy &, It first, It last, Pred pred) {
  return {};
}
template <typename In, typename Out, typename Pred>
Out copy_if(In first, In last, Out result, Pred pred) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename Pred>
Out copy_if(const Policy &, In first, In last, Out result, Pred pred) {
  return result;
}
template <typename In, typename S, typename Out, typename Pred>
Out copy_if(In first, In last, S stencil, Out result, Pred pred) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename S, typename Out,
          typename Pred>
Out copy_if(const Policy &, In first, In last, S stencil, Out result,
            Pred pred) {
  return result;
}
template <typename In, typename Size, typename Out>
Out copy_n(In first, Size n, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Size, typename Out>
Out copy_n(const Policy &, In first, Size n, Out result) {
  return result;
}
template <typename It, typename Pred>
It remove_if(It first, It last, Pred pred) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename Pred>
It remove_if(const Policy &, It first, It last, Pred pred) {
  return first;
}
template <typename It, typename T> It remove(It first, It last, const T &v) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename T>
It remove(const Policy &, It first, It last, const T &v) {
  return first;
}
template <typename It, typename Pred, typename T>
void replace_if(It first, It last, Pred pred, const T &v) {}
template <TP_THRUST_POLICY, typename It, typename Pred, typename T>
void replace_if(const Policy &, It first, It last, Pred pred, const T &v) {}
template <typename It, typename T>
void replace(It first, It last, const T &old_v, const T &new_v) {}
template <TP_THRUST_POLICY, typename It, typename T>
void replace(const Policy &, It first, It last, const T &old_v,
             const T &new_v) {}
template <typename It, typename Size, typename T>
It fill_n(It first, Size n, const T &v) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename Size, typename T>
It fill_n(const Policy &, It first, Size n, const T &v) {
  return first;
}
template <typename It, typename T>
void uninitialized_fill(It first, It last, const T &v) {}
template <TP_THRUST_POLICY, typename It, typename T>
void uninitialized_fill(const Policy &, It first, It last, const T &v) {}
template <typename It, typename Op, typename T, typename Red>
T transform_reduce(It first, It last, Op op, T init, Red red) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename Op, typename T, typename Red>
T transform_reduce(const Policy &, It first, It last, Op op, T init, Red red) {
  return {};
}
template <typename In1, typename In2, typename T>
T inner_product(In1 first1, In1 last1, In2 first2, T init) {
  return {};
}
template <TP_THRUST_POLICY, typename In1, typename In2, typename T>
T inner_product(const Policy &, In1 first1, In1 last1, In2 first2, T init) {
  return {};
}
template <typename In1, typename In2, typename T, typename Red, typename Op>
T inner_product(In1 first1, In1 last1, In2 first2, T init, Red red, Op op) {
  return {};
}
template <TP_THRUST_POLICY, typename In1, typename In2, typename T,
          typename Red, typename Op>
T inner_product(const Policy &, In1 first1, In1 last1, In2 first2, T init,
                Red red, Op op) {
  return {};
}
template <typename K, typename V, typename KO, typename VO>
std::pair<KO, VO> reduce_by_key(K keys_first, K keys_last, V values,
                                KO keys_out, VO values_out) {
  return {};
}
template <TP_THRUST_POLICY, typename K, typename V, typename KO, typename VO>
std::pair<KO, VO> reduce_by_key(const Policy &, K keys_first, K keys_last,
                                V values, KO keys_out, VO values_out) {
  return {};
}
template <typename K, typename V, typename KO, typename VO, typename Eq,
          typename Op>
std::pair<KO, VO> reduce_by_key(K keys_first, K keys_last, V values,
                                KO keys_out, VO values_out, Eq eq, Op op) {
  return {};
}
template <TP_THRUST_POLICY, typename K, typename V, typename KO, typename VO,
          typename Eq, typename Op>
std::pair<KO, VO> reduce_by_key(const Policy &, K keys_first, K keys_last,
                                V values, KO keys_out, VO values_out, Eq eq,
                                Op op) {
  return {};
}
template <typename K, typename V>
std::pair<K, V> unique_by_key(K keys_first, K keys_last, V values) {
  return {};
}
template <TP_THRUST_POLICY, typename K, typename V>
std::pair<K, V> unique_by_key(const Policy &, K keys_first, K keys_last,
                              V values) {
  return {};
}
template <typename In, typename Out>
Out unique_copy(In first, In last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out>
Out unique_copy(const Policy &, In first, In last, Out result) {
  return result;
}
template <typename Map, typename In, typename Out>
Out gather(Map map_first, Map map_last, In input, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename Map, typename In, typename Out>
Out gather(const Policy &, Map map_first, Map map_last, In input, Out result) {
  return result;
}
template <typename In, typename Map, typename Out>
void scatter(In first, In last, Map map, Out result) {}
template <TP_THRUST_POLICY, typename In, typename Map, typename Out>
void scatter(const Policy &, In first, In last, Map map, Out result) {}
template <typename It, typename Op> void tabulate(It first, It last, Op op) {}
template <TP_THRUST_POLICY, typename It, typename Op>
void tabulate(const Policy &, It first, It last, Op op) {}
template <typename It, typename Gen>
void generate(It first, It last, Gen gen) {}
template <TP_THRUST_POLICY, typename It, typename Gen>
void generate(const Policy &, It first, It last, Gen gen) {}
template <typename In, typename Out, typename Op>
Out inclusive_scan(In first, In last, Out result, Op op) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename Op>
Out inclusive_scan(const Policy &, In first, In last, Out result, Op op) {
  return result;
}
template <typename In, typename Out, typename T>
Out exclusive_scan(In first, In last, Out result, T init) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename T>
Out exclusive_scan(const Policy &, In first, In last, Out result, T init) {
  return result;
}
template <typename In, typename Out, typename T, typename Op>
Out exclusive_scan(In first, In last, Out result, T init, Op op) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out, typename T, typename Op>
Out exclusive_scan(const Policy &, In first, In last, Out result, T init,
                   Op op) {
  return result;
}
template <typename K, typename V, typename Out>
Out inclusive_scan_by_key(K keys_first, K keys_last, V values, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename K, typename V, typename Out>
Out inclusive_scan_by_key(const Policy &, K keys_first, K keys_last, V values,
                          Out result) {
  return result;
}
template <typename K, typename V, typename Out>
Out exclusive_scan_by_key(K keys_first, K keys_last, V values, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename K, typename V, typename Out>
Out exclusive_scan_by_key(const Policy &, K keys_first, K keys_last, V values,
                          Out result) {
  return result;
}
template <typename In, typename Out>
Out adjacent_difference(In first, In last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename In, typename Out>
Out adjacent_difference(const Policy &, In first, In last, Out result) {
  return result;
}
template <typename It, typename T> It find(It first, It last, const T &v) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename T>
It find(const Policy &, It first, It last, const T &v) {
  return first;
}
template <typename It, typename Pred> It find_if(It first, It last, Pred pred) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename Pred>
It find_if(const Policy &, It first, It last, Pred pred) {
  return first;
}
template <typename It, typename Pred>
bool all_of(It first, It last, Pred pred) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename Pred>
bool all_of(const Policy &, It first, It last, Pred pred) {
  return {};
}
template <typename It, typename Pred>
bool any_of(It first, It last, Pred pred) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename Pred>
bool any_of(const Policy &, It first, It last, Pred pred) {
  return {};
}
template <typename It, typename Pred>
bool none_of(It first, It last, Pred pred) {
  return {};
}
template <TP_THRUST_POLICY, typename It, typename Pred>
bool none_of(const Policy &, It first, It last, Pred pred) {
  return {};
}
template <typename In1, typename In2>
bool equal(In1 first1, In1 last1, In2 first2) {
  return {};
}
template <TP_THRUST_POLICY, typename In1, typename In2>
bool equal(const Policy &, In1 first1, In1 last1, In2 first2) {
  return {};
}
template <typename It, typename Cmp>
It max_element(It first, It last, Cmp cmp) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename Cmp>
It max_element(const Policy &, It first, It last, Cmp cmp) {
  return first;
}
template <typename It, typename Cmp>
It min_element(It first, It last, Cmp cmp) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename Cmp>
It min_element(const Policy &, It first, It last, Cmp cmp) {
  return first;
}
template <typename It> std::pair<It, It> minmax_element(It first, It last) {
  return {};
}
template <TP_THRUST_POLICY, typename It>
std::pair<It, It> minmax_element(const Policy &, It first, It last) {
  return {};
}
template <typename It, typename T>
It lower_bound(It first, It last, const T &v) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename T>
It lower_bound(const Policy &, It first, It last, const T &v) {
  return first;
}
template <typename It, typename T>
It upper_bound(It first, It last, const T &v) {
  return first;
}
template <TP_THRUST_POLICY, typename It, typename T>
It upper_bound(const Policy &, It first, It last, const T &v) {
  return first;
}
template <typename It, typename V, typename Out>
Out lower_bound(It first, It last, V values_first, V values_last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename It, typename V, typename Out>
Out lower_bound(const Policy &, It first, It last, V values_first,
                V values_last, Out result) {
  return result;
}
template <typename It, typename V, typename Out>
Out upper_bound(It first, It last, V values_first, V values_last, Out result) {
  return result;
}
template <TP_THRUST_POLICY, typename It, typename V, typename Out>
Out upper_bound(const Policy &, It first, It last, V values_first,
                V values_last, Out result) {
  return result;
}
template <typename It> void reverse(It first, It last) {}
template <TP_THRUST_POLICY, typename It>
void reverse(const Policy &, It first, It last) {}

#undef TP_THRUST_POLICY
} // namespace thrust
