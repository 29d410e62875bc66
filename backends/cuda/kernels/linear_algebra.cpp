// The CUDA impls of mm, bmm and addmm: the meta functions (shared with the CPU) checked
// the operands and sized out; the GEMM launcher (linear_algebra.cu) computes
//   out = beta * self + alpha * mat1 @ mat2
// over the operands' own strides (addmm's self broadcast with stride 0), one batch entry
// per matrix for bmm. The CPU kernels' semantics (backends/cpu/kernels/linear_algebra.cpp): the
// integral types, float32 and float64, with the same "not implemented" error otherwise
// ("addmm_impl_cuda_" for mm and addmm, "bmm" for bmm); empty results return before the
// scalars are converted; beta == 0 ignores self, NaN included. An out that shares memory
// with mat1 or mat2 (or with self at other elements) gets the result through a temporary,
// as on the CPU.
#include <string_view>

#include "aten/ops/addmm_native.h"
#include "aten/ops/bmm_native.h"
#include "aten/ops/mm_native.h"
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/kernels/linear_algebra_kernels.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {
namespace {

// t's matrices as [batch, rows, cols]: a 3-d tensor's strides, a 2-d (or lower-rank,
// broadcast: addmm's self) tensor's as one matrix. Size-1 dimensions and missing leading
// ones step by 0, so that a broadcast self reads its one row or column everywhere.
cuda::MatrixBatch view_of(const Tensor& t) {
  int64_t strides[3] = {0, 0, 0};
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1) strides[3 - t.dim() + d] = t.stride(d);
  }
  return cuda::MatrixBatch{t.data_ptr(), strides[0], strides[1], strides[2]};
}

bool same_elements(const cuda::MatrixBatch& x, const cuda::MatrixBatch& y) {
  return x.data == y.data && x.batch_stride == y.batch_stride && x.row_stride == y.row_stride &&
         x.col_stride == y.col_stride;
}

// out (batch x m x n, or m x n) = beta * self + alpha * mat1 @ mat2; beta == nullptr: no
// self (mm, bmm).
void addmm_cuda(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar* beta, const Scalar& alpha, std::string_view name) {
  const ScalarType dtype = out.scalar_type();
  ops_util::check_dtype_implemented(dtype, dtypes::kAllTypes, name);
  const int64_t batch = out.dim() == 3 ? out.size(0) : 1;
  const int64_t m = mat1.size(-2);
  const int64_t k = mat1.size(-1);
  const int64_t n = mat2.size(-1);
  if (batch == 0 || m == 0 || n == 0) return;
  const cuda::MatrixBatch a = view_of(mat1);
  const cuda::MatrixBatch b = view_of(mat2);
  const cuda::MatrixBatch c = self.defined() ? view_of(self) : cuda::MatrixBatch{};
  const cuda::MatrixBatch o = view_of(out);
  // The kernel reads mat1 and mat2 while other blocks write out, and reads self's
  // element (i, j) just before it writes out's: any other sharing goes through a
  // temporary of out's sizes, copied into out afterwards.
  const bool staged = out.is_alias_of(mat1) || out.is_alias_of(mat2) ||
                      (self.defined() && out.is_alias_of(self) && !same_elements(c, o));
  if (!staged) {
    cuda::addmm_kernel(dtype, name, batch, m, n, k, a, b, c, beta, alpha, o);
    return;
  }
  const Tensor tmp = sops::empty(out.sizes(), out.options());
  cuda::addmm_kernel(dtype, name, batch, m, n, k, a, b, c, beta, alpha, view_of(tmp));
  cuda::copy_on_device(out, tmp);
}

}  // namespace

SOPS_IMPL_FUNC(mm_out_cuda)(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  addmm_cuda(out, Tensor(), self, mat2, nullptr, 1, "addmm_impl_cuda_");
}

SOPS_IMPL_FUNC(bmm_out_cuda)(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  addmm_cuda(out, Tensor(), self, mat2, nullptr, 1, "bmm");
}

SOPS_IMPL_FUNC(addmm_out_cuda)
(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
 const Scalar& alpha, const Tensor& out) {
  addmm_cuda(out, self, mat1, mat2, &beta, alpha, "addmm_impl_cuda_");
}

}  // namespace sops::aten::native
