// CPU kernels of max_pool2d_with_indices (floating and integer types, as PyTorch), avg_pool2d
// (float32, float64, int64) and _adaptive_avg_pool2d / adaptive_avg_pool2d.out (float32,
// float64). A contiguous (NCHW) input is pooled plane by plane, parallel over the
// planes; a channels-last one pixel by pixel with unit-stride loops over the channels,
// parallel over the output pixels. Other layouts are made contiguous first. Windows and
// their rules (NaN wins a max, ties keep the first, padding counted or not) are PyTorch's,
// shared with the CUDA kernels (ops/util/pool_utils.h).
#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "aten/ops/_adaptive_avg_pool2d_native.h"
#include "aten/ops/adaptive_avg_pool2d_native.h"
#include "aten/ops/avg_pool2d_native.h"
#include "aten/ops/max_pool2d_with_indices_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/pool_utils.h"
#include "runtime/cpu_capability.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

using ops_util::adaptive_end_index;
using ops_util::adaptive_start_index;
using ops_util::Pool2dShape;

bool is_channels_last(const Tensor& input) {
  return ops_util::suggest_memory_format(input) == MemoryFormat::ChannelsLast;
}

// Where a kernel writes: `out` itself when it has the dense layout the kernel uses (the
// one the meta function chose), else a new tensor copied into `out` afterwards.
Tensor dense_target(const Tensor& out, bool channels_last) {
  const DimVector strides =
      channels_last ? ops_util::channels_last_strides(out.sizes()) : DimVector();
  const bool dense = channels_last ? out.strides() == IntArrayRef(strides) : out.is_contiguous();
  if (dense) return out;
  return channels_last ? empty_strided(out.sizes(), strides, out.options())
                       : empty(out.sizes(), out.options());
}

void finish(const Tensor& target, const Tensor& out) {
  if (!target.is_same(out)) cpu_util::copy_cast(out, target);
}

// One output row of a plane, tap by tap: for each window row and each column offset kw,
// every output column whose tap lies inside the input takes it if it is larger (or NaN),
// without a branch, so the compiler vectorizes over the columns. The taps of each output
// come in the order of the per-output loop below (rows, then columns, ascending), so ties
// and NaNs pick the same index. `first` holds each column's first in-bounds input column.
template <typename T>
SOPS_ALWAYS_INLINE void max_pool_row_body(const Pool2dShape* gp, const T* x, int64_t oh,
                                          const int64_t* first, T* y, int64_t* ind) {
  const Pool2dShape& g = *gp;
  int64_t ih0, ih1;
  ops_util::max_pool_window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
  for (int64_t ow = 0; ow < g.out_w; ++ow) {
    y[ow] = ops_util::max_pool_initial<T>();
    ind[ow] = ih0 * g.in_w + first[ow];
  }
  const int64_t sw = g.dW;
  for (int64_t ih = ih0; ih < ih1; ih += g.dilH) {
    const T* row = x + ih * g.in_w;
    const int64_t base = ih * g.in_w;
    for (int64_t kw = 0; kw < g.kW; ++kw) {
      const int64_t off = kw * g.dilW - g.padW;
      // Output columns whose tap off + ow * sw lies in [0, in_w). (Ceiling divisions as
      // (x - 1) / s + 1, which cannot overflow.)
      const int64_t lo = off >= 0 ? 0 : (-off - 1) / sw + 1;
      int64_t hi = g.in_w - off <= 0 ? 0 : (g.in_w - off - 1) / sw + 1;
      hi = std::min(hi, g.out_w);
      const T* __restrict src = row + off;
      T* __restrict dst = y;
      int64_t* __restrict at = ind;
      for (int64_t ow = lo; ow < hi; ++ow) {
        const T v = src[ow * sw];
        const bool take = v > dst[ow] || v != v;
        dst[ow] = take ? v : dst[ow];
        at[ow] = take ? base + off + ow * sw : at[ow];
      }
    }
  }
}

SOPS_CPU_CLONES(max_pool_row, max_pool_row_body)

