// The sampling kernels (registered for CPU and Meta): uniform_, normal_ and randperm_out.
// They draw from a Generator (runtime/generator.h), which gives PyTorch's MT19937 stream,
// and turn the draws into numbers as PyTorch's CPU kernels do, element by element in the
// same order, so a seed gives PyTorch's tensor:
//   - uniform: 24 random bits (float) or 53 (double) scaled into [from, to);
//   - normal, a contiguous tensor of 16 or more elements: uniform draws for every element,
//     then the Box-Muller transform in blocks of 16 (pairs j, j + 8), the last block
//     redrawn over the tail when the size is not a multiple of 16;
//   - normal otherwise: one double Box-Muller pair per two elements, the second value kept
//     in the generator for the next draw;
//   - randperm: a Fisher-Yates shuffle of 0..n-1 with 32-bit draws (64-bit ones, inside-out,
//     from n >= 2^32 / 20 on).
// Elements are visited in memory order (a transposed tensor is filled as it lies), as
// PyTorch's TensorIterator orders them. A meta tensor gets the checks and no draws.
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

#include "aten/ops/normal_native.h"
#include "aten/ops/randperm_native.h"
#include "aten/ops/uniform_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/strided_walk.h"
#include "runtime/generator.h"
#include "runtime/memory_overlap.h"
#include "runtime/small_sort.h"

namespace sops::aten::native {
namespace {

// self's sizes and strides with its dimensions ordered as they lie in memory (largest
// stride first), size-1 dimensions dropped: walking them visits self in memory order.
struct MemoryOrder {
  DimVector sizes;
  DimVector strides;
};

MemoryOrder memory_order(const Tensor& self) {
  DimVector dims;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) != 1) dims.push_back(d);
  }
  insertion_sort(dims.begin(), dims.end(),
                 [&](int64_t a, int64_t b) { return self.stride(a) > self.stride(b); });
  MemoryOrder order;
  for (const int64_t d : dims) {
    order.sizes.push_back(self.size(d));
    order.strides.push_back(self.stride(d));
  }
  return order;
}

// Calls f(element) for every element of self in memory order.
template <typename scalar_t, typename F>
void for_each_in_memory_order(const Tensor& self, F&& f) {
  scalar_t* data = self.data_ptr<scalar_t>();
  const MemoryOrder order = memory_order(self);
  cpu_util::walk<1>(order.sizes, {IntArrayRef(order.strides)},
                    [&](const std::array<int64_t, 1>& off) { f(data[off[0]]); });
}

// A uniform number in [0, 1) as PyTorch's uniform_real_distribution<T> makes it: the low
// `digits` bits of one draw (32-bit for float, 64-bit for double) times 2^-digits.
template <typename T>
T uniform01(const Generator& gen) {
  if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(gen.random64() & ((uint64_t{1} << 53) - 1)) * 0x1.0p-53;
  } else {
    return static_cast<float>(gen.random() & ((uint32_t{1} << 24) - 1)) * 0x1.0p-24f;
  }
}

// Box-Muller over 16 uniform numbers in place: pairs (j, j + 8) become two normal ones.
template <typename T>
void box_muller_16(T* data, T mean, T std) {
  for (int j = 0; j < 8; ++j) {
    const T u1 = 1 - data[j];  // [0, 1) -> (0, 1], for the log
    const T u2 = data[j + 8];
    const T radius = std::sqrt(-2 * std::log(u1));
    const T theta = static_cast<T>(2.0 * M_PI * u2);
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// A contiguous tensor of 16 or more elements.
template <typename T>
void normal_fill(T* data, int64_t n, T mean, T std, const Generator& gen) {
  for (int64_t i = 0; i < n; ++i) data[i] = uniform01<T>(gen);
  for (int64_t i = 0; i + 16 <= n; i += 16) box_muller_16(data + i, mean, std);
  if (n % 16 != 0) {  // the tail: its last 16 elements drawn again
    T* tail = data + n - 16;
    for (int j = 0; j < 16; ++j) tail[j] = uniform01<T>(gen);
    box_muller_16(tail, mean, std);
  }
}

// One standard normal double, as PyTorch's normal_distribution<double> draws it: the
// cached second value of the last pair, or a new pair (whose second value is cached).
double standard_normal(const Generator& gen) {
  if (const std::optional<double> cached = gen.next_double_normal_sample()) {
    gen.set_next_double_normal_sample(std::nullopt);
    return *cached;
  }
  const double u1 = uniform01<double>(gen);
  const double u2 = uniform01<double>(gen);
  const double r = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = 2.0 * M_PI * u1;
  gen.set_next_double_normal_sample(r * std::sin(theta));
  return r * std::cos(theta);
}

// The C type PyTorch's conversion check names.
template <typename T>
const char* c_type_name() {
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  if constexpr (std::is_same_v<T, int32_t>) return "int";
  return "int64_t";
}

}  // namespace

Tensor& uniform_(Tensor& self, double from, double to, std::optional<Generator> generator) {
  const Generator gen = get_generator_or_default(generator);
  cpu_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes,
                                    "check_uniform_bounds", "self");
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "check_uniform_bounds", [&] {
    const double lowest = static_cast<double>(std::numeric_limits<scalar_t>::lowest());
    const double max = static_cast<double>(std::numeric_limits<scalar_t>::max());
    SOPS_CHECK_ARG(from >= lowest && from <= max, "from", "from is out of bounds for ",
                   self.scalar_type());
    SOPS_CHECK_ARG(to >= lowest && to <= max, "to", "to is out of bounds for ", self.scalar_type());
    SOPS_CHECK_ARG(from <= to, "from",
                   "uniform_ expects to return a [from, to) range, but found from=", from,
                   " > to=", to);
    SOPS_CHECK_ARG(to - from <= max, "to", "uniform_ expects to-from <= std::numeric_limits<",
                   self.scalar_type(), ">::max(), but found to=", to, " and from=", from,
                   " which result in to-from to exceed the limit");
  });
  if (self.numel() == 0) return self;
  check_no_internal_overlap(self, "self");
  if (self.is_meta()) return self;
  const std::lock_guard<std::mutex> lock(gen.mutex());
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "uniform_kernel_cpu", [&] {
    const auto lo = static_cast<scalar_t>(from);
    const auto hi = static_cast<scalar_t>(to);
    for_each_in_memory_order<scalar_t>(self, [&](scalar_t& x) {
      // One rounding, as PyTorch's kernel (compiled with FMA) computes u * (to - from) + from.
      const scalar_t value = std::fma(uniform01<scalar_t>(gen), hi - lo, lo);
      x = value == hi ? lo : value;  // a value rounded up to `to` wraps to `from`
    });
  });
  return self;
}

