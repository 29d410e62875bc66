#include <cuda_runtime.h>

#include <cstring>

#include "backends/cuda/kernels/loops.cuh"
#include "runtime/visit_dtype.h"

namespace sops::cuda::detail {

ElementwiseArgs make_args(const TensorIteratorBase& iter) {
  SOPS_CHECK(iter.ntensors() <= kMaxOperands, "CUDA element-wise kernels take at most ",
             kMaxOperands, " operands, the iterator has ", iter.ntensors());
  SOPS_CHECK(iter.loop_ndim() <= kMaxDims, "CUDA element-wise kernels take at most ", kMaxDims,
             " dimensions after coalescing, the iterator has ", iter.loop_ndim());
  ElementwiseArgs a;
  a.numel = iter.numel();
  a.ndim = static_cast<int>(iter.loop_ndim());
  for (int d = 0; d < a.ndim; ++d) a.sizes[d] = iter.loop_shape()[d];
  for (int i = 0; i < iter.ntensors(); ++i) {
    a.dtypes[i] = iter.dtype(i);
    if (i >= iter.noutputs() && !iter.device(i).is_cuda()) {
      // A cpu scalar the iterator let in: its value travels with the launch.
      a.is_scalar[i] = true;
      std::memcpy(a.scalars[i], iter.tensor(i).const_data_ptr(), element_size(a.dtypes[i]));
      continue;
    }
    a.data[i] = iter.data_ptr(i);
    for (int d = 0; d < a.ndim; ++d) a.strides[d][i] = iter.loop_stride(i, d);
  }
  return a;
}

void convert_scalar(ElementwiseArgs& a, int i, ScalarType to) {
  if (!a.is_scalar[i] || a.dtypes[i] == to) return;
  unsigned char converted[8] = {};
  SOPS_DISPATCH_EVERY_TYPE(to, "CUDA kernel", [&] {
    const scalar_t value = load_as<scalar_t>(a.scalars[i], a.dtypes[i]);
    std::memcpy(converted, &value, sizeof(value));
  });
  std::memcpy(a.scalars[i], converted, sizeof(converted));
  a.dtypes[i] = to;
}

bool vectorizable(const ElementwiseArgs& a) {
  if (a.ndim > 1) return false;  // coalescing left more than one dimension: strided
  for (int i = 0; i < kMaxOperands; ++i) {
    if (a.is_scalar[i] || a.data[i] == nullptr) continue;
    // Each operand against its own element size: a bool condition of where<float> with
    // a byte stride of 4 is not contiguous.
    const auto size = static_cast<int64_t>(element_size(a.dtypes[i]));
    if (a.ndim == 1 && a.strides[0][i] != size) return false;
    if (reinterpret_cast<uintptr_t>(a.data[i]) % static_cast<uintptr_t>(size * kVec) != 0)
      return false;
  }
  return true;
}

int sm_count() {
  static const int count = [] {
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
      (void)cudaGetLastError();
      return 80;
    }
    return sms;
  }();
  return count;
}

int grid_size(int64_t work_items) {
  // 16 blocks of 256 threads per SM: 4096 threads, twice an SM's limit.
  static const int max_blocks = sm_count() * 16;
  const int64_t blocks = (work_items + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<int>(blocks < max_blocks ? (blocks > 0 ? blocks : 1) : max_blocks);
}

}  // namespace sops::cuda::detail
