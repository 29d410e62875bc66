// A meta() whose signature does not match the generated header (other is an int).
#include "demo_ops/NativeFunctions.h"

namespace demo::ops::meta {

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, int64_t other, const Scalar& alpha) {}

}  // namespace demo::ops::meta
