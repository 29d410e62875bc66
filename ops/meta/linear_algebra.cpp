// Meta functions of mm, bmm and addmm, and linear, a composite over them.
#include "aten/ops/add.h"
#include "aten/ops/addmm.h"
#include "aten/ops/addmm_meta.h"
#include "aten/ops/bmm_meta.h"
#include "aten/ops/copy.h"
#include "aten/ops/empty.h"
#include "aten/ops/linear_native.h"
#include "aten/ops/mm.h"
#include "aten/ops/mm_meta.h"
#include "aten/ops/permute.h"
#include "aten/ops/view.h"
#include "ops/util/op_utils.h"
#include "runtime/memory_overlap.h"

namespace sops::aten::meta {
namespace {

void check_shapes_multiply(const Tensor& m1, const Tensor& m2) {
  SOPS_CHECK(m1.size(1) == m2.size(0), "mat1 and mat2 shapes cannot be multiplied (", m1.size(0),
             "x", m1.size(1), " and ", m2.size(0), "x", m2.size(1), ")");
}

// addmm's self must broadcast to the result's [m, n] (PyTorch's expand_size).
void check_expandable(const Tensor& self, int64_t m, int64_t n) {
  const int64_t target[2] = {m, n};
  SOPS_CHECK_ARG(self.dim() <= 2, "self", "expand(", self.str(),
                 "): the number of sizes provided (2) must be greater or equal to the number of "
                 "dimensions in the tensor (",
                 self.dim(), ")");
  for (int64_t i = 0; i < self.dim(); ++i) {
    const int64_t d = 2 - self.dim() + i;  // aligned at the last dimension
    const int64_t size = self.size(i);
    SOPS_CHECK_ARG(size == 1 || size == target[d], "self", "The expanded size of the tensor (",
                   target[d], ") must match the existing size (", size,
                   ") at non-singleton dimension ", d, ".  Target sizes: ", IntArrayRef(target),
                   ".  Tensor sizes: ", self.sizes());
  }
}

}  // namespace

SOPS_META_FUNC(mm)(const Tensor& self, const Tensor& mat2) {
  SOPS_CHECK_ARG(self.dim() == 2, "self", "self must be a matrix");
  SOPS_CHECK_ARG(mat2.dim() == 2, "mat2", "mat2 must be a matrix");
  SOPS_CHECK(self.scalar_type() == mat2.scalar_type(),
             "expected m1 and m2 to have the same dtype, but got: ",
             ops_util::typemeta_name(self.scalar_type()),
             " != ", ops_util::typemeta_name(mat2.scalar_type()));
  check_shapes_multiply(self, mat2);
  set_output_raw_strided(0, {self.size(0), mat2.size(1)}, {}, self.options());
  check_no_internal_overlap(maybe_get_output(0), "out");  // an expanded out (bmm allows one)
}

SOPS_META_FUNC(bmm)(const Tensor& self, const Tensor& mat2) {
  // PyTorch names the operands batch1 and batch2 in its messages.
  SOPS_CHECK_ARG(self.dim() == 3, "self", "batch1 must be a 3D tensor");
  SOPS_CHECK_ARG(mat2.dim() == 3, "mat2", "batch2 must be a 3D tensor");
  SOPS_CHECK_ARG(mat2.size(0) == self.size(0) && mat2.size(1) == self.size(2), "mat2",
                 "Expected size for first two dimensions of batch2 tensor to be: [", self.size(0),
                 ", ", self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  SOPS_CHECK_ARG(self.scalar_type() == mat2.scalar_type(), "mat2", "expected scalar type ",
                 ops_util::aten_name(self.scalar_type()), " but found ",
                 ops_util::aten_name(mat2.scalar_type()));
  set_output_raw_strided(0, {self.size(0), self.size(1), mat2.size(2)}, {}, self.options());
}

SOPS_META_FUNC(addmm)
(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& /*beta*/,
 const Scalar& /*alpha*/) {
  SOPS_CHECK(
      self.scalar_type() == mat2.scalar_type(), "self and mat2 must have the same dtype, but got ",
      ops_util::aten_name(self.scalar_type()), " and ", ops_util::aten_name(mat2.scalar_type()));
  SOPS_CHECK(
      mat1.scalar_type() == mat2.scalar_type(), "mat1 and mat2 must have the same dtype, but got ",
      ops_util::aten_name(mat1.scalar_type()), " and ", ops_util::aten_name(mat2.scalar_type()));
  SOPS_CHECK_ARG(mat1.dim() == 2, "mat1", "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  SOPS_CHECK_ARG(mat2.dim() == 2, "mat2", "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_shapes_multiply(mat1, mat2);
  check_expandable(self, mat1.size(0), mat2.size(1));
  set_output_raw_strided(0, {mat1.size(0), mat2.size(1)}, {}, mat1.options());
  const Tensor& out = maybe_get_output(0);
  check_no_internal_overlap(out, out.is_same(self) ? "self" : "out");  // addmm_ writes self
}

}  // namespace sops::aten::meta

namespace sops::aten::native {
namespace {

// input as a matrix of `cols` columns (a view when possible, else a contiguous copy).
Tensor as_matrix(const Tensor& input, int64_t cols) {
  const int64_t rows = cols == 0 ? 0 : input.numel() / cols;
  if (input.is_contiguous()) return sops::aten::view(input, {rows, cols});
  Tensor copy = sops::aten::empty(input.sizes(), input.scalar_type(), std::nullopt, input.device(),
                                  std::nullopt, std::nullopt);
  sops::aten::copy_(copy, input);
  return sops::aten::view(copy, {rows, cols});
}

}  // namespace

// y = input @ weight.T + bias, for input of any rank >= 1 (PyTorch's linear).
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt) {
  SOPS_CHECK_ARG(weight.dim() == 2, "weight", "linear: weight must be a matrix, got a ",
                 weight.dim(), "-D tensor");
  SOPS_CHECK_ARG(input.dim() >= 1, "input",
                 "both arguments to matmul need to be at least 1D, but they are ", input.dim(),
                 "D and 2D");
  const Tensor weight_t = sops::aten::permute(weight, {1, 0});
  const bool has_bias = is_present(bias_opt);
  if (input.dim() == 2) {
    return has_bias ? sops::aten::addmm(*bias_opt, input, weight_t)
                    : sops::aten::mm(input, weight_t);
  }
  // Flatten the leading dimensions, multiply, restore them.
  const int64_t in_features = input.size(-1);
  DimVector out_sizes(input.sizes().slice(0, static_cast<std::size_t>(input.dim() - 1)));
  out_sizes.push_back(weight.size(0));
  const Tensor flat = as_matrix(input, in_features);
  Tensor output = has_bias && input.dim() == 3 && input.is_contiguous()
                      ? sops::aten::addmm(*bias_opt, flat, weight_t)
                      : sops::aten::mm(flat, weight_t);
  output = sops::aten::view(output, out_sizes);
  if (has_bias && !(input.dim() == 3 && input.is_contiguous())) sops::aten::add_(output, *bias_opt);
  return output;
}

}  // namespace sops::aten::native
