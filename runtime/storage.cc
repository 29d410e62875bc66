#include "runtime/storage.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "runtime/device_guard.h"
#include "runtime/error.h"

namespace sops {

void StorageImpl::resize(std::size_t new_nbytes) {
  SOPS_CHECK(resizable(),
             "trying to resize storage that is not resizable (memory from "
             "outside sops cannot grow)");
  if (new_nbytes == nbytes_) return;
  // A backend allocates on its current device: make this storage's current for it.
  const DeviceGuard guard(data_.device());
  DataPtr fresh = allocator_->allocate(new_nbytes);
  const std::size_t keep = std::min(nbytes_, new_nbytes);
  if (keep != 0 && data_.get() != nullptr && fresh.get() != nullptr) {
    allocator_->copy_data(fresh.get(), data_.get(), keep);
  }
  data_ = std::move(fresh);
  nbytes_ = new_nbytes;
}

namespace {

// Up to this many bytes of cpu_allocator() data go in the storage's own block. A
// storage that grows gets a separate buffer and leaves its trailing bytes unused
// until it dies, so the bound keeps that waste small.
constexpr std::size_t kMaxTrailingBytes = 512;

// The allocator std::allocate_shared uses for a StorageImpl with trailing data: it
// asks for `extra` bytes more than the control block (which holds the StorageImpl).
// malloc, as CpuAllocator uses, so that running out of memory is reported the same.
template <typename T>
struct TrailingBytesAllocator {
  using value_type = T;
  explicit TrailingBytesAllocator(std::size_t extra_bytes) : extra(extra_bytes) {}
  template <typename U>
  TrailingBytesAllocator(const TrailingBytesAllocator<U>& other) : extra(other.extra) {}  // NOLINT
  T* allocate(std::size_t n) {
    static_assert(alignof(T) <= alignof(std::max_align_t));
    const std::size_t nbytes = n * sizeof(T) + extra;
    void* p = std::malloc(nbytes);
    SOPS_CHECK(p != nullptr, "out of memory: failed to allocate ", nbytes, " bytes on cpu");
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t /*n*/) { std::free(p); }
  template <typename U>
  bool operator==(const TrailingBytesAllocator<U>& other) const {
    return extra == other.extra;
  }
  template <typename U>
  bool operator!=(const TrailingBytesAllocator<U>& other) const {
    return !(*this == other);
  }
  std::size_t extra;
};

}  // namespace

// The StorageImpl ends inside the block allocate_shared got (its control block holds
// it), and the block has kCpuAlignment - 1 + nbytes bytes past the control block, so
// the first aligned address after the StorageImpl leaves nbytes within the block.
// The DataPtr has no deleter: the memory goes with the block.
StorageImpl::StorageImpl(TrailingData, std::size_t nbytes, Allocator* allocator, bool resizable)
    : nbytes_(nbytes), allocator_(allocator), resizable_(resizable) {
  const auto end = reinterpret_cast<std::uintptr_t>(this + 1);
  void* aligned = reinterpret_cast<void*>((end + kCpuAlignment - 1) & ~(kCpuAlignment - 1));
  data_ = DataPtr(aligned, nullptr, nullptr, Device(DeviceType::CPU));
}

Storage Storage::allocate(std::size_t nbytes, Allocator* allocator, bool resizable) {
  SOPS_INTERNAL_ASSERT(allocator != nullptr);
  // What CpuAllocator::allocate would give, minus its own malloc (zero bytes: a null
  // pointer, as there).
  if (allocator == cpu_allocator() && nbytes != 0 && nbytes <= kMaxTrailingBytes) {
    return Storage(std::allocate_shared<StorageImpl>(
        TrailingBytesAllocator<StorageImpl>(kCpuAlignment - 1 + nbytes),
        StorageImpl::TrailingData{}, nbytes, allocator, resizable));
  }
  return Storage(
      std::make_shared<StorageImpl>(allocator->allocate(nbytes), nbytes, allocator, resizable));
}

Storage Storage::wrap(DataPtr data, std::size_t nbytes) {
  return Storage(std::make_shared<StorageImpl>(std::move(data), nbytes, nullptr, false));
}

void Storage::resize(std::size_t new_nbytes) const {
  SOPS_CHECK(impl_ != nullptr, "cannot resize an undefined storage");
  impl_->resize(new_nbytes);
}

}  // namespace sops
