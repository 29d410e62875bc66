// CPU kernels of upsample_nearest1d/2d: each output element copies the input element
// at the nearest source index (PyTorch's "nearest" mode, with its float rounding:
// ops/util/upsample_utils.h, shared with the CUDA kernels); upsample_bilinear2d: each
// output element blends the four input elements around its source position.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "aten/ops/upsample_bilinear2d_native.h"
#include "aten/ops/upsample_nearest1d_native.h"
#include "aten/ops/upsample_nearest2d_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/upsample_utils.h"

namespace sops::aten::native {
namespace {

// Source index of each output index along one dimension.
std::vector<int64_t> source_indices(int64_t input_size, int64_t output_size,
                                    std::optional<double> scales) {
  const float scale = ops_util::nearest_scale(input_size, output_size, scales);
  std::vector<int64_t> idx(static_cast<std::size_t>(output_size));
  for (int64_t dst = 0; dst < output_size; ++dst) {
    idx[static_cast<std::size_t>(dst)] =
        ops_util::nearest_source_index(dst, input_size, output_size, scale);
  }
  return idx;
}

// out[n, c, oh, ow] = in[n, c, h_idx[oh], w_idx[ow]] over 4-d views (1-d upsampling
// uses a height of 1).
template <typename T>
void gather_nearest(const Tensor& in, const Tensor& out, IntArrayRef in_strides,
                    IntArrayRef out_strides, IntArrayRef out_sizes,
                    const std::vector<int64_t>& h_idx, const std::vector<int64_t>& w_idx) {
  const T* src = in.data_ptr<T>();
  T* dst = out.data_ptr<T>();
  for (int64_t n = 0; n < out_sizes[0]; ++n) {
    for (int64_t c = 0; c < out_sizes[1]; ++c) {
      const T* s_nc = src + n * in_strides[0] + c * in_strides[1];
      T* d_nc = dst + n * out_strides[0] + c * out_strides[1];
      for (int64_t oh = 0; oh < out_sizes[2]; ++oh) {
        const T* s_row = s_nc + h_idx[static_cast<std::size_t>(oh)] * in_strides[2];
        T* d_row = d_nc + oh * out_strides[2];
        for (int64_t ow = 0; ow < out_sizes[3]; ++ow) {
          d_row[ow * out_strides[3]] = s_row[w_idx[static_cast<std::size_t>(ow)] * in_strides[3]];
        }
      }
    }
  }
}

void upsample_nearest(const Tensor& in, const Tensor& out, IntArrayRef in_strides,
                      IntArrayRef out_strides, IntArrayRef out_sizes,
                      const std::vector<int64_t>& h_idx, const std::vector<int64_t>& w_idx,
                      std::string_view name) {
  cpu_util::check_dtype_implemented(in.scalar_type(), ops_util::kUpsampleNearestTypes, name);
  SOPS_DISPATCH_TYPES(ops_util::kUpsampleNearestTypes, in.scalar_type(), name, [&] {
    gather_nearest<scalar_t>(in, out, in_strides, out_strides, out_sizes, h_idx, w_idx);
  });
}

// One output index's two source indices and weights along a dimension (PyTorch's
// area_pixel_compute_source_index and compute_indices_weights_linear, in T).
template <typename T>
struct LinearTap {
  int64_t i0, i1;
  T w0, w1;
};

template <typename T>
std::vector<LinearTap<T>> linear_taps(int64_t input_size, int64_t output_size, bool align_corners,
                                      std::optional<double> scales) {
  T scale;
  if (align_corners) {
    scale =
        output_size > 1 ? static_cast<T>(input_size - 1) / static_cast<T>(output_size - 1) : T(0);
  } else {
    scale = scales.has_value() && *scales > 0.0
                ? static_cast<T>(1.0 / *scales)
                : static_cast<T>(input_size) / static_cast<T>(output_size);
  }
  std::vector<LinearTap<T>> taps(static_cast<std::size_t>(output_size));
  for (int64_t o = 0; o < output_size; ++o) {
    T real =
        align_corners ? scale * static_cast<T>(o) : scale * (static_cast<T>(o) + T(0.5)) - T(0.5);
    if (!align_corners && real < T(0)) real = T(0);
    const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), input_size - 1);
    const T lambda = std::min(std::max(real - static_cast<T>(i0), T(0)), T(1));
    taps[static_cast<std::size_t>(o)] = {i0, i0 + (i0 < input_size - 1 ? 1 : 0), T(1) - lambda,
                                         lambda};
  }
  return taps;
}

}  // namespace

