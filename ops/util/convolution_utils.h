// The argument checks, geometry and result of convolution that every backend shares: the
// CPU and CUDA kernels call convolution_output, then compute on their device. PyTorch's
// checks and messages (ConvUtils.h's check_shape_forward, slow_conv_transpose2d's shape
// check); 1-d and 2-d convolutions, a 1-d one described as a 2-d one of height 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"
#include "runtime/error.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

// One convolution as a 2-d one: sizes and parameters of height and width.
struct Conv2d {
  int64_t batch, in_c, in_h, in_w, out_c, out_h, out_w, groups;
  int64_t kH, kW, sH, sW, pH, pW, dH, dW;
  bool transposed;
  int64_t in_cg() const { return in_c / groups; }    // input channels per group
  int64_t out_cg() const { return out_c / groups; }  // output channels per group
};

namespace detail {

// PyTorch's expand_param_if_needed: one value stands for every spatial dimension.
inline DimVector expand_conv_param(IntArrayRef param, std::string_view name, int64_t dim) {
  if (param.size() == 1) return DimVector(static_cast<std::size_t>(dim), param[0]);
  if (static_cast<int64_t>(param.size()) != dim) {
    std::ostringstream ss;
    ss << "expected " << name << " to be a single integer value or a list of " << dim
       << " values to match the convolution dimensions, but got " << name << "=" << param;
    raise(Error(ss.str(), std::string(name)));
  }
  return DimVector(param);
}

inline bool any_of(IntArrayRef v, bool (*pred)(int64_t)) {
  return std::any_of(v.begin(), v.end(), pred);
}

// PyTorch's check_shape_forward.
inline void check_shape_forward(const Tensor& input, IntArrayRef w, const Tensor* bias,
                                IntArrayRef padding, IntArrayRef dilation, bool transposed,
                                int64_t groups) {
  const int64_t k = input.dim();
  const int64_t weight_dim = static_cast<int64_t>(w.size());
  SOPS_CHECK_ARG(static_cast<int64_t>(w.size()) == k, "input", "Expected ", weight_dim,
                 "-dimensional input for ", weight_dim, "-dimensional weight ", w, ", but got ", k,
                 "-dimensional input of size ", input.sizes(), " instead");
  SOPS_CHECK_ARG(w[0] >= groups, "weight", "Given groups=", groups,
                 ", expected weight to be at least ", groups,
                 " at dimension 0, but got weight of size ", w, " instead");
  SOPS_CHECK_ARG(w[0] % groups == 0, "weight", "Given groups=", groups,
                 ", expected weight to be divisible by ", groups,
                 " at dimension 0, but got weight of size [", w, "] instead");
  if (!transposed) {
    SOPS_CHECK_ARG(input.size(1) == w[1] * groups, "input", "Given groups=", groups,
                   ", weight of size ", w, ", expected input", input.sizes(), " to have ",
                   w[1] * groups, " channels, but got ", input.size(1), " channels instead");
    SOPS_CHECK_ARG(bias == nullptr || (bias->dim() == 1 && bias->size(0) == w[0]), "bias",
                   "Given weight of size ", w, ", expected bias to be 1-dimensional with ", w[0],
                   " elements, but got bias of size ", bias->sizes(), " instead");
    std::ostringstream in_ss, kernel_ss;
    bool fits = true;
    for (int64_t i = 2; i < k; ++i) {
      const auto s = static_cast<std::size_t>(i - 2);
      // Checked: a model may give any padding or dilation (2^62 overflows the sums).
      const int64_t padded =
          checked_add(input.size(i), checked_mul(2, padding[s], "padded input size", "padding"),
                      "padded input size", "padding");
      const int64_t kernel =
          checked_add(checked_mul(dilation[s], w[static_cast<std::size_t>(i)] - 1,
                                  "dilated kernel size", "dilation"),
                      1, "dilated kernel size", "dilation");
      fits = fits && padded >= kernel;
      in_ss << (i > 2 ? " x " : "") << padded;
      kernel_ss << (i > 2 ? " x " : "") << kernel;
    }
    SOPS_CHECK_ARG(fits, "input", "Calculated padded input size per channel: (", in_ss.str(),
                   "). Kernel size: (", kernel_ss.str(),
                   "). Kernel size can't be greater than actual input size");
  } else {
    SOPS_CHECK_ARG(input.size(1) == w[0], "input", "Given transposed=", transposed ? 1 : 0,
                   ", weight of size ", w, ", expected input", input.sizes(), " to have ", w[0],
                   " channels, but got ", input.size(1), " channels instead");
    SOPS_CHECK_ARG(bias == nullptr || (bias->dim() == 1 && bias->size(0) == w[1] * groups), "bias",
                   "Given transposed=", transposed ? 1 : 0, ", weight of size ", w,
                   ", expected bias to be 1-dimensional with ", w[1] * groups,
                   " elements, but got bias of size ", bias->sizes(), " instead");
  }
}

// A transposed convolution's output size, (in - 1) * stride - 2 * padding +
// dilation * (kernel - 1) + output_padding + 1, each step checked.
inline int64_t transposed_output_size(int64_t in, int64_t stride, int64_t padding, int64_t dilation,
                                      int64_t kernel, int64_t output_padding) {
  constexpr std::string_view kWhat = "transposed convolution output size";
  int64_t out = checked_mul(in - 1, stride, kWhat, "stride");
  out = checked_sub(out, checked_mul(2, padding, kWhat, "padding"), kWhat, "padding");
  out = checked_add(out, checked_mul(dilation, kernel - 1, kWhat, "dilation"), kWhat, "dilation");
  out = checked_add(out, output_padding, kWhat, "output_padding");
  return checked_add(out, 1, kWhat, "output_padding");
}

inline bool channels_last_4d(const Tensor& t) {
  return t.dim() == 4 && suggest_memory_format(t) == MemoryFormat::ChannelsLast;
}

}  // namespace detail

