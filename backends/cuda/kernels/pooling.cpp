// The CUDA kernels of max_pool2d_with_indices and avg_pool2d (structured: the meta
// functions, shared with the CPU, sized the outputs) and of _adaptive_avg_pool2d and
// adaptive_avg_pool2d.out: the CPU kernels' checks (backends/cpu/kernels/pooling.cpp), in their
// order and with their messages, then the launchers (pooling.cu). The dtypes, windows and
// adaptive_avg_pool2d's outputs are every backend's (ops/util/pool_utils.h).
#include <cstdint>
#include <optional>

#include "aten/ops/_adaptive_avg_pool2d_native.h"
#include "aten/ops/adaptive_avg_pool2d_native.h"
#include "aten/ops/avg_pool2d_native.h"
#include "aten/ops/max_pool2d_with_indices_native.h"
#include "backends/cuda/kernels/pooling_kernels.h"
#include "ops/util/pool_utils.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {
namespace {

void adaptive_avg_pool_into(const Tensor& input, const Tensor& out) {
  ops_util::check_dtype_implemented(input.scalar_type(), ops_util::kAdaptiveAvgPool2dTypes,
                                    "adaptive_avg_pool2d");
  if (out.numel() == 0) return;
  cuda::adaptive_avg_pool2d_kernel(input, out);
}

}  // namespace

SOPS_IMPL_FUNC(max_pool2d_with_indices_out_cuda)
(const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
 IntArrayRef dilation, bool /*ceil_mode*/, const Tensor& out, const Tensor& indices) {
  ops_util::check_dtype_implemented(input.scalar_type(), ops_util::kMaxPool2dTypes, "max_pool2d");
  if (out.numel() == 0) return;
  const ops_util::Pool2dWindow window =
      ops_util::pool2d_window("max_pool2d", kernel_size, stride, padding, dilation);
  cuda::max_pool2d_kernel(input, window, out, indices);
}

SOPS_IMPL_FUNC(avg_pool2d_out_cuda)
(const Tensor& input, int64_t kH, int64_t kW, int64_t dH, int64_t dW, int64_t padH, int64_t padW,
 bool /*ceil_mode*/, bool count_include_pad, std::optional<int64_t> divisor_override,
 const Tensor& out) {
  ops_util::check_dtype_implemented(input.scalar_type(), ops_util::kAvgPool2dTypes, "avg_pool2d");
  if (out.numel() == 0) return;
  cuda::avg_pool2d_kernel(input, {kH, kW, dH, dW, padH, padW, 1, 1}, count_include_pad,
                          divisor_override.value_or(0), out);  // 0: none
}

Tensor adaptive_avg_pool2d_cuda(const Tensor& self, IntArrayRef output_size) {
  Tensor out = ops_util::adaptive_avg_pool2d_output(self, output_size);
  adaptive_avg_pool_into(self, out);
  return out;
}

Tensor& adaptive_avg_pool2d_out_cuda(const Tensor& self, IntArrayRef output_size, Tensor& out) {
  ops_util::resize_adaptive_avg_pool2d_out(self, output_size, out);
  adaptive_avg_pool_into(self, out);
  return out;
}

}  // namespace sops::aten::native
