#include "runtime/value.h"

#include "runtime/error.h"

namespace sops {

Value Value::tuple(std::vector<Value> elements) {
  Value v;
  v.v_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return v;
}

std::string_view Value::tag_name(Tag tag) {
  switch (tag) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return "Tensor";
    case Tag::Int:
      return "int";
    case Tag::Double:
      return "float";
    case Tag::Bool:
      return "bool";
    case Tag::String:
      return "str";
    case Tag::Scalar:
      return "Scalar";
    case Tag::ScalarType:
      return "ScalarType";
    case Tag::Layout:
      return "Layout";
    case Tag::Device:
      return "Device";
    case Tag::MemoryFormat:
      return "MemoryFormat";
    case Tag::Generator:
      return "Generator";
    case Tag::IntList:
      return "int[]";
    case Tag::DoubleList:
      return "float[]";
    case Tag::BoolList:
      return "bool[]";
    case Tag::TensorList:
      return "Tensor[]";
    case Tag::OptionalTensorList:
      return "Tensor?[]";
    case Tag::ScalarList:
      return "Scalar[]";
    case Tag::Tuple:
      return "tuple";
  }
  return "unknown";
}

void Value::throw_wrong_type(Tag expected) const {
  raise(Error(
      detail::str("expected a value of type ", tag_name(expected), " but got ", type_name())));
}

namespace {

template <typename T>
void print_list(std::ostream& os, const std::vector<T>& xs) {
  os << '[';
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i != 0) os << ", ";
    if constexpr (std::is_same_v<T, std::optional<Tensor>>) {
      if (xs[i].has_value()) {
        os << *xs[i];
      } else {
        os << "None";
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      os << (xs[i] ? "True" : "False");
    } else {
      os << xs[i];
    }
  }
  os << ']';
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const Value& v) {
  using Tag = Value::Tag;
  switch (v.tag()) {
    case Tag::None:
      return os << "None";
    case Tag::Tensor:
      return os << v.to_tensor();
    case Tag::Int:
      return os << v.to_int();
    case Tag::Double:
      return os << v.to_double();
    case Tag::Bool:
      return os << (v.to_bool() ? "True" : "False");
    case Tag::String:
      return os << '"' << v.to_string() << '"';
    case Tag::Scalar:
      return os << v.to_scalar();
    case Tag::ScalarType:
      return os << v.to_scalar_type();
    case Tag::Layout:
      return os << v.to_layout();
    case Tag::Device:
      return os << v.to_device();
    case Tag::MemoryFormat:
      return os << v.to_memory_format();
    case Tag::Generator:
      return os << "Generator";
    case Tag::IntList:
      print_list(os, v.to_int_list());
      return os;
    case Tag::DoubleList:
      print_list(os, v.to_double_list());
      return os;
    case Tag::BoolList:
      print_list(os, v.to_bool_list());
      return os;
    case Tag::TensorList:
      print_list(os, v.to_tensor_list());
      return os;
    case Tag::OptionalTensorList:
      print_list(os, v.to_optional_tensor_list());
      return os;
    case Tag::ScalarList:
      print_list(os, v.to_scalar_list());
      return os;
    case Tag::Tuple: {
      os << '(';
      const auto& elements = v.to_tuple();
      for (std::size_t i = 0; i < elements.size(); ++i) os << (i != 0 ? ", " : "") << elements[i];
      return os << ')';
    }
  }
  return os;
}

}  // namespace sops
