// result_type: the dtype PyTorch computes for an operation over tensors and
// numbers (torch.result_type). Operands are ranked by kind, then by category:
//   1. dimensioned tensors (dim() > 0),
//   2. zero-dim tensors,
//   3. wrapped numbers: Scalars, and tensors made from them (wrapped_scalar_tensor);
//      a floating number counts as the default dtype, float32.
// A lower kind only matters when its category (bool < integral < floating) is higher
// than every higher kind's: int32 tensor + 5 is int32, int32 tensor + 2.5 is float32,
// int32 tensor + zero-dim float64 tensor is float64.
#pragma once

#include <initializer_list>

#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"

namespace sops {

// The dtype floating Python numbers become: float32.
inline constexpr ScalarType kDefaultFloatingDtype = ScalarType::Float;

struct ResultTypeState {
  ScalarType dim_result = ScalarType::Undefined;
  ScalarType zero_result = ScalarType::Undefined;
  ScalarType wrapped_result = ScalarType::Undefined;
};

// Folds one operand in; an undefined tensor is ignored.
ResultTypeState update_result_type_state(const Tensor& t, const ResultTypeState& state);
ResultTypeState update_result_type_state(const Scalar& s, const ResultTypeState& state);
ScalarType result_type(const ResultTypeState& state);

ScalarType result_type(std::initializer_list<Tensor> tensors);
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& t, const Scalar& s);
ScalarType result_type(const Scalar& s, const Tensor& t);
ScalarType result_type(const Scalar& a, const Scalar& b);

}  // namespace sops
