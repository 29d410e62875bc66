// native_layer_norm on CUDA: the CPU kernel's checks, messages and outputs
// (backends/cpu/normalization.cpp: layer_norm_cpu) with the computation on the device
// (normalization.cu). out has input's sizes; mean and rstd keep input's leading
// dimensions with the normalized ones as 1, all three contiguous and of input's dtype;
// float32 and float64 only ("LayerNormKernelImpl" not implemented otherwise); weight and
// bias optional; eps added to the biased variance.
#include <optional>
#include <tuple>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cuda/normalization_kernels.h"
#include "ops/meta/nn_utils.h"
#include "ops/meta/scalar_checks.h"

namespace sops::aten {

std::tuple<Tensor, Tensor, Tensor> SOPS_KERNEL(layer_norm_cuda)(
    const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, double eps) {
  const Tensor* weight = ops_util::defined_or_null(weight_opt);
  const Tensor* bias = ops_util::defined_or_null(bias_opt);
  auto [out, mean, rstd, rows, n] =
      ops_util::layer_norm_outputs(input, normalized_shape, weight, bias, "CUDA");
  ops_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "LayerNormKernelImpl");
  if (rows == 0) return {out, mean, rstd};
  cuda::layer_norm_kernel(input, weight != nullptr ? *weight : Tensor(),
                          bias != nullptr ? *bias : Tensor(), out, mean, rstd, rows, n, eps);
  return {out, mean, rstd};
}

}  // namespace sops::aten
