// maybe_wrap_dim: a possibly negative dimension index made non-negative, Python
// style (-1 is the last dimension). A 0-dim tensor accepts 0 and -1, as PyTorch does.
#pragma once

#include <cstdint>

#include "runtime/error.h"

namespace sops {

namespace detail {
[[noreturn]] void throw_dim_out_of_range(int64_t dim, int64_t min, int64_t max);
}  // namespace detail

inline int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (ndim <= 0) {
    SOPS_CHECK(wrap_scalar, "dimension specified as ", dim, " but tensor has no dimensions");
    ndim = 1;
  }
  const int64_t min = -ndim;
  const int64_t max = ndim - 1;
  if (SOPS_UNLIKELY(dim < min || dim > max)) detail::throw_dim_out_of_range(dim, min, max);
  return dim < 0 ? dim + ndim : dim;
}

}  // namespace sops
