// The CUDA backend's allocator: device memory for CUDA tensors, cached for reuse.
//
// cudaMalloc and cudaFree synchronize the device and cost tens of microseconds, more
// than a small kernel: freed blocks are kept and handed out again to a request of at most
// twice their size, as PyTorch's CUDACachingAllocator does. A block belongs to the device
// and the stream it was allocated on (the current stream, cuda_stream.h) and is reused
// only by requests on that stream: work queued there later runs after the block's last
// use. A block that record_stream() marked as used on other streams waits, when freed,
// until events recorded on those streams have passed. When cudaMalloc fails, the cache is
// emptied and the request tried once more; then the error names the request and what is
// in use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/cuda/runtime/cuda_stream.h"
#include "runtime/allocator.h"

namespace sops::cuda {

struct AllocatorStats {
  std::size_t in_use_bytes = 0;        // held by tensors
  std::size_t cached_bytes = 0;        // freed, kept for reuse
  std::size_t device_allocations = 0;  // cudaMalloc calls that succeeded
  std::size_t cache_hits = 0;          // requests served from the cache
};

class CachingAllocator final : public Allocator {
 public:
  // Memory on the current device (a DeviceGuard chooses it) for its current stream,
  // rounded up to 512 bytes.
  DataPtr allocate(std::size_t nbytes) override;
  // Device-to-device copy, for a storage that grows.
  void copy_data(void* dst, const void* src, std::size_t nbytes) const override;
  // Marks the block of `data` (an allocation of this allocator's) as used by work on `stream`.
  void record_stream(const DataPtr& data, const Stream& stream);
  // Gives every cached block back to the device (first waiting for freed blocks still in
  // use on other streams).
  void empty_cache();
  AllocatorStats stats() const;

 private:
  struct Block;
  // (device, stream, size): a cached block's key, ordered so that lower_bound finds the
  // smallest block of a device and stream that fits.
  using Key = std::tuple<int, std::uintptr_t, std::size_t>;
  struct Pending {  // a freed block waiting for events on the other streams that used it
    Block* block;
    std::vector<cudaEvent_t> events;
  };

  static void release(void* block);  // a DataPtr's deleter: back to the cache
  void* device_malloc(std::size_t size, int device);
  void cache_locked(Block* block);  // takes ownership of the block
  void collect_pending_locked(bool wait);
  void free_cached_locked();

  mutable std::mutex mutex_;
  std::multimap<Key, void*> cache_;  // -> memory
  std::vector<Pending> pending_;
  AllocatorStats stats_;
};

// The process's CUDA allocator (what register_cuda_backend installs).
CachingAllocator& caching_allocator();

}  // namespace sops::cuda
