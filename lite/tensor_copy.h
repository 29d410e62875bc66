// Copies a CPU tensor's elements, whatever its strides, in row-major order: what the
// lite runtime needs of a copy without linking an operator library (writing a .npy,
// handing out a model output that would alias a parameter).
#pragma once

#include "runtime/tensor.h"

namespace sops::lite {

// The bytes of t's elements, row-major: t.numel() * t.element_size(), or an Error naming
// `what` when that overflows (an expanded view of 2**62 elements of 4 bytes each, whose
// Tensor::nbytes() wraps around).
std::size_t row_major_nbytes(const Tensor& t, const char* what);
// Writes row_major_nbytes(t) bytes to dst: t's elements in row-major order.
void copy_row_major(const Tensor& t, void* dst);
// A new contiguous CPU tensor with t's elements.
Tensor contiguous_copy(const Tensor& t);

}  // namespace sops::lite
