// CPU kernels of relu, elu, gelu, silu, hardsigmoid, hardswish, hardtanh, leaky_relu and clamp,
// with PyTorch's formulas. gelu and silu use runtime/vec_math.h's erf, tanh and exp on whole
// vectors (std::erf, std::tanh, std::exp on the tails), which differ from PyTorch's in
// the last bits (elu uses exp as well). Non-floating dtypes get
// PyTorch's error ("silu_cpu" not implemented for 'Long'), except in clamp and hardtanh.
//
// relu and relu_ (unstructured, as in PyTorch): max(x, 0) keeping NaN and -0.0.
// Registered for CPU and Meta; on meta tensors only the checks and shapes happen.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include "aten/ops/clamp_native.h"
#include "aten/ops/elu_native.h"
#include "aten/ops/gelu_native.h"
#include "aten/ops/hardsigmoid_native.h"
#include "aten/ops/hardswish_native.h"
#include "aten/ops/hardtanh_native.h"
#include "aten/ops/leaky_relu_native.h"
#include "aten/ops/relu_native.h"
#include "aten/ops/silu_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using cpu_util::check_dtype_implemented;
using cpu_util::scalar_to;

// out = min(max(x, lo), hi) in out's dtype (NaN stays NaN); a NaN bound fills NaN.
void clamp_kernel(const TensorIteratorBase& iter, const Scalar& lo, const Scalar& hi) {
  if (std::isnan(lo.to_unchecked<double>()) || std::isnan(hi.to_unchecked<double>())) {
    SOPS_DISPATCH_FLOATING_TYPES(iter.dtype(0), "clamp", [&] {
      sops::cpu_kernel(iter, [](scalar_t /*x*/) -> scalar_t {
        return std::numeric_limits<scalar_t>::quiet_NaN();
      });
    });
    return;
  }
  check_dtype_implemented(iter.dtype(0), dtypes::kAllTypes, "clamp_scalar_cpu", "self");
  SOPS_DISPATCH_ALL_TYPES(iter.dtype(0), "clamp", [&] {
    const scalar_t a = scalar_to<scalar_t>(lo);
    const scalar_t b = scalar_to<scalar_t>(hi);
    sops::cpu_kernel(iter, [a, b](scalar_t x) -> scalar_t { return std::min(std::max(x, a), b); });
  });
}

}  // namespace

SOPS_IMPL_FUNC(gelu_out)(const Tensor& /*self*/, std::string_view approximate,
                         const Tensor& /*out*/) {
  SOPS_CHECK_ARG(approximate == "none" || approximate == "tanh", "approximate",
                 "approximate argument must be either none or tanh.");
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "GeluKernelImpl", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "gelu", [&] {
    using V = typename Vec32<scalar_t>::type;
    if (approximate == "none") {
      const scalar_t alpha = static_cast<scalar_t>(M_SQRT1_2);
      sops::cpu_kernel_vec(
          *this,
          [alpha](scalar_t x) -> scalar_t {
            return x * scalar_t(0.5) * (scalar_t(1) + std::erf(x * alpha));
          },
          [alpha](V x) SOPS_VEC_LAMBDA -> V {
            return x * scalar_t(0.5) * (scalar_t(1) + vec::erf(x * alpha));
          });
    } else {
      const scalar_t beta = static_cast<scalar_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const scalar_t kappa = static_cast<scalar_t>(0.044715);
      sops::cpu_kernel_vec(
          *this,
          [beta, kappa](scalar_t x) -> scalar_t {
            return scalar_t(0.5) * x * (scalar_t(1) + std::tanh(beta * (x + kappa * x * x * x)));
          },
          [beta, kappa](V x) SOPS_VEC_LAMBDA -> V {
            return scalar_t(0.5) * x * (scalar_t(1) + vec::tanh(beta * (x + kappa * x * x * x)));
          });
    }
  });
}

SOPS_IMPL_FUNC(silu_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "silu_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "silu", [&] {
    using V = typename Vec32<scalar_t>::type;
    sops::cpu_kernel_vec(
        *this, [](scalar_t x) -> scalar_t { return x / (scalar_t(1) + std::exp(-x)); },
        [](V x) SOPS_VEC_LAMBDA -> V { return x / (scalar_t(1) + vec::exp(-x)); });
  });
}

// x <= 0 ? (exp(x * input_scale) - 1) * alpha * scale : x * scale (NaN takes the second).
SOPS_IMPL_FUNC(elu_out)
(const Tensor& /*self*/, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
 const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "elu_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "elu", [&] {
    using V = typename Vec32<scalar_t>::type;
    const scalar_t neg = scalar_to<scalar_t>(alpha) * scalar_to<scalar_t>(scale);
    const scalar_t pos = scalar_to<scalar_t>(scale);
    const scalar_t in = scalar_to<scalar_t>(input_scale);
    sops::cpu_kernel_vec(
        *this,
        [neg, pos, in](scalar_t x) -> scalar_t {
          return x <= scalar_t(0) ? (std::exp(x * in) - scalar_t(1)) * neg : x * pos;
        },
        [neg, pos, in](V x) SOPS_VEC_LAMBDA -> V {
          return x <= scalar_t(0) ? (vec::exp(x * in) - scalar_t(1)) * neg : x * pos;
        });
  });
}

