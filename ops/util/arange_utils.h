// What every backend's kernels of arange.start_out share (PyTorch's RangeFactories): the
// dtypes, the accumulation type the values are computed in, the checked length of the
// range and out's resize, and each value (a host and device function, which CUDA kernels
// call too).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "ops/util/scalar_checks.h"
#include "ops/util/scalar_math.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/host_device.h"
#include "runtime/scalar.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

// bool results are not implemented.
inline constexpr uint32_t kArangeTypes = dtypes::kAllTypes | dtypes::kReducedFloatingTypes;

// The type the values are computed in: int64 for the integral dtypes, float for float16
// and bfloat16, double for float32 and float64.
template <typename T>
using arange_acc_t = std::conditional_t<std::is_integral_v<T>, int64_t,
                                        std::conditional_t<is_reduced_float_v<T>, float, double>>;

// The checked length of the range: ceil((end - start) / step), computed exactly in int64
// for an int64 result; errors as PyTorch's.
template <typename scalar_t>
int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step) {
  using acc = arange_acc_t<scalar_t>;
  const acc xstart = scalar_to<acc>(start);
  const acc xend = scalar_to<acc>(end);
  const acc xstep = scalar_to<acc>(step);
  SOPS_CHECK_ARG(xstep > 0 || xstep < 0, "step", "step must be nonzero");
  SOPS_CHECK_ARG(
      std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)), "end",
      "unsupported range: ", xstart, " -> ", xend);
  SOPS_CHECK_ARG((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart), "step",
                 "upper bound and lower bound inconsistent with step sign");
  double size_d;
  if constexpr (std::is_same_v<scalar_t, int64_t>) {
    // In 128 bits: end - start + step - sgn overflows int64 for a range across most of
    // it (arange(-2^63, 2^63 - 1, 2^62) has 4 values; PyTorch's int64 sum wraps to 0).
    const __int128 sgn = (xstep > 0) - (xstep < 0);
    const __int128 n =
        (static_cast<__int128>(xend) - xstart + static_cast<__int128>(xstep) - sgn) / xstep;
    size_d = n > std::numeric_limits<int64_t>::max() ? std::numeric_limits<double>::infinity()
                                                     : static_cast<double>(n);
  } else {
    size_d =
        std::ceil((scalar_to<double>(end) - scalar_to<double>(start)) / scalar_to<double>(step));
  }
  // int64's largest value rounds up to 2^63 as a double: the bound is strict.
  SOPS_CHECK_ARG(size_d >= 0 && size_d < 0x1p63, "end", "invalid size, possible overflow?");
  return static_cast<int64_t>(size_d);
}

// arange.start_out's checks, and out resized to the range's length unless it has that
// many elements already (PyTorch's rule); returns the length. `kernel` names the kernel in
// the dtype error ("arange_cpu").
inline int64_t resize_arange_out(const Scalar& start, const Scalar& end, const Scalar& step,
                                 const Tensor& out, std::string_view kernel) {
  check_dtype_implemented(out.scalar_type(), kArangeTypes, kernel);
  const int64_t size = SOPS_DISPATCH_TYPES(kArangeTypes, out.scalar_type(), kernel, [&] {
    return arange_length<scalar_t>(start, end, step);
  });
  if (out.numel() != size) out.resize_({size});
  return size;
}

// Value i of the range, in the accumulation type (the caller converts it to the result's
// dtype): start + step * i, which wraps around in int64 as in PyTorch, and whose product
// is rounded before the sum on a GPU too (no fused multiply-add, as on the CPU).
template <typename acc>
SOPS_HOST_DEVICE acc arange_value(acc start, acc step, int64_t i) {
  if constexpr (std::is_integral_v<acc>) {
    return math::wrapping_add<int64_t>(start, math::wrapping_mul<int64_t>(step, i));
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<acc, float>) {
      return start + __fmul_rn(step, static_cast<float>(i));
    } else {
      return start + __dmul_rn(step, static_cast<double>(i));
    }
#else
    return start + step * static_cast<acc>(i);
#endif
  }
}

}  // namespace sops::aten::ops_util
