// The CUDA impls of the element-wise unary math operators (the yaml's "unary math"
// section): the meta functions (shared with the CPU) built the iterator; the impls make the CPU
// kernels' checks and choices on the host and the launchers (unary_ops.cu) compute.
#include "aten/ops/abs_native.h"
#include "aten/ops/acos_native.h"
#include "aten/ops/acosh_native.h"
#include "aten/ops/asin_native.h"
#include "aten/ops/asinh_native.h"
#include "aten/ops/atan_native.h"
#include "aten/ops/atanh_native.h"
#include "aten/ops/cos_native.h"
#include "aten/ops/cosh_native.h"
#include "aten/ops/erf_native.h"
#include "aten/ops/exp_native.h"
#include "aten/ops/expm1_native.h"
#include "aten/ops/log10_native.h"
#include "aten/ops/log1p_native.h"
#include "aten/ops/log2_native.h"
#include "aten/ops/log_native.h"
#include "aten/ops/neg_native.h"
#include "aten/ops/pow_native.h"
#include "aten/ops/reciprocal_native.h"
#include "aten/ops/rsqrt_native.h"
#include "aten/ops/sigmoid_native.h"
#include "aten/ops/sin_native.h"
#include "aten/ops/sinh_native.h"
#include "aten/ops/sqrt_native.h"
#include "aten/ops/tan_native.h"
#include "aten/ops/tanh_native.h"
#include "backends/cuda/kernels/unary_kernels.h"
#include "ops/util/scalar_checks.h"
#include "runtime/type_promotion.h"

namespace sops::aten::native {
namespace {

// PyTorch's Scalar::equal(double): a bool is never equal to a number.
bool scalar_equals(const Scalar& s, double v) {
  return !s.is_boolean() && s.to_unchecked<double>() == v;
}

}  // namespace

SOPS_IMPL_FUNC(neg_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  cuda::neg_kernel(*this);
}

SOPS_IMPL_FUNC(abs_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "abs_cuda", "self");
  cuda::abs_kernel(*this);
}

#define SOPS_CUDA_UNARY_FLOAT_IMPL(name)                                           \
  SOPS_IMPL_FUNC(name##_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) { \
    cuda::name##_kernel(*this);                                                    \
  }

SOPS_CUDA_UNARY_FLOAT_IMPL(exp)
SOPS_CUDA_UNARY_FLOAT_IMPL(log)
SOPS_CUDA_UNARY_FLOAT_IMPL(sqrt)
SOPS_CUDA_UNARY_FLOAT_IMPL(rsqrt)
SOPS_CUDA_UNARY_FLOAT_IMPL(sigmoid)
SOPS_CUDA_UNARY_FLOAT_IMPL(tanh)
SOPS_CUDA_UNARY_FLOAT_IMPL(sin)
SOPS_CUDA_UNARY_FLOAT_IMPL(cos)
SOPS_CUDA_UNARY_FLOAT_IMPL(tan)
SOPS_CUDA_UNARY_FLOAT_IMPL(asin)
SOPS_CUDA_UNARY_FLOAT_IMPL(acos)
SOPS_CUDA_UNARY_FLOAT_IMPL(atan)
SOPS_CUDA_UNARY_FLOAT_IMPL(sinh)
SOPS_CUDA_UNARY_FLOAT_IMPL(cosh)
SOPS_CUDA_UNARY_FLOAT_IMPL(asinh)
SOPS_CUDA_UNARY_FLOAT_IMPL(acosh)
SOPS_CUDA_UNARY_FLOAT_IMPL(atanh)
SOPS_CUDA_UNARY_FLOAT_IMPL(erf)
SOPS_CUDA_UNARY_FLOAT_IMPL(expm1)
SOPS_CUDA_UNARY_FLOAT_IMPL(log1p)
SOPS_CUDA_UNARY_FLOAT_IMPL(log2)
SOPS_CUDA_UNARY_FLOAT_IMPL(log10)
SOPS_CUDA_UNARY_FLOAT_IMPL(reciprocal)

#undef SOPS_CUDA_UNARY_FLOAT_IMPL

// PyTorch's pow_Tensor_Scalar_out, as the CPU kernel: exponent 0 fills 1, exponent 1
// copies, floating bases go by the exponent's value, integral bases multiply by squaring.
SOPS_IMPL_FUNC(pow_Tensor_Scalar_out_cuda)
(const Tensor& self, const Scalar& exponent, const Tensor& /*out*/) {
  const ScalarType dtype = result_type(self, exponent);
  if (scalar_equals(exponent, 0.0) || (exponent.is_boolean() && !exponent.to_unchecked<bool>())) {
    cuda::pow_fill_one_kernel(*this, dtype);
    return;
  }
  if (scalar_equals(exponent, 1.0) || (exponent.is_boolean() && exponent.to_unchecked<bool>())) {
    cuda::pow_identity_kernel(*this, dtype);
    return;
  }
  if (is_floating_point(dtype)) {
    cuda::pow_floating_kernel(*this, dtype, exponent.to_unchecked<double>());
    return;
  }
  // Integral (bool ** n is int64: bool never reaches here with a number exponent).
  ops_util::check_dtype_implemented(dtype, dtypes::kIntegralTypes, "pow", "self");
  cuda::pow_integral_kernel(*this, dtype, exponent);
}

}  // namespace sops::aten::native
