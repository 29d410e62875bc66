// Meta functions of the reductions: sum.dim_IntList, mean.dim, amax, amin, argmax,
// argmin, max.dim, min.dim, any (all, dim, dims) and prod.dim_int. Each computes the reduced shape
// (ops_util::reduced_shape) and PyTorch's result dtype, and rejects what PyTorch rejects before any
// kernel runs.
#include "aten/ops/amax_meta.h"
#include "aten/ops/amin_meta.h"
#include "aten/ops/any_meta.h"
#include "aten/ops/argmax_meta.h"
#include "aten/ops/argmin_meta.h"
#include "aten/ops/max_meta.h"
#include "aten/ops/mean_meta.h"
#include "aten/ops/min_meta.h"
#include "aten/ops/prod_meta.h"
#include "aten/ops/sum_meta.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {
namespace {

// amax/amin/argmax: a reduced dimension of size 0 has no maximum.
void check_nonempty_reduction(const Tensor& self, uint64_t mask, const char* op) {
  for (int64_t d = 0; d < self.dim(); ++d) {
    SOPS_CHECK_ARG(!((mask >> d) & 1u) || self.size(d) != 0, "dim", op,
                   "(): Expected reduction dim ", d, " to have non-zero size.");
  }
}

// amax and amin: the result has self's dtype; a given out must have it too.
void minmax_meta(MetaBase& op, const Tensor& self, IntArrayRef dim, bool keepdim,
                 const char* name) {
  const Tensor& out = op.maybe_get_output();
  if (out.defined()) {
    SOPS_CHECK_ARG(out.scalar_type() == self.scalar_type(), "out",
                   "Expected the dtype for input and out to match, but got ", self.scalar_type(),
                   " for input's dtype and ", out.scalar_type(), " for out's dtype.");
  }
  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  check_nonempty_reduction(self, mask, name);
  op.set_output_raw_strided(0, ops_util::reduced_shape(self, mask, keepdim), {}, self.options());
}

// argmin, max.dim and min.dim: the shape after reducing `dim` (every dimension, to a
// 0-dim result or all ones with keepdim, when dim is None); a reduced dimension of
// size 0 has no extreme.
DimVector arg_reduced_shape(const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                            const char* op) {
  if (!dim.has_value()) {
    SOPS_CHECK_ARG(self.numel() != 0, "self", op,
                   "(): Expected reduction dim to be specified for input.numel() == 0.");
    return keepdim ? DimVector(static_cast<std::size_t>(self.dim()), 1) : DimVector();
  }
  const int64_t d = ops_util::wrap_dim(*dim, self.dim());
  const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << d;
  check_nonempty_reduction(self, mask, op);
  return ops_util::reduced_shape(self, mask, keepdim);
}

// max.dim and min.dim: values of self's dtype and their int64 indices.
void values_and_indices_meta(MetaBase& op, const Tensor& self, int64_t dim, bool keepdim,
                             const char* name) {
  const DimVector shape = arg_reduced_shape(self, dim, keepdim, name);
  op.set_output_raw_strided(0, shape, {}, self.options());
  op.set_output_raw_strided(1, shape, {}, self.options().dtype(ScalarType::Long));
}

}  // namespace

SOPS_META_FUNC2(sum, dim_IntList)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType out_dtype = ops_util::sum_dtype(self, maybe_get_output(), dtype);
  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  set_output_raw_strided(0, ops_util::reduced_shape(self, mask, keepdim), {},
                         self.options().dtype(out_dtype));
}

SOPS_META_FUNC2(mean, dim)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  // The mean of integers has no integral result: PyTorch asks for a floating dtype.
  const ScalarType in = self.scalar_type();
  if (dtype.has_value()) {
    SOPS_CHECK_ARG(is_floating_point(*dtype), "dtype",
                   "mean(): could not infer output dtype. Optional dtype must be either a "
                   "floating point or complex dtype. Got: ",
                   *dtype);
  } else {
    SOPS_CHECK_ARG(is_floating_point(in), "self",
                   "mean(): could not infer output dtype. Input dtype must be either a "
                   "floating point or complex dtype. Got: ",
                   in);
  }
  const Tensor& out = maybe_get_output();
  const ScalarType out_dtype = dtype.has_value() ? *dtype : out.defined() ? out.scalar_type() : in;
  const uint64_t mask = ops_util::reduction_mask(dim, self.dim());
  set_output_raw_strided(0, ops_util::reduced_shape(self, mask, keepdim), {},
                         self.options().dtype(out_dtype));
}

SOPS_META_FUNC(amax)(const Tensor& self, IntArrayRef dim, bool keepdim) {
  minmax_meta(*this, self, dim, keepdim, "amax");
}

SOPS_META_FUNC(amin)(const Tensor& self, IntArrayRef dim, bool keepdim) {
  minmax_meta(*this, self, dim, keepdim, "amin");
}

SOPS_META_FUNC(argmax)(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "argmax(): does not support bool input");
  set_output_raw_strided(0, arg_reduced_shape(self, dim, keepdim, "argmax"), {},
                         self.options().dtype(ScalarType::Long));
}

SOPS_META_FUNC2(any, dim)(const Tensor& self, int64_t dim, bool keepdim) {
  // uint8 stays uint8 (PyTorch's legacy rule); every other dtype gives bool.
  const ScalarType out_dtype =
      self.scalar_type() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << d;
  set_output_raw_strided(0, ops_util::reduced_shape(self, mask, keepdim), {},
                         self.options().dtype(out_dtype));
}

SOPS_META_FUNC(argmin)(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "argmin(): does not support bool input");
  set_output_raw_strided(0, arg_reduced_shape(self, dim, keepdim, "argmin"), {},
                         self.options().dtype(ScalarType::Long));
}

SOPS_META_FUNC2(max, dim)(const Tensor& self, int64_t dim, bool keepdim) {
  values_and_indices_meta(*this, self, dim, keepdim, "max");
}

SOPS_META_FUNC2(min, dim)(const Tensor& self, int64_t dim, bool keepdim) {
  values_and_indices_meta(*this, self, dim, keepdim, "min");
}

// any over every element: a 0-dim result (uint8 for uint8 self, else bool).
SOPS_META_FUNC(any)(const Tensor& self) {
  const ScalarType out_dtype =
      self.scalar_type() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  set_output_raw_strided(0, {}, {}, self.options().dtype(out_dtype));
}

// any over `dim` (None: every dimension; an empty list: none).
SOPS_META_FUNC2(any, dims)(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  const ScalarType out_dtype =
      self.scalar_type() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  const uint64_t mask = ops_util::any_dims_mask(dim, self.dim());
  set_output_raw_strided(0, ops_util::reduced_shape(self, mask, keepdim), {},
                         self.options().dtype(out_dtype));
}

// dtype= wins; else out's; else self's, integral and bool promoted to int64 (as sum).
SOPS_META_FUNC2(prod, dim_int)
(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << d;
  set_output_raw_strided(
      0, ops_util::reduced_shape(self, mask, keepdim), {},
      self.options().dtype(ops_util::sum_dtype(self, maybe_get_output(), dtype)));
}

}  // namespace sops::aten::meta
