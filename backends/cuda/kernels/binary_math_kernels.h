// The CUDA launchers of the element-wise binary math of core ATen (binary_math_ops.cu):
// the bitwise ops, logical_xor, maximum and minimum, fmod and remainder, atan2, pow with a
// tensor exponent and clamp with tensor bounds, called by their structured impls
// (binary_math_ops.cpp). See binary_kernels.h for how the CUDA kernels of a family are
// split between a .cpp and a .cu file.
#pragma once

#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// In the common dtype, the integral types and bool (the impls refused the others first):
// bit by bit for integers, logically for bool.
enum class BitwiseOp { kAnd, kOr, kXor };
void bitwise_kernel(const TensorIteratorBase& iter, BitwiseOp op);

// Whether the inputs, read as the common dtype, differ in truth; out is bool (or the
// dtype out= gave).
void logical_xor_kernel(const TensorIteratorBase& iter);

// maximum (or minimum) of two inputs in the common dtype, every dtype but the reduced
// floating ones: NaN wins, bool is "or" ("and").
void maximum_kernel(const TensorIteratorBase& iter);
void minimum_kernel(const TensorIteratorBase& iter);

// In the common dtype, the integral types, float and double. An integral divisor of 0
// gives an unspecified value (PyTorch's CUDA kernels do not check either; the CPU's
// raise), never a trap.
void fmod_kernel(const TensorIteratorBase& iter);
void remainder_kernel(const TensorIteratorBase& iter);

// In the common dtype, float or double.
void atan2_kernel(const TensorIteratorBase& iter);

// base ** exponent in the common dtype, the integral types, float and double (integers
// by squaring, wrapping; a negative exponent gives 0 but for the bases 1 and -1).
void pow_tensor_kernel(const TensorIteratorBase& iter);

// clamp with both bounds as inputs 2 and 3, in the common dtype, the integral types,
// float and double: a NaN bound gives NaN.
void clamp_tensor_kernel(const TensorIteratorBase& iter);

}  // namespace sops::cuda
