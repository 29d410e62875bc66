// CPU kernels of max_pool2d_with_indices (floating and integer types, as PyTorch), avg_pool2d
// (float32, float64, int64) and _adaptive_avg_pool2d / adaptive_avg_pool2d.out (float32,
// float64). A contiguous (NCHW) input is pooled plane by plane, parallel over the
// planes; a channels-last one pixel by pixel with unit-stride loops over the channels,
// parallel over the output pixels. Other layouts are made contiguous first. Windows and
// their rules (NaN wins a max, ties keep the first, padding counted or not) are PyTorch's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

constexpr uint32_t kMaxPoolTypes = dtypes::kAllTypes;
constexpr uint32_t kAvgPoolTypes = dtypes::kFloatingTypes | dtypes::bit(ScalarType::Long);

// The geometry of one 2-d pooling: input and output planes, and the window.
struct Pool2d {
  int64_t planes_total;  // batch * channels
  int64_t channels;
  int64_t in_h, in_w, out_h, out_w;
  int64_t kH, kW, dH, dW, padH, padW, dilH, dilW;
  bool channels_last;
};

Pool2d geometry(const Tensor& input, const Tensor& out, int64_t kH, int64_t kW, int64_t dH,
                int64_t dW, int64_t padH, int64_t padW, int64_t dilH, int64_t dilW) {
  Pool2d g{};
  const int64_t batch = input.dim() == 4 ? input.size(0) : 1;
  g.channels = input.size(-3);
  g.planes_total = batch * g.channels;
  g.in_h = input.size(-2);
  g.in_w = input.size(-1);
  g.out_h = out.size(-2);
  g.out_w = out.size(-1);
  g.kH = kH, g.kW = kW, g.dH = dH, g.dW = dW, g.padH = padH, g.padW = padW;
  g.dilH = dilH, g.dilW = dilW;
  g.channels_last = ops_util::suggest_memory_format(input) == MemoryFormat::ChannelsLast;
  return g;
}

// Where a kernel writes: `out` itself when it has the dense layout the kernel uses (the
// one the meta function chose), else a new tensor copied into `out` afterwards.
Tensor dense_target(const Tensor& out, bool channels_last) {
  const DimVector strides = channels_last ? ops_util::channels_last_strides(out.sizes()) : DimVector();
  const bool dense = channels_last ? out.strides() == IntArrayRef(strides) : out.is_contiguous();
  if (dense) return out;
  return channels_last ? empty_strided(out.sizes(), strides, out.options()) : empty(out.sizes(), out.options());
}

void finish(const Tensor& target, const Tensor& out) {
  if (!target.is_same(out)) cpu_util::copy_cast(out, target);
}

template <typename T>
constexpr T lowest() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::lowest();
}

// Window start (first index inside the input, stepping by dilation) and end along one
// dimension for output index o.
inline void window(int64_t o, int64_t stride, int64_t pad, int64_t k, int64_t dil, int64_t size,
                   int64_t* start, int64_t* end) {
  int64_t s = o * stride - pad;
  *end = std::min(s + (k - 1) * dil + 1, size);
  while (s < 0) s += dil;
  *start = s;
}

template <typename T>
void max_pool_nchw(const Pool2d& g, const T* in, T* out, int64_t* idx) {
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_out * g.kH * g.kW, 1));
  parallel_for(0, g.planes_total, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      int64_t* ind = idx + p * plane_out;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        int64_t ih0, ih1;
        window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          int64_t iw0, iw1;
          window(ow, g.dW, g.padW, g.kW, g.dilW, g.in_w, &iw0, &iw1);
          T maxval = lowest<T>();
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
void max_pool_nhwc(const Pool2d& g, const T* in, T* out, int64_t* idx) {
  const int64_t C = g.channels;
  const int64_t batch = g.planes_total / std::max<int64_t>(C, 1);
  const int64_t pixels = batch * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * g.kH * g.kW, 1));
  parallel_for(0, pixels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t px = begin; px < end; ++px) {
      const int64_t n = px / (g.out_h * g.out_w);
      const int64_t oh = (px / g.out_w) % g.out_h;
      const int64_t ow = px % g.out_w;
      int64_t ih0, ih1, iw0, iw1;
      window(oh, g.dH, g.padH, g.kH, g.dilH, g.in_h, &ih0, &ih1);
      window(ow, g.dW, g.padW, g.kW, g.dilW, g.in_w, &iw0, &iw1);
      T* y = out + px * C;
      int64_t* ind = idx + px * C;
      const int64_t first = ih0 * g.in_w + iw0;
      for (int64_t c = 0; c < C; ++c) {
        y[c] = lowest<T>();
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
  cpu_util::check_dtype_implemented(input.scalar_type(), kMaxPoolTypes, "max_pool2d");
  if (out.numel() == 0) return;
  const ops_util::Pool2dWindow w =
      ops_util::pool2d_window("max_pool2d", kernel_size, stride, padding, dilation);
  const Pool2d g = geometry(input, out, w.kH, w.kW, w.dH, w.dW, w.padH, w.padW, w.dilationH,
                            w.dilationW);
  const Tensor x = g.channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, g.channels_last);
  const Tensor ind = dense_target(indices, g.channels_last);
  SOPS_DISPATCH_TYPES(kMaxPoolTypes, input.scalar_type(), "max_pool2d", [&] {
    if (g.channels_last) {
      max_pool_nhwc<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), ind.data_ptr<int64_t>());
    } else {
      max_pool_nchw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), ind.data_ptr<int64_t>());
    }
  });
  finish(y, out);
  finish(ind, indices);
}

