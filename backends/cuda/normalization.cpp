// native_layer_norm on CUDA: the CPU kernel's checks, messages and outputs
// (backends/cpu/normalization.cpp: layer_norm_cpu) with the computation on the device
// (normalization.cu). out has input's sizes; mean and rstd keep input's leading
// dimensions with the normalized ones as 1, all three contiguous and of input's dtype;
// float32 and float64 only ("LayerNormKernelImpl" not implemented otherwise); weight and
// bias optional; eps added to the biased variance.
#include <initializer_list>
#include <optional>
#include <sstream>
#include <tuple>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cuda/normalization_kernels.h"
#include "ops/meta/op_utils.h"
#include "ops/meta/scalar_checks.h"

namespace sops::aten {
namespace {

const Tensor* defined_or_null(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? &*t : nullptr;
}

// The CPU kernel's dtype rule for the parameters: all of input's dtype (a float32 one
// beside another input dtype gets the second message, anything else the first).
void check_parameter_dtypes(const Tensor& input, std::initializer_list<const Tensor*> params) {
  const Tensor* first = nullptr;
  for (const Tensor* p : params) {
    if (p != nullptr) {
      first = p;
      break;
    }
  }
  bool mixed = first != nullptr && first->scalar_type() != input.scalar_type();
  if (mixed) {
    for (const Tensor* p : params) {
      SOPS_CHECK(p == nullptr || p->scalar_type() == ScalarType::Float,
                 "mixed dtype (CUDA): expect parameter to have scalar type of Float");
    }
  }
  for (const Tensor* p : params) {
    mixed = mixed || (p != nullptr && p->scalar_type() != input.scalar_type());
  }
  SOPS_CHECK(!mixed, "mixed dtype (CUDA): all inputs must share same datatype.");
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> SOPS_KERNEL(layer_norm_cuda)(
    const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, double eps) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  const int64_t norm_ndim = static_cast<int64_t>(normalized_shape.size());
  SOPS_CHECK_ARG(norm_ndim >= 1, "normalized_shape",
                 "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                 "least one element, but got normalized_shape = ", normalized_shape);
  SOPS_CHECK_ARG(weight == nullptr || weight->sizes() == normalized_shape, "weight",
                 "Expected weight to be of same shape as normalized_shape, but got weight of "
                 "shape ", weight->sizes(), " and normalized_shape = ", normalized_shape);
  SOPS_CHECK_ARG(bias == nullptr || bias->sizes() == normalized_shape, "bias",
                 "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
                 bias->sizes(), " and normalized_shape = ", normalized_shape);
  const int64_t ndim = input.dim();
  const int64_t axis = ndim - norm_ndim;
  if (axis < 0 || input.sizes().slice(static_cast<std::size_t>(axis)) != normalized_shape) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (const int64_t s : normalized_shape) ss << ", " << s;
    ss << "], but got input of size" << input.sizes();
    raise(Error(ss.str(), "input"));
  }
  check_parameter_dtypes(input, {weight, bias});
  int64_t rows = 1, n = 1;
  DimVector stat_shape;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d < axis) {
      rows *= input.size(d);
      stat_shape.push_back(input.size(d));
    } else {
      n *= input.size(d);
      stat_shape.push_back(1);
    }
  }
  Tensor out = sops::empty(input.sizes(), input.options());
  Tensor mean = sops::empty(stat_shape, input.options());
  Tensor rstd = sops::empty(stat_shape, input.options());
  ops_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "LayerNormKernelImpl");
  if (rows == 0) return {out, mean, rstd};
  cuda::layer_norm_kernel(input, weight != nullptr ? *weight : Tensor(),
                          bias != nullptr ? *bias : Tensor(), out, mean, rstd, rows, n, eps);
  return {out, mean, rstd};
}

}  // namespace sops::aten
