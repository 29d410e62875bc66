// embedding's gather on CUDA. Blocks of 32 x 8 threads: each row of 32 threads (a warp)
// takes one index at a time (grid-stride over the indices) and copies its weight row,
// element by element as unsigned words of the element's size (any dtype: bytes are moved,
// as on the CPU), along weight's column stride. An index out of range copies nothing and
// lowers a device-side minimum, the position of the first bad index (atomicMin), which the
// host reads back after the launch: the CPU reports the first bad index in indices' order,
// and so does this. Indices of other strides are first copied to a contiguous tensor.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/kernels/embedding_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/runtime/cuda_backend.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

constexpr int kLanes = 32;        // threads along a weight row
constexpr int kRowsPerBlock = 8;  // indices per block at a time
constexpr unsigned long long kNoBadIndex = ~0ull;

template <typename Index, typename Word>
__global__ void __launch_bounds__(kLanes* kRowsPerBlock)
    gather_kernel(const Index* ids, int64_t n, const Word* weight, int64_t rows, int64_t cols,
                  int64_t row_stride, int64_t col_stride, Word* out,
                  unsigned long long* first_bad) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * kRowsPerBlock;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kRowsPerBlock + threadIdx.y; i < n;
       i += step) {
    const int64_t r = static_cast<int64_t>(ids[i]);
    if (r < 0 || r >= rows) {
      if (threadIdx.x == 0) atomicMin(first_bad, static_cast<unsigned long long>(i));
      continue;
    }
    const Word* src = weight + r * row_stride;
    Word* dst = out + i * cols;
    for (int64_t j = threadIdx.x; j < cols; j += kLanes) dst[j] = src[j * col_stride];
  }
}

template <typename Index, typename Word>
void launch_gather(const Tensor& weight, const Tensor& ids, const Tensor& result,
                   unsigned long long* first_bad) {
  const int64_t n = ids.numel();
  const int64_t blocks = (n + kRowsPerBlock - 1) / kRowsPerBlock;
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(blocks, int64_t{1} << 16));
  gather_kernel<Index, Word><<<grid, dim3(kLanes, kRowsPerBlock), 0, current_stream().handle()>>>(
      static_cast<const Index*>(ids.const_data_ptr()), n,
      static_cast<const Word*>(weight.const_data_ptr()), weight.size(0), weight.size(1),
      weight.stride(0), weight.stride(1), static_cast<Word*>(result.data_ptr()), first_bad);
  check(cudaGetLastError(), "launching the embedding kernel");
}

template <typename Index>
void launch_for_element_size(const Tensor& weight, const Tensor& ids, const Tensor& result,
                             unsigned long long* first_bad) {
  switch (weight.element_size()) {
    case 1:
      return launch_gather<Index, uint8_t>(weight, ids, result, first_bad);
    case 2:
      return launch_gather<Index, uint16_t>(weight, ids, result, first_bad);
    case 4:
      return launch_gather<Index, uint32_t>(weight, ids, result, first_bad);
    case 8:
      return launch_gather<Index, unsigned long long>(weight, ids, result, first_bad);
    default:
      raise(Error(::sops::detail::str("embedding: CUDA kernel for elements of ",
                                      weight.element_size(), " bytes not implemented")));
  }
}

}  // namespace

std::optional<int64_t> embedding_kernel(const Tensor& weight, const Tensor& indices,
                                        const Tensor& result) {
  const Tensor ids = contiguous_on_device(indices);
  // The position of the first bad index, on the device: all ones (none) until lowered.
  const Tensor flag = sops::empty({1}, TensorOptions(ScalarType::Long).device(weight.device()));
  auto* first_bad = static_cast<unsigned long long*>(flag.data_ptr());
  check(cudaMemsetAsync(first_bad, 0xff, sizeof(unsigned long long), current_stream().handle()),
        "cudaMemsetAsync");
  if (ids.scalar_type() == ScalarType::Long) {
    launch_for_element_size<int64_t>(weight, ids, result, first_bad);
  } else {
    launch_for_element_size<int32_t>(weight, ids, result, first_bad);
  }
  unsigned long long position = kNoBadIndex;
  copy_bytes(&position, first_bad, sizeof(position));  // waits for the kernel
  if (position == kNoBadIndex) return std::nullopt;
  // The bad index itself, read back from its place in the (contiguous) indices.
  const auto offset = static_cast<std::size_t>(position) * ids.element_size();
  const char* at = static_cast<const char*>(ids.const_data_ptr()) + offset;
  if (ids.scalar_type() == ScalarType::Long) {
    int64_t value = 0;
    copy_bytes(&value, at, sizeof(value));
    return value;
  }
  int32_t value = 0;
  copy_bytes(&value, at, sizeof(value));
  return static_cast<int64_t>(value);
}

}  // namespace sops::cuda
