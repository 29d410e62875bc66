// Meta functions of the reductions: sum.dim_IntList, mean.dim, amax, amin, argmax and
// any.dim. Each computes the reduced shape (ops_util::reduced_shape) and PyTorch's result
// dtype, and rejects what PyTorch rejects before any kernel runs.
#include "aten/ops/amax_meta.h"
#include "aten/ops/amin_meta.h"
#include "aten/ops/any_meta.h"
#include "aten/ops/argmax_meta.h"
#include "aten/ops/mean_meta.h"
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

}  // namespace

SOPS_META_FUNC2(sum, dim_IntList)
(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  // dtype= wins; else a given out's dtype; else self's, integral (and bool) promoted to int64.
  const Tensor& out = maybe_get_output();
  ScalarType out_dtype = self.scalar_type();
  if (dtype.has_value()) {
    out_dtype = *dtype;
  } else if (out.defined()) {
    out_dtype = out.scalar_type();
  } else if (is_integral(out_dtype, /*include_bool=*/true)) {
    out_dtype = ScalarType::Long;
  }
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
  DimVector shape;
  if (dim.has_value()) {
    const int64_t d = ops_util::wrap_dim(*dim, self.dim());
    const uint64_t mask = self.dim() == 0 ? 0 : uint64_t{1} << d;
    check_nonempty_reduction(self, mask, "argmax");
    shape = ops_util::reduced_shape(self, mask, keepdim);
  } else {
    SOPS_CHECK_ARG(self.numel() != 0, "self",
                   "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
    // Over the flattened tensor: a 0-dim result, or all ones with keepdim.
    if (keepdim) shape = DimVector(static_cast<std::size_t>(self.dim()), 1);
  }
  set_output_raw_strided(0, shape, {}, self.options().dtype(ScalarType::Long));
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

}  // namespace sops::aten::meta
