// The CUDA launcher of _softmax and _log_softmax (softmax.cu), called by their structured
// impls (softmax.cpp). See binary_kernels.h for how the CUDA kernels of a family are split
// between a .cpp and a .cu file.
#pragma once

#include <cstdint>

#include "runtime/tensor.h"

namespace sops::cuda {

// out = softmax (log_softmax when `log`) of self over dimension `dim` (wrapped; 0 for a
// 0-dim self). self is float32 or float64 and not empty; out has its dtype and sizes and
// may have any strides.
void softmax_kernel(const Tensor& self, int64_t dim, const Tensor& out, bool log);

}  // namespace sops::cuda