Tensor& normal_(Tensor& self, double mean, double std, std::optional<Generator> generator) {
  const Generator gen = get_generator_or_default(generator);
  SOPS_CHECK_ARG(std >= 0.0, "std", "normal expects std >= 0.0, but found std ", std);
  cpu_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes, "normal_kernel_cpu",
                                    "self");
  if (self.numel() == 0) return self;
  check_no_internal_overlap(self, "self");
  if (self.is_meta()) return self;
  const std::lock_guard<std::mutex> lock(gen.mutex());
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "normal_kernel_cpu", [&] {
    if (self.numel() >= 16 && self.is_contiguous()) {
      normal_fill<scalar_t>(self.data_ptr<scalar_t>(), self.numel(), static_cast<scalar_t>(mean),
                            static_cast<scalar_t>(std), gen);
      return;
    }
    for_each_in_memory_order<scalar_t>(self, [&](scalar_t& x) {
      x = static_cast<scalar_t>(std::fma(standard_normal(gen), std, mean));
    });
  });
  return self;
}

Tensor& randperm_out(int64_t n, std::optional<Generator> generator, Tensor& out) {
  SOPS_CHECK_ARG(n >= 0, "n", "n must be non-negative, got", n);
  const Generator gen = get_generator_or_default(generator);
  // The largest value, n - 1, must fit out's dtype (exactly, for a floating one).
  if (n > 0) {
    SOPS_DISPATCH_ALL_TYPES_AND_BOOL(out.scalar_type(), "randperm", [&] {
      if constexpr (std::is_integral_v<scalar_t> && !std::is_same_v<scalar_t, bool>) {
        SOPS_CHECK_ARG(static_cast<uint64_t>(n - 1) <=
                           static_cast<uint64_t>(std::numeric_limits<scalar_t>::max()),
                       "out", "value cannot be converted to type ", c_type_name<scalar_t>(),
                       " without overflow");
      }
    });
  }
  if (out.scalar_type() == ScalarType::Float) {
    SOPS_CHECK_ARG(n <= (int64_t{1} << 24) + 1, "n",
                   "n cannot be greater than 2^24+1 for Float type.");
  } else if (out.scalar_type() == ScalarType::Double) {
    SOPS_CHECK_ARG(n <= (int64_t{1} << 53) + 1, "n",
                   "n cannot be greater than 2^53+1 for Double type.");
  }
  out.resize_({n});
  cpu_util::check_dtype_implemented(out.scalar_type(), dtypes::kAllTypes, "randperm", "out");
  if (out.is_meta() || n == 0) return out;
  const std::lock_guard<std::mutex> lock(gen.mutex());
  SOPS_DISPATCH_ALL_TYPES(out.scalar_type(), "randperm", [&] {
    scalar_t* r = out.data_ptr<scalar_t>();
    const int64_t s = out.stride(0);
    if (n < int64_t{std::numeric_limits<uint32_t>::max() / 20}) {
      for (int64_t i = 0; i < n; ++i) r[i * s] = static_cast<scalar_t>(i);
      for (int64_t i = 0; i + 1 < n; ++i) {
        const int64_t z = static_cast<int64_t>(gen.random() % static_cast<uint64_t>(n - i));
        std::swap(r[i * s], r[(z + i) * s]);
      }
      return;
    }
    // Larger n: 32-bit draws modulo n would be visibly biased.
    for (int64_t i = 0; i < n; ++i) {
      const int64_t z = static_cast<int64_t>(gen.random64() % static_cast<uint64_t>(i + 1));
      r[i * s] = r[z * s];
      r[z * s] = static_cast<scalar_t>(i);
    }
  });
  return out;
}

}  // namespace sops::aten::native
