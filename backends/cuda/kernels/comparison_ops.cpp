// The CUDA impls of the comparisons (eq, ne, lt, le, gt, ge), the logical ops
// (logical_not, logical_and, logical_or) and where.self: the meta functions (shared with
// the CPU) built the iterator; the launchers (comparison_ops.cu) run it.
#include "aten/ops/eq_native.h"
#include "aten/ops/ge_native.h"
#include "aten/ops/gt_native.h"
#include "aten/ops/le_native.h"
#include "aten/ops/logical_and_native.h"
#include "aten/ops/logical_not_native.h"
#include "aten/ops/logical_or_native.h"
#include "aten/ops/lt_native.h"
#include "aten/ops/ne_native.h"
#include "aten/ops/where_native.h"
#include "backends/cuda/kernels/comparison_kernels.h"

namespace sops::aten::native {

#define SOPS_CUDA_COMPARISON_IMPL(name, op)                                  \
  SOPS_IMPL_FUNC(name##_Tensor_out_cuda)                                     \
  (const Tensor& /*self*/, const Tensor& /*other*/, const Tensor& /*out*/) { \
    cuda::comparison_kernel(*this, cuda::CompareOp::op, #name);              \
  }                                                                          \
  SOPS_IMPL_FUNC(name##_Scalar_out_cuda)                                     \
  (const Tensor& /*self*/, const Scalar& /*other*/, const Tensor& /*out*/) { \
    cuda::comparison_kernel(*this, cuda::CompareOp::op, #name);              \
  }

SOPS_CUDA_COMPARISON_IMPL(eq, kEq)
SOPS_CUDA_COMPARISON_IMPL(ne, kNe)
SOPS_CUDA_COMPARISON_IMPL(lt, kLt)
SOPS_CUDA_COMPARISON_IMPL(le, kLe)
SOPS_CUDA_COMPARISON_IMPL(gt, kGt)
SOPS_CUDA_COMPARISON_IMPL(ge, kGe)

#undef SOPS_CUDA_COMPARISON_IMPL

SOPS_IMPL_FUNC(logical_not_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  cuda::logical_not_kernel(*this);
}

SOPS_IMPL_FUNC(logical_and_out_cuda)
(const Tensor& /*self*/, const Tensor& /*other*/, const Tensor& /*out*/) {
  cuda::logical_and_kernel(*this);
}

SOPS_IMPL_FUNC(logical_or_out_cuda)
(const Tensor& /*self*/, const Tensor& /*other*/, const Tensor& /*out*/) {
  cuda::logical_or_kernel(*this);
}

SOPS_IMPL_FUNC(where_self_out_cuda)
(const Tensor& /*condition*/, const Tensor& /*self*/, const Tensor& /*other*/,
 const Tensor& /*out*/) {
  cuda::where_kernel(*this);
}

}  // namespace sops::aten::native
