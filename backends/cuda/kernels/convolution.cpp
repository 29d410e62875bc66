// convolution on CUDA: the CPU kernel's checks, messages and result (ops/meta/
// convolution_utils.h, shared with backends/cpu/kernels/convolution.cpp: a contiguous result, or a
// channels-last one when a 4-d input or weight is) with the computation on the device
// (convolution.cu). The CPU's dtypes: every integral and floating dtype, floating ones and
// int64 when transposed ("slow_conv2d_cuda" / "slow_conv_transpose2d_out_cuda" not
// implemented otherwise); a bias of another dtype is converted.
#include <optional>

#include "aten/ops/convolution_native.h"
#include "backends/cuda/kernels/convolution_kernels.h"
#include "ops/util/convolution_utils.h"
#include "ops/util/nn_utils.h"

namespace sops::aten {

Tensor SOPS_KERNEL(convolution_cuda)(const Tensor& input, const Tensor& weight,
                                     const std::optional<Tensor>& bias_opt, IntArrayRef stride,
                                     IntArrayRef padding, IntArrayRef dilation, bool transposed,
                                     IntArrayRef output_padding, int64_t groups) {
  const Tensor* bias = ops_util::defined_or_null(bias_opt);
  auto [out, c] = ops_util::convolution_output(input, weight, bias, stride, padding, dilation,
                                               transposed, output_padding, groups);
  ops_util::check_convolution_dtype(input.scalar_type(), transposed, "cuda");
  if (out.numel() == 0) return out;
  cuda::convolution_kernel(c, input, weight, bias != nullptr ? *bias : Tensor(), out);
  return out;
}

}  // namespace sops::aten
