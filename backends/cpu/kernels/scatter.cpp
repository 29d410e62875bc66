// CPU kernels of scatter (src, value), scatter_add, scatter_reduce, masked_scatter_, flip
// and nonzero. scatter writes self's elements to out first (unless out is self), then each
// index position's value; an index outside its dimension is an error naming it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include "aten/ops/empty_like.h"
#include "aten/ops/flip_native.h"
#include "aten/ops/masked_scatter_native.h"
#include "aten/ops/nonzero_native.h"
#include "aten/ops/scatter_add_native.h"
#include "aten/ops/scatter_native.h"
#include "aten/ops/scatter_reduce_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/strided_walk.h"
#include "runtime/element_cast.h"
#include "runtime/memory_overlap.h"

namespace sops::aten::native {
namespace {

using cpu_util::copy_element;
using cpu_util::walk;

// out = self (unless they are one tensor), then f(out element, position's index offset k,
// index value) for every position of index.
template <typename F>
void scatter_walk(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                  const Tensor& out, F f) {
  check_no_internal_overlap(out, "out");
  if (!out.is_same(self)) cpu_util::copy_cast(out, self);
  if (index.numel() == 0) return;
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  const int64_t step = self.dim() == 0 ? 0 : out.stride(d);
  const std::size_t n = index.sizes().size();
  DimVector out_strides(n, 0), src_strides(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    out_strides[k] = static_cast<int64_t>(k) == d ? 0 : out.stride(static_cast<int64_t>(k));
    if (src.defined() && src.dim() > 0) src_strides[k] = src.stride(static_cast<int64_t>(k));
  }
  const auto* idx = static_cast<const char*>(index.data_ptr());
  const int64_t ielem = static_cast<int64_t>(index.element_size());
  const ScalarType itype = index.scalar_type();
  walk<3>(index.sizes(), {index.strides(), IntArrayRef(out_strides), IntArrayRef(src_strides)},
          [&](const std::array<int64_t, 3>& off) {
            const int64_t at = load_as<int64_t>(idx + off[0] * ielem, itype);
            SOPS_CHECK_ARG(at >= 0 && at < size, "index", "index ", at,
                           " is out of bounds for dimension ", d, " with size ", size);
            f(off[1] + at * step, off[2]);
          });
}

}  // namespace

SOPS_IMPL_FUNC(scatter_src_out)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Tensor& out) {
  const int64_t elem = static_cast<int64_t>(out.element_size());
  auto* dst = static_cast<char*>(out.data_ptr());
  const auto* from = static_cast<const char*>(src.data_ptr());
  scatter_walk(self, dim, index, src, out,
               [&](int64_t o, int64_t s) { copy_element(dst + o * elem, from + s * elem, elem); });
}

SOPS_IMPL_FUNC(scatter_value_out)
(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, const Tensor& out) {
  SOPS_DISPATCH_EVERY_TYPE(out.scalar_type(), "scatter", [&] {
    const auto v = cpu_util::scalar_to<scalar_t>(value);
    scalar_t* dst = out.data_ptr<scalar_t>();
    scatter_walk(self, dim, index, Tensor(), out, [&](int64_t o, int64_t) { dst[o] = v; });
  });
}

// out[index[p]] += src[p] along dim, in out's dtype (bool: "or").
SOPS_IMPL_FUNC(scatter_add)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Tensor& out) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(out.scalar_type(), "scatter_add", [&] {
    scalar_t* dst = out.data_ptr<scalar_t>();
    const scalar_t* from = src.data_ptr<scalar_t>();
    scatter_walk(self, dim, index, src, out, [&](int64_t o, int64_t s) {
      if constexpr (std::is_same_v<scalar_t, bool>) {
        dst[o] = dst[o] || from[s];
      } else {
        dst[o] = cpu_util::wrapping_add(dst[o], from[s]);
      }
    });
  });
}

