// cat's rules that its meta function and every backend's kernel share: which inputs the
// legacy rule skips, and the slice of the result each other input fills.
#pragma once

#include <cstdint>

#include "runtime/native_types.h"
#include "runtime/tensor.h"

namespace sops::aten::ops_util {

// Legacy rule: 1-d empty tensors (size [0]) are skipped for shape checks and the cat
// dimension, whatever the other tensors' rank.
inline bool cat_skipped(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

// Calls copy(slice, t) for each input t with elements along `dim`, in order: slice is the
// view of `out` (the meta function's result) that t fills, of t's sizes and out's strides.
template <typename Copy>
void for_each_cat_slice(const ITensorListRef& tensors, int64_t dim, const Tensor& out,
                        Copy&& copy) {
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (cat_skipped(t)) continue;
    const int64_t extent = t.size(dim);
    if (extent == 0) continue;
    copy(out.as_strided(t.sizes(), out.strides(), out.storage_offset() + offset * out.stride(dim)),
         t);
    offset += extent;
  }
}

}  // namespace sops::aten::ops_util
