// arange on CUDA: one thread per element (grid-stride loop) computes value i of the range
// with the CPU kernel's arithmetic (ops/util/arange_utils.h: the accumulation type, int64
// wrapping, a product rounded before the sum) and converts it to out's dtype as sops
// converts (sops::convert), so that the values are the CPU's bit for bit.
#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/kernels/arange_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/arange_utils.h"
#include "ops/util/scalar_checks.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

template <typename T, typename Acc>
__global__ void arange_per_element(T* out, int64_t n, Acc start, Acc step) {
  for (int64_t i = first_index(); i < n; i += index_step()) {
    out[i] = convert<T>(aten::ops_util::arange_value(start, step, i));
  }
}

}  // namespace

void arange_kernel(const Tensor& out, const Scalar& start, const Scalar& step) {
  const int64_t n = out.numel();
  SOPS_DISPATCH_TYPES(aten::ops_util::kArangeTypes, out.scalar_type(), "arange", [&] {
    using acc = aten::ops_util::arange_acc_t<scalar_t>;
    launch(arange_per_element<scalar_t, acc>, n, "launching the arange kernel",
           out.data_ptr<scalar_t>(), n, aten::ops_util::scalar_to<acc>(start),
           aten::ops_util::scalar_to<acc>(step));
  });
}

}  // namespace sops::cuda
