// The output shape of reflection_pad{1,2,3}d and replication_pad{1,2,3}d, with PyTorch's
// checks and messages: `padding` holds (left, right) of the last dimension, then of the
// one before (top, bottom), then (front, back); the input is (C, ...) or (N, C, ...)
// with only N allowed to be 0. Reflection needs each amount below its dimension's size
// (it mirrors without repeating the edge). Negative amounts crop; the output must keep
// at least one element along some padded dimension (PyTorch's check) and none may be
// negative. Shared by the meta functions (ops/meta/padding.cpp) and reflection_pad2d's
// kernel, which PyTorch does not make structured.
#pragma once

#include <cstdint>
#include <string>

#include "ops/util/op_utils.h"

namespace sops::aten::ops_util {

enum class PadMode { kReflect, kReplicate };

// The output sizes of padding the last `n` (1, 2 or 3) dimensions of input.
inline DimVector pad_output_sizes(const Tensor& input, IntArrayRef padding, int64_t n,
                                  PadMode mode) {
  SOPS_CHECK_ARG(static_cast<int64_t>(padding.size()) == 2 * n, "padding",
                 "padding size is expected to be ", 2 * n, ", but got: ", padding.size());
  const int64_t ndim = input.dim();
  bool valid = ndim == n + 1 || ndim == n + 2;
  for (int64_t d = ndim == n + 2 ? 1 : 0; valid && d < ndim; ++d) valid = input.size(d) != 0;
  SOPS_CHECK_ARG(valid, "self", "Expected ", n + 1, "D or ", n + 2,
                 "D (batch mode) tensor with possibly 0 batch size and other non-zero "
                 "dimensions for input, but got: ",
                 input.sizes());
  DimVector sizes(input.sizes());
  static const char* const kLetters[] = {"W", "H", "D"};
  bool some_positive = false;
  bool none_negative = true;
  for (int64_t k = 0; k < n; ++k) {  // k = 0 is the last dimension (W)
    const int64_t d = ndim - 1 - k;
    const int64_t before = padding[static_cast<std::size_t>(2 * k)];
    const int64_t after = padding[static_cast<std::size_t>(2 * k + 1)];
    if (mode == PadMode::kReflect) {
      SOPS_CHECK_ARG(before < input.size(d) && after < input.size(d), "padding", "Argument #",
                     4 + 2 * k,
                     ": Padding size should be less than the corresponding input dimension, "
                     "but got: padding (",
                     before, ", ", after, ") at dimension ", d, " of input ", input.sizes());
    }
    // Huge amounts (INT64_MIN, 2^62 + 2^62) are refused rather than wrapped; the sum
    // in this order also keeps size + before in range, which the kernels use.
    sizes[static_cast<std::size_t>(d)] =
        checked_add(checked_add(input.size(d), before, "padded size", "padding"), after,
                    "padded size", "padding");
    some_positive = some_positive || sizes[static_cast<std::size_t>(d)] >= 1;
    none_negative = none_negative && sizes[static_cast<std::size_t>(d)] >= 0;
  }
  if (!(some_positive && none_negative &&
        (n > 1 || sizes[static_cast<std::size_t>(ndim - 1)] >= 1))) {
    // PyTorch's words: "input (H: 2, W: 3) is too small. Calculated output H: -1 W: 3"
    // (replication_pad2d's has a space before the parenthesis).
    std::string in = "input (";
    std::string out = "Calculated output";
    for (int64_t k = n - 1; k >= 0; --k) {
      const int64_t d = ndim - 1 - k;
      in += std::string(k == n - 1 ? "" : (k == 0 && n > 1 ? ", " : " ")) + kLetters[k] + ": " +
            std::to_string(input.size(d));
      out += std::string(" ") + kLetters[k] + ": " +
             std::to_string(sizes[static_cast<std::size_t>(d)]);
    }
    if (n == 2 && mode == PadMode::kReplicate) in += " ";
    SOPS_CHECK_ARG(false, "padding", in, ") is too small. ", out);
  }
  return sizes;
}

}  // namespace sops::aten::ops_util
