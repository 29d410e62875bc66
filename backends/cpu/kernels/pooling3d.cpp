// CPU kernels (which also give the results' sizes on meta tensors) of the 3-d poolings:
// max_pool3d_with_indices (every type but bool, as PyTorch), avg_pool3d (float32,
// float64, int64) and _adaptive_avg_pool3d / adaptive_avg_pool3d.out (float32, float64).
// A contiguous input is pooled volume by volume, parallel over batch * channels; a
// channels_last_3d max pool voxel by voxel with unit-stride loops over the channels, its
// results channels_last_3d too (PyTorch's). avg_pool3d and the adaptive pool give
// contiguous results from any input, as PyTorch 2.13's. Windows and their rules (NaN
// wins a max, ties keep the first, padding counted or not) are the 2-d ones'.
#include <algorithm>
#include <optional>
#include <tuple>

#include "aten/ops/_adaptive_avg_pool3d_native.h"
#include "aten/ops/adaptive_avg_pool3d_native.h"
#include "aten/ops/avg_pool3d_native.h"
#include "aten/ops/max_pool3d_with_indices_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/pool3d_utils.h"
#include "ops/util/pool_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

using ops_util::Pool3dShape;

// Where a kernel writes: out itself when contiguous (or channels_last_3d, as the kernel
// writes), else a new tensor of that layout copied into out afterwards.
Tensor dense_target(const Tensor& out, bool channels_last) {
  const DimVector strides = ops_util::strides_for(
      out.sizes(), channels_last ? MemoryFormat::ChannelsLast3d : MemoryFormat::Contiguous);
  const bool dense = channels_last ? out.strides() == IntArrayRef(strides) : out.is_contiguous();
  if (dense) return out;
  return channels_last ? empty_strided(out.sizes(), strides, out.options())
                       : empty(out.sizes(), out.options());
}

void finish(const Tensor& target, const Tensor& out) {
  if (!target.is_same(out)) cpu_util::copy_cast(out, target);
}

int64_t grain_for(int64_t work_per_item) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(work_per_item, 1));
}

// ------------------------------------------------------------------ max_pool3d

template <typename T>
void max_pool_ncdhw(const Pool3dShape& g, const T* in, T* out, int64_t* idx) {
  const ops_util::Pool3dWindow& w = g.w;
  const int64_t vol_in = g.in_t * g.in_h * g.in_w;
  const int64_t vol_out = g.out_t * g.out_h * g.out_w;
  const int64_t grain = grain_for(vol_out * w.kT * w.kH * w.kW);
  parallel_for(0, g.batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * vol_in;
      T* y = out + p * vol_out;
      int64_t* ind = idx + p * vol_out;
      for (int64_t ot = 0; ot < g.out_t; ++ot) {
        int64_t it0, it1;
        ops_util::max_pool_window(ot, w.dT, w.padT, w.kT, w.dilT, g.in_t, &it0, &it1);
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          int64_t ih0, ih1;
          ops_util::max_pool_window(oh, w.dH, w.padH, w.kH, w.dilH, g.in_h, &ih0, &ih1);
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            int64_t iw0, iw1;
            ops_util::max_pool_window(ow, w.dW, w.padW, w.kW, w.dilW, g.in_w, &iw0, &iw1);
            T maxval = ops_util::max_pool_initial<T>();
            int64_t maxindex = (it0 * g.in_h + ih0) * g.in_w + iw0;
            for (int64_t it = it0; it < it1; it += w.dilT) {
              for (int64_t ih = ih0; ih < ih1; ih += w.dilH) {
                const int64_t row = (it * g.in_h + ih) * g.in_w;
                for (int64_t iw = iw0; iw < iw1; iw += w.dilW) {
                  const T v = x[row + iw];
                  if (v > maxval || v != v) {
                    maxval = v;
                    maxindex = row + iw;
                  }
                }
              }
            }
            const int64_t o = (ot * g.out_h + oh) * g.out_w + ow;
            y[o] = maxval;
            ind[o] = maxindex;
          }
        }
      }
    }
  });
}

