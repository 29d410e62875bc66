// The CUDA launchers of max_pool2d_with_indices, avg_pool2d and _adaptive_avg_pool2d /
// adaptive_avg_pool2d.out (pooling.cu), called by their kernels (pooling.cpp).
//
// input is 3-d ([C, H, W]) or 4-d ([N, C, H, W]) of a dtype of the op's set
// (ops/util/pool_utils.h), with any strides; the outputs have the sizes the meta function
// (or the kernel) gave them, any strides, and at least one element.
#pragma once

#include <cstdint>

#include "ops/util/op_utils.h"
#include "runtime/tensor.h"

namespace sops::cuda {

// out = the maximum of each window of input (NaN wins, ties keep the first) and indices
// (int64) = its position ih * W + iw in its plane.
void max_pool2d_kernel(const Tensor& input, const aten::ops_util::Pool2dWindow& window,
                       const Tensor& out, const Tensor& indices);

// out = the sum of each window of input / its divisor: divisor_override when not 0, else
// the window's size with or without the padding it covers (count_include_pad).
void avg_pool2d_kernel(const Tensor& input, const aten::ops_util::Pool2dWindow& window,
                       bool count_include_pad, int64_t divisor_override, const Tensor& out);

// out = the mean of each of input's adaptive windows (out's sizes give the windows).
void adaptive_avg_pool2d_kernel(const Tensor& input, const Tensor& out);

}  // namespace sops::cuda
