#include "tests/cuda/testdata/saxpy.h"

#include <cuda_runtime.h>

namespace sops_cuda_test {
namespace {

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

std::string text(cudaError_t e) { return e == cudaSuccess ? "" : cudaGetErrorString(e); }

}  // namespace

int device_count() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

std::string saxpy(float a, const std::vector<float>& x, std::vector<float>& y) {
  const int n = static_cast<int>(x.size());
  const size_t bytes = x.size() * sizeof(float);
  float* dx = nullptr;
  float* dy = nullptr;
  cudaError_t e = cudaMalloc(&dx, bytes);
  if (e == cudaSuccess) e = cudaMalloc(&dy, bytes);
  if (e == cudaSuccess) e = cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return text(e);
}

}  // namespace sops_cuda_test