namespace {

template <typename T>
using avg_acc_t = T;  // PyTorch's opmath: float for float, double for double, int64 for int64

// The window of output (oh, ow) and its divisor, PyTorch's cpu_avg_pool rules. Returns
// false for a window entirely in the padding (its output is 0).
struct AvgWindow {
  int64_t ih0, ih1, iw0, iw1, divisor;
};

inline bool avg_window(const Pool2d& g, int64_t oh, int64_t ow, bool count_include_pad,
                       std::optional<int64_t> divisor_override, AvgWindow* w) {
  int64_t ih0 = oh * g.dH - g.padH, iw0 = ow * g.dW - g.padW;
  int64_t ih1 = std::min(ih0 + g.kH, g.in_h + g.padH);
  int64_t iw1 = std::min(iw0 + g.kW, g.in_w + g.padW);
  const int64_t pool_size = (ih1 - ih0) * (iw1 - iw0);
  ih0 = std::max<int64_t>(ih0, 0);
  iw0 = std::max<int64_t>(iw0, 0);
  ih1 = std::min(ih1, g.in_h);
  iw1 = std::min(iw1, g.in_w);
  if (ih0 >= ih1 || iw0 >= iw1) return false;
  w->ih0 = ih0, w->ih1 = ih1, w->iw0 = iw0, w->iw1 = iw1;
  w->divisor = divisor_override.has_value() ? *divisor_override
               : count_include_pad          ? pool_size
                                            : (ih1 - ih0) * (iw1 - iw0);
  return true;
}

template <typename T>
void avg_pool_nchw(const Pool2d& g, const T* in, T* out, bool count_include_pad,
                   std::optional<int64_t> divisor_override) {
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_out * g.kH * g.kW, 1));
  parallel_for(0, g.planes_total, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          AvgWindow w;
          if (!avg_window(g, oh, ow, count_include_pad, divisor_override, &w)) {
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
void avg_pool_nhwc(const Pool2d& g, const T* in, T* out, bool count_include_pad,
                   std::optional<int64_t> divisor_override) {
  const int64_t C = g.channels;
  const int64_t batch = g.planes_total / std::max<int64_t>(C, 1);
  const int64_t pixels = batch * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * g.kH * g.kW, 1));
  parallel_for(0, pixels, grain, [&](int64_t begin, int64_t end) {
    std::vector<avg_acc_t<T>> acc(static_cast<std::size_t>(C));
    for (int64_t px = begin; px < end; ++px) {
      const int64_t n = px / (g.out_h * g.out_w);
      const int64_t oh = (px / g.out_w) % g.out_h;
      const int64_t ow = px % g.out_w;
      T* y = out + px * C;
      AvgWindow w;
      if (!avg_window(g, oh, ow, count_include_pad, divisor_override, &w)) {
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
      for (int64_t c = 0; c < C; ++c) y[c] = static_cast<T>(acc[static_cast<std::size_t>(c)] / divisor);
    }
  });
}

}  // namespace

SOPS_IMPL_FUNC(avg_pool2d_out_cpu)
(const Tensor& input, int64_t kH, int64_t kW, int64_t dH, int64_t dW, int64_t padH, int64_t padW,
 bool /*ceil_mode*/, bool count_include_pad, std::optional<int64_t> divisor_override,
 const Tensor& out) {
  cpu_util::check_dtype_implemented(input.scalar_type(), kAvgPoolTypes, "avg_pool2d");
  if (out.numel() == 0) return;
  const Pool2d g = geometry(input, out, kH, kW, dH, dW, padH, padW, 1, 1);
  const Tensor x = g.channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, g.channels_last);
  SOPS_DISPATCH_TYPES(kAvgPoolTypes, input.scalar_type(), "avg_pool2d", [&] {
    if (g.channels_last) {
      avg_pool_nhwc<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), count_include_pad, divisor_override);
    } else {
      avg_pool_nchw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), count_include_pad, divisor_override);
    }
  });
  finish(y, out);
}