// The same row for float32 with the window's columns stepping by 1 or 2 (every pooling of
// a CNN): eight output columns per vector, their indices kept as int32 in `at` (the
// caller's plane has under 2^31 elements) and widened to int64 once the row is done.
// Stride 2 loads sixteen input columns and keeps the even ones.
SOPS_ALWAYS_INLINE void max_pool_row_f32_body(const Pool2dShape* gp, const float* x, int64_t oh,
                                              const int64_t* first, float* y, int64_t* ind,
                                              int32_t* at) {
  using V = Vec<float, 32>::type;
  using VI = Vec<int32_t, 32>::type;
  const Pool2dShape& g = *gp;
  int64_t ih0, ih1;
  ops_util::max_pool_window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
  for (int64_t ow = 0; ow < g.out_w; ++ow) {
    y[ow] = ops_util::max_pool_initial<float>();
    at[ow] = static_cast<int32_t>(ih0 * g.in_w + first[ow]);
  }
  const int64_t sw = g.dW;
  const VI lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int64_t ih = ih0; ih < ih1; ih += g.dilH) {
    const float* row = x + ih * g.in_w;
    const int64_t base = ih * g.in_w;
    for (int64_t kw = 0; kw < g.kW; ++kw) {
      const int64_t off = kw * g.dilW - g.padW;
      const int64_t lo = off >= 0 ? 0 : (-off - 1) / sw + 1;
      int64_t hi = g.in_w - off <= 0 ? 0 : (g.in_w - off - 1) / sw + 1;
      hi = std::min(hi, g.out_w);
      const float* src = row + off;
      int64_t ow = lo;
      auto update = [&](V v) SOPS_VEC_LAMBDA {
        V cur;
        VI idx;
        std::memcpy(&cur, y + ow, sizeof(V));
        std::memcpy(&idx, at + ow, sizeof(VI));
        const VI take = (v > cur) | (v != v);
        const VI pos =
            static_cast<int32_t>(base + off + ow * sw) + lanes * static_cast<int32_t>(sw);
        const V out = take ? v : cur;
        const VI out_idx = take ? pos : idx;
        std::memcpy(y + ow, &out, sizeof(V));
        std::memcpy(at + ow, &out_idx, sizeof(VI));
      };
      if (sw == 1) {
        for (; ow + 8 <= hi; ow += 8) {
          V v;
          std::memcpy(&v, src + ow, sizeof(V));
          update(v);
        }
      } else if (sw == 2) {
        // (The sixteenth column loaded must lie in the row: the last vector may stop short.)
        for (; ow + 8 <= hi && off + 2 * ow + 16 <= g.in_w; ow += 8) {
          V a, b;
          std::memcpy(&a, src + 2 * ow, sizeof(V));
          std::memcpy(&b, src + 2 * ow + 8, sizeof(V));
          update(__builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
        }
      }
      for (; ow < hi; ++ow) {
        const float v = src[ow * sw];
        const bool take = v > y[ow] || v != v;
        y[ow] = take ? v : y[ow];
        at[ow] = take ? static_cast<int32_t>(base + off + ow * sw) : at[ow];
      }
    }
  }
  for (int64_t ow = 0; ow < g.out_w; ++ow) ind[ow] = at[ow];
}

SOPS_CPU_CLONES(max_pool_row_f32, max_pool_row_f32_body)

