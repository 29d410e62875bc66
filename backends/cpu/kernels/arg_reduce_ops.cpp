// CPU kernels of the reductions that keep an index: argmax, argmin, max.dim and min.dim.
// Along one dimension (or the flattened tensor, for argmax/argmin without dim) each
// output position gets the first index of the extreme value; NaN is more extreme than
// every number (the first NaN wins), as in PyTorch.
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include "aten/ops/argmax_native.h"
#include "aten/ops/argmin_native.h"
#include "aten/ops/max_native.h"
#include "aten/ops/min_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

// For each position of self's other dimensions, the index along `dim` of the first
// maximum (kMax) or minimum into `indices`, and its value into `values` if defined.
template <bool kMax>
void arg_reduce(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& values,
                const Tensor& indices, const char* name) {
  Tensor in = self;
  if (!dim.has_value() && !self.is_contiguous()) {
    in = sops::empty(self.sizes(), self.options());
    cpu_util::copy_cast(in, self);
  }
  int64_t len = in.numel();
  int64_t step = 1;
  DimVector kept_sizes, kept_in, kept_out, kept_values;
  if (dim.has_value() && in.dim() > 0) {
    const int64_t d = ops_util::wrap_dim(*dim, in.dim());
    len = in.size(d);
    step = in.stride(d);
    int64_t out_d = 0;
    for (int64_t k = 0; k < in.dim(); ++k) {
      if (k == d) {
        if (keepdim) ++out_d;
        continue;
      }
      kept_sizes.push_back(in.size(k));
      kept_in.push_back(in.stride(k));
      kept_values.push_back(values.defined() ? values.stride(out_d) : 0);
      kept_out.push_back(indices.stride(out_d++));
    }
  }
  if (len == 0) return;  // every output is empty (the meta function refused the rest)
  int64_t outer = 1;
  for (const int64_t s : kept_sizes) outer *= s;
  int64_t* result = indices.data_ptr<int64_t>();
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(in.scalar_type(), name, [&] {
    const scalar_t* base = in.const_data_ptr<scalar_t>();
    scalar_t* value_out = values.defined() ? values.data_ptr<scalar_t>() : nullptr;
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(len, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        int64_t in_off = 0, out_off = 0, value_off = 0, rest = o;
        for (std::size_t k = kept_sizes.size(); k-- > 0;) {
          const int64_t i = rest % kept_sizes[k];
          rest /= kept_sizes[k];
          in_off += i * kept_in[k];
          out_off += i * kept_out[k];
          value_off += i * kept_values[k];
        }
        const scalar_t* p = base + in_off;
        int64_t best = 0;
        scalar_t best_value = p[0];
        for (int64_t i = 1; i < len; ++i) {
          if constexpr (std::is_floating_point_v<scalar_t>) {
            if (std::isnan(best_value)) break;  // the first NaN is the extreme
          }
          const scalar_t v = p[i * step];
          bool better = kMax ? v > best_value : v < best_value;
          if constexpr (std::is_floating_point_v<scalar_t>) better = better || std::isnan(v);
          if (better) {
            best = i;
            best_value = v;
          }
        }
        result[out_off] = best;
        if (value_out != nullptr) value_out[value_off] = best_value;
      }
    });
  });
}

}  // namespace

SOPS_IMPL_FUNC(argmax_out)
(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  arg_reduce</*kMax=*/true>(self, dim, keepdim, Tensor(), out, "argmax");
}

SOPS_IMPL_FUNC(argmin_out)
(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  arg_reduce</*kMax=*/false>(self, dim, keepdim, Tensor(), out, "argmin");
}

SOPS_IMPL_FUNC(max_out)
(const Tensor& self, int64_t dim, bool keepdim, const Tensor& max, const Tensor& max_values) {
  arg_reduce</*kMax=*/true>(self, dim, keepdim, max, max_values, "max");
}

SOPS_IMPL_FUNC(min_out)
(const Tensor& self, int64_t dim, bool keepdim, const Tensor& min, const Tensor& min_indices) {
  arg_reduce</*kMax=*/false>(self, dim, keepdim, min, min_indices, "min");
}

}  // namespace sops::aten::native