template <typename T>
void max_pool_ndhwc(const Pool3dShape& g, const T* in, T* out, int64_t* idx) {
  const ops_util::Pool3dWindow& w = g.w;
  const int64_t C = g.channels;
  const int64_t vol_out = g.out_t * g.out_h * g.out_w;
  const int64_t grain = grain_for(C * w.kT * w.kH * w.kW);
  parallel_for(0, g.batch * vol_out, grain, [&](int64_t begin, int64_t end) {
    for (int64_t vx = begin; vx < end; ++vx) {
      const int64_t n = vx / vol_out;
      const int64_t ot = (vx / (g.out_h * g.out_w)) % g.out_t;
      const int64_t oh = (vx / g.out_w) % g.out_h;
      const int64_t ow = vx % g.out_w;
      int64_t it0, it1, ih0, ih1, iw0, iw1;
      ops_util::max_pool_window(ot, w.dT, w.padT, w.kT, w.dilT, g.in_t, &it0, &it1);
      ops_util::max_pool_window(oh, w.dH, w.padH, w.kH, w.dilH, g.in_h, &ih0, &ih1);
      ops_util::max_pool_window(ow, w.dW, w.padW, w.kW, w.dilW, g.in_w, &iw0, &iw1);
      T* y = out + vx * C;
      int64_t* ind = idx + vx * C;
      const int64_t first = (it0 * g.in_h + ih0) * g.in_w + iw0;
      for (int64_t c = 0; c < C; ++c) {
        y[c] = ops_util::max_pool_initial<T>();
        ind[c] = first;
      }
      const T* x = in + n * g.in_t * g.in_h * g.in_w * C;
      for (int64_t it = it0; it < it1; it += w.dilT) {
        for (int64_t ih = ih0; ih < ih1; ih += w.dilH) {
          for (int64_t iw = iw0; iw < iw1; iw += w.dilW) {
            const int64_t pos = (it * g.in_h + ih) * g.in_w + iw;
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
    }
  });
}

// PyTorch's max_pool3d_with_indices_out_cpu_template: the checks, out and indices resized
// (in input's layout), and, off meta tensors, the pooling.
void max_pool3d_into(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, const Tensor& out,
                     const Tensor& indices) {
  const ops_util::Pool3dWindow w =
      ops_util::pool3d_window("max_pool3d", kernel_size, stride, padding, dilation);
  const MemoryFormat format = ops_util::suggest_memory_format(input);
  if (format == MemoryFormat::ChannelsLast3d) {
    SOPS_CHECK_ARG(input.dim() == 5, "self",
                   "non-empty 5D (batch mode) tensor expected for input with channels_last_3d "
                   "layout");
  } else if (format == MemoryFormat::Contiguous) {
    SOPS_CHECK_ARG(input.dim() == 4 || input.dim() == 5, "self",
                   "non-empty 4D or 5D (batch mode) tensor expected for input");
  } else {
    SOPS_CHECK_ARG(false, "self",
                   "Unsupported memory format. Supports only ChannelsLast3d, Contiguous");
  }
  const Pool3dShape g = ops_util::pool3d_shape(input, w, ceil_mode,
                                               "max_pool3d_with_indices_out_cpu_template()", false);
  const DimVector sizes = ops_util::pool3d_sizes(input, g);
  const MemoryFormat out_format = input.dim() == 5 ? format : MemoryFormat::Contiguous;
  ops_util::resize_out_as(out, sizes, out_format);
  ops_util::resize_out_as(indices, sizes, out_format);
  if (input.is_meta()) return;
  const bool channels_last = format == MemoryFormat::ChannelsLast3d;
  // PyTorch's two kernels name themselves differently in their dtype errors.
  const char* name = channels_last ? "max_pool3d_channels_last" : "max_pool3d";
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kMaxPool3dTypes, name);
  // The kernel writes out's and indices' data as self's type and int64 (PyTorch's
  // data_ptr checks, after its dtype dispatch).
  SOPS_CHECK_ARG(out.scalar_type() == input.scalar_type(), "out", "expected scalar type ",
                 ops_util::aten_name(input.scalar_type()), " but found ",
                 ops_util::aten_name(out.scalar_type()));
  SOPS_CHECK_ARG(indices.scalar_type() == ScalarType::Long, "indices",
                 "expected scalar type Long but found ",
                 ops_util::aten_name(indices.scalar_type()));
  if (out.numel() == 0) return;
  const Tensor x = channels_last ? input : cpu_util::contiguous_of(input);
  SOPS_DISPATCH_TYPES(ops_util::kMaxPool3dTypes, input.scalar_type(), name, [&] {
    if (channels_last) {
      max_pool_ndhwc<scalar_t>(g, x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                               indices.data_ptr<int64_t>());
    } else {
      max_pool_ncdhw<scalar_t>(g, x.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(),
                               indices.data_ptr<int64_t>());
    }
  });
}

// ------------------------------------------------------------------ avg_pool3d

template <typename T>
void avg_pool_ncdhw(const Pool3dShape& g, const T* in, T* out, bool count_include_pad,
                    std::optional<int64_t> divisor_override) {
  const ops_util::Pool3dWindow& w = g.w;
  const int64_t vol_in = g.in_t * g.in_h * g.in_w;
  const int64_t vol_out = g.out_t * g.out_h * g.out_w;
  const int64_t grain = grain_for(vol_out * w.kT * w.kH * w.kW);
  // A window [start, end) along one dimension clipped to the input, and its length
  // counting the padding it covers.
  auto window = [](int64_t o, int64_t stride, int64_t pad, int64_t k, int64_t size, int64_t* s,
                   int64_t* e) {
    int64_t start = o * stride - pad;
    const int64_t stop = std::min(start + k, size + pad);
    const int64_t padded = stop - start;
    *s = std::max<int64_t>(start, 0);
    *e = std::min(stop, size);
    return padded;
  };
  parallel_for(0, g.batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * vol_in;
      T* y = out + p * vol_out;
      for (int64_t ot = 0; ot < g.out_t; ++ot) {
        int64_t t0, t1;
        const int64_t pt = window(ot, w.dT, w.padT, w.kT, g.in_t, &t0, &t1);
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          int64_t h0, h1;
          const int64_t ph = window(oh, w.dH, w.padH, w.kH, g.in_h, &h0, &h1);
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            int64_t w0, w1;
            const int64_t pw = window(ow, w.dW, w.padW, w.kW, g.in_w, &w0, &w1);
            // The ceil-mode rule keeps every window's start inside the input, so no
            // window is empty.
            const int64_t divisor = divisor_override.has_value() ? *divisor_override
                                    : count_include_pad ? pt * ph * pw
                                                        : (t1 - t0) * (h1 - h0) * (w1 - w0);
            T sum = 0;
            for (int64_t it = t0; it < t1; ++it) {
              for (int64_t ih = h0; ih < h1; ++ih) {
                const T* row = x + (it * g.in_h + ih) * g.in_w;
                for (int64_t iw = w0; iw < w1; ++iw) sum += row[iw];
              }
            }
            y[(ot * g.out_h + oh) * g.out_w + ow] = static_cast<T>(sum / static_cast<T>(divisor));
          }
        }
      }
    }
  });
}

