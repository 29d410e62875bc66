// CPU kernels of upsample_nearest1d/2d: each output element copies the input element
// at the nearest source index (PyTorch's "nearest" mode, with its float rounding:
// ops/util/upsample_utils.h, shared with the CUDA kernels).
#include <optional>
#include <vector>

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

}  // namespace

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
