// The kernels of testdata/clashing_ops.yaml.
#include "clashing_ops/NativeFunctions.h"

#include "runtime/cpu_loops.h"
#include "runtime/visit_dtype.h"

namespace clashing::ops::native {

Tensor relu(const Tensor& self) {
  auto iter = ::sops::TensorIterator::unary_op(Tensor(), self);
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "relu", [&] {
    ::sops::cpu_kernel(iter,
                       [](scalar_t x) -> scalar_t { return x > scalar_t(0) ? x : scalar_t(0); });
  });
  return iter.output(0);
}

Tensor negate(const Tensor& self) {
  auto iter = ::sops::TensorIterator::unary_op(Tensor(), self);
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "negate", [&] {
    ::sops::cpu_kernel(iter, [](scalar_t x) -> scalar_t { return -x; });
  });
  return iter.output(0);
}

}  // namespace clashing::ops::native
