// What the meta functions and kernels of avg_pool3d, max_pool3d_with_indices and
// _adaptive_avg_pool3d share: their window arguments, PyTorch's pool3d_shape_check, the
// sizes of one 3-d pooling, the dtypes each computes in, and their outputs.
#pragma once

#include <cstdint>
#include <string_view>

#include "ops/util/op_utils.h"
#include "runtime/error.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

// The dtypes each 3-d pooling computes in (PyTorch's CPU kernels').
inline constexpr uint32_t kMaxPool3dTypes = dtypes::kAllTypes;
inline constexpr uint32_t kAvgPool3dTypes = dtypes::kFloatingTypes | dtypes::bit(ScalarType::Long);
inline constexpr uint32_t kAdaptiveAvgPool3dTypes = dtypes::kFloatingTypes;

// A 3-d pooling's window: kernel, stride (defaulting to the kernel), padding, dilation.
struct Pool3dWindow {
  int64_t kT, kH, kW, dT, dH, dW, padT, padH, padW, dilT, dilH, dilW;
};

// kernel_size / stride / padding / dilation as PyTorch's 3-d poolings read them (one value
// stands for all three dimensions). avg_pool3d and max_pool3d word their messages
// differently ("must be" / "must either be"); avg_pool3d has no dilation (pass {1}).
inline Pool3dWindow pool3d_window(std::string_view op, IntArrayRef kernel_size, IntArrayRef stride,
                                  IntArrayRef padding, IntArrayRef dilation) {
  const std::string_view either = op == "max_pool3d" ? "either " : "";
  SOPS_CHECK_ARG(kernel_size.size() == 1 || kernel_size.size() == 3, "kernel_size", op,
                 ": kernel_size must ", either, "be a single int, or a tuple of three ints");
  SOPS_CHECK_ARG(stride.empty() || stride.size() == 1 || stride.size() == 3, "stride", op,
                 ": stride must ", either, "be omitted, a single int, or a tuple of three ints");
  SOPS_CHECK_ARG(padding.size() == 1 || padding.size() == 3, "padding", op, ": padding must ",
                 either, "be a single int, or a tuple of three ints");
  SOPS_CHECK_ARG(dilation.size() == 1 || dilation.size() == 3, "dilation", op,
                 ": dilation must be either a single int, or a tuple of three ints");
  auto at = [](IntArrayRef v, std::size_t i) { return v.size() == 1 ? v[0] : v[i]; };
  Pool3dWindow w{};
  w.kT = kernel_size[0], w.kH = at(kernel_size, 1), w.kW = at(kernel_size, 2);
  w.dT = stride.empty() ? w.kT : stride[0];
  w.dH = stride.empty() ? w.kH : at(stride, 1);
  w.dW = stride.empty() ? w.kW : at(stride, 2);
  w.padT = padding[0], w.padH = at(padding, 1), w.padW = at(padding, 2);
  w.dilT = dilation[0], w.dilH = at(dilation, 1), w.dilW = at(dilation, 2);
  return w;
}

// The sizes of one 3-d pooling: batch (1 for a 4-d input), channels, input and output
// volumes, and the window.
struct Pool3dShape {
  int64_t batch, channels;
  int64_t in_t, in_h, in_w, out_t, out_h, out_w;
  Pool3dWindow w;
};

