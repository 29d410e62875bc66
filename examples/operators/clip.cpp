// 5. An unstructured in-place kernel: it writes into self and returns it.
//   my::ops::clip_(x, 0.0, 1.0)
#include "elements.h"
#include "my_ops/NativeFunctions.h"
#include "runtime/visit_dtype.h"

namespace my::ops {

Tensor& SOPS_KERNEL(clip_)(Tensor& self, double low, double high) {
  SOPS_CHECK_ARG(low <= high, "low", "expected low <= high, got low=", low, " and high=", high);
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "clip_", [&] {
    const auto lo = static_cast<scalar_t>(low), hi = static_cast<scalar_t>(high);
    for_each_element<scalar_t>(
        self, [&](const int64_t*, scalar_t& v) { v = v < lo ? lo : (v > hi ? hi : v); });
  });
  return self;
}

}  // namespace my::ops
