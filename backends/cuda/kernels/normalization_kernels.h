// The CUDA launchers of native_layer_norm and _native_batch_norm_legit_no_training
// (normalization.cu), called by their kernels (normalization.cpp).
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

// Batch norm in inference, float32 or float64: out = (x - running_mean[c]) / sqrt(running_var[c]
// + eps) * weight[c] + bias[c] along input's dimension 1 (weight / bias undefined: 1 / 0),
// computed as the CPU computes it: per channel alpha = weight / sqrt(var + eps) and beta =
// bias - mean * alpha in the element type, then out = x * alpha + beta. input and out
// (input's sizes) may have any strides; the per-channel tensors are 1-d with one element
// per channel, of input's dtype. input.numel() > 0.
void batch_norm_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                       const Tensor& running_mean, const Tensor& running_var, double eps,
                       const Tensor& out);

}  // namespace sops::cuda
