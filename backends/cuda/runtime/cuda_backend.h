// The CUDA backend of the sops runtime: one call installs what CUDA tensors need.
//
//   if (sops::cuda::register_cuda_backend()) {
//     sops::Tensor x = sops::empty({4, 4}, sops::TensorOptions().device(sops::kCUDA));
//   }
//
// register_cuda_backend() installs the caching allocator (cuda_allocator.h) for
// DeviceType::CUDA and a device guard (cudaGetDevice/cudaSetDevice) that generated
// wrappers use to run a kernel on its tensors' device. It returns false, installing
// nothing, when the process sees no CUDA device (no GPU, no driver); CUDA tensors then
// fail to allocate with an error saying that no allocator is registered.
#pragma once

#include <cstddef>

namespace sops::cuda {

// How many CUDA devices this process sees; 0 without a GPU or a driver.
int device_count();

// Installs the allocator and the device guard (once; later calls return the same).
bool register_cuda_backend();

// Bytes between a CUDA allocation and host memory, or between two CUDA allocations
// (unified addressing decides the direction): queued on the current stream (after the
// work queued there), then waited for.
void copy_bytes(void* dst, const void* src, std::size_t nbytes);

// Waits for the current device's work on every stream (kernels launch asynchronously).
void synchronize();

}  // namespace sops::cuda
