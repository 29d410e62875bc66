#include <algorithm>

#include "backends/cuda/runtime/cuda_check.h"
#include "backends/cuda/runtime/cuda_stream.h"
#include "scaled_add_launch.h"  // beside this file

namespace my::ops::cuda {
namespace {

__global__ void scaled_add_kernel(const float* a, const float* b, float alpha, float* out,
                                  int64_t n) {
  const int64_t step = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n; i += step) {
    out[i] = a[i] + alpha * b[i];
  }
}

}  // namespace

void launch_scaled_add(const float* a, const float* b, float alpha, float* out, int64_t n) {
  if (n == 0) return;
  constexpr int kThreads = 256;
  const auto blocks =
      static_cast<unsigned>(std::min<int64_t>((n + kThreads - 1) / kThreads, 65535));
  scaled_add_kernel<<<blocks, kThreads, 0, ::sops::cuda::current_stream().handle()>>>(a, b, alpha,
                                                                                      out, n);
  ::sops::cuda::check(cudaGetLastError(), "scaled_add_kernel");
}

}  // namespace my::ops::cuda
