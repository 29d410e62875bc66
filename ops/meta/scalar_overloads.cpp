// The Scalar overloads of add, sub, mul and div (CompositeExplicitAutograd, as in
// PyTorch): `other` becomes a wrapped 0-dim tensor, which promotes as a Python number
// (int32 tensor + 2 is int32, + 2.5 is float32), and the Tensor overload runs. Errors
// are those of the Tensor overload (they name it: "sub.Tensor: ..."). The out= variants
// (add.Scalar_out, ...) are autogen.
#include <optional>
#include <string_view>

#include "aten/ops/add.h"
#include "aten/ops/add_native.h"
#include "aten/ops/div.h"
#include "aten/ops/div_native.h"
#include "aten/ops/mul.h"
#include "aten/ops/mul_native.h"
#include "aten/ops/sub.h"
#include "aten/ops/sub_native.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {

using ops_util::wrapped_scalar_like;

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sops::aten::add(self, wrapped_scalar_like(other, self), alpha);
}

Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sops::aten::add_(self, wrapped_scalar_like(other, self), alpha);
}

Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sops::aten::sub(self, wrapped_scalar_like(other, self), alpha);
}

Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sops::aten::sub_(self, wrapped_scalar_like(other, self), alpha);
}

Tensor mul(const Tensor& self, const Scalar& other) {
  return sops::aten::mul(self, wrapped_scalar_like(other, self));
}

Tensor& mul_(Tensor& self, const Scalar& other) {
  return sops::aten::mul_(self, wrapped_scalar_like(other, self));
}

Tensor div(const Tensor& self, const Scalar& other) {
  return sops::aten::div(self, wrapped_scalar_like(other, self));
}

Tensor& div_(Tensor& self, const Scalar& other) {
  return sops::aten::div_(self, wrapped_scalar_like(other, self));
}

Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return sops::aten::div(self, wrapped_scalar_like(other, self), rounding_mode);
}

Tensor& div_(Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return sops::aten::div_(self, wrapped_scalar_like(other, self), rounding_mode);
}

}  // namespace sops::aten::native
