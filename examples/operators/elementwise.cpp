// 1. An elementwise operator on the TensorIterator base. The meta function only says
// "binary op": the base broadcasts self and other, promotes their dtypes and declares
// the output. The impl runs one loop over the iterator's elements.
//   my::ops::scaled_add(a, b, 0.5)            functional
//   my::ops::scaled_add_(a, b, 0.5)           inplace
//   my::ops::scaled_add_out(out, a, b, 0.5)   out= (scaled_add_outf: out last)
#include "my_ops/NativeFunctions.h"
#include "runtime/cpu_loops.h"
#include "runtime/visit_dtype.h"

namespace my::ops::meta {

SOPS_META_FUNC(scaled_add)(const Tensor& self, const Tensor& other, double /*scale*/) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace my::ops::meta

namespace my::ops::native {

SOPS_IMPL_FUNC(scaled_add_out)(const Tensor& /*self*/, const Tensor& /*other*/, double scale,
                               const Tensor& /*out*/) {
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "scaled_add", [&] {
    const auto s = static_cast<scalar_t>(scale);
    ::sops::cpu_kernel(*this, [s](scalar_t x, scalar_t y) -> scalar_t { return x + s * y; });
  });
}

}  // namespace my::ops::native