namespace {

enum class Reduce { kSum, kProd, kMean, kAmax, kAmin };

Reduce reduce_kind(std::string_view reduce) {
  if (reduce == "sum") return Reduce::kSum;
  if (reduce == "prod") return Reduce::kProd;
  if (reduce == "mean") return Reduce::kMean;
  return reduce == "amax" ? Reduce::kAmax : Reduce::kAmin;  // the meta function checked
}

// a combined with b by the reduction (bool: sum and amax are "or", prod and amin "and";
// a NaN wins amax and amin, as in PyTorch).
template <typename T>
T combine(Reduce r, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return (r == Reduce::kProd || r == Reduce::kAmin) ? (a && b) : (a || b);
  } else {
    if constexpr (std::is_floating_point_v<T>) {
      if ((r == Reduce::kAmax || r == Reduce::kAmin) && std::isnan(b)) return b;
    }
    switch (r) {
      case Reduce::kProd:
        return cpu_util::wrapping_mul(a, b);
      case Reduce::kAmax:
        return std::max(a, b);
      case Reduce::kAmin:
        return std::min(a, b);
      default:
        return cpu_util::wrapping_add(a, b);
    }
  }
}

// What an out position starts from when self is left out (include_self=False).
template <typename T>
T identity(Reduce r) {
  if (r == Reduce::kProd) return T(1);
  if (r != Reduce::kAmax && r != Reduce::kAmin) return T(0);
  const bool max = r == Reduce::kAmax;
  if constexpr (std::numeric_limits<T>::has_infinity) {
    return max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  } else {
    return max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
}

// The number of elements (including skipped ones) that out's offsets reach: one more than
// its largest offset.
int64_t offset_extent(const Tensor& t) {
  int64_t extent = 1;
  for (int64_t d = 0; d < t.dim(); ++d) extent += (t.size(d) - 1) * t.stride(d);
  return t.numel() == 0 ? 0 : extent;
}

}  // namespace

// PyTorch's scatter_reduce.two: out = self, or the reduction's identity at every position
// an index reaches (include_self=False), then each src value combined in, in index's
// row-major order (so along dim, in order: the sums match PyTorch's serial kernel). mean
// divides by the number of values combined (self counting as one), rounding integers
// down, as PyTorch's floor division.
SOPS_IMPL_FUNC(scatter_reduce_two)
(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
 bool include_self, const Tensor& out) {
  const Reduce r = reduce_kind(reduce);
  if (r == Reduce::kMean) {
    cpu_util::check_dtype_implemented(out.scalar_type(), dtypes::kAllTypes,
                                      "scatter_gather_tensor_cpu_reduce_mean", "self");
  }
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(out.scalar_type(), "scatter_reduce", [&] {
    scalar_t* dst = out.data_ptr<scalar_t>();
    const scalar_t* from = src.data_ptr<scalar_t>();
    if (!include_self) {
      const scalar_t start = identity<scalar_t>(r);
      scatter_walk(self, dim, index, src, out, [&](int64_t o, int64_t) { dst[o] = start; });
    }
    std::vector<int64_t> counts(
        static_cast<std::size_t>(r == Reduce::kMean ? offset_extent(out) : 0), 0);
    scatter_walk(include_self ? self : out, dim, index, src, out, [&](int64_t o, int64_t s) {
      dst[o] = combine(r, dst[o], from[s]);
      if (r == Reduce::kMean) ++counts[static_cast<std::size_t>(o)];
    });
    if constexpr (!std::is_same_v<scalar_t, bool>) {
      if (r != Reduce::kMean || index.numel() == 0) return;
      walk<1>(out.sizes(), {out.strides()}, [&](const std::array<int64_t, 1>& off) {
        const int64_t hits = counts[static_cast<std::size_t>(off[0])];
        if (hits == 0) return;
        // The count in out's dtype, as PyTorch's (an int8 count of 200 wraps).
        scalar_t n = static_cast<scalar_t>(hits + (include_self ? 1 : 0));
        if (n == scalar_t(0)) n = scalar_t(1);
        if constexpr (std::is_floating_point_v<scalar_t>) {
          dst[off[0]] = dst[off[0]] / n;
        } else {
          dst[off[0]] = cpu_util::div_floor_integer(dst[off[0]], n);
        }
      });
    }
  });
}

