// Broadcasting, PyTorch (NumPy) rules: shapes are aligned at their last dimension;
// each pair of sizes must be equal or one of them 1; missing leading dimensions
// count as 1.
#pragma once

#include "runtime/array_ref.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops {

// The broadcast shape of a and b. Throws sops::Error naming both shapes:
// "shapes [2, 3] and [4] are not broadcastable: the size of tensor a (3) must match
//  the size of tensor b (4) at non-singleton dimension 1".
DimVector infer_size(IntArrayRef a, IntArrayRef b);

// Whether `shape` broadcasts to exactly `desired`.
bool is_expandable_to(IntArrayRef shape, IntArrayRef desired);

// A view of t broadcast to `sizes`: new leading dimensions and expanded size-1
// dimensions get stride 0, sharing t's storage. -1 in sizes keeps t's size.
Tensor expand(const Tensor& t, IntArrayRef sizes);

}  // namespace sops
