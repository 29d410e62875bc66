// The CUDA launcher of embedding (embedding.cu), called by its kernel (embedding.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/tensor.h"

namespace sops::cuda {

// result[i, :] = weight[indices[i], :] for every index in indices' order (result: [n, cols],
// contiguous; weight: 2-d, any strides and dtype, its elements moved as bytes; indices:
// int32 or int64, any strides, n > 0 elements). An index outside [0, weight.size(0)) copies
// nothing; the first such index in indices' order is returned (the caller raises the CPU's
// error with it), nullopt when there is none. Waits for the kernel.
std::optional<int64_t> embedding_kernel(const Tensor& weight, const Tensor& indices,
                                        const Tensor& result);

}  // namespace sops::cuda
