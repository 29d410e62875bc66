#include "backends/cuda/runtime/cuda_allocator.h"

#include <cuda_runtime.h>

#include <memory>
#include <utility>
#include <vector>

#include "backends/cuda/runtime/cuda_backend.h"
#include "backends/cuda/runtime/cuda_check.h"
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
  cudaStream_t stream;                // the stream it was allocated on
  std::vector<cudaStream_t> used_on;  // other streams, from record_stream
};

void* CachingAllocator::device_malloc(std::size_t size, int device) {
  void* memory = nullptr;
  cudaError_t e = cudaMalloc(&memory, size);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // clear it, give the cache back, try once more
    collect_pending_locked(/*wait=*/true);
    free_cached_locked();
    e = cudaMalloc(&memory, size);
  }
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    raise(Error(detail::str("CUDA out of memory: tried to allocate ", size,
                            " bytes on cuda:", device, " with ", stats_.in_use_bytes,
                            " bytes in use by tensors (", cudaGetErrorString(e), ")")));
  }
  ++stats_.device_allocations;
  return memory;
}

DataPtr CachingAllocator::allocate(std::size_t nbytes) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  if (nbytes == 0) return DataPtr(Device(kCUDA, static_cast<Device::Index>(device)));
  const cudaStream_t stream = current_stream(device).handle();
  const std::size_t size = (nbytes + kRounding - 1) / kRounding * kRounding;
  auto block = std::make_unique<Block>(Block{this, nullptr, 0, device, stream, {}});
  std::lock_guard<std::mutex> lock(mutex_);
  collect_pending_locked(/*wait=*/false);
  void* memory = nullptr;
  std::size_t got = size;
  // The smallest cached block of this device and stream that fits and wastes at most half.
  const auto key = reinterpret_cast<std::uintptr_t>(stream);
  const auto it = cache_.lower_bound({device, key, size});
  if (it != cache_.end() && std::get<0>(it->first) == device && std::get<1>(it->first) == key &&
      std::get<2>(it->first) <= 2 * size) {
    memory = it->second;
    got = std::get<2>(it->first);
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

void CachingAllocator::record_stream(const DataPtr& data, const Stream& stream) {
  // A DataPtr of this allocator's carries its block as the context.
  SOPS_CHECK(data.deleter() == &CachingAllocator::release,
             "record_stream(): the tensor's memory did not come from the CUDA caching allocator");
  std::lock_guard<std::mutex> lock(mutex_);
  Block& block = *static_cast<Block*>(data.context());
  if (stream.handle() == block.stream) return;
  for (cudaStream_t s : block.used_on) {
    if (s == stream.handle()) return;
  }
  block.used_on.push_back(stream.handle());
}

void CachingAllocator::cache_locked(Block* block) {
#if SOPS_EXCEPTIONS
  try {
#endif
    cache_.emplace(Key{block->device, reinterpret_cast<std::uintptr_t>(block->stream), block->size},
                   block->memory);
    stats_.cached_bytes += block->size;
#if SOPS_EXCEPTIONS
  } catch (...) {  // no memory for the cache's node (a deleter must not throw): give it back
    cudaFree(block->memory);
  }
#endif
  delete block;
}

// A DataPtr's deleter: no errors raised from here. A block used on other streams is
// cached once events recorded there now have passed; where an event cannot be made, the
// other stream is waited for.
void CachingAllocator::release(void* context) {
  auto* block = static_cast<Block*>(context);
  CachingAllocator& self = *block->owner;
  std::lock_guard<std::mutex> lock(self.mutex_);
  self.stats_.in_use_bytes -= block->size;
  if (block->used_on.empty()) {
    self.cache_locked(block);
    return;
  }
  int previous = 0;
  (void)cudaGetDevice(&previous);
  (void)cudaSetDevice(block->device);
  Pending pending{block, {}};
  for (cudaStream_t s : block->used_on) {
    cudaEvent_t event = nullptr;
    if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) == cudaSuccess &&
        cudaEventRecord(event, s) == cudaSuccess) {
      pending.events.push_back(event);
    } else {
      (void)cudaGetLastError();
      if (event != nullptr) (void)cudaEventDestroy(event);
      (void)cudaStreamSynchronize(s);
    }
  }
  (void)cudaSetDevice(previous);
  self.pending_.push_back(std::move(pending));
}

void CachingAllocator::collect_pending_locked(bool wait) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    bool done = true;
    for (cudaEvent_t event : p.events) {
      const cudaError_t e = wait ? cudaEventSynchronize(event) : cudaEventQuery(event);
      if (e == cudaErrorNotReady) {
        done = false;
        break;
      }
      (void)cudaGetLastError();  // an event that failed cannot be waited for any longer
    }
    if (!done) {
      if (kept != i) pending_[kept] = std::move(p);
      ++kept;
      continue;
    }
    for (cudaEvent_t event : p.events) (void)cudaEventDestroy(event);
    cache_locked(p.block);
  }
  pending_.resize(kept);
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
  collect_pending_locked(/*wait=*/true);
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
