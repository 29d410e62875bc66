// CPU kernel of sum: for each output element, the sum over the reduced dimensions,
// each input element converted to the output dtype first (as PyTorch does).
#include <type_traits>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {
namespace {

// Calls f(offset_a, offset_b) for every index of `sizes`, in row-major order, where
// the offsets step by strides_a / strides_b (in elements).
template <typename F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides_a, IntArrayRef strides_b, F&& f) {
  const std::size_t n = sizes.size();
  for (const int64_t s : sizes) {
    if (s == 0) return;
  }
  DimVector index(n, 0);
  int64_t a = 0;
  int64_t b = 0;
  while (true) {
    f(a, b);
    std::size_t d = n;
    while (d > 0) {
      --d;
      if (++index[d] < sizes[d]) {
        a += strides_a[d];
        b += strides_b[d];
        break;
      }
      a -= strides_a[d] * (sizes[d] - 1);
      b -= strides_b[d] * (sizes[d] - 1);
      index[d] = 0;
      if (d == 0) return;
    }
    if (n == 0) return;
  }
}

// Floating sums accumulate in double; integers wrap in their own type; bool is "any".
template <typename T>
using acc_t = std::conditional_t<std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
                                     std::is_same_v<T, BFloat16>,
                                 double, T>;

}  // namespace

SOPS_IMPL_FUNC(sum_out)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> /*dtype*/,
 const Tensor& out) {
  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  // Split self's dimensions into kept ones (with their output strides) and reduced ones.
  DimVector kept_sizes, kept_in, kept_out, red_sizes, red_in;
  int64_t out_d = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1u) {
      red_sizes.push_back(self.size(d));
      red_in.push_back(self.stride(d));
      if (keepdim) ++out_d;
    } else {
      kept_sizes.push_back(self.size(d));
      kept_in.push_back(self.stride(d));
      kept_out.push_back(out.stride(out_d++));
    }
  }
  const ScalarType in_type = self.scalar_type();
  const std::size_t in_size = self.element_size();
  const char* in_base = static_cast<const char*>(self.const_data_ptr());
  const DimVector zeros(red_sizes.size(), 0);

  SOPS_DISPATCH_TYPES(dtypes::kAllTypes | dtypes::kBoolType | dtypes::kReducedFloatingTypes,
                      out.scalar_type(), "sum", [&] {
    using acc = acc_t<scalar_t>;
    scalar_t* out_base = out.data_ptr<scalar_t>();
    for_each_offset(kept_sizes, kept_in, kept_out, [&](int64_t in_off, int64_t out_off) {
      acc total = acc(0);
      for_each_offset(red_sizes, red_in, zeros, [&](int64_t r, int64_t) {
        const scalar_t v = load_as<scalar_t>(in_base + (in_off + r) * static_cast<int64_t>(in_size), in_type);
        if constexpr (std::is_same_v<scalar_t, bool>) {
          total = total || v;
        } else {
          total = cpu_util::wrapping_add(total, static_cast<acc>(v));
        }
      });
      out_base[out_off] = convert<scalar_t>(total);
    });
  });
}

}  // namespace sops::aten::native
