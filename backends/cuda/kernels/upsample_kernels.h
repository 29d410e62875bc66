// The CUDA launcher of upsample_nearest1d/2d (upsample.cu), called by their structured
// impls (upsample.cpp).
#pragma once

#include <optional>

#include "runtime/tensor.h"

namespace sops::cuda {

// out[n, c, oh, ow] = input[n, c, ih, iw] at the nearest source indices (ops/meta/
// upsample_utils.h; scales_h and scales_w as the op takes them). input and out: both 3-d
// ([N, C, W]: no height, scales_h ignored) or both 4-d, of one dtype of
// kUpsampleNearestTypes, any strides; out not empty.
void upsample_nearest_kernel(const Tensor& input, const Tensor& out, std::optional<double> scales_h,
                             std::optional<double> scales_w);

}  // namespace sops::cuda
