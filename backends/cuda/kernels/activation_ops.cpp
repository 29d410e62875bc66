// The CUDA impls of gelu, silu, hardsigmoid, hardswish, hardtanh, leaky_relu and clamp,
// and relu's and relu_'s kernels (unstructured): the CPU kernels' checks, in the same
// order and with the same messages (CUDA kernel names where the CPU's name a CPU kernel),
// made on the host; the launchers (activation_ops.cu) compute. Non-floating dtypes get
// PyTorch's error ("silu_cuda" not implemented for 'Long'), except in clamp and hardtanh.
#include <cmath>
#include <optional>
#include <string_view>

#include "aten/ops/clamp_native.h"
#include "aten/ops/gelu_native.h"
#include "aten/ops/hardsigmoid_native.h"
#include "aten/ops/hardswish_native.h"
#include "aten/ops/hardtanh_native.h"
#include "aten/ops/leaky_relu_native.h"
#include "aten/ops/relu_native.h"
#include "aten/ops/silu_native.h"
#include "backends/cuda/kernels/activation_kernels.h"
#include "ops/util/scalar_checks.h"
#include "runtime/tensor_iterator.h"

namespace sops::aten::native {
namespace {

using ops_util::check_dtype_implemented;

// The CPU's clamp_kernel: a NaN bound fills NaN; else min(max(x, lo), hi).
void clamp_both(const TensorIteratorBase& iter, const Scalar& lo, const Scalar& hi) {
  if (std::isnan(lo.to_unchecked<double>()) || std::isnan(hi.to_unchecked<double>())) {
    cuda::clamp_nan_kernel(iter);
    return;
  }
  check_dtype_implemented(iter.dtype(0), dtypes::kAllTypes, "clamp_scalar_cuda", "self");
  cuda::clamp_kernel(iter, lo, hi);
}

void check_relu_dtype(const Tensor& self) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "Boolean inputs not supported for relu");
}

// out undefined: the iterator makes it, on self's device and in its memory layout.
Tensor relu_into(const Tensor& out, const Tensor& self) {
  TensorIterator iter(TensorIteratorConfig().add_output(out, "out").add_input(self, "self"));
  cuda::relu_kernel(iter, self.scalar_type());
  return iter.output(0);
}

}  // namespace

SOPS_IMPL_FUNC(gelu_out_cuda)
(const Tensor& /*self*/, std::string_view approximate, const Tensor& /*out*/) {
  SOPS_CHECK_ARG(approximate == "none" || approximate == "tanh", "approximate",
                 "approximate argument must be either none or tanh.");
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "GeluCUDAKernelImpl", "self");
  cuda::gelu_kernel(*this, approximate == "tanh");
}

SOPS_IMPL_FUNC(silu_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "silu_cuda", "self");
  cuda::silu_kernel(*this);
}

SOPS_IMPL_FUNC(hardsigmoid_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "hardsigmoid_cuda", "self");
  cuda::hardsigmoid_kernel(*this);
}

SOPS_IMPL_FUNC(hardswish_out_cuda)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "hardswish_cuda", "self");
  cuda::hardswish_kernel(*this);
}

SOPS_IMPL_FUNC(leaky_relu_out_cuda)
(const Tensor& /*self*/, const Scalar& negative_slope, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "leaky_relu_cuda", "self");
  cuda::leaky_relu_kernel(*this, negative_slope);
}

// PyTorch's hardtanh_out: clamp, with integral tensors' bounds truncated to integers.
SOPS_IMPL_FUNC(hardtanh_out_cuda)
(const Tensor& self, const Scalar& min_val, const Scalar& max_val, const Tensor& /*out*/) {
  if (is_integral(self.scalar_type(), /*include_bool=*/false)) {
    clamp_both(*this, Scalar(min_val.to<int64_t>()), Scalar(max_val.to<int64_t>()));
  } else {
    clamp_both(*this, min_val, max_val);
  }
}

// PyTorch's clamp_out: both bounds (a NaN one fills NaN), or only one of them.
SOPS_IMPL_FUNC(clamp_out_cuda)
(const Tensor& /*self*/, OptionalScalarRef min, OptionalScalarRef max, const Tensor& /*out*/) {
  if (min.has_value() && max.has_value()) {
    clamp_both(*this, *min, *max);
  } else if (max.has_value()) {
    check_dtype_implemented(dtype(0), dtypes::kAllTypes, "clamp_max_scalar_cuda", "self");
    cuda::clamp_max_kernel(*this, *max);
  } else {
    check_dtype_implemented(dtype(0), dtypes::kAllTypes, "clamp_min_scalar_cuda", "self");
    cuda::clamp_min_kernel(*this, *min);
  }
}

Tensor relu_cuda(const Tensor& self) {
  check_relu_dtype(self);
  return relu_into(Tensor(), self);
}

Tensor& relu_cuda_(Tensor& self) {
  check_relu_dtype(self);
  relu_into(self, self);
  return self;
}

}  // namespace sops::aten::native
