// 3. A composite: no dispatch entry in the yaml, so the generator registers it for
// every backend (CompositeImplicitAutograd) and it calls other operators through the
// library's API. It works on Meta tensors because they do.
//   my::ops::squared_distance(a, b, /*dim=*/1)
#include "my_ops/Functions.h"
#include "my_ops/NativeFunctions.h"

namespace my::ops {

Tensor SOPS_KERNEL(squared_distance)(const Tensor& self, const Tensor& other, int64_t dim) {
  return sum_of_squares(scaled_add(self, other, -1.0), {dim});
}

}  // namespace my::ops