template <typename T>
void max_pool_nchw(const Pool2dShape& g, const T* in, T* out, int64_t* idx) {
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  const int64_t grain =
      std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_out * g.kH * g.kW, 1));
  // Each output column's first in-bounds input column (the index a window of -inf keeps).
  std::vector<int64_t> first(static_cast<std::size_t>(g.out_w));
  for (int64_t ow = 0; ow < g.out_w; ++ow) {
    int64_t iw1;
    ops_util::max_pool_window(ow, g.dW, g.padW, g.kW, g.dilW, g.in_w, &first[ow], &iw1);
  }
  // Floating types by rows (integer ones keep the loop per output: their compare-and-
  // select over int64 indices gains little).
  const bool rows = std::is_floating_point_v<T>;
  const bool f32_rows =
      std::is_same_v<T, float> && (g.dW == 1 || g.dW == 2) && plane_in < (int64_t{1} << 31);
  parallel_for(0, g.batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    std::vector<int32_t> at(f32_rows ? static_cast<std::size_t>(g.out_w) : 0);
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      int64_t* ind = idx + p * plane_out;
      if (f32_rows) {
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          max_pool_row_f32(&g, reinterpret_cast<const float*>(x), oh, first.data(),
                           reinterpret_cast<float*>(y + oh * g.out_w), ind + oh * g.out_w,
                           at.data());
        }
        continue;
      }
      if (rows) {
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          max_pool_row(&g, x, oh, first.data(), y + oh * g.out_w, ind + oh * g.out_w);
        }
        continue;
      }
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        int64_t ih0, ih1;
        ops_util::max_pool_window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          int64_t iw0, iw1;
          ops_util::max_pool_window(ow, g.dW, g.padW, g.kW, g.dilW, g.in_w, &iw0, &iw1);
          T maxval = ops_util::max_pool_initial<T>();
          int64_t maxindex = ih0 * g.in_w + iw0;
          for (int64_t ih = ih0; ih < ih1; ih += g.dilH) {
            const T* row = x + ih * g.in_w;
            for (int64_t iw = iw0; iw < iw1; iw += g.dilW) {
              const T v = row[iw];
              if (v > maxval || v != v) {
                maxval = v;
                maxindex = ih * g.in_w + iw;
              }
            }
          }
          y[oh * g.out_w + ow] = maxval;
          ind[oh * g.out_w + ow] = maxindex;
        }
      }
    }
  });
}

template <typename T>
void max_pool_nhwc(const Pool2dShape& g, const T* in, T* out, int64_t* idx) {
  const int64_t C = g.channels;
  const int64_t pixels = g.batch * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * g.kH * g.kW, 1));
  parallel_for(0, pixels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t px = begin; px < end; ++px) {
      const int64_t n = px / (g.out_h * g.out_w);
      const int64_t oh = (px / g.out_w) % g.out_h;
      const int64_t ow = px % g.out_w;
      int64_t ih0, ih1, iw0, iw1;
      ops_util::max_pool_window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
      ops_util::max_pool_window(ow, g.dW, g.padW, g.kW, g.dilW, g.in_w, &iw0, &iw1);
      T* y = out + px * C;
      int64_t* ind = idx + px * C;
      const int64_t first = ih0 * g.in_w + iw0;
      for (int64_t c = 0; c < C; ++c) {
        y[c] = ops_util::max_pool_initial<T>();
        ind[c] = first;
      }
      const T* x = in + n * g.in_h * g.in_w * C;
      for (int64_t ih = ih0; ih < ih1; ih += g.dilH) {
        for (int64_t iw = iw0; iw < iw1; iw += g.dilW) {
          const int64_t pos = ih * g.in_w + iw;
          const T* xp = x + pos * C;
          for (int64_t c = 0; c < C; ++c) {
            const T v = xp[c];
            const bool take = v > y[c] || v != v;
            y[c] = take ? v : y[c];
            ind[c] = take ? pos : ind[c];
          }
        }
      }
    }
  });
}

}  // namespace

SOPS_IMPL_FUNC(max_pool2d_with_indices_out_cpu)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 IntArrayRef dilation, bool /*ceil_mode*/, const Tensor& out, const Tensor& indices) {
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kMaxPool2dTypes, "max_pool2d");
  if (out.numel() == 0) return;
  const ops_util::Pool2dWindow w =
      ops_util::pool2d_window("max_pool2d", kernel_size, stride, padding, dilation);
  const Pool2dShape g = ops_util::pool2d_shape(input, out, w);
  const bool channels_last = is_channels_last(input);
  const Tensor x = channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, channels_last);
  const Tensor ind = dense_target(indices, channels_last);
  SOPS_DISPATCH_TYPES(ops_util::kMaxPool2dTypes, input.scalar_type(), "max_pool2d", [&] {
    if (channels_last) {
      max_pool_nhwc<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                              ind.data_ptr<int64_t>());
    } else {
      max_pool_nchw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                              ind.data_ptr<int64_t>());
    }
  });
  finish(y, out);
  finish(ind, indices);
}

