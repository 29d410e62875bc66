// Copies a CPU tensor's elements, whatever its strides, in row-major order: what the
// lite runtime needs of a copy without linking an operator library (writing a .npy,
// handing out a model output that would alias a parameter).
#pragma once

#include "runtime/tensor.h"

namespace sops::lite {

// Writes t.nbytes() bytes to dst: t's elements in row-major order.
void copy_row_major(const Tensor& t, void* dst);
// A new contiguous CPU tensor with t's elements.
Tensor contiguous_copy(const Tensor& t);

}  // namespace sops::lite
