// arange.start_step (CompositeExplicitAutograd) and arange.start_out (CPU and Meta):
// PyTorch's RangeFactories. The values are start + step * i computed in the
// accumulation type and converted; the length and the value rules are every backend's
// (ops/util/arange_utils.h).
#include "aten/ops/arange.h"
#include "aten/ops/arange_native.h"
#include "aten/ops/copy.h"
#include "aten/ops/empty.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/arange_utils.h"

namespace sops::aten::native {
namespace {

template <typename scalar_t>
void fill_range(scalar_t* data, int64_t n, const Scalar& start, const Scalar& step) {
  using acc = ops_util::arange_acc_t<scalar_t>;
  const acc xstart = cpu_util::scalar_to<acc>(start);
  const acc xstep = cpu_util::scalar_to<acc>(step);
  for (int64_t i = 0; i < n; ++i) {
    data[i] = convert<scalar_t>(ops_util::arange_value(xstart, xstep, i));
  }
}

}  // namespace

Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  const int64_t size = ops_util::resize_arange_out(start, end, step, out, "arange_cpu");
  if (out.is_meta() || size == 0) return out;
  SOPS_DISPATCH_TYPES(ops_util::kArangeTypes, out.scalar_type(), "arange_cpu", [&] {
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
