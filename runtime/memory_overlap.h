// Whether a tensor written to has elements sharing memory (PyTorch's MemoryOverlap.h):
// an expanded tensor (a stride-0 dimension of size > 1) cannot take a result, since
// each of its memory locations would be written for several elements.
#pragma once

#include <string_view>

#include "runtime/tensor.h"

namespace sops {

// Raises an error naming `argument` when `t` (not meta: it has no memory) has a
// dimension of size > 1 and stride 0: "unsupported operation: more than one element of
// the written-to tensor refers to a single memory location; clone() it first".
void check_no_internal_overlap(const Tensor& t, std::string_view argument);

}  // namespace sops
