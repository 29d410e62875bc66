#include "runtime/type_promotion.h"

namespace sops {
namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

// `higher` is from a higher-ranked kind of operand; `lower` counts only when its
// category is above higher's.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_floating_point(higher)) return higher;
  if (higher == ScalarType::Bool || is_floating_point(lower)) {
    return promote_skip_undefined(higher, lower);
  }
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}

ScalarType wrapped_dtype(ScalarType t) { return is_floating_point(t) ? kDefaultFloatingDtype : t; }

}  // namespace

ResultTypeState update_result_type_state(const Tensor& t, const ResultTypeState& state) {
  if (!t.defined()) return state;
  ResultTypeState next = state;
  const ScalarType current = t.scalar_type();
  if (t.is_wrapped_number()) {
    next.wrapped_result = promote_skip_undefined(state.wrapped_result, wrapped_dtype(current));
  } else if (t.dim() == 0) {
    next.zero_result = promote_skip_undefined(state.zero_result, current);
  } else {
    next.dim_result = promote_skip_undefined(state.dim_result, current);
  }
  return next;
}

ResultTypeState update_result_type_state(const Scalar& s, const ResultTypeState& state) {
  ResultTypeState next = state;
  next.wrapped_result = promote_skip_undefined(state.wrapped_result, wrapped_dtype(s.type()));
  return next;
}

ScalarType result_type(const ResultTypeState& state) {
  return combine_categories(state.dim_result,
                            combine_categories(state.zero_result, state.wrapped_result));
}

ScalarType result_type(std::initializer_list<Tensor> tensors) {
  ResultTypeState state;
  for (const Tensor& t : tensors) state = update_result_type_state(t, state);
  return result_type(state);
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

ScalarType result_type(const Tensor& t, const Scalar& s) {
  return result_type(update_result_type_state(s, update_result_type_state(t, {})));
}

ScalarType result_type(const Scalar& s, const Tensor& t) { return result_type(t, s); }

ScalarType result_type(const Scalar& a, const Scalar& b) {
  return result_type(update_result_type_state(b, update_result_type_state(a, {})));
}

}  // namespace sops
