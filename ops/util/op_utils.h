// Helpers shared by the meta functions (ops/meta) and the CPU kernels (backends/cpu):
// PyTorch's wording for the errors the golden data records, dimension wrapping, and
// memory-format strides.
#pragma once

#include <cstdint>
#include <numeric>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/dense_strides.h"
#include "runtime/error.h"
#include "runtime/native_types.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/small_sort.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops::aten::ops_util {

// ATen's ScalarType name, as PyTorch prints it in errors: "Float", "Long", "Bool".
constexpr std::string_view aten_name(ScalarType t) {
  // The enumerators are ATen's names.
  switch (t) {
#define SOPS_CASE(unused, name, str) \
  case ScalarType::name:             \
    return #name;
    SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
    SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
    case ScalarType::Undefined:
      break;
  }
  return "Undefined";
}

// The C++ element type's name as PyTorch's tensor.dtype() prints it (runtime/scalar_type.h).
using sops::typemeta_name;

// A possibly negative dimension made non-negative, with PyTorch's message:
// "Dimension out of range (expected to be in range of [-2, 1], but got 2)". A 0-dim
// tensor accepts 0 and -1.
inline int64_t wrap_dim(int64_t dim, int64_t ndim, std::string_view argument = "dim") {
  const int64_t n = ndim <= 0 ? 1 : ndim;
  SOPS_CHECK_ARG(dim >= -n && dim < n, argument,
                 "Dimension out of range (expected to be in range of [", -n, ", ", n - 1,
                 "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

// Strides of a channels-last (NHWC in memory) tensor of NCHW sizes, or of an NDHWC
// one for 5-d sizes. Size-0 dimensions count as 1, as in contiguous strides.
inline DimVector channels_last_strides(IntArrayRef sizes) {
  const std::size_t n = sizes.size();
  DimVector strides(n, 1);
  auto at_least_1 = [](int64_t s) { return s > 1 ? s : int64_t{1}; };
  // Order from innermost: C, then W, H, (D), then N.
  int64_t step = at_least_1(sizes[1]);
  for (std::size_t d = n - 1; d >= 2; --d) {
    strides[d] = step;
    step *= at_least_1(sizes[d]);
  }
  strides[0] = step;
  return strides;
}

// PyTorch's suggest_memory_format, for the layouts sops makes: channels-last when t is
// 4-d (5-d for ChannelsLast3d), not contiguous, and strided exactly as channels-last
// for every dimension of size > 1.
inline MemoryFormat suggest_memory_format(const Tensor& t) {
  if ((t.dim() != 4 && t.dim() != 5) || t.is_contiguous()) return MemoryFormat::Contiguous;
  const DimVector expected = channels_last_strides(t.sizes());
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) > 1 && t.stride(d) != expected[static_cast<std::size_t>(d)]) {
      return MemoryFormat::Contiguous;
    }
  }
  return t.dim() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
}

// Strides for a new tensor of `sizes` in `format` (empty: contiguous).
inline DimVector strides_for(IntArrayRef sizes, MemoryFormat format) {
  if (format == MemoryFormat::ChannelsLast || format == MemoryFormat::ChannelsLast3d) {
    return channels_last_strides(sizes);
  }
  return DimVector();
}

// PyTorch's is_non_overlapping_and_dense and infer_dense_strides (runtime/dense_strides.h).
using sops::infer_dense_strides;
using sops::is_non_overlapping_and_dense;

}  // namespace sops::aten::ops_util