namespace {

inline int64_t start_index(int64_t o, int64_t out_size, int64_t in_size) {
  return (o * in_size) / out_size;
}
inline int64_t end_index(int64_t o, int64_t out_size, int64_t in_size) {
  return ((o + 1) * in_size + out_size - 1) / out_size;
}

template <typename T>
void adaptive_avg_pool(const Pool2d& g, const T* in, T* out) {
  const int64_t C = g.channels;
  if (g.channels_last) {
    const int64_t batch = g.planes_total / std::max<int64_t>(C, 1);
    const int64_t pixels = batch * g.out_h * g.out_w;
    parallel_for(0, pixels, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(C * 4, 1)),
                 [&](int64_t begin, int64_t end) {
      std::vector<T> acc(static_cast<std::size_t>(C));
      for (int64_t px = begin; px < end; ++px) {
        const int64_t n = px / (g.out_h * g.out_w);
        const int64_t oh = (px / g.out_w) % g.out_h;
        const int64_t ow = px % g.out_w;
        const int64_t ih0 = start_index(oh, g.out_h, g.in_h), ih1 = end_index(oh, g.out_h, g.in_h);
        const int64_t iw0 = start_index(ow, g.out_w, g.in_w), iw1 = end_index(ow, g.out_w, g.in_w);
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
        for (int64_t c = 0; c < C; ++c) y[c] = acc[static_cast<std::size_t>(c)] / kh / kw;
      }
    });
    return;
  }
  const int64_t plane_in = g.in_h * g.in_w;
  const int64_t plane_out = g.out_h * g.out_w;
  parallel_for(0, g.planes_total, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_in, 1)),
               [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * plane_in;
      T* y = out + p * plane_out;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        const int64_t ih0 = start_index(oh, g.out_h, g.in_h), ih1 = end_index(oh, g.out_h, g.in_h);
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          const int64_t iw0 = start_index(ow, g.out_w, g.in_w), iw1 = end_index(ow, g.out_w, g.in_w);
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

// PyTorch's adaptive_avg_pool2d_out_cpu_template checks; the output sizes.
DimVector adaptive_check(const Tensor& input, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 2, "output_size", "adaptive_avg_pool2d: output_size must be 2");
  const int64_t ndim = input.dim();
  SOPS_CHECK_ARG(ndim == 3 || ndim == 4, "self",
                 "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", input.sizes());
  for (const int64_t i : {-2, -1}) {
    SOPS_CHECK_ARG(input.size(i) > 0, "self",
                   "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                   "dimensions, but input has sizes ", input.sizes(), " with dimension ", i + ndim,
                   " being empty");
  }
  SOPS_CHECK_ARG(output_size[0] >= 0 && output_size[1] >= 0, "output_size",
                 "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                 "but received {", output_size[0], ", ", output_size[1], "}");
  DimVector sizes{input.size(-3), output_size[0], output_size[1]};
  if (ndim == 4) sizes.insert(0, input.size(0));
  return sizes;
}

void adaptive_avg_pool_into(const Tensor& input, const Tensor& out) {
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "adaptive_avg_pool2d");
  if (out.numel() == 0) return;
  const Pool2d g = geometry(input, out, 1, 1, 1, 1, 0, 0, 1, 1);
  const Tensor x = g.channels_last ? input : cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, g.channels_last);
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "adaptive_avg_pool2d", [&] {
    adaptive_avg_pool<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
  });
  finish(y, out);
}

}  // namespace

Tensor adaptive_avg_pool2d_cpu(const Tensor& self, IntArrayRef output_size) {
  const DimVector sizes = adaptive_check(self, output_size);
  const MemoryFormat format = self.dim() == 4 ? ops_util::suggest_memory_format(self) : MemoryFormat::Contiguous;
  const DimVector strides = ops_util::strides_for(sizes, format);
  Tensor out = strides.empty() ? empty(sizes, self.options()) : empty_strided(sizes, strides, self.options());
  if (!self.is_meta()) adaptive_avg_pool_into(self, out);
  return out;
}

Tensor& adaptive_avg_pool2d_out_cpu(const Tensor& self, IntArrayRef output_size, Tensor& out) {
  const DimVector sizes = adaptive_check(self, output_size);
  SOPS_CHECK_ARG(self.scalar_type() == out.scalar_type(), "out", "expected dtype ",
                 ops_util::typemeta_name(self.scalar_type()), " for `output` but got dtype ",
                 ops_util::typemeta_name(out.scalar_type()));
  out.resize_(sizes);
  if (self.dim() == 4 && ops_util::suggest_memory_format(self) == MemoryFormat::ChannelsLast &&
      out.is_contiguous() && out.storage_offset() == 0) {
    out.as_strided_(sizes, ops_util::channels_last_strides(sizes));
  }
  adaptive_avg_pool_into(self, out);
  return out;
}

}  // namespace sops::aten::native
