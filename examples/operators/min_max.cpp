// 4. A tuple return: the kernel returns std::tuple<Tensor, Tensor>, the generated API
// too (`auto [lo, hi] = my::ops::min_max(x);`). An unstructured kernel: it allocates
// its results itself.
#include <tuple>

#include "elements.h"
#include "my_ops/NativeFunctions.h"
#include "runtime/visit_dtype.h"

namespace my::ops {

std::tuple<Tensor, Tensor> SOPS_KERNEL(min_max)(const Tensor& self) {
  SOPS_CHECK_ARG(self.numel() > 0, "self",
                 "expected a non-empty tensor: an empty one has no minimum");
  Tensor min = sops::empty({}, self.options());
  Tensor max = sops::empty({}, self.options());
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "min_max", [&] {
    scalar_t lo = self.data_ptr<scalar_t>()[0], hi = lo;  // any element will do to start
    for_each_element<scalar_t>(self, [&](const int64_t*, scalar_t& v) {
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    });
    *min.data_ptr<scalar_t>() = lo;
    *max.data_ptr<scalar_t>() = hi;
  });
  return {min, max};
}

}  // namespace my::ops
