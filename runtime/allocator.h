// Allocator: where tensor memory comes from, one per device type.
//
// allocate() returns a DataPtr, which owns its memory and frees it through the
// deleter it was built with. The registry get_allocator/set_allocator holds one
// allocator per DeviceType: CPU has a 64-byte aligned allocator, Meta one that
// hands out no memory at all (data() is nullptr, nothing is ever touched), CUDA
// none until a backend sets one. set_allocator is for start-up and tests; swap
// allocators only while no tensor is being allocated.
#pragma once

#include <cstddef>
#include <utility>

#include "runtime/device.h"

namespace sops {

using DeleterFn = void (*)(void* context);

// Owning pointer to device memory. `data` is what kernels see; `context` is what the
// deleter receives (often the same pointer). Move-only.
class DataPtr {
 public:
  DataPtr() : device_(DeviceType::CPU) {}
  explicit DataPtr(Device device) : device_(device) {}
  DataPtr(void* data, void* context, DeleterFn deleter, Device device)
      : data_(data), context_(context), deleter_(deleter), device_(device) {}
  DataPtr(DataPtr&& other) noexcept { swap(other); }
  DataPtr& operator=(DataPtr&& other) noexcept {
    DataPtr(std::move(other)).swap(*this);
    return *this;
  }
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  ~DataPtr() {
    if (deleter_ != nullptr) deleter_(context_);
  }

  void* get() const { return data_; }
  void* context() const { return context_; }
  DeleterFn deleter() const { return deleter_; }
  Device device() const { return device_; }
  explicit operator bool() const { return data_ != nullptr; }

  void swap(DataPtr& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(context_, other.context_);
    std::swap(deleter_, other.deleter_);
    std::swap(device_, other.device_);
  }

 private:
  void* data_ = nullptr;
  void* context_ = nullptr;
  DeleterFn deleter_ = nullptr;
  Device device_{DeviceType::CPU};
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Memory for nbytes bytes. Zero bytes may give a null pointer.
  virtual DataPtr allocate(std::size_t nbytes) = 0;
  // Copies nbytes between two allocations of this allocator (used when a storage
  // grows). The default is memcpy, right for host memory.
  virtual void copy_data(void* dst, const void* src, std::size_t nbytes) const;
};

// Alignment of CPU allocations, in bytes.
inline constexpr std::size_t kCpuAlignment = 64;

// The CPU allocator (64-byte aligned) and the Meta allocator (no memory).
Allocator* cpu_allocator();
Allocator* meta_allocator();

// The allocator registered for a device type; throws sops::Error when there is none
// (CUDA until a backend registers one).
Allocator* get_allocator(DeviceType type);
// Registers `allocator` (not owned; it must outlive its use) for a device type and
// returns the previous one. nullptr unregisters.
Allocator* set_allocator(DeviceType type, Allocator* allocator);

// Sets an allocator for the scope of a test and puts the previous one back.
class ScopedAllocator {
 public:
  ScopedAllocator(DeviceType type, Allocator* allocator)
      : type_(type), previous_(set_allocator(type, allocator)) {}
  ~ScopedAllocator() { set_allocator(type_, previous_); }
  ScopedAllocator(const ScopedAllocator&) = delete;
  ScopedAllocator& operator=(const ScopedAllocator&) = delete;

 private:
  DeviceType type_;
  Allocator* previous_;
};

}  // namespace sops