SOPS_IMPL_FUNC(upsample_bilinear2d_out_cpu)
(const Tensor& self, IntArrayRef output_size, bool align_corners, std::optional<double> scales_h,
 std::optional<double> scales_w, const Tensor& out) {
  cpu_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes,
                                    "upsample_bilinear2d_channels_last");
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "upsample_bilinear2d", [&] {
    const auto hs = linear_taps<scalar_t>(self.size(2), output_size[0], align_corners, scales_h);
    const auto ws = linear_taps<scalar_t>(self.size(3), output_size[1], align_corners, scales_w);
    const scalar_t* src = self.data_ptr<scalar_t>();
    scalar_t* dst = out.data_ptr<scalar_t>();
    const int64_t sn = self.stride(0), sc = self.stride(1), sh = self.stride(2),
                  sw = self.stride(3);
    const int64_t on = out.stride(0), oc = out.stride(1), oh_ = out.stride(2), ow_ = out.stride(3);
    for (int64_t n = 0; n < out.size(0); ++n) {
      for (int64_t c = 0; c < out.size(1); ++c) {
        const scalar_t* s = src + n * sn + c * sc;
        scalar_t* d = dst + n * on + c * oc;
        for (int64_t oh = 0; oh < out.size(2); ++oh) {
          const LinearTap<scalar_t>& h = hs[static_cast<std::size_t>(oh)];
          const scalar_t* r0 = s + h.i0 * sh;
          const scalar_t* r1 = s + h.i1 * sh;
          for (int64_t ow = 0; ow < out.size(3); ++ow) {
            const LinearTap<scalar_t>& w = ws[static_cast<std::size_t>(ow)];
            d[oh * oh_ + ow * ow_] = h.w0 * (w.w0 * r0[w.i0 * sw] + w.w1 * r0[w.i1 * sw]) +
                                     h.w1 * (w.w0 * r1[w.i0 * sw] + w.w1 * r1[w.i1 * sw]);
          }
        }
      }
    }
  });
}

SOPS_IMPL_FUNC(upsample_nearest1d_out_cpu)
(const Tensor& self, IntArrayRef output_size, std::optional<double> scales, const Tensor& out) {
  const std::vector<int64_t> h_idx{0};
  const std::vector<int64_t> w_idx = source_indices(self.size(2), output_size[0], scales);
  const int64_t in_strides[4] = {self.stride(0), self.stride(1), 0, self.stride(2)};
  const int64_t out_strides[4] = {out.stride(0), out.stride(1), 0, out.stride(2)};
  const int64_t out_sizes[4] = {out.size(0), out.size(1), 1, out.size(2)};
  upsample_nearest(self, out, in_strides, out_strides, out_sizes, h_idx, w_idx,
                   "upsample_nearest1d");
}

SOPS_IMPL_FUNC(upsample_nearest2d_out_cpu)
(const Tensor& self, IntArrayRef output_size, std::optional<double> scales_h,
 std::optional<double> scales_w, const Tensor& out) {
  const std::vector<int64_t> h_idx = source_indices(self.size(2), output_size[0], scales_h);
  const std::vector<int64_t> w_idx = source_indices(self.size(3), output_size[1], scales_w);
  upsample_nearest(self, out, self.strides(), out.strides(), out.sizes(), h_idx, w_idx,
                   "upsample_nearest2d");
}

}  // namespace sops::aten::native