namespace sops::aten::ops_util {

// The dimensions a reduction over `dims` of an ndim-dimensional tensor reduces, as a
// bit mask. Absent or empty `dims`: all of them. Errors name the argument "dim":
// out of range, or "dim 0 appears multiple times in the list of dims".
inline uint64_t reduction_mask(OptionalIntArrayRef dims, int64_t ndim) {
  SOPS_CHECK_ARG(ndim <= 64, "self", "only tensors with up to 64 dims are supported, got ", ndim);
  if (!dims.has_value() || dims->empty()) {
    return ndim == 64 ? ~uint64_t{0} : (uint64_t{1} << ndim) - 1;
  }
  uint64_t mask = 0;
  for (const int64_t d : *dims) {
    const int64_t w = wrap_dim(d, ndim);
    const uint64_t bit = uint64_t{1} << w;
    SOPS_CHECK_ARG((mask & bit) == 0, "dim", "dim ", w,
                   " appears multiple times in the list of dims");
    mask |= bit;
  }
  // A 0-dim tensor "reduces" over its implicit single dimension.
  return ndim == 0 ? 0 : mask;
}

// any.dims' dimensions: None is every dimension, an empty list none (unlike sum's).
inline uint64_t any_dims_mask(OptionalIntArrayRef dims, int64_t ndim) {
  if (dims.has_value() && dims->empty()) return 0;
  return reduction_mask(dims, ndim);
}

// The result dtype of sum and prod: dtype= wins; else a given out's; else self's,
// integral (and bool) promoted to int64.
inline ScalarType sum_dtype(const Tensor& self, const Tensor& out,
                            std::optional<ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  if (out.defined()) return out.scalar_type();
  const ScalarType t = self.scalar_type();
  return is_integral(t, /*include_bool=*/true) ? ScalarType::Long : t;
}

// The result shape of reducing the dimensions of `mask`: without them, or with size 1
// in their place when keepdim.
inline DimVector reduced_shape(const Tensor& self, uint64_t mask, bool keepdim) {
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1u) {
      if (keepdim) shape.push_back(1);
    } else {
      shape.push_back(self.size(d));
    }
  }
  return shape;
}

}  // namespace sops::aten::ops_util

namespace sops::aten::ops_util {

// PyTorch's wrapped_scalar_tensor(s): a 0-dim tensor of s.type() marked as a wrapped
// number, so that type promotion treats it as a Python number. It is made on `like`'s
// device when that is meta (a meta call touches no cpu memory), else on cpu.
inline Tensor wrapped_scalar_like(const Scalar& s, const Tensor& like) {
  Tensor t = scalar_to_tensor(s, like.is_meta() ? like.device() : Device(DeviceType::CPU));
  t.unsafe_get_impl()->set_wrapped_number(true);
  return t;
}

// TensorIterator's check_all_same_dtype for a given out= (or inplace self) tensor, with
// PyTorch's message: "Found dtype Long but expected Float". An undefined out passes.
inline void check_out_dtype(const Tensor& out, ScalarType expected,
                            std::string_view argument = "out") {
  if (!out.defined()) return;
  SOPS_CHECK_ARG(out.scalar_type() == expected, argument, "Found dtype ",
                 aten_name(out.scalar_type()), " but expected ", aten_name(expected));
}

}  // namespace sops::aten::ops_util

