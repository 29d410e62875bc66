// Shape arithmetic of the view operators (view, _unsafe_view, reshape): PyTorch's
// infer_size (one -1 inferred) and computeStride (strides that express new sizes over
// the memory of old sizes/strides without copying, when they exist).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/error.h"
#include "runtime/small_vector.h"

namespace sops::aten::ops_util {

// `shape` with its one -1 replaced so that the element count is `numel` (PyTorch's
// infer_size, with its messages).
inline DimVector infer_size(IntArrayRef shape, int64_t numel, std::string_view argument = "size") {
  DimVector result(shape);
  int64_t known = 1;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      SOPS_CHECK_ARG(!inferred.has_value(), argument, "only one dimension can be inferred");
      inferred = i;
    } else {
      SOPS_CHECK_ARG(shape[i] >= 0, argument, "invalid shape dimension ", shape[i], " at index ", i,
                     " of shape ", shape);
      // Past int64 the shape cannot match any tensor: PyTorch's "is invalid" message.
      SOPS_CHECK_ARG(!__builtin_mul_overflow(known, shape[i], &known), argument, "shape '", shape,
                     "' is invalid for input of size ", numel);
    }
  }
  if (inferred.has_value()) {
    // Known sizes of product 0 and a -1: ambiguous for 0 elements, invalid for more.
    SOPS_CHECK_ARG(known != 0 || numel == 0, argument, "shape '", shape,
                   "' is invalid for input of size ", numel);
    SOPS_CHECK_ARG(known != 0, argument, "cannot reshape tensor of 0 elements into shape ", shape,
                   " because the unspecified dimension size -1 can be any value and is ambiguous");
    SOPS_CHECK_ARG(numel % known == 0, argument, "shape '", shape,
                   "' is invalid for input of size ", numel);
    result[*inferred] = numel / known;
  } else {
    SOPS_CHECK_ARG(numel == known, argument, "shape '", shape, "' is invalid for input of size ",
                   numel);
  }
  return result;
}

// Strides giving `new_sizes` over the memory that (old_sizes, old_strides) describe,
// or nullopt when there are none. The old dimensions are grouped into chunks that are
// contiguous with one another (each dimension's stride is the next one's extent);
// the new dimensions must split each chunk exactly, taking strides from within it.
inline std::optional<DimVector> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                             IntArrayRef new_sizes) {
  DimVector strides(new_sizes.size(), 1);
  if (old_sizes.empty()) return strides;  // a 0-dim tensor: any shape of one element
  int64_t numel = 1;
  for (const int64_t s : old_sizes) numel *= s;
  if (numel == 0) {
    if (old_sizes.equals(new_sizes)) return DimVector(old_strides);
    // Contiguous strides (size-0 dimensions count as 1).
    int64_t step = 1;
    for (std::size_t i = new_sizes.size(); i-- > 0;) {
      strides[i] = step;
      step *= new_sizes[i] > 1 ? new_sizes[i] : 1;
    }
    return strides;
  }
  int64_t new_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_stride = old_strides.back();  // stride of the chunk's innermost dimension
  int64_t old_numel = 1;                      // elements in the chunk so far
  int64_t new_numel = 1;                      // elements the new dimensions covered so far
  for (int64_t old_d = static_cast<int64_t>(old_sizes.size()) - 1; old_d >= 0; --old_d) {
    old_numel *= old_sizes[static_cast<std::size_t>(old_d)];
    const bool chunk_ends = old_d == 0 || (old_sizes[static_cast<std::size_t>(old_d - 1)] != 1 &&
                                           old_strides[static_cast<std::size_t>(old_d - 1)] !=
                                               old_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (new_d >= 0 &&
           (new_numel < old_numel || new_sizes[static_cast<std::size_t>(new_d)] == 1)) {
      strides[static_cast<std::size_t>(new_d)] = new_numel * chunk_stride;
      new_numel *= new_sizes[static_cast<std::size_t>(new_d)];
      --new_d;
    }
    if (new_numel != old_numel) return std::nullopt;
    if (old_d > 0) {
      chunk_stride = old_strides[static_cast<std::size_t>(old_d - 1)];
      old_numel = 1;
      new_numel = 1;
    }
  }
  if (new_d != -1) return std::nullopt;
  return strides;
}

}  // namespace sops::aten::ops_util