// ------------------------------------------------------------------ adaptive_avg_pool3d

template <typename T>
void adaptive_avg_pool_ncdhw(const Pool3dShape& g, const T* in, T* out) {
  using ops_util::adaptive_end_index;
  using ops_util::adaptive_start_index;
  const int64_t vol_in = g.in_t * g.in_h * g.in_w;
  const int64_t vol_out = g.out_t * g.out_h * g.out_w;
  parallel_for(0, g.batch * g.channels, grain_for(vol_in), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* x = in + p * vol_in;
      T* y = out + p * vol_out;
      for (int64_t ot = 0; ot < g.out_t; ++ot) {
        const int64_t t0 = adaptive_start_index(ot, g.out_t, g.in_t);
        const int64_t t1 = adaptive_end_index(ot, g.out_t, g.in_t);
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t h0 = adaptive_start_index(oh, g.out_h, g.in_h);
          const int64_t h1 = adaptive_end_index(oh, g.out_h, g.in_h);
          for (int64_t ow = 0; ow < g.out_w; ++ow) {
            const int64_t w0 = adaptive_start_index(ow, g.out_w, g.in_w);
            const int64_t w1 = adaptive_end_index(ow, g.out_w, g.in_w);
            T sum = 0;
            for (int64_t it = t0; it < t1; ++it) {
              for (int64_t ih = h0; ih < h1; ++ih) {
                const T* row = x + (it * g.in_h + ih) * g.in_w;
                for (int64_t iw = w0; iw < w1; ++iw) sum += row[iw];
              }
            }
            y[(ot * g.out_h + oh) * g.out_w + ow] =
                sum / static_cast<T>(t1 - t0) / static_cast<T>(h1 - h0) / static_cast<T>(w1 - w0);
          }
        }
      }
    }
  });
}

