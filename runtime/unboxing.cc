#include "runtime/unboxing.h"

#include <string>

namespace sops::unbox {

namespace {

// An enum given as its integer (as TorchScript passes them), checked against its range.
template <typename E>
E enum_of(const Value& v, int64_t count, const char* what) {
  const int64_t i = v.to_int();
  SOPS_CHECK(i >= 0 && i < count, "expected a ", what, " but got the integer ", i);
  return static_cast<E>(i);
}

constexpr int64_t kNumLayouts = static_cast<int64_t>(Layout::Jagged) + 1;
constexpr int64_t kNumMemoryFormats = static_cast<int64_t>(MemoryFormat::ChannelsLast3d) + 1;

}  // namespace

ArrayRef<std::optional<Tensor>> optional_tensor_list(Value& v) {
  if (v.tag() == Value::Tag::TensorList) {
    const std::vector<Tensor>& tensors = v.to_tensor_list();
    v = Value(std::vector<std::optional<Tensor>>(tensors.begin(), tensors.end()));
  }
  return v.to_optional_tensor_list();
}

Scalar scalar(const Value& v) {
  switch (v.tag()) {
    case Value::Tag::Int:
      return Scalar(v.to_int());
    case Value::Tag::Double:
      return Scalar(v.to_double());
    case Value::Tag::Bool:
      return Scalar(v.to_bool());
    default:
      return v.to_scalar();  // throws unless a Scalar
  }
}

ScalarType scalar_type(const Value& v) {
  return v.is_int() ? enum_of<ScalarType>(v, kNumScalarTypes, "ScalarType") : v.to_scalar_type();
}

Layout layout(const Value& v) {
  return v.is_int() ? enum_of<Layout>(v, kNumLayouts, "Layout") : v.to_layout();
}

Device device(const Value& v) {
  if (v.tag() == Value::Tag::String) return Device(v.to_string());
  return v.to_device();
}

MemoryFormat memory_format(const Value& v) {
  return v.is_int() ? enum_of<MemoryFormat>(v, kNumMemoryFormats, "MemoryFormat")
                    : v.to_memory_format();
}

ArrayRef<int64_t> int_list(Value& v, std::size_t size) {
  if (v.is_int() && size > 0) v = Value(std::vector<int64_t>(size, v.to_int()));
  return v.to_int_list();
}

ArrayRef<double> double_list(Value& v) {
  if (v.tag() == Value::Tag::IntList) {
    const std::vector<int64_t>& ints = v.to_int_list();
    v = Value(std::vector<double>(ints.begin(), ints.end()));
  }
  return v.to_double_list();
}

namespace detail {

void drop_below(Stack& stack, std::size_t n_arguments, std::size_t n_returns) {
  const auto returns = stack.end() - static_cast<std::ptrdiff_t>(n_returns);
  stack.erase(returns - static_cast<std::ptrdiff_t>(n_arguments), returns);
}

}  // namespace detail
}  // namespace sops::unbox
