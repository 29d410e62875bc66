// Meta functions of max_pool2d_with_indices and avg_pool2d (structured), and
// adaptive_avg_pool2d, a composite over _adaptive_avg_pool2d. The outputs keep a
// channels-last input's layout, as PyTorch's do.
#include "aten/ops/_adaptive_avg_pool2d.h"
#include "aten/ops/adaptive_avg_pool2d_native.h"
#include "aten/ops/avg_pool2d_meta.h"
#include "aten/ops/max_pool2d_with_indices_meta.h"
#include "aten/ops/mean.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {

SOPS_META_FUNC(max_pool2d_with_indices)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 IntArrayRef dilation, bool ceil_mode) {
  const ops_util::Pool2dWindow w =
      ops_util::pool2d_window("max_pool2d", kernel_size, stride, padding, dilation);
  const MemoryFormat format = ops_util::suggest_memory_format(input);
  if (format == MemoryFormat::ChannelsLast) {
    SOPS_CHECK_ARG(input.dim() == 4, "self",
                   "non-empty 4D (batch mode) tensor expected for input with channels_last layout");
  } else {
    SOPS_CHECK_ARG(input.dim() == 3 || input.dim() == 4, "self",
                   "non-empty 3D or 4D (batch mode) tensor expected for input");
  }
  const int64_t batch = input.dim() == 4 ? input.size(-4) : 1;
  const int64_t planes = input.size(-3);
  const int64_t height = input.size(-2);
  const int64_t width = input.size(-1);
  const int64_t out_h =
      ops_util::pooling_output_shape(height, w.kH, w.padH, w.dH, w.dilationH, ceil_mode);
  const int64_t out_w =
      ops_util::pooling_output_shape(width, w.kW, w.padW, w.dW, w.dilationW, ceil_mode);
  ops_util::pool2d_shape_check(input, w, planes, height, width, out_h, out_w, format);
  DimVector sizes{planes, out_h, out_w};
  if (input.dim() == 4) sizes.insert(0, batch);
  const DimVector strides = ops_util::strides_for(sizes, format);
  set_output_raw_strided(0, sizes, strides, input.options());
  set_output_raw_strided(1, sizes, strides, input.options().dtype(ScalarType::Long));
}

SOPS_META_FUNC(avg_pool2d)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 bool ceil_mode, bool /*count_include_pad*/, std::optional<int64_t> divisor_override) {
  const int64_t one[1] = {1};
  const ops_util::Pool2dWindow w =
      ops_util::pool2d_window("avg_pool2d", kernel_size, stride, padding, one);
  SOPS_CHECK_ARG(!divisor_override.has_value() || *divisor_override != 0, "divisor_override",
                 "divisor must be not zero");
  const int64_t batch = input.dim() == 4 ? input.size(-4) : 1;
  const int64_t planes = input.size(ops_util::wrap_dim(-3, input.dim(), "self"));
  const int64_t height = input.size(-2);
  const int64_t width = input.size(-1);
  const int64_t out_h = ops_util::pooling_output_shape(height, w.kH, w.padH, w.dH, 1, ceil_mode);
  const int64_t out_w = ops_util::pooling_output_shape(width, w.kW, w.padW, w.dW, 1, ceil_mode);
  const MemoryFormat format = ops_util::suggest_memory_format(input);
  ops_util::pool2d_shape_check(input, w, planes, height, width, out_h, out_w, format);
  DimVector sizes{planes, out_h, out_w};
  if (input.dim() == 4) sizes.insert(0, batch);
  set_output_raw_strided(0, sizes, ops_util::strides_for(sizes, format), input.options());
  precomputed.kH = w.kH;
  precomputed.kW = w.kW;
  precomputed.dH = w.dH;
  precomputed.dW = w.dW;
  precomputed.padH = w.padH;
  precomputed.padW = w.padW;
}

}  // namespace sops::aten::meta

namespace sops::aten::native {

// PyTorch's adaptive_avg_pool2d: an output of 1x1 is the mean over height and width,
// anything else _adaptive_avg_pool2d.
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 2, "output_size",
                 "adaptive_avg_pool2d: output_size must be 2");
  SOPS_CHECK_ARG(output_size[0] >= 0 && output_size[1] >= 0, "output_size",
                 "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                 "but received {",
                 output_size[0], ", ", output_size[1], "}");
  if (output_size[0] != 1 || output_size[1] != 1) {
    return sops::aten::_adaptive_avg_pool2d(self, output_size);
  }
  // The mean over height and width, as PyTorch computes it: so any input of 2 or more
  // dimensions, floating dtypes only (mean's message for the others), a channels_last
  // input's layout kept.
  const int64_t dims[2] = {-1, -2};
  Tensor out = sops::aten::mean(self, IntArrayRef(dims), /*keepdim=*/true, std::nullopt);
  if (ops_util::suggest_memory_format(self) == MemoryFormat::ChannelsLast) {
    const int64_t n = self.size(0), c = self.size(1);
    const int64_t sizes[4] = {n, c, 1, 1};
    const int64_t strides[4] = {c, 1, c, c};
    out.as_strided_(sizes, strides);
  }
  return out;
}

}  // namespace sops::aten::native