// The adaptive pooling of input into out (already of the result's sizes), off meta.
void adaptive_avg_pool3d_into(const Tensor& input, const Tensor& out) {
  if (input.is_meta()) return;
  // PyTorch dispatches on the dtype before looking at the sizes: an empty int64 result
  // is refused too.
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kAdaptiveAvgPool3dTypes,
                                    "adaptive_avg_pool3d_cpu");
  if (out.numel() == 0) return;
  Pool3dShape g{};
  g.batch = input.dim() == 5 ? input.size(0) : 1;
  g.channels = input.size(-4);
  g.in_t = input.size(-3), g.in_h = input.size(-2), g.in_w = input.size(-1);
  g.out_t = out.size(-3), g.out_h = out.size(-2), g.out_w = out.size(-1);
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, false);
  SOPS_DISPATCH_TYPES(
      ops_util::kAdaptiveAvgPool3dTypes, input.scalar_type(), "adaptive_avg_pool3d_cpu", [&] {
        adaptive_avg_pool_ncdhw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
      });
  finish(y, out);
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool3d_with_indices_cpu(const Tensor& self, IntArrayRef kernel_size,
                                                       IntArrayRef stride, IntArrayRef padding,
                                                       IntArrayRef dilation, bool ceil_mode) {
  Tensor out = empty({0}, self.options());
  Tensor indices = empty({0}, self.options().dtype(ScalarType::Long));
  max_pool3d_into(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

std::tuple<Tensor&, Tensor&> max_pool3d_with_indices_out_cpu(
    const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
    IntArrayRef dilation, bool ceil_mode, Tensor& out, Tensor& indices) {
  max_pool3d_into(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

SOPS_IMPL_FUNC(avg_pool3d_out_cpu)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override,
 const Tensor& out) {
  cpu_util::check_dtype_implemented(input.scalar_type(), ops_util::kAvgPool3dTypes,
                                    "avg_pool3d_out_frame");
  if (out.numel() == 0) return;
  const int64_t one[1] = {1};
  const Pool3dShape g = ops_util::pool3d_shape(
      input, ops_util::pool3d_window("avg_pool3d", kernel_size, stride, padding, one), ceil_mode,
      "avg_pool3d()", true);
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor y = dense_target(out, false);
  SOPS_DISPATCH_TYPES(ops_util::kAvgPool3dTypes, input.scalar_type(), "avg_pool3d_out_frame", [&] {
    avg_pool_ncdhw<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), count_include_pad,
                             divisor_override);
  });
  finish(y, out);
}

Tensor adaptive_avg_pool3d_cpu(const Tensor& self, IntArrayRef output_size) {
  Tensor out = empty(ops_util::adaptive_avg_pool3d_sizes(self, output_size), self.options());
  adaptive_avg_pool3d_into(self, out);
  return out;
}

Tensor& adaptive_avg_pool3d_out_cpu(const Tensor& self, IntArrayRef output_size, Tensor& out) {
  const DimVector sizes = ops_util::adaptive_avg_pool3d_sizes(self, output_size);
  SOPS_CHECK_ARG(self.scalar_type() == out.scalar_type(), "out", "expected dtype ",
                 ops_util::typemeta_name(self.scalar_type()), " for `output` but got dtype ",
                 ops_util::typemeta_name(out.scalar_type()));
  out.resize_(sizes);
  adaptive_avg_pool3d_into(self, out);
  return out;
}

}  // namespace sops::aten::native
