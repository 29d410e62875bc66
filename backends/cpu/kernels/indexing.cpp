// CPU kernels of the indexing operators (gather, index.Tensor, index_put_, index_select)
// and of cumsum. The indexing ones move elements as bytes (any dtype); an index outside its
// dimension is an error naming it and the dimension.
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "aten/ops/cumsum_native.h"
#include "aten/ops/gather_native.h"
#include "aten/ops/index_native.h"
#include "aten/ops/index_put_native.h"
#include "aten/ops/index_select_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/strided_walk.h"
#include "ops/util/index_utils.h"
#include "runtime/cpu_capability.h"
#include "runtime/element_cast.h"
#include "runtime/memory_overlap.h"

namespace sops::aten::native {
namespace {

using cpu_util::copy_element;
using cpu_util::walk;

// An index value made non-negative, or PyTorch's error for one outside [-size, size).
inline int64_t checked_index(int64_t i, int64_t size, int64_t dim) {
  SOPS_CHECK_ARG(i >= -size && i < size, "index", "index ", i, " is out of bounds for dimension ",
                 dim, " with size ", size);
  return i < 0 ? i + size : i;
}

// The strides of `t` with dimension `dim` given stride 0 (its position comes from an index).
DimVector strides_without(const Tensor& t, int64_t dim, std::size_t ndim) {
  DimVector s(ndim, 0);
  for (std::size_t k = 0; k < ndim && k < t.strides().size(); ++k) {
    s[k] = static_cast<int64_t>(k) == dim ? 0 : t.stride(static_cast<int64_t>(k));
  }
  return s;
}

}  // namespace

namespace {

// Calls f(std::integral_constant<int, size>) for an element size of 1, 2, 4 or 8 bytes
// (a copy of that type), or f(integral_constant<int, 0>) for any other.
template <typename F>
void with_element_size(int64_t size, F f) {
  switch (size) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    default:
      return f(std::integral_constant<int, 0>{});
  }
}

template <int kSize>
SOPS_ALWAYS_INLINE void copy_sized(char* dst, const char* src, int64_t size) {
  if constexpr (kSize == 0) {
    std::memcpy(dst, src, static_cast<std::size_t>(size));
  } else {
    std::memcpy(dst, src, kSize);
  }
}

// PyTorch's error for the first index of a gather row outside [0, size).
template <typename IndexT>
[[noreturn, gnu::cold, gnu::noinline]] void throw_bad_gather_index(const IndexT* idx,
                                                                   int64_t i_inner, int64_t len,
                                                                   int64_t size, int64_t dim) {
  for (int64_t k = 0; k < len; ++k) {
    const int64_t at = idx[k * i_inner];
    SOPS_CHECK_ARG(at >= 0 && at < size, "index", "index ", at, " is out of bounds for dimension ",
                   dim, " with size ", size);
  }
  SOPS_INTERNAL_ASSERT(false, "gather: no index of the row is out of bounds");
}

// The largest row of self gather_row prefetches whole (bytes; half an L1 data cache).
constexpr int64_t kPrefetchBytes = 16 * 1024;

// Whether any of four indices lies outside [0, size): one branch for four, never taken for
// valid indices (PyTorch's gather refuses negative ones). The compares stay out of the
// loads' addresses: a select clamping each index there was 1.4x slower.
SOPS_ALWAYS_INLINE bool any_bad4(int64_t a, int64_t b, int64_t c, int64_t d, int64_t size) {
  const auto u = static_cast<uint64_t>(size);
  return __builtin_expect(
             static_cast<int>((static_cast<uint64_t>(a) >= u) | (static_cast<uint64_t>(b) >= u) |
                              (static_cast<uint64_t>(c) >= u) | (static_cast<uint64_t>(d) >= u)),
             0) != 0;
}

// One row of gather: out[k] = self[k * s_inner + index[k] * step] for k < len, strides in
// bytes, every argument a value (the loops keep them in registers; the byte stores alias
// anything). A row whose elements all lie in one row of self (index and out unit strided,
// self's other dimensions zero strided: gather along the last dimension) copies typed
// elements, four indices at a time, and asks for the memory its random reads need ahead of
// them: this row of self whole when it fits in the L1 cache (a no-op when the previous call
// already asked), and, spread over the loop, the row at `next` (where the caller's next row
// of self probably lies; a prefetch never faults, so a wrong guess costs only the request).
// On [1024,1024] f32 with [1024,256] indices, a standalone copy of this loop took 269 us
// (median of 100) where the loop before (a branch per index, this row's prefetch only) took
// 320-330 us.
template <int kSize, typename IndexT>
void gather_row(char* dst, int64_t o_inner, const char* src, int64_t s_inner, int64_t step,
                const IndexT* idx, int64_t i_inner, int64_t len, int64_t size, int64_t dim,
                int64_t elem, const char* next) {
  if constexpr (kSize == 4 || kSize == 8) {
    using T = std::conditional_t<kSize == 4, uint32_t, uint64_t>;
    if (i_inner == 1 && o_inner == kSize && s_inner == 0 && step % kSize == 0) {
      T* out = reinterpret_cast<T*>(dst);
      const T* in = reinterpret_cast<const T*>(src);
      const int64_t step_elems = step / kSize;
      const int64_t span = size * step;
      const bool fits = step > 0 && span <= kPrefetchBytes;
      if (fits) {
        for (int64_t b = 0; b < span; b += 64) __builtin_prefetch(src + b);
      }
      const int64_t next_span = fits && next != nullptr ? span : 0;
      int64_t k = 0;
      for (int64_t line = 0; k + 4 <= len; k += 4, line += 64) {
        if (line < next_span) __builtin_prefetch(next + line);
        const int64_t a = idx[k], b = idx[k + 1], c = idx[k + 2], d = idx[k + 3];
        if (any_bad4(a, b, c, d, size)) throw_bad_gather_index(idx, i_inner, len, size, dim);
        std::memcpy(out + k, in + a * step_elems, kSize);
        std::memcpy(out + k + 1, in + b * step_elems, kSize);
        std::memcpy(out + k + 2, in + c * step_elems, kSize);
        std::memcpy(out + k + 3, in + d * step_elems, kSize);
      }
      for (; k < len; ++k) {
        const int64_t i = idx[k];
        if (any_bad4(i, 0, 0, 0, size)) throw_bad_gather_index(idx, i_inner, len, size, dim);
        std::memcpy(out + k, in + i * step_elems, kSize);
      }
      return;
    }
  }
  for (int64_t k = 0; k < len; ++k) {
    const int64_t i = idx[k * i_inner];
    if (any_bad4(i, 0, 0, 0, size)) throw_bad_gather_index(idx, i_inner, len, size, dim);
    copy_sized<kSize>(dst + k * o_inner, src + k * s_inner + i * step, elem);
  }
}

}  // namespace