// convolution's result, checked and allocated on input's device, and its geometry. The
// result is channels-last when a 4-d input or weight is, as PyTorch's CPU backends make it.
struct ConvolutionOutput {
  Tensor out;
  Conv2d geometry;
};

inline ConvolutionOutput convolution_output(const Tensor& input, const Tensor& weight,
                                            const Tensor* bias, IntArrayRef stride_,
                                            IntArrayRef padding_, IntArrayRef dilation_,
                                            bool transposed, IntArrayRef output_padding_,
                                            int64_t groups) {
  const int64_t dim = weight.dim() - 2;
  SOPS_CHECK_ARG(dim > 0, "weight", "weight should have at least three dimensions");
  SOPS_CHECK_ARG(groups > 0, "groups", "non-positive groups is not supported");
  const DimVector stride = detail::expand_conv_param(stride_, "stride", dim);
  const DimVector padding = detail::expand_conv_param(padding_, "padding", dim);
  const DimVector dilation = detail::expand_conv_param(dilation_, "dilation", dim);
  const DimVector output_padding =
      detail::expand_conv_param(output_padding_, "output_padding", dim);
  SOPS_CHECK_ARG(!detail::any_of(padding, [](int64_t v) { return v < 0; }), "padding",
                 "negative padding is not supported");
  SOPS_CHECK_ARG(!detail::any_of(output_padding, [](int64_t v) { return v < 0; }), "output_padding",
                 "negative output_padding is not supported");
  SOPS_CHECK_ARG(!detail::any_of(stride, [](int64_t v) { return v <= 0; }), "stride",
                 "non-positive stride is not supported");
  SOPS_CHECK_ARG(!detail::any_of(dilation, [](int64_t v) { return v <= 0; }), "dilation",
                 "dilation should be greater than zero, but got ", IntArrayRef(dilation));
  detail::check_shape_forward(input, weight.sizes(), bias, padding, dilation, transposed, groups);
  SOPS_CHECK_ARG(dim <= 2, "weight",
                 "convolution: only 1-d and 2-d convolutions are supported, got a ", dim, "-d one");
  SOPS_CHECK_ARG(input.scalar_type() == weight.scalar_type(), "weight", "expected scalar type ",
                 aten_name(input.scalar_type()), " but found ", aten_name(weight.scalar_type()));

  // The geometry, 1-d as 2-d of height 1.
  Conv2d c{};
  c.transposed = transposed;
  c.groups = groups;
  c.batch = input.size(0);
  c.in_c = input.size(1);
  c.out_c = transposed ? weight.size(1) * groups : weight.size(0);
  c.in_h = dim == 2 ? input.size(2) : 1;
  c.in_w = input.size(-1);
  c.kH = dim == 2 ? weight.size(2) : 1;
  c.kW = weight.size(-1);
  const auto last = static_cast<std::size_t>(dim - 1);
  c.sH = dim == 2 ? stride[0] : 1, c.sW = stride[last];
  c.pH = dim == 2 ? padding[0] : 0, c.pW = padding[last];
  c.dH = dim == 2 ? dilation[0] : 1, c.dW = dilation[last];
  const int64_t opH = dim == 2 ? output_padding[0] : 0, opW = output_padding[last];
  if (transposed) {
    c.out_h = detail::transposed_output_size(c.in_h, c.sH, c.pH, c.dH, c.kH, opH);
    c.out_w = detail::transposed_output_size(c.in_w, c.sW, c.pW, c.dW, c.kW, opW);
  } else {
    // check_shape_forward checked that padded >= kernel and that both fit, so this
    // form ((padded - kernel) / stride + 1) cannot overflow, whatever the stride.
    c.out_h = (c.in_h + 2 * c.pH - (c.dH * (c.kH - 1) + 1)) / c.sH + 1;
    c.out_w = (c.in_w + 2 * c.pW - (c.dW * (c.kW - 1) + 1)) / c.sW + 1;
  }
  if (transposed) {
    // PyTorch's slow_conv_transpose2d_shape_check (a 1-d one as 2-d of height 1).
    SOPS_CHECK_ARG((opH < c.sH || opH < c.dH) && (opW < c.sW || opW < c.dW), "output_padding",
                   "output padding must be smaller than either stride or dilation, but got "
                   "output_padding_height: ",
                   opH, " output_padding_width: ", opW, " stride_height: ", c.sH,
                   " stride_width: ", c.sW, " dilation_height: ", c.dH, " dilation_width: ", c.dW);
    SOPS_CHECK_ARG(c.out_h >= 1 && c.out_w >= 1, "input", "Given input size per channel: (", c.in_h,
                   " x ", c.in_w, "). Calculated output size per channel: (", c.out_h, " x ",
                   c.out_w, "). Output size is too small");
  }
  DimVector sizes{c.batch, c.out_c};
  if (dim == 2) sizes.push_back(c.out_h);
  sizes.push_back(c.out_w);
  const bool cl = detail::channels_last_4d(input) || detail::channels_last_4d(weight);
  Tensor out = cl ? sops::empty_strided(sizes, channels_last_strides(sizes), input.options())
                  : sops::empty(sizes, input.options());
  return {out, c};
}

// PyTorch's dtypes of its slow convolution kernels: every integral and floating dtype,
// floating dtypes and int64 when transposed. The error names the kernel with `device`'s
// suffix: "slow_conv2d_cpu" not implemented for 'Bool'.
inline void check_convolution_dtype(ScalarType dtype, bool transposed, std::string_view device) {
  const uint32_t supported =
      transposed ? dtypes::kFloatingTypes | dtypes::bit(ScalarType::Long) : dtypes::kAllTypes;
  if (dtypes::contains(supported, dtype)) return;
  check_dtype_implemented(
      dtype, supported,
      ::sops::detail::str(transposed ? "slow_conv_transpose2d_out_" : "slow_conv2d_", device));
}

}  // namespace sops::aten::ops_util
