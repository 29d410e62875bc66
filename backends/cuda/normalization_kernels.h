// The CUDA launcher of native_layer_norm (normalization.cu), called by its kernel
// (normalization.cpp).
#pragma once

#include <cstdint>

#include "runtime/tensor.h"

namespace sops::cuda {

// Layer norm over `rows` rows of n elements (input's trailing dimensions), float32 or
// float64: per row r, mean[r] and rstd[r] = 1 / sqrt(max(var, 0) + eps) of the biased
// variance, and out = (x - mean) * rstd * weight + bias (weight / bias undefined: 1 / 0).
// An empty row (n == 0) has mean 0 and rstd NaN, as on the CPU. input, weight and bias
// may have any strides; out, mean and rstd are contiguous, of input's dtype. rows > 0.
void layer_norm_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                       const Tensor& out, const Tensor& mean, const Tensor& rstd, int64_t rows,
                       int64_t n, double eps);

}  // namespace sops::cuda
