// What every backend's kernels of max_pool2d_with_indices, avg_pool2d and
// adaptive_avg_pool2d share: the dtypes they compute in, adaptive_avg_pool2d's checks and
// outputs, the sizes of one 2-d pooling, and the input window each output element reads
// (PyTorch's formulas; host and device functions, which CUDA kernels call too).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>

#include "ops/util/op_utils.h"
#include "runtime/error.h"
#include "runtime/host_device.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

// The dtypes each pooling computes in (PyTorch's CPU kernels').
inline constexpr uint32_t kMaxPool2dTypes = dtypes::kAllTypes;
inline constexpr uint32_t kAvgPool2dTypes = dtypes::kFloatingTypes | dtypes::bit(ScalarType::Long);
inline constexpr uint32_t kAdaptiveAvgPool2dTypes = dtypes::kFloatingTypes;

// The sizes of one 2-d pooling: batch (1 for a 3-d input), channels, input and output
// planes, and the window.
struct Pool2dShape {
  int64_t batch, channels;
  int64_t in_h, in_w, out_h, out_w;
  int64_t kH, kW, dH, dW, padH, padW, dilH, dilW;
};

inline Pool2dShape pool2d_shape(const Tensor& input, const Tensor& out, const Pool2dWindow& w) {
  Pool2dShape g{};
  g.batch = input.dim() == 4 ? input.size(0) : 1;
  g.channels = input.size(-3);
  g.in_h = input.size(-2);
  g.in_w = input.size(-1);
  g.out_h = out.size(-2);
  g.out_w = out.size(-1);
  g.kH = w.kH, g.kW = w.kW, g.dH = w.dH, g.dW = w.dW, g.padH = w.padH, g.padW = w.padW;
  g.dilH = w.dilationH, g.dilW = w.dilationW;
  return g;
}

// A max pool's starting value: -inf, or the type's lowest value where it has no infinity.
template <typename T>
constexpr T max_pool_initial() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::lowest();
}

// A max pool's window along one dimension for output index o: it starts at
// o * stride - pad and takes every dil-th of k elements. start is its first index inside
// the input (stepping by dil), end one past its reach, clipped to size.
SOPS_HOST_DEVICE inline void max_pool_window(int64_t o, int64_t stride, int64_t pad, int64_t k,
                                             int64_t dil, int64_t size, int64_t* start,
                                             int64_t* end) {
  int64_t s = o * stride - pad;
  const int64_t reach = s + (k - 1) * dil + 1;
  *end = reach < size ? reach : size;
  while (s < 0) s += dil;
  *start = s;
}

// An average pool's window of output (oh, ow), clipped to the input, and its divisor:
// divisor_override when not 0 (the meta function refuses 0), else the window's size,
// counting the padding it covers when count_include_pad (PyTorch's cpu_avg_pool rules).
struct AvgPoolWindow {
  int64_t ih0, ih1, iw0, iw1, divisor;
};

// false for a window entirely in the padding (its output is 0).
SOPS_HOST_DEVICE inline bool avg_pool_window(const Pool2dShape& g, int64_t oh, int64_t ow,
                                             bool count_include_pad, int64_t divisor_override,
                                             AvgPoolWindow* w) {
  int64_t ih0 = oh * g.dH - g.padH, iw0 = ow * g.dW - g.padW;
  int64_t ih1 = ih0 + g.kH < g.in_h + g.padH ? ih0 + g.kH : g.in_h + g.padH;
  int64_t iw1 = iw0 + g.kW < g.in_w + g.padW ? iw0 + g.kW : g.in_w + g.padW;
  const int64_t pool_size = (ih1 - ih0) * (iw1 - iw0);
  ih0 = ih0 > 0 ? ih0 : 0;
  iw0 = iw0 > 0 ? iw0 : 0;
  ih1 = ih1 < g.in_h ? ih1 : g.in_h;
  iw1 = iw1 < g.in_w ? iw1 : g.in_w;
  if (ih0 >= ih1 || iw0 >= iw1) return false;
  w->ih0 = ih0, w->ih1 = ih1, w->iw0 = iw0, w->iw1 = iw1;
  w->divisor = divisor_override != 0 ? divisor_override
               : count_include_pad   ? pool_size
                                     : (ih1 - ih0) * (iw1 - iw0);
  return true;
}

// An adaptive pool's window along one dimension: [start, end) of the input for output
// index o (PyTorch's start_index and end_index).
SOPS_HOST_DEVICE inline int64_t adaptive_start_index(int64_t o, int64_t out_size, int64_t in_size) {
  return (o * in_size) / out_size;
}
SOPS_HOST_DEVICE inline int64_t adaptive_end_index(int64_t o, int64_t out_size, int64_t in_size) {
  return ((o + 1) * in_size + out_size - 1) / out_size;
}

// _adaptive_avg_pool2d's and adaptive_avg_pool2d.out's checks (PyTorch's
// adaptive_avg_pool2d_out_cpu_template), and the output sizes.
inline DimVector adaptive_avg_pool2d_sizes(const Tensor& input, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 2, "output_size",
                 "adaptive_avg_pool2d: output_size must be 2");
  const int64_t ndim = input.dim();
  SOPS_CHECK_ARG(ndim == 3 || ndim == 4, "self",
                 "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", input.sizes());
  for (const int64_t i : {-2, -1}) {
    SOPS_CHECK_ARG(input.size(i) > 0, "self",
                   "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                   "dimensions, but input has sizes ",
                   input.sizes(), " with dimension ", i + ndim, " being empty");
  }
  SOPS_CHECK_ARG(output_size[0] >= 0 && output_size[1] >= 0, "output_size",
                 "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                 "but received {",
                 output_size[0], ", ", output_size[1], "}");
  DimVector sizes{input.size(-3), output_size[0], output_size[1]};
  if (ndim == 4) sizes.insert(0, input.size(0));
  return sizes;
}

// _adaptive_avg_pool2d's result, checked and allocated on self's device; it keeps a
// channels-last input's layout.
inline Tensor adaptive_avg_pool2d_output(const Tensor& self, IntArrayRef output_size) {
  const DimVector sizes = adaptive_avg_pool2d_sizes(self, output_size);
  const MemoryFormat format =
      self.dim() == 4 ? suggest_memory_format(self) : MemoryFormat::Contiguous;
  const DimVector strides = strides_for(sizes, format);
  return strides.empty() ? sops::empty(sizes, self.options())
                         : sops::empty_strided(sizes, strides, self.options());
}

// adaptive_avg_pool2d.out's out, checked and resized; a contiguous out of its own memory
// takes a channels-last input's layout.
inline void resize_adaptive_avg_pool2d_out(const Tensor& self, IntArrayRef output_size,
                                           const Tensor& out) {
  const DimVector sizes = adaptive_avg_pool2d_sizes(self, output_size);
  SOPS_CHECK_ARG(self.scalar_type() == out.scalar_type(), "out", "expected dtype ",
                 typemeta_name(self.scalar_type()), " for `output` but got dtype ",
                 typemeta_name(out.scalar_type()));
  out.resize_(sizes);
  if (self.dim() == 4 && suggest_memory_format(self) == MemoryFormat::ChannelsLast &&
      out.is_contiguous() && out.storage_offset() == 0) {
    out.as_strided_(sizes, channels_last_strides(sizes));
  }
}

}  // namespace sops::aten::ops_util
