// cat.out for CUDA tensors (`CUDA: cat_out_cuda`): the meta function (shared with the CPU)
// promoted the dtypes and sized out in its memory format; as the CPU kernel does
// (backends/cpu/kernels/cat.cpp, ops/util/cat_utils.h), each input but the legacy-skipped ones is
// copied into its slice of out, converted to out's dtype: one element-wise kernel per
// input (copy_on_device). The generated wrapper made the tensors' device current and
// checked that every tensor of the list and out share it.
#include <cstdint>

#include "aten/ops/cat_native.h"
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "ops/util/cat_utils.h"

namespace sops::aten::native {

SOPS_IMPL_FUNC(cat_out_cuda)
(const ITensorListRef& tensors, int64_t dim, int64_t valid, const Tensor& out) {
  if (valid == static_cast<int64_t>(tensors.size()) || out.numel() == 0) return;
  ops_util::for_each_cat_slice(tensors, dim, out, [&](const Tensor& slice, const Tensor& t) {
    cuda::copy_on_device(slice, t);
  });
}

}  // namespace sops::aten::native
