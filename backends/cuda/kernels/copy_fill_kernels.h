// The CUDA launchers of copy_ and fill_ (copy_fill.cu), called by copy_fill.cpp.
#pragma once

#include "runtime/scalar.h"
#include "runtime/tensor.h"

namespace sops::cuda {

// dst = src converted to dst's dtype and broadcast to its shape; both on one CUDA device.
void copy_on_device(const Tensor& dst, const Tensor& src);

// t itself when undefined or contiguous, else a contiguous copy of it on its device.
Tensor contiguous_on_device(const Tensor& t);

// Every element of self (a CUDA tensor, any strides) = value, converted to its dtype as
// PyTorch converts (range-checked: scalar_checks.h).
void fill_kernel(const Tensor& self, const Scalar& value);

}  // namespace sops::cuda
