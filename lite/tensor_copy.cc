#include "lite/tensor_copy.h"

#include <cstring>
#include <vector>

namespace sops::lite {

void copy_row_major(const Tensor& t, void* dst) {
  const int64_t numel = t.numel();
  if (numel == 0) return;
  const std::size_t es = t.element_size();
  const auto* base = static_cast<const char*>(t.data_ptr());
  auto* out = static_cast<char*>(dst);
  if (t.is_contiguous()) {
    std::memcpy(out, base, t.nbytes());
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
  Tensor c = empty(t.sizes(), TensorOptions(t.scalar_type()));
  copy_row_major(t, c.data_ptr());
  return c;
}

}  // namespace sops::lite
