// The CUDA launcher of convolution (convolution.cu), called by its kernel (convolution.cpp).
#pragma once

#include "ops/util/convolution_utils.h"
#include "runtime/tensor.h"

namespace sops::cuda {

// out = the convolution of input with weight, plus bias (undefined: none), of geometry `c`
// (ops_util::convolution_output: out is its result, contiguous or channels-last, with
// out.numel() > 0; the dtype is one check_convolution_dtype accepts). input and weight
// share out's dtype and may have any strides; bias may have another dtype, converted to
// out's first, as on the CPU. Floating types sum in their own type, integers wrap around
// (the CPU's int64 sums, converted, are the same modulo 2^bits).
void convolution_kernel(const aten::ops_util::Conv2d& c, const Tensor& input, const Tensor& weight,
                        const Tensor& bias, const Tensor& out);

}  // namespace sops::cuda
