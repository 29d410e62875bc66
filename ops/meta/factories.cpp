// zeros and zeros.out: composites over empty and fill_.
#include "aten_cpu/Functions.h"
#include "aten_cpu/NativeFunctions.h"

namespace sops::aten::native {
namespace {

void check_sizes_nonnegative(IntArrayRef size) {
  for (const int64_t s : size) {
    SOPS_CHECK_ARG(s >= 0, "size", "zeros: Dimension size must be non-negative.");
  }
}

}  // namespace

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  check_sizes_nonnegative(size);
  Tensor result = sops::aten::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  sops::aten::fill_(result, 0);
  return result;
}

Tensor& zeros_out(IntArrayRef size, Tensor& out) {
  check_sizes_nonnegative(size);
  out.resize_(size);
  sops::aten::fill_(out, 0);
  return out;
}

}  // namespace sops::aten::native