namespace {

template <typename T>
using avg_acc_t = T;  // PyTorch's opmath: float for float, double for double, int64 for int64

template <typename T>
void avg_pool_nchw(const Pool2dShape& g, const T* in, T* out, bool count_include_pad,
                   int64_t divisor_override) {
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  const int64_t grain =
      std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_out * g.kH * g.kW, 1));
  parallel_for(0, g.batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          ops_util::AvgPoolWindow w;
          if (!ops_util::avg_pool_window(g, oh, ow, count_include_pad, divisor_override, &w)) {
            y[oh * g.out_w + ow] = T(0);
            continue;
          }
          avg_acc_t<T> sum = 0;
          for (int64_t ih = w.ih0; ih < w.ih1; ++ih) {
            for (int64_t iw = w.iw0; iw < w.iw1; ++iw) sum += x[ih * g.in_w + iw];
          }
          y[oh * g.out_w + ow] = static_cast<T>(sum / static_cast<avg_acc_t<T>>(w.divisor));
        }
      }
    }
  });
}

template <typename T>
void avg_pool_nhwc(const Pool2dShape& g, const T* in, T* out, bool count_include_pad,
                   int64_t divisor_override) {
  const int64_t C = g.channels;
  const int64_t pixels = g.batch * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * g.kH * g.kW, 1));
  parallel_for(0, pixels, grain, [&](int64_t begin, int64_t end) {
    std::vector<avg_acc_t<T>> acc(static_cast<std::size_t>(C));
    for (int64_t px = begin; px < end; ++px) {
      const int64_t n = px / (g.out_h * g.out_w);
      const int64_t oh = (px / g.out_w) % g.out_h;
      const int64_t ow = px % g.out_w;
      T* y = out + px * C;
      ops_util::AvgPoolWindow w;
      if (!ops_util::avg_pool_window(g, oh, ow, count_include_pad, divisor_override, &w)) {
        for (int64_t c = 0; c < C; ++c) y[c] = T(0);
        continue;
      }
      std::fill(acc.begin(), acc.end(), avg_acc_t<T>(0));
      const T* x = in + n * g.in_h * g.in_w * C;
      for (int64_t ih = w.ih0; ih < w.ih1; ++ih) {
        for (int64_t iw = w.iw0; iw < w.iw1; ++iw) {
          const T* xp = x + (ih * g.in_w + iw) * C;
          for (int64_t c = 0; c < C; ++c) acc[static_cast<std::size_t>(c)] += xp[c];
        }
      }
      const auto divisor = static_cast<avg_acc_t<T>>(w.divisor);
      for (int64_t c = 0; c < C; ++c)
        y[c] = static_cast<T>(acc[static_cast<std::size_t>(c)] / divisor);
    }
  });
}

}  // namespace

SOPS_IMPL_FUNC(avg_pool2d_out_cpu)
(const Tensor& input, int64_t kH, int64_t kW, int64_t dH, int64_t dW, int64_t padH, int64_t padW,
 bool /*ceil_mode*/, bool count_include_pad, std::optional<int64_t> divisor_override,
 const Tensor& out) {
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kAvgPool2dTypes, "avg_pool2d");
  if (out.numel() == 0) return;
  const Pool2dShape g = ops_util::pool2d_shape(input, out, {kH, kW, dH, dW, padH, padW, 1, 1});
  const bool channels_last = is_channels_last(input);
  const Tensor x = channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, channels_last);
  const int64_t divisor = divisor_override.value_or(0);  // 0: none
  SOPS_DISPATCH_TYPES(ops_util::kAvgPool2dTypes, input.scalar_type(), "avg_pool2d", [&] {
    if (channels_last) {
      avg_pool_nhwc<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), count_include_pad,
                              divisor);
    } else {
      avg_pool_nchw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), count_include_pad,
                              divisor);
    }
  });
  finish(y, out);
}

