// What the kernels that `autogen:` writes (codegen/dest/library.py) use: copies of
// tensors made with the operator `copy_` as the process's dispatcher knows it — the
// one the library declares, or that of another library linked in (//ops:aten has
// it). A library need not declare copy_ to use autogen; a call that finds no copy_
// throws sops::Error saying so.
//
// A statically dispatched library (`static_dispatch = True`) links no dispatcher: its
// autogen kernels pass their own copy function (the library's `copy_` through its
// Functions.h) to the overloads that take a CopyFn, which are all inline here, so
// nothing of autogen_support.cc (nor the dispatcher it calls) is linked for them.
#pragma once

#include <optional>
#include <vector>

#include "runtime/array_ref.h"
#include "runtime/dense_strides.h"
#include "runtime/error.h"
#include "runtime/tensor.h"

namespace sops::autogen {

// A new tensor of t's sizes and options holding t's values (undefined stays undefined).
Tensor clone_of(const Tensor& t);
std::optional<Tensor> clone_of(const std::optional<Tensor>& t);
std::vector<Tensor> clone_of(ArrayRef<Tensor> ts);

// Resizes `out` to `value`'s sizes and copies `value` into it (converting the dtype).
void copy_to_out(const Tensor& out, const Tensor& value);
// Nothing to copy into, or nothing to copy: does nothing.
void copy_to_out(const std::optional<Tensor>& out, const std::optional<Tensor>& value);
// Element by element; the lists must have the same length.
void copy_to_out(ArrayRef<Tensor> out, ArrayRef<Tensor> values);

// The same, copying with `copy` (copy(dst, src) copies src's values into dst, of the
// same sizes) instead of the dispatcher's copy_.
using CopyFn = void (*)(const Tensor& dst, const Tensor& src);

// Laid out like t, as PyTorch's clone (memory_format preserve).
inline Tensor clone_of(const Tensor& t, CopyFn copy) {
  if (!t.defined()) return t;
  Tensor result = empty_strided(t.sizes(), preserved_strides(t), t.options());
  copy(result, t);
  return result;
}

inline std::optional<Tensor> clone_of(const std::optional<Tensor>& t, CopyFn copy) {
  if (!t.has_value()) return t;
  return clone_of(*t, copy);
}

inline std::vector<Tensor> clone_of(ArrayRef<Tensor> ts, CopyFn copy) {
  std::vector<Tensor> copies;
  copies.reserve(ts.size());
  for (const Tensor& t : ts) copies.push_back(clone_of(t, copy));
  return copies;
}

// As PyTorch's generated out= kernels: out must have the result's dtype (no conversion).
inline void copy_to_out(const Tensor& out, const Tensor& value, CopyFn copy) {
  SOPS_CHECK_ARG(out.scalar_type() == value.scalar_type(), "out",
                 "Expected out tensor to have dtype ", typemeta_name(value.scalar_type()),
                 ", but got ", typemeta_name(out.scalar_type()), " instead");
  out.resize_(value.sizes());
  copy(out, value);
}

inline void copy_to_out(const std::optional<Tensor>& out, const std::optional<Tensor>& value,
                        CopyFn copy) {
  if (out.has_value() && out->defined() && value.has_value() && value->defined()) {
    copy_to_out(*out, *value, copy);
  }
}

inline void copy_to_out(ArrayRef<Tensor> out, ArrayRef<Tensor> values, CopyFn copy) {
  SOPS_CHECK(out.size() == values.size(), "expected ", values.size(), " out= tensors, got ",
             out.size());
  for (std::size_t i = 0; i < out.size(); ++i) copy_to_out(out[i], values[i], copy);
}

}  // namespace sops::autogen
