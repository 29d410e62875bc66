// The CUDA impls of the element-wise binary math of core ATen: the bitwise ops,
// logical_xor, maximum and minimum, fmod and remainder, atan2, pow with a tensor exponent
// (and a Scalar base) and clamp with tensor bounds. The meta functions (shared with the
// CPU) built the iterator; the impls make the CPU kernels' dtype checks on the host, with
// the names of PyTorch's CUDA kernels ("bitwise_and_cuda" not implemented for 'Float'),
// and the launchers (binary_math_ops.cu) compute. Integer division by zero is not
// checked here: that would read the divisor back from the GPU, and PyTorch's CUDA
// kernels do not check it either (as div's rounding modes, binary_ops.cpp).
#include "aten/ops/atan2_native.h"
#include "aten/ops/bitwise_and_native.h"
#include "aten/ops/bitwise_or_native.h"
#include "aten/ops/bitwise_xor_native.h"
#include "aten/ops/clamp_native.h"
#include "aten/ops/fill.h"
#include "aten/ops/fmod_native.h"
#include "aten/ops/logical_xor_native.h"
#include "aten/ops/maximum_native.h"
#include "aten/ops/minimum_native.h"
#include "aten/ops/pow.h"
#include "aten/ops/pow_native.h"
#include "aten/ops/remainder_native.h"
#include "backends/cuda/kernels/binary_math_kernels.h"
#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {
namespace {

// Integral and bool operands only.
void bitwise(const TensorIteratorBase& iter, cuda::BitwiseOp op, const char* kernel_name) {
  if (iter.common_dtype() != ScalarType::Bool) {
    ops_util::check_dtype_implemented(iter.common_dtype(), dtypes::kIntegralTypes, kernel_name,
                                      "self");
  }
  cuda::bitwise_kernel(iter, op);
}

}  // namespace

SOPS_IMPL_FUNC(bitwise_and_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise(*this, cuda::BitwiseOp::kAnd, "bitwise_and_cuda");
}

SOPS_IMPL_FUNC(bitwise_or_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise(*this, cuda::BitwiseOp::kOr, "bitwise_or_cuda");
}

SOPS_IMPL_FUNC(bitwise_xor_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  bitwise(*this, cuda::BitwiseOp::kXor, "bitwise_xor_cuda");
}

SOPS_IMPL_FUNC(logical_xor_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  cuda::logical_xor_kernel(*this);
}

SOPS_IMPL_FUNC(maximum_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  cuda::maximum_kernel(*this);
}

SOPS_IMPL_FUNC(minimum_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  cuda::minimum_kernel(*this);
}

// bool is refused.
SOPS_IMPL_FUNC(fmod_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "fmod_cuda", "self");
  cuda::fmod_kernel(*this);
}

SOPS_IMPL_FUNC(remainder_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "remainder_cuda", "self");
  cuda::remainder_kernel(*this);
}

SOPS_IMPL_FUNC(atan2_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  cuda::atan2_kernel(*this);
}

SOPS_IMPL_FUNC(pow_Tensor_Tensor_out_cuda)(const Tensor&, const Tensor&, const Tensor&) {
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "pow_cuda", "self");
  cuda::pow_tensor_kernel(*this);
}

// As on the CPU: a base of 1 gives ones (even for a NaN exponent); any other runs
// pow.Tensor_Tensor with the base as a wrapped 0-dim cpu tensor, which the CUDA kernel
// takes as a cpu scalar.
SOPS_IMPL_FUNC(pow_Scalar_out_cuda)(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  Tensor result = out;
  if (!self.is_boolean() && self.to_unchecked<double>() == 1.0) {
    sops::aten::fill_(result, Scalar(int64_t{1}));
    return;
  }
  sops::aten::pow_out(result, ops_util::wrapped_scalar_like(self, exponent), exponent);
}

// Both bounds: clamp's kernel (bool refused); one bound: maximum's or minimum's kernel,
// as on the CPU and in PyTorch.
SOPS_IMPL_FUNC(clamp_Tensor_out_cuda)
(const Tensor&, OptionalTensorRef min, OptionalTensorRef max, const Tensor&) {
  if (!(min.has_value() && max.has_value())) {
    if (min.has_value()) {
      cuda::maximum_kernel(*this);
    } else {
      cuda::minimum_kernel(*this);
    }
    return;
  }
  ops_util::check_dtype_implemented(common_dtype(), dtypes::kAllTypes, "clamp_cuda", "self");
  cuda::clamp_tensor_kernel(*this);
}

}  // namespace sops::aten::native
