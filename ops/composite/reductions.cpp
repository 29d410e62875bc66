// Reductions PyTorch writes in terms of others: mean over every element
// (CompositeExplicitAutograd, mean.dim with no dims) and var.dim / var.out
// (CompositeImplicitAutograd: var.correction with correction 1 when unbiased, else 0).
#include <optional>

#include "aten/ops/mean.h"
#include "aten/ops/mean_native.h"
#include "aten/ops/var.h"
#include "aten/ops/var_native.h"

namespace sops::aten::native {

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return sops::aten::mean(self, std::nullopt, /*keepdim=*/false, dtype);
}

Tensor var(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return sops::aten::var(self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim);
}

Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim,
                Tensor& out) {
  return sops::aten::var_out(out, self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim);
}

}  // namespace sops::aten::native