// PyTorch's masked_scatter_: mask (bool) broadcast to self; self's elements where it is
// true, in row-major order, take source's elements in its row-major order. Registered for
// CPU and Meta; on meta tensors only the checks happen (there are no values to count).
Tensor& masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source) {
  check_no_internal_overlap(self, "self");
  SOPS_CHECK_ARG(self.scalar_type() == source.scalar_type(), "source",
                 "masked_scatter: expected self and source to have same dtypes but got",
                 ops_util::aten_name(self.scalar_type()), " and ",
                 ops_util::aten_name(source.scalar_type()));
  const Tensor wide_mask = mask.expand(self.sizes());
  SOPS_CHECK_ARG(mask.scalar_type() == ScalarType::Bool, "mask",
                 "masked_scatter_ only supports boolean masks, but got mask with dtype ",
                 ops_util::aten_name(mask.scalar_type()));
  if (self.is_meta()) return self;
  const bool* m = wide_mask.data_ptr<bool>();
  int64_t ones = 0;
  walk<1>(self.sizes(), {wide_mask.strides()},
          [&](const std::array<int64_t, 1>& off) { ones += m[off[0]] ? 1 : 0; });
  SOPS_CHECK_ARG(source.numel() >= ones, "source",
                 "Number of elements of source < number of ones in mask");
  if (ones == 0) return self;
  const Tensor flat = cpu_util::contiguous_of(source);
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const auto* from = static_cast<const char*>(flat.data_ptr());
  auto* dst = static_cast<char*>(self.data_ptr());
  int64_t next = 0;
  walk<2>(self.sizes(), {self.strides(), wide_mask.strides()},
          [&](const std::array<int64_t, 2>& off) {
            if (!m[off[1]]) return;
            copy_element(dst + off[0] * elem, from + next * elem, elem);
            ++next;
          });
  return self;
}

// self reversed along each of `dims` (registered for CPU and Meta).
Tensor flip(const Tensor& self, IntArrayRef dims) {
  const uint64_t mask = dims.empty() ? 0 : ops_util::reduction_mask(dims, self.dim());
  Tensor out = sops::aten::empty_like(self);
  if (self.is_meta() || self.numel() == 0) return out;
  // Read self from the far end of each flipped dimension, with a negated stride.
  DimVector strides(self.strides());
  int64_t offset = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!((mask >> d) & 1u)) continue;
    offset += (self.size(d) - 1) * strides[d];
    strides[d] = -strides[d];
  }
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const auto* src = static_cast<const char*>(self.data_ptr()) + offset * elem;
  auto* dst = static_cast<char*>(out.data_ptr());
  walk<2>(self.sizes(), {IntArrayRef(strides), out.strides()},
          [&](const std::array<int64_t, 2>& off) {
            copy_element(dst + off[1] * elem, src + off[0] * elem, elem);
          });
  return out;
}

// The indices of the non-zero elements, one row per element in row-major order: an
// [n, self.dim()] int64 tensor. Its shape depends on the values, so meta tensors are
// refused (as by PyTorch's meta kernel).
Tensor& nonzero_out(const Tensor& self, Tensor& out) {
  SOPS_CHECK_ARG(out.scalar_type() == ScalarType::Long, "out",
                 "nonzero: Expected out tensor to have scalar type Long but got scalar type",
                 ops_util::aten_name(out.scalar_type()));
  SOPS_CHECK_ARG(!self.is_meta(), "self",
                 "nonzero: the result has a data-dependent shape, which meta tensors cannot "
                 "compute (they hold no values)");
  const int64_t nd = self.dim();
  std::vector<int64_t> found;  // the positions of the non-zero elements, nd values each
  int64_t n = 0;
  const auto* base = static_cast<const char*>(self.data_ptr());
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const ScalarType t = self.scalar_type();
  DimVector pos(static_cast<std::size_t>(nd), 0);
  walk<1>(self.sizes(), {self.strides()}, [&](const std::array<int64_t, 1>& off) {
    if (load_as<double>(base + off[0] * elem, t) != 0) {
      found.insert(found.end(), pos.begin(), pos.end());
      ++n;
    }
    for (int64_t j = nd - 1; j >= 0; --j) {
      if (++pos[j] < self.size(j)) break;
      pos[j] = 0;
    }
  });
  // Laid out as PyTorch's: column-major, strides [1, n].
  out.resize_({nd, n});
  out.as_strided_({n, nd}, {1, std::max<int64_t>(n, 1)}, out.storage_offset());
  int64_t* o = out.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < nd; ++j) o[i * out.stride(0) + j * out.stride(1)] = found[i * nd + j];
  }
  return out;
}

Tensor nonzero(const Tensor& self) {
  Tensor out = empty({0}, self.options().dtype(ScalarType::Long));
  return nonzero_out(self, out);
}

}  // namespace sops::aten::native
