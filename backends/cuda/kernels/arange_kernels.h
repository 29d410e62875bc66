// The CUDA launcher of arange.start_out (arange.cu), called by its kernel (arange.cpp).
#pragma once

#include "runtime/scalar.h"
#include "runtime/tensor.h"

namespace sops::cuda {

// Element i of out (contiguous, of a dtype of kArangeTypes, not empty) = start + step * i,
// computed in the accumulation type and converted as on the CPU (ops/util/arange_utils.h).
void arange_kernel(const Tensor& out, const Scalar& start, const Scalar& step);

}  // namespace sops::cuda
