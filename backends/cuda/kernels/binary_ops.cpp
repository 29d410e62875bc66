// The CUDA impls of add, sub, mul and div: the meta functions (shared with the CPU)
// built the iterator; the launchers (binary_ops.cu) run it.
#include <optional>
#include <string_view>

#include "aten/ops/add_native.h"
#include "aten/ops/div_native.h"
#include "aten/ops/mul_native.h"
#include "aten/ops/sub_native.h"
#include "backends/cuda/kernels/binary_kernels.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {

SOPS_IMPL_FUNC(add_out_cuda)
(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha, const Tensor& /*out*/) {
  cuda::add_kernel(*this, alpha);
}

SOPS_IMPL_FUNC(sub_out_cuda)
(const Tensor& /*self*/, const Tensor& /*other*/, const Scalar& alpha, const Tensor& /*out*/) {
  cuda::add_kernel(*this, -alpha);
}

SOPS_IMPL_FUNC(mul_out_cuda)(const Tensor& /*self*/, const Tensor& /*other*/,
                             const Tensor& /*out*/) {
  cuda::mul_kernel(*this);
}

SOPS_IMPL_FUNC(div_out_cuda)(const Tensor& /*self*/, const Tensor& /*other*/,
                             const Tensor& /*out*/) {
  cuda::div_true_kernel(*this);
}

SOPS_IMPL_FUNC(div_out_mode_cuda)
(const Tensor& /*self*/, const Tensor& /*other*/, std::optional<std::string_view> rounding_mode,
 const Tensor& /*out*/) {
  if (!rounding_mode.has_value()) {
    cuda::div_true_kernel(*this);
    return;
  }
  const bool floor = *rounding_mode == "floor";
  if (!is_integral(common_dtype(), /*include_bool=*/false)) {
    ops_util::check_dtype_implemented(common_dtype(), dtypes::kFloatingTypes,
                                      floor ? "div_floor_cuda" : "div_trunc_cuda", "self");
  }
  cuda::div_rounding_kernel(*this, floor);
}

}  // namespace sops::aten::native
