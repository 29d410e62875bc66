#include "runtime/memory_overlap.h"

#include <cstddef>

#include "runtime/error.h"

namespace sops {

void check_no_internal_overlap(const Tensor& t, std::string_view argument) {
  // A non-empty contiguous tensor gives every dimension of size > 1 a nonzero stride.
  if (t.is_meta() || (t.is_contiguous() && t.numel() != 0)) return;
  const IntArrayRef sizes = t.sizes();
  const IntArrayRef strides = t.strides();
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    SOPS_CHECK_ARG(!(strides[d] == 0 && sizes[d] > 1), argument,
                   "unsupported operation: more than one element of the written-to "
                   "tensor refers to a single memory location; clone() it first");
  }
}

}  // namespace sops
