// The CUDA launchers of add, sub, mul and div (binary_ops.cu), called by their
// structured impls (binary_ops.cpp).
//
// The CUDA kernels of //ops:aten come in pairs of files per family: `<family>.cpp`,
// compiled by the C++ compiler against the generated headers, holds the structured impls
// and kernels the yaml names (`CUDA: add_out_cuda`); `<family>.cu`, compiled by nvcc,
// holds the launchers they call, declared in `<family>_kernels.h` with runtime types only.
#pragma once

#include "runtime/scalar.h"
#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// Element-wise (binary_ops.cu): out = self + alpha * other, and the rest.
void add_kernel(const TensorIteratorBase& iter, const Scalar& alpha);
void mul_kernel(const TensorIteratorBase& iter);
void div_true_kernel(const TensorIteratorBase& iter);
// rounding_mode "trunc" or "floor".
void div_rounding_kernel(const TensorIteratorBase& iter, bool floor);

}  // namespace sops::cuda
