// arange.start_step (CompositeExplicitAutograd) and arange.start_out (CPU and Meta):
// PyTorch's RangeFactories. The values are start + step * i computed in the
// accumulation type (double for float32/float64, float for float16/bfloat16, int64 for
// the integral dtypes) and converted; the length is ceil((end - start) / step),
// computed exactly in int64 for an int64 result. bool results are not implemented.
#include <cmath>
#include <limits>
#include <type_traits>

#include "aten_cpu/Functions.h"
#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {
namespace {

template <typename T>
using acc_t = std::conditional_t<std::is_integral_v<T>, int64_t,
                                 std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>,
                                                    float, double>>;

// The checked length of the range; errors as PyTorch's.
template <typename scalar_t>
int64_t range_length(const Scalar& start, const Scalar& end, const Scalar& step) {
  using acc = acc_t<scalar_t>;
  const acc xstart = cpu_util::scalar_to<acc>(start);
  const acc xend = cpu_util::scalar_to<acc>(end);
  const acc xstep = cpu_util::scalar_to<acc>(step);
  SOPS_CHECK_ARG(xstep > 0 || xstep < 0, "step", "step must be nonzero");
  SOPS_CHECK_ARG(std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)),
                 "end", "unsupported range: ", xstart, " -> ", xend);
  SOPS_CHECK_ARG((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart), "step",
                 "upper bound and lower bound inconsistent with step sign");
  double size_d;
  if constexpr (std::is_same_v<scalar_t, int64_t>) {
    const int64_t sgn = (xstep > 0) - (xstep < 0);
    size_d = std::ceil(static_cast<double>((xend - xstart + xstep - sgn) / xstep));
  } else {
    size_d = std::ceil((cpu_util::scalar_to<double>(end) - cpu_util::scalar_to<double>(start)) /
                       cpu_util::scalar_to<double>(step));
  }
  SOPS_CHECK_ARG(size_d >= 0 && size_d <= static_cast<double>(std::numeric_limits<int64_t>::max()),
                 "end", "invalid size, possible overflow?");
  return static_cast<int64_t>(size_d);
}

template <typename scalar_t>
void fill_range(scalar_t* data, int64_t n, const Scalar& start, const Scalar& step) {
  using acc = acc_t<scalar_t>;
  const acc xstart = cpu_util::scalar_to<acc>(start);
  const acc xstep = cpu_util::scalar_to<acc>(step);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<acc>) {
      // int64 arithmetic wraps as in PyTorch, then narrows to the result type.
      data[i] = static_cast<scalar_t>(cpu_util::wrapping_add<int64_t>(xstart, cpu_util::wrapping_mul<int64_t>(xstep, i)));
    } else {
      data[i] = convert<scalar_t>(xstart + xstep * static_cast<acc>(i));
    }
  }
}

}  // namespace

Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  constexpr uint32_t kSupported = dtypes::kAllTypes | dtypes::kReducedFloatingTypes;
  cpu_util::check_dtype_implemented(out.scalar_type(), kSupported, "arange_cpu");
  SOPS_DISPATCH_TYPES(kSupported, out.scalar_type(), "arange_cpu", [&] {
    const int64_t size = range_length<scalar_t>(start, end, step);
    if (out.numel() != size) out.resize_({size});
    if (out.is_meta() || size == 0) return;
    if (out.is_contiguous()) {
      fill_range<scalar_t>(out.data_ptr<scalar_t>(), size, start, step);
    } else {
      Tensor tmp = sops::empty({size}, out.options());
      fill_range<scalar_t>(tmp.data_ptr<scalar_t>(), size, start, step);
      sops::aten::copy_(out, tmp);
    }
  });
  return out;
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  const bool integral = start.is_integral(true) && end.is_integral(true) && step.is_integral(true);
  const ScalarType type = dtype.value_or(integral ? ScalarType::Long : ScalarType::Float);
  Tensor result = sops::aten::empty({0}, type, layout, device, pin_memory, std::nullopt);
  return sops::aten::arange_outf(start, end, step, result);
}

}  // namespace sops::aten::native
