// The CUDA launchers of the activations and clamping (activation_ops.cu), called by the
// structured impls and relu's kernels (activation_ops.cpp). See binary_kernels.h for how
// the CUDA kernels of a family are split between a .cpp and a .cu file.
#pragma once

#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// In out's dtype, float or double (the impls refused the others first).
// approximate "tanh" (tanh_approximation) or "none" (erf).
void gelu_kernel(const TensorIteratorBase& iter, bool tanh_approximation);
void silu_kernel(const TensorIteratorBase& iter);
void hardsigmoid_kernel(const TensorIteratorBase& iter);
void hardswish_kernel(const TensorIteratorBase& iter);
// negative_slope converts to out's dtype with PyTorch's checks (on the host).
void leaky_relu_kernel(const TensorIteratorBase& iter, const Scalar& negative_slope);

// Clamping in out's dtype; the bounds convert to it with PyTorch's checks (on the host).
// min(max(x, lo), hi): the integral types, float and double.
void clamp_kernel(const TensorIteratorBase& iter, const Scalar& lo, const Scalar& hi);
void clamp_min_kernel(const TensorIteratorBase& iter, const Scalar& lo);
void clamp_max_kernel(const TensorIteratorBase& iter, const Scalar& hi);
// A NaN bound: out filled with NaN (float or double).
void clamp_nan_kernel(const TensorIteratorBase& iter);

// max(x, 0) in `dtype` (self's), NaN and -0.0 kept: the integral types, float and double.
void relu_kernel(const TensorIteratorBase& iter, ScalarType dtype);

}  // namespace sops::cuda