// out[p] = self[p with dimension dim replaced by index[p]], over index's positions: the
// rows of index (all dimensions but the last) walked, each row's elements in a tight loop.
SOPS_IMPL_FUNC(gather_out)
(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/, const Tensor& out) {
  check_no_internal_overlap(out, "out");
  if (index.numel() == 0) return;
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  const int64_t step = self.dim() == 0 ? 0 : self.stride(d);
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const auto* src = static_cast<const char*>(self.data_ptr());
  auto* dst = static_cast<char*>(out.data_ptr());
  const std::size_t n = index.sizes().size();
  const DimVector self_strides = strides_without(self, d, n);
  // The last dimension is the inner loop (a 0-dim index: one element).
  const int64_t len = n == 0 ? 1 : index.size(static_cast<int64_t>(n) - 1);
  const int64_t i_inner = n == 0 ? 0 : index.stride(static_cast<int64_t>(n) - 1);
  const int64_t s_inner = n == 0 ? 0 : self_strides[n - 1];
  const int64_t o_inner = n == 0 ? 0 : out.stride(static_cast<int64_t>(n) - 1);
  const IntArrayRef rows = n == 0 ? IntArrayRef() : index.sizes().slice(0, n - 1);
  const IntArrayRef i_rows = n == 0 ? IntArrayRef() : index.strides().slice(0, n - 1);
  const IntArrayRef s_rows = n == 0 ? IntArrayRef() : IntArrayRef(self_strides).slice(0, n - 1);
  const IntArrayRef o_rows = n == 0 ? IntArrayRef() : out.strides().slice(0, n - 1);
  // The next row of self is one stride of the innermost row dimension on, except where
  // that dimension wraps around (then the guess only wastes its prefetches).
  const int64_t s_next = s_rows.empty() ? 0 : s_rows.back() * elem;
  const auto walk_rows = [&](auto kind, const auto* idx) {
    constexpr int kSize = decltype(kind)::value;
    cpu_util::parallel_walk<3>(
        rows, {i_rows, s_rows, o_rows}, len, [&](const std::array<int64_t, 3>& off) {
          const char* row = src + off[1] * elem;
          gather_row<kSize>(
              dst + off[2] * elem, o_inner * elem, row, s_inner * elem, step * elem, idx + off[0],
              i_inner, len, size, d, elem,
              s_next != 0 ? reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(row) + s_next)
                          : nullptr);
        });
  };
  with_element_size(elem, [&](auto kind) {
    if (index.scalar_type() == ScalarType::Long) {
      walk_rows(kind, index.data_ptr<int64_t>());
    } else {
      walk_rows(kind, index.data_ptr<int32_t>());
    }
  });
}

