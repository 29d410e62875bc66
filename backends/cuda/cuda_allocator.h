// The CUDA backend's allocator: device memory for CUDA tensors, cached for reuse.
//
// cudaMalloc and cudaFree synchronize the device and cost tens of microseconds, more
// than a small kernel: freed blocks are kept, per device, and handed out again to a
// request of at most twice their size (as PyTorch's CUDACachingAllocator does, without
// its stream tracking: sops runs every kernel on the device's default stream). When
// cudaMalloc fails, the cache is emptied and the request tried once more; then the
// error names the request and what is cached.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

#include "runtime/allocator.h"

namespace sops::cuda {

struct AllocatorStats {
  std::size_t in_use_bytes = 0;  // held by tensors
  std::size_t cached_bytes = 0;  // freed, kept for reuse
  std::size_t device_allocations = 0;  // cudaMalloc calls that succeeded
  std::size_t cache_hits = 0;  // requests served from the cache
};

class CachingAllocator final : public Allocator {
 public:
  // Memory on the current device (a DeviceGuard chooses it), rounded up to 512 bytes.
  DataPtr allocate(std::size_t nbytes) override;
  // Device-to-device copy, for a storage that grows.
  void copy_data(void* dst, const void* src, std::size_t nbytes) const override;
  // Gives every cached block back to the device.
  void empty_cache();
  AllocatorStats stats() const;

 private:
  struct Block;
  static void release(void* block);  // a DataPtr's deleter: back to the cache
  void* device_malloc(std::size_t size, int device);
  void free_cached_locked();

  mutable std::mutex mutex_;
  std::multimap<std::pair<int, std::size_t>, void*> cache_;  // (device, size) -> memory
  AllocatorStats stats_;
};

// The process's CUDA allocator (what register_cuda_backend installs).
CachingAllocator& caching_allocator();

}  // namespace sops::cuda