namespace {

template <typename T>
void adaptive_avg_pool(const Pool2dShape& g, bool channels_last, const T* in, T* out) {
  const int64_t C = g.channels;
  if (channels_last) {
    const int64_t pixels = g.batch * g.out_h * g.out_w;
    parallel_for(0, pixels, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * 4, 1)),
                 [&](int64_t begin, int64_t end) {
                   std::vector<T> acc(static_cast<std::size_t>(C));
                   for (int64_t px = begin; px < end; ++px) {
                     const int64_t n = px / (g.out_h * g.out_w);
                     const int64_t oh = (px / g.out_w) % g.out_h;
                     const int64_t ow = px % g.out_w;
                     const int64_t ih0 = adaptive_start_index(oh, g.out_h, g.in_h);
                     const int64_t ih1 = adaptive_end_index(oh, g.out_h, g.in_h);
                     const int64_t iw0 = adaptive_start_index(ow, g.out_w, g.in_w);
                     const int64_t iw1 = adaptive_end_index(ow, g.out_w, g.in_w);
                     std::fill(acc.begin(), acc.end(), T(0));
                     const T* x = in + n * g.in_h * g.in_w * C;
                     for (int64_t ih = ih0; ih < ih1; ++ih) {
                       for (int64_t iw = iw0; iw < iw1; ++iw) {
                         const T* xp = x + (ih * g.in_w + iw) * C;
                         for (int64_t c = 0; c < C; ++c) acc[static_cast<std::size_t>(c)] += xp[c];
                       }
                     }
                     const T kh = static_cast<T>(ih1 - ih0), kw = static_cast<T>(iw1 - iw0);
                     T* y = out + px * C;
                     for (int64_t c = 0; c < C; ++c)
                       y[c] = acc[static_cast<std::size_t>(c)] / kh / kw;
                   }
                 });
    return;
  }
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  const int64_t planes = g.batch * g.channels;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_in, 1));
  parallel_for(0, planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        const int64_t ih0 = adaptive_start_index(oh, g.out_h, g.in_h);
        const int64_t ih1 = adaptive_end_index(oh, g.out_h, g.in_h);
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          const int64_t iw0 = adaptive_start_index(ow, g.out_w, g.in_w);
          const int64_t iw1 = adaptive_end_index(ow, g.out_w, g.in_w);
          T sum = 0;
          for (int64_t ih = ih0; ih < ih1; ++ih) {
            for (int64_t iw = iw0; iw < iw1; ++iw) sum += x[ih * g.in_w + iw];
          }
          y[oh * g.out_w + ow] = sum / static_cast<T>(ih1 - ih0) / static_cast<T>(iw1 - iw0);
        }
      }
    }
  });
}

void adaptive_avg_pool_into(const Tensor& input, const Tensor& out) {
  // As PyTorch's adaptive_avg_pool2d_out_cpu_template: an empty result returns before the
  // dtype dispatch (an int64 input of batch 0 gives an empty int64 result, no error).
  if (out.numel() == 0) return;
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kAdaptiveAvgPool2dTypes,
                                    "adaptive_avg_pool2d");
  const Pool2dShape g = ops_util::pool2d_shape(input, out, {1, 1, 1, 1, 0, 0, 1, 1});
  const bool channels_last = is_channels_last(input);
  const Tensor x = channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, channels_last);
  constexpr uint32_t kTypes = ops_util::kAdaptiveAvgPool2dTypes;
  SOPS_DISPATCH_TYPES(kTypes, input.scalar_type(), "adaptive_avg_pool2d", [&] {
    adaptive_avg_pool<scalar_t>(g, channels_last, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
  });
  finish(y, out);
}

}  // namespace

Tensor adaptive_avg_pool2d_cpu(const Tensor& self, IntArrayRef output_size) {
  Tensor out = ops_util::adaptive_avg_pool2d_output(self, output_size);
  if (!self.is_meta()) adaptive_avg_pool_into(self, out);
  return out;
}

Tensor& adaptive_avg_pool2d_out_cpu(const Tensor& self, IntArrayRef output_size, Tensor& out) {
  ops_util::resize_adaptive_avg_pool2d_out(self, output_size, out);
  adaptive_avg_pool_into(self, out);
  return out;
}

}  // namespace sops::aten::native
