// CPU kernels of the reductions on the reduction engine (backends/cpu/reduce_engine.h):
// sum, mean, amax, amin, any, prod and var (those that keep an index, argmax, argmin,
// max.dim and min.dim, are in arg_reduce_ops.cpp).
//
// PyTorch's semantics: sum and mean convert each input element to the output dtype
// first; floating sums accumulate in double (float32 in vector accumulators over blocks
// of 2048 elements, then in double), integral sums wrap in their own type, bool is
// "any"; amax/amin propagate NaN; prod multiplies in the output dtype; var accumulates
// Welford's moments in double.
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "aten/ops/amax_native.h"
#include "aten/ops/amin_native.h"
#include "aten/ops/any_native.h"
#include "aten/ops/mean_native.h"
#include "aten/ops/prod_native.h"
#include "aten/ops/sum_native.h"
#include "aten/ops/var_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/reduce_engine.h"
#include "runtime/cpu_capability.h"

namespace sops::aten::native {
namespace {

using cpu_reduce::make_reduce_plan;
using cpu_reduce::run_reduction;

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;

// The sum of n contiguous float32 or float64 elements: 4 vector accumulators per
// block of 2048, each block's total added in double.
template <typename T>
SOPS_ALWAYS_INLINE double sum_contiguous_body(const T* p, int64_t n) {
  using V = typename Vec32<T>::type;
  constexpr int64_t W = Vec32<T>::kLanes;
  constexpr int64_t kBlock = 2048;
  double total = 0;
  int64_t i = 0;
  while (n - i >= 4 * W) {
    const int64_t end = i + std::min(kBlock, (n - i) / (4 * W) * (4 * W));
    V a0{}, a1{}, a2{}, a3{};
    for (; i < end; i += 4 * W) {
      V x0, x1, x2, x3;
      std::memcpy(&x0, p + i, sizeof(V));
      std::memcpy(&x1, p + i + W, sizeof(V));
      std::memcpy(&x2, p + i + 2 * W, sizeof(V));
      std::memcpy(&x3, p + i + 3 * W, sizeof(V));
      a0 += x0;
      a1 += x1;
      a2 += x2;
      a3 += x3;
    }
    const V s = (a0 + a1) + (a2 + a3);
    for (int64_t l = 0; l < W; ++l) total += static_cast<double>(s[l]);
  }
  for (; i < n; ++i) total += static_cast<double>(p[i]);
  return total;
}

SOPS_CPU_CLONES(sum_contiguous, sum_contiguous_body)

// acc[j] += row[j], vectorized by the compiler in each clone.
template <typename A, typename T>
SOPS_ALWAYS_INLINE void add_row_body(A* __restrict acc, const T* __restrict row, int64_t n) {
  for (int64_t j = 0; j < n; ++j) acc[j] += static_cast<A>(row[j]);
}
SOPS_CPU_CLONES(add_row, add_row_body)

// Sum of T into T (after conversion to the output dtype); `divisor` 1 for sum, the
// element count for mean.
template <typename T>
struct SumReducer {
  using acc_t = std::conditional_t<kFloating<T>, double, T>;
  double divisor = 1;

  acc_t identity() const { return acc_t(0); }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else {
      return cpu_util::wrapping_add(a, b);
    }
  }
  acc_t run(const T* p, int64_t n, int64_t stride) const {
    if constexpr (kFloating<T>) {
      if (stride == 1) return sum_contiguous(p, n);
    }
    acc_t acc = identity();
    for (int64_t i = 0; i < n; ++i) acc = combine(acc, static_cast<acc_t>(p[i * stride]));
    return acc;
  }
  void fold_row(acc_t* acc, const T* row, int64_t n) const {
    if constexpr (kFloating<T>) {
      add_row(acc, row, n);
    } else {
      for (int64_t j = 0; j < n; ++j) acc[j] = combine(acc[j], static_cast<acc_t>(row[j]));
    }
  }
  T finish(acc_t a) const {
    if constexpr (kFloating<T>) {
      return static_cast<T>(a / divisor);
    } else {
      return static_cast<T>(a);
    }
  }
};

// amax (kMax) or amin: NaN wins over every number.
template <typename T, bool kMax>
struct MinMaxReducer {
  using acc_t = T;