namespace {

// The element offset in self that each position of index_shape selects (the sum over
// the indexed dimensions of index value * stride).
std::vector<int64_t> picked_offsets(const ops_util::IndexPlan& plan, const Tensor& self) {
  int64_t nb = 1;
  for (const int64_t s : plan.index_shape) nb *= s;
  std::vector<int64_t> picked(static_cast<std::size_t>(nb), 0);
  for (int64_t d = 0; d < self.dim(); ++d) {
    const Tensor& index = plan.indices[static_cast<std::size_t>(d)];
    if (!index.defined()) continue;
    const auto* base = static_cast<const char*>(index.data_ptr());
    const int64_t ielem = static_cast<int64_t>(index.element_size());
    const ScalarType itype = index.scalar_type();
    int64_t b = 0;
    walk<1>(plan.index_shape, {index.strides()}, [&](const std::array<int64_t, 1>& off) {
      const int64_t i = load_as<int64_t>(base + off[0] * ielem, itype);
      picked[static_cast<std::size_t>(b++)] += checked_index(i, self.size(d), d) * self.stride(d);
    });
  }
  return picked;
}

// The indexing result's dimensions (before, the index dims, after) with their strides in
// self and in a tensor of the result's shape (`result_strides`).
struct IndexedDims {
  DimVector before_sizes, before_self, before_result;
  DimVector index_result;
  DimVector after_sizes, after_self, after_result;
};

IndexedDims indexed_dims(const ops_util::IndexPlan& plan, const Tensor& self,
                         IntArrayRef result_strides) {
  IndexedDims dims;
  int64_t od = 0;
  for (int64_t d = 0; d < plan.before; ++d, ++od) {
    dims.before_sizes.push_back(self.size(d));
    dims.before_self.push_back(self.stride(d));
    dims.before_result.push_back(result_strides[od]);
  }
  for (std::size_t k = 0; k < plan.index_shape.size(); ++k, ++od) {
    dims.index_result.push_back(result_strides[od]);
  }
  for (int64_t d = plan.before; d < self.dim(); ++d) {
    if (plan.indices[static_cast<std::size_t>(d)].defined()) continue;
    dims.after_sizes.push_back(self.size(d));
    dims.after_self.push_back(self.stride(d));
    dims.after_result.push_back(result_strides[od++]);
  }
  return dims;
}

// f(self offset, result offset) for every element of the indexing result; f_block(self
// offset, result offset) instead for each whole `after` block when given.
template <typename F>
void for_each_indexed(const ops_util::IndexPlan& plan, const IndexedDims& dims,
                      const std::vector<int64_t>& picked, F f) {
  walk<2>(dims.before_sizes, {IntArrayRef(dims.before_self), IntArrayRef(dims.before_result)},
          [&](const std::array<int64_t, 2>& outer) {
            int64_t b = 0;
            walk<1>(plan.index_shape, {IntArrayRef(dims.index_result)},
                    [&](const std::array<int64_t, 1>& mid) {
                      const int64_t s0 = outer[0] + picked[static_cast<std::size_t>(b++)];
                      const int64_t r0 = outer[1] + mid[0];
                      walk<2>(dims.after_sizes,
                              {IntArrayRef(dims.after_self), IntArrayRef(dims.after_result)},
                              [&](const std::array<int64_t, 2>& in) { f(s0 + in[0], r0 + in[1]); });
                    });
          });
}

}  // namespace

