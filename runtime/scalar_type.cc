#include "runtime/scalar_type.h"

#include <string>

#include "runtime/error.h"
#include "runtime/visit_dtype.h"

namespace sops {
namespace {

// Width order of the floating types; Half and BFloat16 tie (neither holds the other).
constexpr int float_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16:
      return 1;
    case ScalarType::Float:
      return 2;
    case ScalarType::Double:
      return 3;
    default:
      return 0;
  }
}

// Width order of the signed integral types.
constexpr int int_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Char:
      return 1;
    case ScalarType::Int:
      return 3;
    case ScalarType::Long:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

ScalarType parse_scalar_type(std::string_view name) {
#define SOPS_CASE(cpp_type, enumerator, str) \
  if (name == str || name == #enumerator) return ScalarType::enumerator;
  SOPS_FORALL_SCALAR_TYPES(SOPS_CASE)
  SOPS_FORALL_NAME_ONLY_SCALAR_TYPES(SOPS_CASE)
#undef SOPS_CASE
  return ScalarType::Undefined;
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined || b == ScalarType::Undefined) return ScalarType::Undefined;
  SOPS_CHECK(is_tensor_dtype(a) && is_tensor_dtype(b), "cannot promote ", a, " with ", b,
             ": sops tensors cannot hold ", is_tensor_dtype(a) ? b : a, " elements");
  if (a == b) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  const bool a_float = is_floating_point(a);
  const bool b_float = is_floating_point(b);
  if (a_float && b_float) {
    if (float_rank(a) == float_rank(b)) return ScalarType::Float;  // Half with BFloat16
    return float_rank(a) > float_rank(b) ? a : b;
  }
  if (a_float) return a;
  if (b_float) return b;
  // Both integral, not bool. uint8 fits in any wider signed type, not in int8.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    const ScalarType other = a == ScalarType::Byte ? b : a;
    SOPS_CHECK(other != ScalarType::Char,
               "uint8 and int8 promote to int16 in PyTorch, which sops does not support; "
               "convert one of them to int32 first");
    return other;
  }
  return int_rank(a) > int_rank(b) ? a : b;
}

}  // namespace sops

// visit_dtype's error, out of line to keep string building out of every kernel.

namespace sops::detail {

namespace {
void append_dtypes(std::string& message, uint32_t set) {
  bool first = true;
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if ((set >> i) & 1u) {
      message += first ? " " : ", ";
      message += to_string(static_cast<ScalarType>(i));
      first = false;
    }
  }
}
}  // namespace

void throw_unsupported_dtype(ScalarType t, std::string_view name, uint32_t set) {
  std::string message;
  if (!name.empty()) {
    message += name;
    message += ": ";
  }
  message += "dtype ";
  message += to_string(t);
  const bool left_out = t != ScalarType::Undefined && ((set >> static_cast<int>(t)) & 1u) != 0;
  if (left_out) {
    message += " was left out of this build by its dtype selection (built:";
    append_dtypes(message, dtypes::built(set));
    message += "); add it to --//config:dtypes";
  } else {
    message += " is not supported (supported:";
    append_dtypes(message, set);
    message += ")";
  }
  raise(Error(std::move(message)));
}

}  // namespace sops::detail