  static T better(T a, T b) {
    if constexpr (kFloating<T>) {
      if (std::isnan(b)) return b;
    }
    return (kMax ? b > a : b < a) ? b : a;
  }
  acc_t identity() const {
    if constexpr (std::is_same_v<T, bool>) {
      return !kMax;
    } else if constexpr (kFloating<T>) {
      return kMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    } else {
      return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
  }
  acc_t combine(acc_t a, acc_t b) const { return better(a, b); }
  acc_t run(const T* p, int64_t n, int64_t stride) const {
    acc_t acc = identity();
    for (int64_t i = 0; i < n; ++i) acc = better(acc, p[i * stride]);
    return acc;
  }
  void fold_row(acc_t* acc, const T* row, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) acc[j] = better(acc[j], row[j]);
  }
  T finish(acc_t a) const { return a; }
};

// any: whether some element is non-zero (NaN counts), as Out (bool or uint8).
template <typename T, typename Out>
struct AnyReducer {
  using acc_t = bool;
  acc_t identity() const { return false; }
  acc_t combine(acc_t a, acc_t b) const { return a || b; }
  acc_t run(const T* p, int64_t n, int64_t stride) const {
    for (int64_t i = 0; i < n; ++i) {
      if (p[i * stride] != T(0)) return true;
    }
    return false;
  }
  void fold_row(acc_t* acc, const T* row, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) acc[j] = acc[j] || row[j] != T(0);
  }
  Out finish(acc_t a) const { return static_cast<Out>(a); }
};

// self converted to `dtype` when it has another one (sum/mean with dtype=, or an out of
// another dtype): PyTorch converts each element before reducing.
Tensor as_dtype(const Tensor& self, ScalarType dtype) {
  if (self.scalar_type() == dtype) return self;
  Tensor converted = sops::empty(self.sizes(), self.options().dtype(dtype));
  cpu_util::copy_cast(converted, self);
  return converted;
}

void sum_into(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out, bool mean,
              const char* name) {
  const Tensor in = as_dtype(self, out.scalar_type());
  const cpu_reduce::ReducePlan plan = make_reduce_plan(in, mask, out, keepdim);
  SOPS_DISPATCH_TYPES(
      dtypes::kAllTypes | dtypes::kBoolType | dtypes::kReducedFloatingTypes, out.scalar_type(),
      name, [&] {
        if constexpr (std::is_same_v<scalar_t, Half> || std::is_same_v<scalar_t, BFloat16>) {
          // 16-bit floats: reduced in float32, then rounded once.
          Tensor wide = as_dtype(in, ScalarType::Float);
          Tensor result = sops::empty(out.sizes(), out.options().dtype(ScalarType::Float));
          sum_into(wide, mask, keepdim, result, mean, name);
          cpu_util::copy_cast(out, result);
        } else {
          SumReducer<scalar_t> r;
          if (mean) r.divisor = static_cast<double>(plan.red_numel);
          run_reduction(plan, in.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), r);
        }
      });
}

}  // namespace

SOPS_IMPL_FUNC(sum_out)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  sum_into(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*mean=*/false, "sum");
}

SOPS_IMPL_FUNC(mean_out)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  sum_into(self, ops_util::reduction_mask(dim, self.dim()), keepdim, out, /*mean=*/true, "mean");
}

namespace {

template <bool kMax>
void minmax_into(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out,
                 const char* name) {
  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  const cpu_reduce::ReducePlan plan = make_reduce_plan(self, mask, out, keepdim);
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(self.scalar_type(), name, [&] {
    run_reduction(plan, self.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                  MinMaxReducer<scalar_t, kMax>{});
  });
}

}  // namespace

SOPS_IMPL_FUNC(amax_out)(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  minmax_into<true>(self, dim, keepdim, out, "amax");
}

SOPS_IMPL_FUNC(amin_out)(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  minmax_into<false>(self, dim, keepdim, out, "amin");
}

namespace {

// The product, accumulated in the output dtype as PyTorch's prod kernel does (bool:
// "and"; integers wrap).
template <typename T>
struct ProdReducer {
  using acc_t = T;
  acc_t identity() const { return T(1); }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else {
      return cpu_util::wrapping_mul(a, b);
    }
  }
  acc_t run(const T* p, int64_t n, int64_t stride) const {
    acc_t acc = identity();
    for (int64_t i = 0; i < n; ++i) acc = combine(acc, p[i * stride]);
    return acc;
  }
  void fold_row(acc_t* acc, const T* row, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) acc[j] = combine(acc[j], row[j]);
  }
  T finish(acc_t a) const { return a; }
};

void prod_into(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out) {
  const Tensor in = as_dtype(self, out.scalar_type());
  const cpu_reduce::ReducePlan plan = make_reduce_plan(in, mask, out, keepdim);
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(out.scalar_type(), "prod", [&] {
    run_reduction(plan, in.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                  ProdReducer<scalar_t>{});
  });
}