// Advanced indexing: the result is (before, index_shape, after) (ops/util/index_utils.h);
// each position of index_shape picks an element offset in self from the index values.
SOPS_IMPL_FUNC(index_out)(const Tensor& self, IOptTensorListRef indices, const Tensor& out) {
  const ops_util::IndexPlan plan = ops_util::make_index_plan(self, indices);
  if (out.numel() == 0) return;
  const std::vector<int64_t> picked = picked_offsets(plan, self);
  const IndexedDims dims = indexed_dims(plan, self, out.strides());
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const auto* src = static_cast<const char*>(self.data_ptr());
  auto* dst = static_cast<char*>(out.data_ptr());
  // An `after` block contiguous in both self and out is copied as one run of bytes.
  int64_t block = 1;
  bool dense = true;
  for (std::size_t k = dims.after_sizes.size(); k > 0; --k) {
    dense = dense && dims.after_self[k - 1] == block && dims.after_result[k - 1] == block;
    block *= dims.after_sizes[k - 1];
  }
  if (dense) {
    IndexedDims outer = dims;
    outer.after_sizes.clear();
    outer.after_self.clear();
    outer.after_result.clear();
    for_each_indexed(plan, outer, picked, [&](int64_t s, int64_t r) {
      std::memcpy(dst + r * elem, src + s * elem, static_cast<std::size_t>(block * elem));
    });
    return;
  }
  for_each_indexed(plan, dims, picked, [&](int64_t s, int64_t r) {
    copy_element(dst + r * elem, src + s * elem, elem);
  });
}

// self[indices] = values (broadcast to the indexing result's shape), or += with
// accumulate; registered for CPU and Meta. Repeated indices without accumulate: the
// last write wins.
Tensor& index_put_(Tensor& self, IOptTensorListRef indices, const Tensor& values, bool accumulate) {
  SOPS_CHECK_ARG(values.scalar_type() == self.scalar_type(), "values",
                 "Index put requires the source and destination dtypes match, got ",
                 ops_util::aten_name(self.scalar_type()), " for the destination and ",
                 ops_util::aten_name(values.scalar_type()), " for the source.");
  const ops_util::IndexPlan plan = ops_util::make_index_plan(self, indices);
  SOPS_CHECK_ARG(is_expandable_to(values.sizes(), plan.result_shape), "values",
                 "shape mismatch: value tensor of shape ", values.sizes(),
                 " cannot be broadcast to indexing result of shape ", plan.result_shape);
  if (self.is_meta()) return self;
  const Tensor v = expand(values, plan.result_shape);
  const std::vector<int64_t> picked = picked_offsets(plan, self);
  const IndexedDims dims = indexed_dims(plan, self, v.strides());
  SOPS_DISPATCH_EVERY_TYPE(self.scalar_type(), "index_put_", [&] {
    scalar_t* dst = self.data_ptr<scalar_t>();
    const scalar_t* src = v.data_ptr<scalar_t>();
    for_each_indexed(plan, dims, picked, [&](int64_t s, int64_t r) {
      if constexpr (std::is_same_v<scalar_t, bool>) {
        dst[s] = accumulate ? (dst[s] || src[r]) : src[r];
      } else if constexpr (std::is_integral_v<scalar_t>) {
        dst[s] = accumulate ? cpu_util::wrapping_add(dst[s], src[r]) : src[r];
      } else if constexpr (std::is_floating_point_v<scalar_t>) {
        dst[s] = accumulate ? dst[s] + src[r] : src[r];
      } else {
        dst[s] =
            accumulate ? scalar_t(static_cast<float>(dst[s]) + static_cast<float>(src[r])) : src[r];
      }
    });
  });
  return self;
}

