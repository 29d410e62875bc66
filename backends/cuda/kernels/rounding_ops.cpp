// The CUDA impls of floor, ceil, round, round.decimals, trunc, sign and bitwise_not: the
// meta functions (shared with the CPU) built the iterator; the impls make the CPU
// kernels' dtype checks on the host, with the names of PyTorch's CUDA kernels
// ("floor_cuda" not implemented for 'Bool'), and the launchers (rounding_ops.cu) compute.
#include "aten/ops/bitwise_not_native.h"
#include "aten/ops/ceil_native.h"
#include "aten/ops/floor_native.h"
#include "aten/ops/round_native.h"
#include "aten/ops/sign_native.h"
#include "aten/ops/trunc_native.h"
#include "backends/cuda/kernels/rounding_kernels.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {

// Integral tensors are copied, floating ones rounded; bool is refused.
#define SOPS_CUDA_ROUNDING_IMPL(name, op)                                                        \
  SOPS_IMPL_FUNC(name##_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {               \
    ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, #name "_cuda", "self"); \
    cuda::rounding_kernel(*this, cuda::RoundingOp::op, #name);                                   \
  }

SOPS_CUDA_ROUNDING_IMPL(floor, kFloor)
SOPS_CUDA_ROUNDING_IMPL(ceil, kCeil)
SOPS_CUDA_ROUNDING_IMPL(round, kRound)
SOPS_CUDA_ROUNDING_IMPL(trunc, kTrunc)

#undef SOPS_CUDA_ROUNDING_IMPL

// Floating tensors only, as on the CPU (decimals 0 is round's kernel without its
// integral copy).
SOPS_IMPL_FUNC(round_decimals_out_cuda)(const Tensor& /*self*/, int64_t decimals,
                                        const Tensor& /*out*/) {
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kFloatingTypes, "round_cuda", "self");
  if (decimals == 0) {
    cuda::rounding_kernel(*this, cuda::RoundingOp::kRound, "round");
    return;
  }
  cuda::round_decimals_kernel(*this, decimals);
}

SOPS_IMPL_FUNC(sign_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  cuda::sign_kernel(*this);
}

// ~x for integers, !x for bool; floating tensors are refused.
SOPS_IMPL_FUNC(bitwise_not_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  if (common_dtype() != ScalarType::Bool) {
    ops_util::check_dtype_implemented(common_dtype(), dtypes::kIntegralTypes, "bitwise_not_cuda",
                                      "self");
  }
  cuda::bitwise_not_kernel(*this);
}

}  // namespace sops::aten::native
