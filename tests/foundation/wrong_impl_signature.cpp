// An impl() whose signature does not match the generated header (alpha is missing).
// It must not compile, and the compiler must name the operator's impl struct.
#include "demo_ops/NativeFunctions.h"

namespace demo::ops::native {

SOPS_IMPL_FUNC(add_out)(const Tensor& self, const Tensor& other, const Tensor& out) {}

}  // namespace demo::ops::native
