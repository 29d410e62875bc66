#include "runtime/checked_math.h"

#include <string>

namespace sops {

namespace detail {

void raise_overflow(std::string_view what, int64_t a, char op, int64_t b,
                    std::string_view argument) {
  raise(Error(str(what, " (", a, ' ', op, ' ', b, ") overflows int64"), std::string(argument)));
}

}  // namespace detail

int64_t checked_numel(IntArrayRef sizes, std::string_view argument) {
  int64_t n = 1;
  bool overflow = false;
  for (const int64_t s : sizes) {
    SOPS_CHECK_ARG(s >= 0, argument, "negative dimension ", s, " in shape ", sizes);
    // An overflow before a 0 ([2^40, 2^40, 0]) is one too, as in PyTorch; a later negative
    // size is the error to report.
    overflow = overflow || __builtin_mul_overflow(n, s, &n);
  }
  if (SOPS_UNLIKELY(overflow)) {
    raise(Error(detail::str("numel of shape ", sizes, " overflows int64"), std::string(argument)));
  }
  return n;
}

int64_t checked_nbytes(IntArrayRef sizes, std::size_t itemsize, std::string_view argument) {
  const int64_t numel = checked_numel(sizes, argument);
  int64_t nbytes = 0;
  if (SOPS_UNLIKELY(__builtin_mul_overflow(numel, static_cast<int64_t>(itemsize), &nbytes))) {
    raise(Error(detail::str("shape ", sizes, " of ", itemsize,
                            "-byte elements needs more bytes than int64 counts"),
                std::string(argument)));
  }
  return nbytes;
}

int64_t checked_max_offset(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                           std::string_view argument) {
  SOPS_CHECK_ARG(sizes.size() == strides.size(), argument, "sizes ", sizes, " and strides ",
                 strides, " have different lengths");
  SOPS_CHECK_ARG(storage_offset >= 0, argument, "negative storage offset ", storage_offset);
  for (const int64_t s : sizes) {
    SOPS_CHECK_ARG(s >= 0, argument, "negative dimension ", s, " in shape ", sizes);
    if (s == 0) return storage_offset - 1;  // no element: none is reached
  }
  int64_t last = storage_offset;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SOPS_CHECK_ARG(strides[i] >= 0 || sizes[i] == 1, argument, "negative stride ", strides[i],
                   " in strides ", strides);
    if (sizes[i] == 1) continue;  // its stride never moves
    int64_t span = 0;
    if (SOPS_UNLIKELY(__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) ||
                      __builtin_add_overflow(last, span, &last))) {
      raise(Error(detail::str("the offsets of sizes ", sizes, " with strides ", strides,
                              " from storage offset ", storage_offset, " overflow int64"),
                  std::string(argument)));
    }
  }
  return last;
}

}  // namespace sops