Tensor& index_select_out(const Tensor& self, int64_t dim, const Tensor& index, Tensor& out) {
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  SOPS_CHECK_ARG(index.dim() <= 1, "index", "index_select(): Index is supposed to be a vector");
  SOPS_CHECK_ARG(index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int,
                 "index", "index_select(): Expected dtype int32 or int64 for index");
  SOPS_CHECK_ARG(out.scalar_type() == self.scalar_type(), "out",
                 "index_select(): self and result must have the same scalar type");
  DimVector sizes(self.sizes());
  if (self.dim() > 0) sizes[d] = index.numel();
  check_no_internal_overlap(out, "out");  // before the resize, as PyTorch checks
  out.resize_(sizes);
  if (self.is_meta() || out.numel() == 0) return out;
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  const int64_t n = index.numel();
  const auto* ibase = static_cast<const char*>(index.data_ptr());
  const int64_t istride = index.dim() == 0 ? 0 : index.stride(0);
  const int64_t ielem = static_cast<int64_t>(index.element_size());
  std::vector<int64_t> at(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = load_as<int64_t>(ibase + i * istride * ielem, index.scalar_type());
    SOPS_CHECK_ARG(v >= 0 && v < size, "index", "index out of range in self");
    at[static_cast<std::size_t>(i)] = v;
  }
  const int64_t elem = static_cast<int64_t>(self.element_size());
  const auto* src = static_cast<const char*>(self.data_ptr());
  auto* dst = static_cast<char*>(out.data_ptr());
  const int64_t step = self.dim() == 0 ? 0 : self.stride(d);
  const int64_t ostep = self.dim() == 0 ? 0 : out.stride(d);
  // Dimensions before dim (walked), the indices, then the block after dim: one memcpy
  // when it is contiguous in self and out (rows of an embedding table).
  const std::size_t nd = sizes.size();
  const std::size_t cut = self.dim() == 0 ? 0 : static_cast<std::size_t>(d);
  const IntArrayRef before = IntArrayRef(sizes).slice(0, cut);
  const IntArrayRef after = nd == 0 ? IntArrayRef() : IntArrayRef(sizes).slice(cut + 1);
  const IntArrayRef s_before = self.strides().slice(0, cut), o_before = out.strides().slice(0, cut);
  const IntArrayRef s_after = nd == 0 ? IntArrayRef() : self.strides().slice(cut + 1);
  const IntArrayRef o_after = nd == 0 ? IntArrayRef() : out.strides().slice(cut + 1);
  int64_t block = 1;
  bool dense = true;
  for (std::size_t k = after.size(); k > 0; --k) {
    dense = dense && s_after[k - 1] == block && o_after[k - 1] == block;
    block *= after[k - 1];
  }
  // Split between the threads over the indices (the rows an embedding lookup copies).
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(block, 1));
  walk<2>(before, {s_before, o_before}, [&](const std::array<int64_t, 2>& off) {
    parallel_for(0, n, grain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t s0 = off[0] + at[static_cast<std::size_t>(i)] * step;
        const int64_t o0 = off[1] + i * ostep;
        if (dense) {
          std::memcpy(dst + o0 * elem, src + s0 * elem, static_cast<std::size_t>(block * elem));
          continue;
        }
        walk<2>(after, {s_after, o_after}, [&](const std::array<int64_t, 2>& in) {
          copy_element(dst + (o0 + in[1]) * elem, src + (s0 + in[0]) * elem, elem);
        });
      }
    });
  });
  return out;
}

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  Tensor out = empty({0}, self.options());
  return index_select_out(self, dim, index, out);
}

