#include "lite/tensor_copy.h"

#include <cstring>
#include <vector>

#include "runtime/checked_math.h"
#include "runtime/error.h"

namespace sops::lite {

std::size_t row_major_nbytes(const Tensor& t, const char* what) {
  int64_t nbytes = 0;
  if (mul_overflows(t.numel(), static_cast<int64_t>(t.element_size()), &nbytes)) {
    raise(Error(detail::str(what, ": ", t.numel(), " elements of ", t.scalar_type(),
                            " are more than 2**63 bytes")));
  }
  return static_cast<std::size_t>(nbytes);
}

void copy_row_major(const Tensor& t, void* dst) {
  const int64_t numel = t.numel();
  if (numel == 0) return;
  const std::size_t es = t.element_size();
  const auto* base = static_cast<const char*>(t.data_ptr());
  auto* out = static_cast<char*>(dst);
  if (t.is_contiguous()) {
    std::memcpy(out, base, row_major_nbytes(t, "copy"));
    return;
  }
  const int64_t nd = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(nd), 0);
  for (int64_t n = 0; n < numel; ++n) {
    int64_t off = 0;
    for (int64_t d = 0; d < nd; ++d) off += index[d] * t.stride(d);
    std::memcpy(out, base + off * static_cast<int64_t>(es), es);
    out += es;
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
}

Tensor contiguous_copy(const Tensor& t) {
  row_major_nbytes(t, "copying an output that views a constant");
  Tensor c = empty(t.sizes(), TensorOptions(t.scalar_type()));
  copy_row_major(t, c.data_ptr());
  return c;
}

}  // namespace sops::lite
