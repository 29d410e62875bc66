// The CUDA launchers of the element-wise unary math operators (unary_ops.cu), called by
// their structured impls (unary_ops.cpp). See binary_kernels.h for how the CUDA kernels of
// a family are split between a .cpp and a .cu file.
#pragma once

#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// In the common dtype: the integral types, float and double (negation and |x| wrap).
void neg_kernel(const TensorIteratorBase& iter);
void abs_kernel(const TensorIteratorBase& iter);

// In the common dtype, float or double.
void exp_kernel(const TensorIteratorBase& iter);
void log_kernel(const TensorIteratorBase& iter);
void sqrt_kernel(const TensorIteratorBase& iter);
void rsqrt_kernel(const TensorIteratorBase& iter);
void sigmoid_kernel(const TensorIteratorBase& iter);
void tanh_kernel(const TensorIteratorBase& iter);
void sin_kernel(const TensorIteratorBase& iter);
void cos_kernel(const TensorIteratorBase& iter);
void tan_kernel(const TensorIteratorBase& iter);
void asin_kernel(const TensorIteratorBase& iter);
void acos_kernel(const TensorIteratorBase& iter);
void atan_kernel(const TensorIteratorBase& iter);
void sinh_kernel(const TensorIteratorBase& iter);
void cosh_kernel(const TensorIteratorBase& iter);
void asinh_kernel(const TensorIteratorBase& iter);
void acosh_kernel(const TensorIteratorBase& iter);
void atanh_kernel(const TensorIteratorBase& iter);
void erf_kernel(const TensorIteratorBase& iter);
void expm1_kernel(const TensorIteratorBase& iter);
void log1p_kernel(const TensorIteratorBase& iter);
void log2_kernel(const TensorIteratorBase& iter);
void log10_kernel(const TensorIteratorBase& iter);
void reciprocal_kernel(const TensorIteratorBase& iter);

// pow.Tensor_Scalar, computing in `dtype` (result_type(self, exponent)); the impl picks
// the case as the CPU kernel does.
// Exponent 0: fills 1 (every dtype but the reduced floating ones).
void pow_fill_one_kernel(const TensorIteratorBase& iter, ScalarType dtype);
// Exponent 1: copies.
void pow_identity_kernel(const TensorIteratorBase& iter, ScalarType dtype);
// A float or double base: sqrt, rsqrt, reciprocal, square, cube, 1/square for 0.5, -0.5,
// -1, 2, 3, -2, else pow in double.
void pow_floating_kernel(const TensorIteratorBase& iter, ScalarType dtype, double exponent);
// An integral base, exponent >= 0 (the meta function refused negative ones): by squaring,
// wrapping; the exponent converts to `dtype` with PyTorch's checks (on the host).
void pow_integral_kernel(const TensorIteratorBase& iter, ScalarType dtype, const Scalar& exponent);

}  // namespace sops::cuda