// Running sums along dim, accumulated as PyTorch does (double for floating dtypes,
// int64 for integral ones) and stored in out's dtype; self is read as that dtype.
namespace {

// y[i] = x[0] + ... + x[i] over a contiguous float row, summed in double as PyTorch's CPU
// cumsum does, four elements at a time: each block's own prefix sums (two shifted adds
// in a vector) do not wait for the running total, and the total moves on by one add per
// block, where a scalar loop waits an add's latency per element (4x fewer dependent adds;
// [1024,1024] in a standalone copy: 1.74 ms to 0.73 ms, medians of 30). The order of the double
// additions differs from PyTorch's one-by-one loop, which can change a float result by one unit in
// the last place where a double sum lies within a few double ulps of a float rounding boundary.
SOPS_ALWAYS_INLINE void cumsum_float_row_body(const float* x, float* y, int64_t len) {
  using F4 = float __attribute__((vector_size(16)));
  using D4 = Vec32<double>::type;
  const D4 zero = {0, 0, 0, 0};
  D4 total = zero;  // the row's running sum, in every lane
  int64_t i = 0;
  for (; i + 4 <= len; i += 4) {
    F4 xf;
    std::memcpy(&xf, x + i, sizeof xf);
    D4 p = __builtin_convertvector(xf, D4);
    p += __builtin_shufflevector(zero, p, 0, 4, 5, 6);  // x0, x0+x1, x1+x2, x2+x3
    p += __builtin_shufflevector(zero, p, 0, 1, 4, 5);  // the block's prefix sums
    const F4 yf = __builtin_convertvector(total + p, F4);
    std::memcpy(y + i, &yf, sizeof yf);
    total += __builtin_shufflevector(p, p, 3, 3, 3, 3);
  }
  double sum = total[0];
  for (; i < len; ++i) {
    sum += static_cast<double>(x[i]);
    y[i] = static_cast<float>(sum);
  }
}
SOPS_CPU_CLONES(cumsum_float_row, cumsum_float_row_body)

}  // namespace

SOPS_IMPL_FUNC(cumsum_out)
(const Tensor& self, int64_t dim, std::optional<ScalarType> /*dtype*/, const Tensor& out) {
  if (out.numel() == 0) return;
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  Tensor src = self;
  if (self.scalar_type() != out.scalar_type()) {
    src = empty(self.sizes(), self.options().dtype(out.scalar_type()));
    cpu_util::copy_cast(src, self);
  }
  const int64_t len = self.dim() == 0 ? 1 : self.size(d);
  const int64_t s_step = self.dim() == 0 ? 0 : src.stride(d);
  const int64_t o_step = self.dim() == 0 ? 0 : out.stride(d);
  DimVector outer(self.sizes());
  if (!outer.empty()) outer[d] = 1;
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(out.scalar_type(), "cumsum_out_cpu", [&] {
    using acc_t =
        std::conditional_t<std::is_floating_point_v<scalar_t>, double,
                           std::conditional_t<std::is_same_v<scalar_t, bool>, bool, int64_t>>;
    const scalar_t* x = src.data_ptr<scalar_t>();
    scalar_t* y = out.data_ptr<scalar_t>();
    cpu_util::parallel_walk<2>(
        outer, {src.strides(), out.strides()}, len, [&](const std::array<int64_t, 2>& off) {
          if constexpr (std::is_same_v<scalar_t, float>) {
            if (s_step == 1 && o_step == 1) {
              cumsum_float_row(x + off[0], y + off[1], len);
              return;
            }
          }
          acc_t sum = acc_t(0);
          for (int64_t i = 0; i < len; ++i) {
            if constexpr (std::is_same_v<acc_t, bool>) {
              sum = sum || x[off[0] + i * s_step];
            } else if constexpr (std::is_integral_v<acc_t>) {
              sum = cpu_util::wrapping_add(sum, static_cast<acc_t>(x[off[0] + i * s_step]));
            } else {
              sum += static_cast<acc_t>(x[off[0] + i * s_step]);
            }
            y[off[1] + i * o_step] = static_cast<scalar_t>(sum);
          }
        });
  });
}

}  // namespace sops::aten::native
