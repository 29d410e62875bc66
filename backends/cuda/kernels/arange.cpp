// arange.start_out for CUDA tensors (`CUDA: arange_out_cuda`): the CPU kernel's checks and
// resize (ops/util/arange_utils.h; the dtype error names "arange_cuda", as PyTorch's CUDA
// kernel does), then the launcher (arange.cu); an out of other strides is filled through a
// contiguous tensor of its sizes.
#include <cstdint>

#include "aten/ops/arange_native.h"
#include "backends/cuda/kernels/arange_kernels.h"
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "ops/util/arange_utils.h"

namespace sops::aten::native {

Tensor& arange_out_cuda(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& out) {
  const int64_t size = ops_util::resize_arange_out(start, end, step, out, "arange_cuda");
  if (size == 0) return out;
  if (out.is_contiguous()) {
    cuda::arange_kernel(out, start, step);
    return out;
  }
  const Tensor values = sops::empty(out.sizes(), out.options());
  cuda::arange_kernel(values, start, step);
  cuda::copy_on_device(out, values);
  return out;
}

}  // namespace sops::aten::native
