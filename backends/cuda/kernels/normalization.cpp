// native_layer_norm on CUDA: the CPU kernel's checks, messages and outputs
// (backends/cpu/kernels/normalization.cpp: layer_norm_cpu) with the computation on the device
// (normalization.cu). out has input's sizes; mean and rstd keep input's leading
// dimensions with the normalized ones as 1, all three contiguous and of input's dtype;
// float32 and float64 only ("LayerNormKernelImpl" not implemented otherwise); weight and
// bias optional; eps added to the biased variance.
//
// _native_batch_norm_legit_no_training on CUDA, likewise (ops/util/nn_utils.h): out with
// input's sizes and memory format, save_mean and save_var empty; float32 and float64 only
// ("batch_norm" not implemented otherwise).
#include <optional>
#include <tuple>

#include "aten/ops/_native_batch_norm_legit_no_training_native.h"
#include "aten/ops/native_layer_norm_native.h"
#include "backends/cuda/kernels/normalization_kernels.h"
#include "ops/util/nn_utils.h"
#include "ops/util/scalar_checks.h"

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

std::tuple<Tensor, Tensor, Tensor> SOPS_KERNEL(_batch_norm_legit_no_training_cuda)(
    const Tensor& input, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, const Tensor& running_mean, const Tensor& running_var,
    double /*momentum*/, double eps) {
  const Tensor* weight = ops_util::defined_or_null(weight_opt);
  const Tensor* bias = ops_util::defined_or_null(bias_opt);
  auto [out, save_mean, save_var] =
      ops_util::batch_norm_outputs(input, weight, bias, running_mean, running_var, "CUDA");
  ops_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "batch_norm");
  if (input.numel() == 0) return {out, save_mean, save_var};
  cuda::batch_norm_kernel(input, weight != nullptr ? *weight : Tensor(),
                          bias != nullptr ? *bias : Tensor(), running_mean, running_var, eps, out);
  return {out, save_mean, save_var};
}

}  // namespace sops::aten