// Welford's running mean and sum of squared deviations, in double (PyTorch's WelfordOps
// for var), merged by Chan's rule; the variance divides by max(0, n - correction).
struct Moments {
  double mean = 0, m2 = 0;
  double n = 0;
};

template <typename T>
struct VarReducer {
  using acc_t = Moments;
  double correction = 1;

  static Moments add(Moments a, double x) {
    a.n += 1;
    const double delta = x - a.mean;
    a.mean += delta / a.n;
    a.m2 += delta * (x - a.mean);
    return a;
  }
  acc_t identity() const { return {}; }
  acc_t combine(const acc_t& a, const acc_t& b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double n = a.n + b.n;
    const double delta = b.mean - a.mean;
    return {a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n, n};
  }
  acc_t run(const T* p, int64_t n, int64_t stride) const {
    Moments m;
    for (int64_t i = 0; i < n; ++i) m = add(m, static_cast<double>(p[i * stride]));
    return m;
  }
  void fold_row(acc_t* acc, const T* row, int64_t n) const {
    for (int64_t j = 0; j < n; ++j) acc[j] = add(acc[j], static_cast<double>(row[j]));
  }
  T finish(const acc_t& a) const {
    const double divisor = std::max(0.0, a.n - correction);
    return static_cast<T>(a.m2 / divisor);
  }
};

// var's checks and result shape (also for meta tensors): floating self, out of self's
// dtype, the dims reduced (all when None or empty).
DimVector var_shape(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, uint64_t& mask) {
  SOPS_CHECK_ARG(is_floating_point(self.scalar_type()), "self",
                 "std and var only support floating point and complex dtypes");
  mask = ops_util::reduction_mask(dim, self.dim());
  return ops_util::reduced_shape(self, mask, keepdim);
}

void var_into(const Tensor& self, uint64_t mask, bool keepdim, double correction,
              const Tensor& out) {
  if (out.is_meta()) return;
  const cpu_reduce::ReducePlan plan = make_reduce_plan(self, mask, out, keepdim);
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "var", [&] {
    VarReducer<scalar_t> r;
    r.correction = correction;
    run_reduction(plan, self.const_data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), r);
  });
}

double correction_of(const std::optional<Scalar>& correction) {
  return correction.has_value() ? correction->to_unchecked<double>() : 1.0;
}

// A bool and a uint8 out (PyTorch's out for uint8 input) hold the result alike, one byte
// of 0 or 1: one reduction per input dtype writes either.
void any_into(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out) {
  const cpu_reduce::ReducePlan plan = make_reduce_plan(self, mask, out, keepdim);
  auto* const result = static_cast<uint8_t*>(out.data_ptr());
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(self.scalar_type(), "any", [&] {
    run_reduction(plan, self.const_data_ptr<scalar_t>(), result, AnyReducer<scalar_t, uint8_t>{});
  });
}

}  // namespace

SOPS_IMPL_FUNC(any_out)(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) {
  any_into(self, self.dim() == 0 ? 0 : uint64_t{1} << ops_util::wrap_dim(dim, self.dim()), keepdim,
           out);
}

SOPS_IMPL_FUNC(any_all_out)(const Tensor& self, const Tensor& out) {
  any_into(self, ops_util::reduction_mask(std::nullopt, self.dim()), false, out);
}

SOPS_IMPL_FUNC(any_dims_out)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, const Tensor& out) {
  any_into(self, ops_util::any_dims_mask(dim, self.dim()), keepdim, out);
}

SOPS_IMPL_FUNC(prod_out)
(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << ops_util::wrap_dim(dim, self.dim());
  prod_into(self, mask, keepdim, out);
}

// The product of every element (registered for CPU and Meta): a 0-dim result.
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  Tensor out = sops::empty({}, self.options().dtype(ops_util::sum_dtype(self, Tensor(), dtype)));
  if (!self.is_meta())
    prod_into(self, ops_util::reduction_mask(std::nullopt, self.dim()), false, out);
  return out;
}

Tensor var(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction,
           bool keepdim) {
  uint64_t mask = 0;
  Tensor out = sops::empty(var_shape(self, dim, keepdim, mask), self.options());
  var_into(self, mask, keepdim, correction_of(correction), out);
  return out;
}

Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim,
                const std::optional<Scalar>& correction, bool keepdim, Tensor& out) {
  uint64_t mask = 0;
  const DimVector shape = var_shape(self, dim, keepdim, mask);
  ops_util::check_out_dtype(out, self.scalar_type());
  out.resize_(shape);
  var_into(self, mask, keepdim, correction_of(correction), out);
  return out;
}

}  // namespace sops::aten::native
