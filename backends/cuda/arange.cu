// arange on CUDA: one thread per element (grid-stride loop) computes value i of the range
// with the CPU kernel's arithmetic (ops/meta/arange_utils.h: the accumulation type, int64
// wrapping, a product rounded before the sum) and converts it to out's dtype as sops
// converts (device_cast), so that the values are the CPU's bit for bit.
#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/arange_kernels.h"
#include "backends/cuda/loops.cuh"
#include "ops/meta/arange_utils.h"
#include "ops/meta/scalar_checks.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

template <typename T, typename Acc>
__global__ void arange_per_element(T* out, int64_t n, Acc start, Acc step) {
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = device_cast<T>(aten::ops_util::arange_value(start, step, i));
  }
}

}  // namespace

void arange_kernel(const Tensor& out, const Scalar& start, const Scalar& step) {
  const int64_t n = out.numel();
  SOPS_DISPATCH_TYPES(aten::ops_util::kArangeTypes, out.scalar_type(), "arange", [&] {
    using acc = aten::ops_util::arange_acc_t<scalar_t>;
    arange_per_element<scalar_t, acc>
        <<<detail::grid_size(n), kThreadsPerBlock, 0, current_stream().handle()>>>(
            out.data_ptr<scalar_t>(), n, aten::ops_util::scalar_to<acc>(start),
            aten::ops_util::scalar_to<acc>(step));
  });
  check(cudaGetLastError(), "launching the arange kernel");
}

}  // namespace sops::cuda
