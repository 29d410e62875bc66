// sops::Value: one boxed value of the schema DSL, and the Stack that boxed calls use.
//
// An interpreter holds its values boxed; kernels are unboxed C++ functions. A Value is
// a tagged union over every argument and return type of native_functions.yaml:
//
//   schema type                      Value tag            C++ payload
//   (None of any optional T?)        None                 -
//   Tensor                           Tensor               Tensor
//   int, SymInt                      Int                  int64_t
//   float                            Double               double
//   bool                             Bool                 bool
//   str                              String               std::string
//   Scalar                           Scalar               Scalar
//   ScalarType / Layout / Device /   ScalarType, Layout,  the runtime's enums/classes
//     MemoryFormat / Generator         Device, ...
//   int[], SymInt[]                  IntList              std::vector<int64_t>
//   float[]                          DoubleList           std::vector<double>
//   bool[]                           BoolList             std::vector<bool>
//   Tensor[]                         TensorList           std::vector<Tensor>
//   Tensor?[]                        OptionalTensorList   std::vector<std::optional<Tensor>>
//   Scalar[]                         ScalarList           std::vector<Scalar>
//   (several returns, as one value)  Tuple                shared, immutable elements
//
// `Tensor?` is a Tensor or None; every `T?` is a T or None. Accessors (`to_int()`, ...)
// throw sops::Error naming both types on a mismatch; the unboxing helpers
// (runtime/unboxing.h) add the argument's name and the widening conversions a schema
// allows (an int where a float or a Scalar is expected, one int for an `int[2]`).
//
// The boxed calling convention (as PyTorch's): a caller pushes one Value per schema
// argument, in schema order (out= arguments included), onto a Stack; the boxed kernel
// pops them and pushes one Value per schema return, in order (not a Tuple).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/device.h"
#include "runtime/generator.h"
#include "runtime/native_types.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"

namespace sops {

class Value;
// The elements of a Tuple value; shared between copies, never modified.
using ValueTuple = std::shared_ptr<const std::vector<Value>>;

class Value {
 public:
  // The alternatives, in the order of the payload's variant.
  enum class Tag : uint8_t {
    None,
    Tensor,
    Int,
    Double,
    Bool,
    String,
    Scalar,
    ScalarType,
    Layout,
    Device,
    MemoryFormat,
    Generator,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    OptionalTensorList,
    ScalarList,
    Tuple,
  };

  Value() = default;  // None
  Value(std::nullopt_t) {}
  Value(Tensor t) : v_(std::move(t)) {}
  // Every integer type is an Int (bool excepted), so `Value(3)` is unambiguous.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Value(T i) : v_(static_cast<int64_t>(i)) {}
  Value(double d) : v_(d) {}
  Value(bool b) : v_(b) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(std::string_view s) : v_(std::string(s)) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(Scalar s) : v_(std::move(s)) {}
  Value(ScalarType t) : v_(t) {}
  Value(Layout l) : v_(l) {}
  Value(Device d) : v_(d) {}
  Value(MemoryFormat m) : v_(m) {}
  Value(Generator g) : v_(std::move(g)) {}
  Value(std::vector<int64_t> v) : v_(std::move(v)) {}
  Value(std::vector<double> v) : v_(std::move(v)) {}
  Value(std::vector<bool> v) : v_(std::move(v)) {}
  Value(std::vector<Tensor> v) : v_(std::move(v)) {}
  Value(std::vector<std::optional<Tensor>> v) : v_(std::move(v)) {}
  Value(std::vector<Scalar> v) : v_(std::move(v)) {}
  // An optional of any boxable type: None or the value.
  template <typename T>
  Value(std::optional<T> o) {
    if (o.has_value()) *this = Value(std::move(*o));
  }
  static Value tuple(std::vector<Value> elements);

  Tag tag() const { return static_cast<Tag>(v_.index()); }
  // The schema DSL's name of the tag ("int", "Tensor", "Tensor?[]", ...).
  std::string_view type_name() const { return tag_name(tag()); }
  static std::string_view tag_name(Tag tag);

  bool is_none() const { return tag() == Tag::None; }
  bool is_tensor() const { return tag() == Tag::Tensor; }
  bool is_int() const { return tag() == Tag::Int; }
  bool is_double() const { return tag() == Tag::Double; }
  bool is_bool() const { return tag() == Tag::Bool; }

  // Accessors: the payload, or a sops::Error "expected <type> but got <type>".
  const Tensor& to_tensor() const& { return get<Tensor>(Tag::Tensor); }
  Tensor to_tensor() && { return std::move(get<Tensor>(Tag::Tensor)); }
  int64_t to_int() const { return get<int64_t>(Tag::Int); }
  double to_double() const { return get<double>(Tag::Double); }
  bool to_bool() const { return get<bool>(Tag::Bool); }
  const std::string& to_string() const { return get<std::string>(Tag::String); }
  const Scalar& to_scalar() const { return get<Scalar>(Tag::Scalar); }
  ScalarType to_scalar_type() const { return get<ScalarType>(Tag::ScalarType); }
  Layout to_layout() const { return get<Layout>(Tag::Layout); }
  Device to_device() const { return get<Device>(Tag::Device); }
  MemoryFormat to_memory_format() const { return get<MemoryFormat>(Tag::MemoryFormat); }
  const Generator& to_generator() const { return get<Generator>(Tag::Generator); }
  const std::vector<int64_t>& to_int_list() const {
    return get<std::vector<int64_t>>(Tag::IntList);
  }
  const std::vector<double>& to_double_list() const {
    return get<std::vector<double>>(Tag::DoubleList);
  }
  const std::vector<bool>& to_bool_list() const { return get<std::vector<bool>>(Tag::BoolList); }
  const std::vector<Tensor>& to_tensor_list() const {
    return get<std::vector<Tensor>>(Tag::TensorList);
  }
  const std::vector<std::optional<Tensor>>& to_optional_tensor_list() const {
    return get<std::vector<std::optional<Tensor>>>(Tag::OptionalTensorList);
  }
  const std::vector<Scalar>& to_scalar_list() const {
    return get<std::vector<Scalar>>(Tag::ScalarList);
  }
  const std::vector<Value>& to_tuple() const { return *get<ValueTuple>(Tag::Tuple); }

  // Mutable access to a payload (e.g. an interpreter filling a list in place).
  template <typename T>
  T* get_if() {
    return std::get_if<T>(&v_);
  }
  template <typename T>
  const T* get_if() const {
    return std::get_if<T>(&v_);
  }

 private:
  using Payload =
      std::variant<std::monostate, Tensor, int64_t, double, bool, std::string, Scalar, ScalarType,
                   Layout, Device, MemoryFormat, Generator, std::vector<int64_t>,
                   std::vector<double>, std::vector<bool>, std::vector<Tensor>,
                   std::vector<std::optional<Tensor>>, std::vector<Scalar>, ValueTuple>;

  template <typename T>
  const T& get(Tag expected) const {
    if (const T* p = std::get_if<T>(&v_)) return *p;
    throw_wrong_type(expected);
  }
  template <typename T>
  T& get(Tag expected) {
    if (T* p = std::get_if<T>(&v_)) return *p;
    throw_wrong_type(expected);
  }
  [[noreturn]] void throw_wrong_type(Tag expected) const;

  Payload v_;
};

// The boxed calling convention's stack: arguments pushed in schema order, returns
// left in their place.
using Stack = std::vector<Value>;

// A readable rendering: a Tensor as its str(), `3`, `[1, 2]`, `None`, `(1, 2.5)`, ...
std::ostream& operator<<(std::ostream& os, const Value& v);

}  // namespace sops