namespace sops::aten::ops_util {

// Floor division (rounds toward negative infinity), PyTorch's div_rtn.
inline int64_t div_rtn(int64_t x, int64_t y) {
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}

// The output size of a pooling window along one dimension (PyTorch's
// pooling_output_shape), with its checks of stride and padding.
inline int64_t pooling_output_shape(int64_t input_size, int64_t kernel, int64_t pad, int64_t stride,
                                    int64_t dilation, bool ceil_mode) {
  SOPS_CHECK_ARG(stride != 0, "stride", "stride should not be zero");
  SOPS_CHECK_ARG(pad >= 0, "padding", "pad must be non-negative, but got pad: ", pad);
  // Every step checked: a model may give any kernel, dilation, padding or stride, and
  // PyTorch's own int64 arithmetic wraps around for huge ones.
  constexpr std::string_view kWhat = "pooling output size";
  const int64_t effective_kernel = checked_add(
      checked_mul(checked_sub(kernel, 1, kWhat, "kernel_size"), dilation, kWhat, "dilation"), 1,
      kWhat, "dilation");
  SOPS_CHECK_ARG(pad <= effective_kernel / 2, "padding",
                 "pad should be at most half of effective kernel size, but got pad=", pad,
                 ", kernel_size=", kernel, " and dilation=", dilation);
  // 0 <= 2 * pad <= effective_kernel: the product fits, the sums are checked.
  int64_t span = checked_sub(checked_add(input_size, 2 * pad, kWhat, "padding"), effective_kernel,
                             kWhat, "kernel_size");
  if (ceil_mode) span = checked_add(span, checked_sub(stride, 1, kWhat, "stride"), kWhat, "stride");
  SOPS_CHECK_ARG(!(span == INT64_MIN && stride == -1), "stride", "pooling output size overflows");
  int64_t out = checked_add(div_rtn(span, stride), 1, kWhat, "stride");
  // In ceil mode the last window must start inside the input or its left padding (out - 1
  // windows of `stride` fit in span + stride - 1, so the product is in range).
  if (ceil_mode && (out - 1) * stride >= input_size + pad) --out;
  return out;
}

// A 2-d pooling's window: kernel, stride (defaulting to the kernel), padding, dilation.
struct Pool2dWindow {
  int64_t kH, kW, dH, dW, padH, padW, dilationH, dilationW;
};

// kernel_size / stride / padding / dilation as PyTorch's pooling ops read them (one value
// stands for both dimensions), with its messages naming `op`.
inline Pool2dWindow pool2d_window(std::string_view op, IntArrayRef kernel_size, IntArrayRef stride,
                                  IntArrayRef padding, IntArrayRef dilation) {
  SOPS_CHECK_ARG(kernel_size.size() == 1 || kernel_size.size() == 2, "kernel_size", op,
                 ": kernel_size must either be a single int, or a tuple of two ints");
  Pool2dWindow w{};
  w.kH = kernel_size[0];
  w.kW = kernel_size.size() == 1 ? w.kH : kernel_size[1];
  SOPS_CHECK_ARG(stride.empty() || stride.size() == 1 || stride.size() == 2, "stride", op,
                 ": stride must either be omitted, a single int, or a tuple of two ints");
  w.dH = stride.empty() ? w.kH : stride[0];
  w.dW = stride.empty() ? w.kW : stride.size() == 1 ? w.dH : stride[1];
  SOPS_CHECK_ARG(padding.size() == 1 || padding.size() == 2, "padding", op,
                 ": padding must either be a single int, or a tuple of two ints");
  w.padH = padding[0];
  w.padW = padding.size() == 1 ? w.padH : padding[1];
  SOPS_CHECK_ARG(dilation.size() == 1 || dilation.size() == 2, "dilation", op,
                 ": dilation must be either a single int, or a tuple of two ints");
  w.dilationH = dilation[0];
  w.dilationW = dilation.size() == 1 ? w.dilationH : dilation[1];
  return w;
}

// PyTorch's pool2d_shape_check: positive kernel, stride and dilation, a 3-d or 4-d input
// with only the batch allowed to be empty, padding at most half the kernel, and an
// output of at least one element per plane.
inline void pool2d_shape_check(const Tensor& input, const Pool2dWindow& w, int64_t planes,
                               int64_t input_height, int64_t input_width, int64_t output_height,
                               int64_t output_width, MemoryFormat format) {
  SOPS_CHECK_ARG(w.kW > 0 && w.kH > 0, "kernel_size",
                 "kernel size should be greater than zero, but got kH: ", w.kH, " kW: ", w.kW);
  SOPS_CHECK_ARG(w.dW > 0 && w.dH > 0, "stride",
                 "stride should be greater than zero, but got dH: ", w.dH, " dW: ", w.dW);
  SOPS_CHECK_ARG(w.dilationH > 0 && w.dilationW > 0, "dilation",
                 "dilation should be greater than zero, but got dilationH: ", w.dilationH,
                 " dilationW: ", w.dilationW);
  const int64_t ndim = input.dim();
  const bool valid_dims = input.size(1) != 0 && input.size(2) != 0;
  if (format == MemoryFormat::ChannelsLast) {
    SOPS_CHECK_ARG(ndim == 4 && valid_dims && input.size(3) != 0, "self",
                   "Expected 4D (batch mode) tensor expected for input with channels_last layout "
                   "with optional 0 dim batch size for input, but got: ",
                   input.sizes());
  } else {
    SOPS_CHECK_ARG((ndim == 3 && input.size(0) != 0 && valid_dims) ||
                       (ndim == 4 && valid_dims && input.size(3) != 0),
                   "self",
                   "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for "
                   "input, but got:",
                   input.sizes());
  }
  SOPS_CHECK_ARG(w.kW / 2 >= w.padW && w.kH / 2 >= w.padH, "padding",
                 "pad should be smaller than or equal to half of kernel size, but got padW = ",
                 w.padW, ", padH = ", w.padH, ", kW = ", w.kW, ", kH = ", w.kH);
  SOPS_CHECK_ARG(output_width >= 1 && output_height >= 1, "self", "Given input size: (", planes,
                 "x", input_height, "x", input_width, "). Calculated output size: (", planes, "x",
                 output_height, "x", output_width, "). Output size is too small");
}

}  // namespace sops::aten::ops_util
