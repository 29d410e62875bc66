// Helpers for the runtime tests: make cpu tensors from values and read them back.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/meta_base.h"
#include "runtime/tensor.h"

namespace sops::testing {

// The message of the sops::Error that f throws, or "(no error)".
template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A contiguous cpu tensor of dtype `dtype` holding `values` (converted) in `sizes`.
template <typename T>
Tensor make(std::vector<T> values, IntArrayRef sizes, ScalarType dtype = scalar_type_of<T>) {
  Tensor t = empty(sizes, sops::dtype(dtype));
  char* p = static_cast<char*>(t.data_ptr());
  for (std::size_t i = 0; i < values.size(); ++i) {
    store_as<T>(p + i * t.element_size(), dtype, values[i]);
  }
  return t;
}

// The elements of a cpu tensor in row-major order of its sizes (any strides), as T.
template <typename T>
std::vector<T> values(const Tensor& t) {
  std::vector<T> out;
  const int64_t n = t.numel();
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(ndim), 0);
  const char* base = static_cast<const char*>(t.const_data_ptr());
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) offset += index[static_cast<std::size_t>(d)] * t.stride(d);
    out.push_back(
        load_as<T>(base + offset * static_cast<int64_t>(t.element_size()), t.scalar_type()));
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < t.size(d)) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

inline std::vector<int64_t> vec(IntArrayRef a) { return a.vec(); }

}  // namespace sops::testing

// The final classes the generator writes for a structured kernel, by hand, so the
// runtime's MetaBase and TensorIteratorBase can be tested without the generator.
namespace sops::testing {

// Functional: set_output allocates the output.
template <typename Parent>
struct FunctionalFinal final : Parent {
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    outputs_[static_cast<std::size_t>(i)] = sops::create_out(sizes, strides, options);
    Parent::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override {
    return outputs_[static_cast<std::size_t>(i)];
  }
  std::array<Tensor, 1> outputs_;
};

// Out: set_output resizes (and checks) the given out tensor.
template <typename Parent>
struct OutFinal final : Parent {
  explicit OutFinal(const Tensor& out) : outputs_{std::cref(out)} {}
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    sops::resize_out(outputs_[static_cast<std::size_t>(i)], sizes, strides, options);
    Parent::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override {
    return outputs_[static_cast<std::size_t>(i)];
  }
  std::array<std::reference_wrapper<const Tensor>, 1> outputs_;
};

}  // namespace sops::testing
