// CPU kernel of cat: each input (but the legacy-skipped 1-d empty ones) is copied into
// its slice of out along the cat dimension: as bytes when it has out's dtype (one
// memcpy per contiguous run), else converted to out's dtype.
#include "aten/ops/cat_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/cat_utils.h"
#include "runtime/strided_copy.h"

namespace sops::aten::native {

SOPS_IMPL_FUNC(cat_out_cpu)
(const ITensorListRef& tensors, int64_t dim, int64_t valid, const Tensor& out) {
  if (valid == static_cast<int64_t>(tensors.size()) || out.numel() == 0) return;
  ops_util::for_each_cat_slice(tensors, dim, out, [&](const Tensor& slice, const Tensor& t) {
    if (t.scalar_type() == out.scalar_type()) {
      cpu_util::copy_same_dtype(slice, t);
    } else {
      cpu_util::copy_cast(slice, t);
    }
  });
}

}  // namespace sops::aten::native
