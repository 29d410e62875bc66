// 6. A factory: no tensor argument, so the dispatcher picks the backend from `device`
// (CPU when it is not given); `dtype` defaults to float32, as PyTorch's do.
//   my::ops::ramp(4)                            [0, 1, 2, 3], float32
//   my::ops::ramp(3, sops::ScalarType::Long)    [0, 1, 2], int64
#include "my_ops/NativeFunctions.h"
#include "runtime/visit_dtype.h"

namespace my::ops {

Tensor SOPS_KERNEL(ramp)(int64_t n, std::optional<ScalarType> dtype,
                         std::optional<Layout> /*layout*/, std::optional<Device> /*device*/,
                         std::optional<bool> /*pin_memory*/) {
  SOPS_CHECK_ARG(n >= 0, "n", "expected a non-negative length, got ", n);
  Tensor out = sops::empty({n}, sops::TensorOptions(dtype.value_or(ScalarType::Float)));
  SOPS_DISPATCH_ALL_TYPES(out.scalar_type(), "ramp", [&] {
    scalar_t* p = out.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<scalar_t>(i);
  });
  return out;
}

}  // namespace my::ops
