// avg_pool3d's meta function (structured), and adaptive_avg_pool3d, a composite: the
// mean over the volume for an output of 1x1x1, else _adaptive_avg_pool3d (PyTorch's).
// avg_pool3d's result is contiguous whatever the input's layout, as PyTorch 2.13's.
#include "aten/ops/_adaptive_avg_pool3d.h"
#include "aten/ops/adaptive_avg_pool3d_native.h"
#include "aten/ops/avg_pool3d_meta.h"
#include "aten/ops/mean.h"
#include "ops/util/op_utils.h"
#include "ops/util/pool3d_utils.h"

namespace sops::aten::meta {

SOPS_META_FUNC(avg_pool3d)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 bool ceil_mode, bool /*count_include_pad*/, std::optional<int64_t> divisor_override) {
  const int64_t one[1] = {1};
  const ops_util::Pool3dWindow w =
      ops_util::pool3d_window("avg_pool3d", kernel_size, stride, padding, one);
  SOPS_CHECK_ARG(input.dim() == 4 || input.dim() == 5, "self",
                 "non-empty 4D or 5D (batch mode) tensor expected for input");
  SOPS_CHECK_ARG(!divisor_override.has_value() || *divisor_override != 0, "divisor_override",
                 "divisor must be not zero");
  const ops_util::Pool3dShape g =
      ops_util::pool3d_shape(input, w, ceil_mode, "avg_pool3d()", /*check_input_size=*/true);
  set_output_raw_strided(0, ops_util::pool3d_sizes(input, g), {}, input.options());
}

}  // namespace sops::aten::meta

namespace sops::aten::native {

Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 3, "output_size",
                 "adaptive_avg_pool3d: output_size must be 3");
  SOPS_CHECK_ARG(output_size[0] >= 0 && output_size[1] >= 0 && output_size[2] >= 0, "output_size",
                 "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 "
                 "but received {",
                 output_size[0], ", ", output_size[1], ",", output_size[2], "}");
  if (output_size[0] != 1 || output_size[1] != 1 || output_size[2] != 1) {
    return sops::aten::_adaptive_avg_pool3d(self, output_size);
  }
  const int64_t dims[3] = {-1, -2, -3};
  Tensor out = sops::aten::mean(self, IntArrayRef(dims), /*keepdim=*/true, std::nullopt);
  if (ops_util::suggest_memory_format(self) == MemoryFormat::ChannelsLast3d) {
    const int64_t n = self.size(0), c = self.size(1);
    const int64_t sizes[5] = {n, c, 1, 1, 1};
    const int64_t strides[5] = {c, 1, c, c, c};
    out.as_strided_(sizes, strides);
  }
  return out;
}

}  // namespace sops::aten::native
