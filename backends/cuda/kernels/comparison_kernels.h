// The CUDA launchers of the comparisons, the logical ops and where (comparison_ops.cu),
// called by their structured impls (comparison_ops.cpp). See binary_kernels.h for how the
// CUDA kernels of a family are split between a .cpp and a .cu file.
#pragma once

#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// The six comparisons: out = self <op> other, read in the iterator's common dtype.
enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

// `name` is the operator's ("eq"), for the unsupported-dtype error.
void comparison_kernel(const TensorIteratorBase& iter, CompareOp op, const char* name);

// Inputs read as bool (!= 0, NaN is true); the bool result converted to out's dtype.
void logical_not_kernel(const TensorIteratorBase& iter);
void logical_and_kernel(const TensorIteratorBase& iter);
void logical_or_kernel(const TensorIteratorBase& iter);

// out = condition ? self : other, self and other read as out's dtype.
void where_kernel(const TensorIteratorBase& iter);

}  // namespace sops::cuda
