// The kernels of testdata/demo_ops.yaml: one meta and one impl for the add group,
// and a plain CPU kernel for relu.
#include "demo_ops/NativeFunctions.h"

#include "runtime/cpu_loops.h"
#include "runtime/visit_dtype.h"

namespace demo::ops::meta {

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& /*alpha*/) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace demo::ops::meta

namespace demo::ops::native {

SOPS_IMPL_FUNC(add_out)(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha,
                        const Tensor& /*out*/) {
  SOPS_DISPATCH_ALL_TYPES(common_dtype(), "add", [&] {
    const auto a = alpha.to<scalar_t>();
    ::sops::cpu_kernel(*this, [a](scalar_t x, scalar_t y) -> scalar_t { return x + a * y; });
  });
}

}  // namespace demo::ops::native

namespace demo::ops {

// A plain kernel, defined by its qualified name (a mismatch does not compile).
Tensor SOPS_KERNEL(relu)(const Tensor& self) {
  auto iter = ::sops::TensorIterator::unary_op(Tensor(), self);
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "relu", [&] {
    ::sops::cpu_kernel(iter,
                       [](scalar_t x) -> scalar_t { return x > scalar_t(0) ? x : scalar_t(0); });
  });
  return iter.output(0);
}

}  // namespace demo::ops
