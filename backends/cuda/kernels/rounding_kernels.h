// The CUDA launchers of the rounding operators, sign and bitwise_not (rounding_ops.cu),
// called by their structured impls (rounding_ops.cpp). See binary_kernels.h for how the
// CUDA kernels of a family are split between a .cpp and a .cu file.
#pragma once

#include <cstdint>

#include "runtime/tensor_iterator.h"

namespace sops::cuda {

// floor, ceil, round (half to even) and trunc in the common dtype: float and double are
// rounded, the integral types copied (the impls refused the others first); `name` names
// the operator in a dtype error.
enum class RoundingOp { kFloor, kCeil, kRound, kTrunc };
void rounding_kernel(const TensorIteratorBase& iter, RoundingOp op, const char* name);

// round.decimals with decimals != 0, in the common dtype, float or double.
void round_decimals_kernel(const TensorIteratorBase& iter, int64_t decimals);

// In the common dtype: the integral types, float, double and bool.
void sign_kernel(const TensorIteratorBase& iter);

// ~x for the integral types, !x for bool, in the common dtype.
void bitwise_not_kernel(const TensorIteratorBase& iter);

}  // namespace sops::cuda
