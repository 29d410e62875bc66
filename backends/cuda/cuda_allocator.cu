#include "backends/cuda/cuda_allocator.h"

#include <cuda_runtime.h>

#include <memory>

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/cuda_check.h"
#include "runtime/error.h"

namespace sops::cuda {

namespace {
constexpr std::size_t kRounding = 512;
}  // namespace

struct CachingAllocator::Block {
  CachingAllocator* owner;
  void* memory;
  std::size_t size;
  int device;
};

void* CachingAllocator::device_malloc(std::size_t size, int device) {
  void* memory = nullptr;
  cudaError_t e = cudaMalloc(&memory, size);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // clear it, give the cache back, try once more
    free_cached_locked();
    e = cudaMalloc(&memory, size);
  }
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    raise(Error(detail::str("CUDA out of memory: tried to allocate ", size, " bytes on cuda:", device,
                            " with ", stats_.in_use_bytes, " bytes in use by tensors (",
                            cudaGetErrorString(e), ")")));
  }
  ++stats_.device_allocations;
  return memory;
}

DataPtr CachingAllocator::allocate(std::size_t nbytes) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  if (nbytes == 0) return DataPtr(Device(kCUDA, static_cast<Device::Index>(device)));
  const std::size_t size = (nbytes + kRounding - 1) / kRounding * kRounding;
  auto block = std::make_unique<Block>(Block{this, nullptr, 0, device});  // before any memory
  std::lock_guard<std::mutex> lock(mutex_);
  void* memory = nullptr;
  std::size_t got = size;
  // The smallest cached block on this device that fits and wastes at most half of it.
  const auto it = cache_.lower_bound({device, size});
  if (it != cache_.end() && it->first.first == device && it->first.second <= 2 * size) {
    memory = it->second;
    got = it->first.second;
    cache_.erase(it);
    stats_.cached_bytes -= got;
    ++stats_.cache_hits;
  } else {
    memory = device_malloc(size, device);
  }
  stats_.in_use_bytes += got;
  block->memory = memory;
  block->size = got;
  return DataPtr(memory, block.release(), &CachingAllocator::release,
                 Device(kCUDA, static_cast<Device::Index>(device)));
}

void CachingAllocator::release(void* context) {
  auto* block = static_cast<Block*>(context);
  CachingAllocator& self = *block->owner;
  {
    std::lock_guard<std::mutex> lock(self.mutex_);
    self.stats_.in_use_bytes -= block->size;
#if SOPS_EXCEPTIONS
    try {
#endif
      self.cache_.emplace(std::make_pair(block->device, block->size), block->memory);
      self.stats_.cached_bytes += block->size;
#if SOPS_EXCEPTIONS
    } catch (...) {  // no memory for the cache's node (a deleter must not throw): give it back
      cudaFree(block->memory);
    }
#endif
  }
  delete block;
}

void CachingAllocator::copy_data(void* dst, const void* src, std::size_t nbytes) const {
  copy_bytes(dst, src, nbytes);
}

void CachingAllocator::free_cached_locked() {
  for (const auto& [key, memory] : cache_) cudaFree(memory);
  cache_.clear();
  stats_.cached_bytes = 0;
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  free_cached_locked();
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

CachingAllocator& caching_allocator() {
  static CachingAllocator* allocator = new CachingAllocator();  // outlives every tensor
  return *allocator;
}

}  // namespace sops::cuda
