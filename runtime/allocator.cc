#include "runtime/allocator.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/error.h"

namespace sops {
namespace {

void free_cpu(void* p) { std::free(p); }

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(std::size_t nbytes) override {
    if (nbytes == 0) return DataPtr(Device(DeviceType::CPU));
    // malloc with room to align by hand: glibc's memalign path fragments the heap
    // and is several times slower for the small tensors dispatch overhead is about.
    SOPS_CHECK(nbytes <= SIZE_MAX - kCpuAlignment, "cannot allocate ", nbytes,
               " bytes: size overflows");
    void* raw = std::malloc(nbytes + kCpuAlignment);
    SOPS_CHECK(raw != nullptr, "out of memory: failed to allocate ", nbytes, " bytes on cpu");
    const auto address = reinterpret_cast<std::uintptr_t>(raw);
    void* aligned = reinterpret_cast<void*>((address + kCpuAlignment) & ~(kCpuAlignment - 1));
    return DataPtr(aligned, raw, &free_cpu, Device(DeviceType::CPU));
  }
};

class MetaAllocator final : public Allocator {
 public:
  DataPtr allocate(std::size_t /*nbytes*/) override { return DataPtr(Device(DeviceType::Meta)); }
  void copy_data(void* /*dst*/, const void* /*src*/, std::size_t /*nbytes*/) const override {}
};

std::array<std::atomic<Allocator*>, kNumDeviceTypes>& registry() {
  static std::array<std::atomic<Allocator*>, kNumDeviceTypes> allocators{cpu_allocator(), nullptr,
                                                                         meta_allocator()};
  return allocators;
}

}  // namespace

void Allocator::copy_data(void* dst, const void* src, std::size_t nbytes) const {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
}

Allocator* cpu_allocator() {
  static CpuAllocator allocator;
  return &allocator;
}

Allocator* meta_allocator() {
  static MetaAllocator allocator;
  return &allocator;
}

Allocator* get_allocator(DeviceType type) {
  Allocator* a = registry()[static_cast<std::size_t>(type)].load(std::memory_order_acquire);
  SOPS_CHECK(a != nullptr, "no allocator is registered for device type ", type,
             " (a backend registers one with sops::set_allocator)");
  return a;
}

Allocator* set_allocator(DeviceType type, Allocator* allocator) {
  return registry()[static_cast<std::size_t>(type)].exchange(allocator, std::memory_order_acq_rel);
}

}  // namespace sops
