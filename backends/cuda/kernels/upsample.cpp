// The CUDA impls of upsample_nearest1d/2d: the meta functions (shared with the CPU) sized
// out; these make the CPU kernel's dtype check (backends/cpu/kernels/upsample.cpp), then call the
// launcher (upsample.cu).
#include <optional>

#include "aten/ops/upsample_nearest1d_native.h"
#include "aten/ops/upsample_nearest2d_native.h"
#include "backends/cuda/kernels/upsample_kernels.h"
#include "ops/util/scalar_checks.h"
#include "ops/util/upsample_utils.h"

namespace sops::aten::native {

SOPS_IMPL_FUNC(upsample_nearest1d_out_cuda)
(const Tensor& self, IntArrayRef /*output_size*/, std::optional<double> scales, const Tensor& out) {
  ops_util::check_dtype_implemented(self.scalar_type(), ops_util::kUpsampleNearestTypes,
                                    "upsample_nearest1d");
  if (out.numel() == 0) return;
  cuda::upsample_nearest_kernel(self, out, std::nullopt, scales);
}

SOPS_IMPL_FUNC(upsample_nearest2d_out_cuda)
(const Tensor& self, IntArrayRef /*output_size*/, std::optional<double> scales_h,
 std::optional<double> scales_w, const Tensor& out) {
  ops_util::check_dtype_implemented(self.scalar_type(), ops_util::kUpsampleNearestTypes,
                                    "upsample_nearest2d");
  if (out.numel() == 0) return;
  cuda::upsample_nearest_kernel(self, out, scales_h, scales_w);
}

}  // namespace sops::aten::native
