// SOPS_HOST_DEVICE marks the functions of runtime headers that CUDA kernels call too
// (Half and BFloat16 conversions): __host__ __device__ under nvcc, nothing elsewhere.
#pragma once

#if defined(__CUDACC__)
#define SOPS_HOST_DEVICE __host__ __device__
#else
#define SOPS_HOST_DEVICE
#endif