// The output volume of `input` pooled by `w` (PyTorch's pooling_output_shape per
// dimension), after pool3d_shape_check: positive kernel, stride and dilation, a 4-d or
// 5-d input with only the batch allowed to be empty, (for avg_pool3d) an input at least
// as large as the kernel, padding at most half the kernel, and an output of at least one
// element. fn names the operator in its messages.
inline Pool3dShape pool3d_shape(const Tensor& input, const Pool3dWindow& w, bool ceil_mode,
                                std::string_view fn, bool check_input_size) {
  Pool3dShape g{};
  g.w = w;
  const int64_t ndim = input.dim();
  g.batch = ndim == 5 ? input.size(0) : 1;
  g.channels = input.size(-4);
  g.in_t = input.size(-3), g.in_h = input.size(-2), g.in_w = input.size(-1);
  g.out_t = pooling_output_shape(g.in_t, w.kT, w.padT, w.dT, w.dilT, ceil_mode);
  g.out_h = pooling_output_shape(g.in_h, w.kH, w.padH, w.dH, w.dilH, ceil_mode);
  g.out_w = pooling_output_shape(g.in_w, w.kW, w.padW, w.dW, w.dilW, ceil_mode);
  SOPS_CHECK_ARG(w.kT > 0 && w.kW > 0 && w.kH > 0, "kernel_size",
                 "kernel size should be greater than zero, but got kT: ", w.kT, " kH: ", w.kH,
                 " kW: ", w.kW);
  SOPS_CHECK_ARG(w.dT > 0 && w.dW > 0 && w.dH > 0, "stride",
                 "stride should be greater than zero, but got dT: ", w.dT, " dH: ", w.dH,
                 " dW: ", w.dW);
  SOPS_CHECK_ARG(w.dilT > 0 && w.dilW > 0 && w.dilH > 0, "dilation",
                 "dilation should be greater than zero, but got dilationT: ", w.dilT,
                 " dilationH: ", w.dilH, " dilationW: ", w.dilW);
  SOPS_CHECK_ARG(ndim == 4 || ndim == 5, "self", fn,
                 ": Expected 4D or 5D tensor for input, but got: ", input.sizes());
  for (int64_t i = ndim == 5 ? 1 : 0; i < ndim; ++i) {
    // PyTorch's message prints the dimension's length (0), not its index.
    SOPS_CHECK_ARG(input.size(i) > 0, "self", fn,
                   ": Expected input's non-batch dimensions to have positive length, but input "
                   "has a shape of ",
                   input.sizes(), " and non-batch dimension ", input.size(i), " has length zero!");
  }
  if (check_input_size) {
    SOPS_CHECK_ARG(g.in_t >= w.kT && g.in_h >= w.kH && g.in_w >= w.kW, "self",
                   "input image (T: ", g.in_t, " H: ", g.in_h, " W: ", g.in_w,
                   ") smaller than kernel size (kT: ", w.kT, " kH: ", w.kH, " kW: ", w.kW, ")");
  }
  SOPS_CHECK_ARG(w.kT / 2 >= w.padT && w.kW / 2 >= w.padW && w.kH / 2 >= w.padH, "padding",
                 "pad should be smaller than or equal to half of kernel size, but got kT: ", w.kT,
                 " kW: ", w.kW, " kH: ", w.kH, " padT: ", w.padT, " padW: ", w.padW,
                 " padH: ", w.padH);
  SOPS_CHECK_ARG(g.out_t >= 1 && g.out_w >= 1 && g.out_h >= 1, "self", "Given input size: (",
                 g.channels, "x", g.in_t, "x", g.in_h, "x", g.in_w, "). Calculated output size: (",
                 g.channels, "x", g.out_t, "x", g.out_h, "x", g.out_w,
                 "). Output size is too small");
  return g;
}

// The result sizes of a 3-d pooling of `input` (4-d or 5-d) with the output volume of g.
inline DimVector pool3d_sizes(const Tensor& input, const Pool3dShape& g) {
  DimVector sizes{g.channels, g.out_t, g.out_h, g.out_w};
  if (input.dim() == 5) sizes.insert(0, g.batch);
  return sizes;
}

// _adaptive_avg_pool3d's and adaptive_avg_pool3d.out's checks (PyTorch's
// adaptive_avg_pool3d_out_cpu_template), and the output sizes.
inline DimVector adaptive_avg_pool3d_sizes(const Tensor& input, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 3, "output_size",
                 "adaptive_avg_pool3d: output_size must be 3");
  const int64_t ndim = input.dim();
  SOPS_CHECK_ARG(ndim == 4 || ndim == 5, "self",
                 "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got ", input.sizes());
  for (int64_t i = 1; i < ndim; ++i) {
    SOPS_CHECK_ARG(input.size(i) > 0, "self",
                   "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
                   "dimensions, but input has sizes ",
                   input.sizes(), " with dimension ", i, " being empty");
  }
  SOPS_CHECK_ARG(output_size[0] >= 0 && output_size[1] >= 0 && output_size[2] >= 0, "output_size",
                 "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 "
                 "but received {",
                 output_size[0], ", ", output_size[1], ",", output_size[2], "}");
  DimVector sizes{input.size(-4), output_size[0], output_size[1], output_size[2]};
  if (ndim == 5) sizes.insert(0, input.size(0));
  return sizes;
}

// PyTorch's out.resize_(sizes, format) of an out= kernel: new sizes, and the dense
// strides of `format` whatever out's were.
inline void resize_out_as(const Tensor& out, IntArrayRef sizes, MemoryFormat format) {
  out.resize_(sizes);
  DimVector strides = strides_for(sizes, format);
  if (strides.empty()) strides = sops::contiguous_strides(sizes);
  if (out.strides() != IntArrayRef(strides)) {
    out.as_strided_(sizes, strides, out.storage_offset());
  }
}

}  // namespace sops::aten::ops_util