// min(max(x + 3, 0), 6) / 6.
SOPS_IMPL_FUNC(hardsigmoid_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "hardsigmoid_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "hardsigmoid", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t {
      return std::min(std::max(x + scalar_t(3), scalar_t(0)), scalar_t(6)) / scalar_t(6);
    });
  });
}

// x * min(max(x + 3, 0), 6) / 6.
SOPS_IMPL_FUNC(hardswish_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "hardswish_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "hardswish", [&] {
    sops::cpu_kernel(*this, [](scalar_t x) -> scalar_t {
      return x * std::min(std::max(x + scalar_t(3), scalar_t(0)), scalar_t(6)) / scalar_t(6);
    });
  });
}

// x > 0 ? x : x * negative_slope (NaN and -0.0 take the second branch, unchanged).
SOPS_IMPL_FUNC(leaky_relu_out)(const Tensor& /*self*/, const Scalar& negative_slope,
                               const Tensor& /*out*/) {
  check_dtype_implemented(dtype(0), dtypes::kFloatingTypes, "leaky_relu_cpu", "self");
  SOPS_DISPATCH_FLOATING_TYPES(dtype(0), "leaky_relu", [&] {
    const scalar_t slope = scalar_to<scalar_t>(negative_slope);
    sops::cpu_kernel(*this,
                     [slope](scalar_t x) -> scalar_t { return x > scalar_t(0) ? x : x * slope; });
  });
}

// PyTorch's hardtanh_out: clamp, with integral tensors' bounds truncated to integers.
SOPS_IMPL_FUNC(hardtanh_out)
(const Tensor& self, const Scalar& min_val, const Scalar& max_val, const Tensor& /*out*/) {
  if (is_integral(self.scalar_type(), /*include_bool=*/false)) {
    clamp_kernel(*this, Scalar(min_val.to<int64_t>()), Scalar(max_val.to<int64_t>()));
  } else {
    clamp_kernel(*this, min_val, max_val);
  }
}

// PyTorch's clamp_out: both bounds (a NaN one fills NaN), or only one of them.
SOPS_IMPL_FUNC(clamp_out)
(const Tensor& /*self*/, OptionalScalarRef min, OptionalScalarRef max, const Tensor& /*out*/) {
  if (min.has_value() && max.has_value()) {
    clamp_kernel(*this, *min, *max);
  } else if (max.has_value()) {
    check_dtype_implemented(dtype(0), dtypes::kAllTypes, "clamp_max_scalar_cpu", "self");
    SOPS_DISPATCH_ALL_TYPES(dtype(0), "clamp", [&] {
      const scalar_t b = scalar_to<scalar_t>(*max);
      sops::cpu_kernel(*this, [b](scalar_t x) -> scalar_t { return std::min(x, b); });
    });
  } else {
    check_dtype_implemented(dtype(0), dtypes::kAllTypes, "clamp_min_scalar_cpu", "self");
    SOPS_DISPATCH_ALL_TYPES(dtype(0), "clamp", [&] {
      const scalar_t a = scalar_to<scalar_t>(*min);
      sops::cpu_kernel(*this, [a](scalar_t x) -> scalar_t { return std::max(x, a); });
    });
  }
}

}  // namespace sops::aten::native

// ---- relu, relu_
namespace sops::aten::native {
namespace {

void check_relu_dtype(const Tensor& self) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "Boolean inputs not supported for relu");
}

// out undefined: the iterator makes it, in self's memory layout (as PyTorch's relu); a
// given one (relu_, relu.out) is borrowed, as self is.
Tensor relu_into(const Tensor& out, const Tensor& self) {
  TensorIteratorConfig config;
  config.add_output(out, "out").add_input(self, "self");
  TensorIterator iter;
  if (out.defined()) {
    iter.build_borrowing(config);
  } else {
    iter.build(config);
  }
  if (self.is_meta()) return iter.output(0);
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "relu", [&] {
    sops::cpu_kernel(iter, [](scalar_t x) -> scalar_t {
      if constexpr (std::is_unsigned_v<scalar_t>) {
        return x;
      } else {
        return x < scalar_t(0) ? scalar_t(0) : x;  // NaN and -0.0 pass through
      }
    });
  });
  return iter.output(0);
}

}  // namespace

Tensor relu(const Tensor& self) {
  check_relu_dtype(self);
  return relu_into(Tensor(), self);
}

Tensor& relu_(Tensor& self) {
  check_relu_dtype(self);
  relu_into(self, self);
  return self;
}

// relu.out, which native_functions.yaml leaves to autogen: written into `out` directly
// (backends/cpu/autogen_kernels.yaml).
Tensor& relu_out(const Tensor& self, Tensor& out) {
  check_relu_dtype(self);
  if (!cpu_util::can_write_into(out, self.scalar_type(), self.sizes(), {&self})) {
    cpu_util::copy_to_out(out, relu(self));
    return out;
  }
  relu_into(out, self);
  return out;
}

}  // namespace sops::aten::native
