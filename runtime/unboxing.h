// What generated unboxing wrappers (`<lib>/UnboxingFunctions.h`) use: Value -> the C++
// parameter types of the dispatcher API, and returns -> Values.
//
//   void add_Tensor(::sops::Stack& stack) {
//     ::sops::Value* args = ::sops::unbox::arguments(stack, 3);
//     auto result = ::my::ops::add(::sops::unbox::tensor(args[0]), ::sops::unbox::tensor(args[1]),
//                                  ::sops::unbox::scalar(args[2]));
//     ::sops::unbox::finish(stack, 3, std::move(result));
//   }
//
// A wrapper trusts its stack (RegisteredOperator::call checked count and types); a value
// of the wrong type still throws sops::Error, never reads the wrong member. Lists and
// strings are passed as views into the stack's values, which live until finish().
// Conversions widen as a schema does: an int for a float, an int or float or bool for
// a Scalar, one int for an `int[N]` (repeated N times), a device string for a Device.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/array_ref.h"
#include "runtime/device.h"
#include "runtime/error.h"
#include "runtime/generator.h"
#include "runtime/native_types.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"
#include "runtime/value.h"

namespace sops::unbox {

// The first of the call's `n` arguments: the last n values of the stack.
inline Value* arguments(Stack& stack, std::size_t n) {
  SOPS_CHECK(stack.size() >= n, "a boxed kernel expects ", n, " values on the stack, found ",
             stack.size());
  return stack.data() + (stack.size() - n);
}

// Tensors.
inline const Tensor& tensor(const Value& v) { return v.to_tensor(); }
inline Tensor& mutable_tensor(Value& v) {
  if (Tensor* t = v.get_if<Tensor>()) return *t;
  return const_cast<Tensor&>(v.to_tensor());  // throws: not a Tensor
}
inline std::optional<Tensor> optional_tensor(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return v.to_tensor();
}
inline ArrayRef<Tensor> tensor_list(const Value& v) { return v.to_tensor_list(); }
// `Tensor?[]`: a Tensor[] value is accepted too (converted in place).
ArrayRef<std::optional<Tensor>> optional_tensor_list(Value& v);

// Numbers and strings.
inline int64_t integer(const Value& v) { return v.to_int(); }
inline double floating(const Value& v) {
  return v.is_int() ? static_cast<double>(v.to_int()) : v.to_double();
}
inline bool boolean(const Value& v) { return v.to_bool(); }
inline std::string_view string(const Value& v) { return v.to_string(); }
Scalar scalar(const Value& v);
ScalarType scalar_type(const Value& v);
Layout layout(const Value& v);
Device device(const Value& v);
MemoryFormat memory_format(const Value& v);
inline const Generator& generator(const Value& v) { return v.to_generator(); }

// Lists. `size` is the schema's fixed length (`int[2]`), 0 if any.
ArrayRef<int64_t> int_list(Value& v, std::size_t size);
ArrayRef<double> double_list(Value& v);  // an int[] value is converted in place
inline ArrayRef<Scalar> scalar_list(const Value& v) { return v.to_scalar_list(); }
template <std::size_t N>
std::array<bool, N> bool_array(const Value& v) {
  const std::vector<bool>& bits = v.to_bool_list();
  SOPS_CHECK(bits.size() == N, "expected a list of ", N, " bools but got ", bits.size());
  std::array<bool, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = bits[i];
  return out;
}

// `T?`: None, or the conversion of T.
template <typename F>
auto optional(Value& v, F convert) -> std::optional<std::decay_t<decltype(convert(v))>> {
  if (v.is_none()) return std::nullopt;
  return convert(v);
}
inline std::optional<ArrayRef<int64_t>> optional_int_list(Value& v, std::size_t size) {
  if (v.is_none()) return std::nullopt;
  return int_list(v, size);
}
inline std::optional<ArrayRef<double>> optional_double_list(Value& v) {
  if (v.is_none()) return std::nullopt;
  return double_list(v);
}

// Returns: push each, in order (a tuple's elements one by one), then drop the call's
// `n` arguments below them. References into the arguments are copied before the drop.
namespace detail {
inline void push(Stack& stack, Tensor& t) { stack.emplace_back(t); }
inline void push(Stack& stack, const Tensor& t) { stack.emplace_back(t); }
template <typename T>
void push(Stack& stack, T&& v) {
  stack.emplace_back(std::forward<T>(v));
}
template <typename... T>
void push(Stack& stack, std::tuple<T...>&& t) {
  // An out= kernel's tuple holds references to its out= tensors, which live on this
  // stack: copy them all first, since pushing the first may reallocate the stack.
  std::tuple<std::decay_t<T>...> values(std::move(t));
  std::apply(
      [&](auto&&... elements) { (push(stack, std::forward<decltype(elements)>(elements)), ...); },
      std::move(values));
}
void drop_below(Stack& stack, std::size_t n_arguments, std::size_t n_returns);
}  // namespace detail

template <typename R>
void finish(Stack& stack, std::size_t n_arguments, R&& result) {
  const std::size_t before = stack.size();
  detail::push(stack, std::forward<R>(result));
  detail::drop_below(stack, n_arguments, stack.size() - before);
}
inline void finish(Stack& stack, std::size_t n_arguments) {
  stack.resize(stack.size() - n_arguments);
}

}  // namespace sops::unbox
