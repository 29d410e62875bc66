// repeat (CompositeExplicitAutograd): self tiled `repeats` times along each dimension
// (leading repeats add dimensions). The result, seen as [r0, s0, r1, s1, ...], is
// filled by one copy_ from self broadcast with stride 0 along the r's.
#include "aten/ops/copy.h"
#include "aten/ops/repeat_native.h"
#include "runtime/small_vector.h"

namespace sops::aten::native {

Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  SOPS_CHECK_ARG(n >= self.dim(), "repeats",
                 "Number of dimensions of repeat dims can not be smaller than number of dimensions "
                 "of tensor");
  // self's sizes and strides with leading 1s up to n dims.
  DimVector sizes(static_cast<std::size_t>(n), 1), strides(static_cast<std::size_t>(n), 0);
  const int64_t lead = n - self.dim();
  for (int64_t d = 0; d < self.dim(); ++d) {
    sizes[lead + d] = self.size(d);
    strides[lead + d] = self.stride(d);
  }
  DimVector target(static_cast<std::size_t>(n));
  for (int64_t d = 0; d < n; ++d) {
    target[d] = checked_mul(sizes[d], repeats[d], "repeat output size", "repeats");
  }
  for (const int64_t t : target) {
    SOPS_CHECK_ARG(t >= 0, "repeats", "Trying to create tensor with negative dimension ", t, ": ",
                   target);
  }
  Tensor result = empty(target, self.options());
  if (result.numel() == 0) return result;
  // result[d] = (r_d, s_d): r_d steps over s_d * (result's stride), s_d over the stride.
  DimVector split_sizes, dst_strides, src_strides;
  for (int64_t d = 0; d < n; ++d) {
    split_sizes.push_back(repeats[d]);
    split_sizes.push_back(sizes[d]);
    dst_strides.push_back(sizes[d] * result.stride(d));
    dst_strides.push_back(result.stride(d));
    src_strides.push_back(0);
    src_strides.push_back(strides[d]);
  }
  Tensor dst = result.as_strided(split_sizes, dst_strides, 0);
  Tensor src = self.as_strided(split_sizes, src_strides, self.storage_offset());
  sops::aten::copy_(dst, src);
  return result;
}

}  // namespace sops::aten::native
