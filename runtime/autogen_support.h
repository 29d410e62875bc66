// What the kernels that `autogen:` writes (codegen/dest/library.py) use: copies of
// tensors made with the operator `copy_` as the process's dispatcher knows it — the
// one the library declares, or that of another library linked in (//ops:aten_cpu has
// it). A library need not declare copy_ to use autogen; a call that finds no copy_
// throws sops::Error saying so.
#pragma once

#include <optional>
#include <vector>

#include "runtime/array_ref.h"
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

}  // namespace sops::autogen
