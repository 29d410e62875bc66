// The Scalar overloads of the bitwise ops, fmod and remainder (CompositeExplicitAutograd,
// as in PyTorch): the Scalar becomes a wrapped 0-dim tensor, which promotes as a Python
// number (an int32 tensor & 3 is int32), and the Tensor overload runs; isnan, which is
// `self != self`, and isinf, `abs(self) == inf` for floating tensors (all false otherwise).
#include <limits>

#include "aten/ops/abs.h"
#include "aten/ops/bitwise_and.h"
#include "aten/ops/bitwise_and_native.h"
#include "aten/ops/bitwise_or.h"
#include "aten/ops/bitwise_or_native.h"
#include "aten/ops/bitwise_xor.h"
#include "aten/ops/bitwise_xor_native.h"
#include "aten/ops/eq.h"
#include "aten/ops/fmod.h"
#include "aten/ops/fmod_native.h"
#include "aten/ops/isinf_native.h"
#include "aten/ops/isnan_native.h"
#include "aten/ops/ne.h"
#include "aten/ops/remainder.h"
#include "aten/ops/remainder_native.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {

using ops_util::wrapped_scalar_like;

// name(Tensor, Scalar), name_(Tensor, Scalar), name_out(Tensor, Scalar, out).
#define SOPS_SCALAR_OTHER_COMPOSITES(name)                                      \
  Tensor name(const Tensor& self, const Scalar& other) {                        \
    return sops::aten::name(self, wrapped_scalar_like(other, self));            \
  }                                                                             \
  Tensor& name##_(Tensor& self, const Scalar& other) {                          \
    return sops::aten::name##_(self, wrapped_scalar_like(other, self));         \
  }                                                                             \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {    \
    return sops::aten::name##_out(out, self, wrapped_scalar_like(other, self)); \
  }

// name(Scalar, Tensor).
#define SOPS_SCALAR_SELF_COMPOSITE(name)                              \
  Tensor name(const Scalar& self, const Tensor& other) {              \
    return sops::aten::name(wrapped_scalar_like(self, other), other); \
  }

SOPS_SCALAR_OTHER_COMPOSITES(bitwise_and)
SOPS_SCALAR_OTHER_COMPOSITES(bitwise_or)
SOPS_SCALAR_OTHER_COMPOSITES(bitwise_xor)
SOPS_SCALAR_OTHER_COMPOSITES(fmod)
SOPS_SCALAR_OTHER_COMPOSITES(remainder)
SOPS_SCALAR_SELF_COMPOSITE(bitwise_and)
SOPS_SCALAR_SELF_COMPOSITE(bitwise_or)
SOPS_SCALAR_SELF_COMPOSITE(bitwise_xor)
SOPS_SCALAR_SELF_COMPOSITE(remainder)

#undef SOPS_SCALAR_OTHER_COMPOSITES
#undef SOPS_SCALAR_SELF_COMPOSITE

// NaN is the one value unequal to itself (PyTorch's CPU kernel).
Tensor isnan(const Tensor& self) { return sops::aten::ne(self, self); }

// Integral and bool tensors hold no infinity: `self != self` is their all-false result
// with self's shape (PyTorch's zeros_like).
Tensor isinf(const Tensor& self) {
  if (!is_floating_point(self.scalar_type())) return sops::aten::ne(self, self);
  return sops::aten::eq(sops::aten::abs(self),
                        wrapped_scalar_like(Scalar(std::numeric_limits<double>::infinity()), self));
}

}  // namespace sops::aten::native
