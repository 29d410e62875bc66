#include "backends/cuda/runtime/cuda_backend.h"

#include <cuda_runtime.h>

#include "backends/cuda/runtime/cuda_allocator.h"
#include "backends/cuda/runtime/cuda_check.h"
#include "backends/cuda/runtime/cuda_stream.h"
#include "runtime/device_guard.h"

namespace sops::cuda {

namespace {

class CudaGuard final : public DeviceGuardImpl {
 public:
  Device exchange_device(Device device) override {
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    if (device.has_index() && device.index() != current) {
      check(cudaSetDevice(device.index()), "cudaSetDevice");
    }
    return Device(kCUDA, static_cast<Device::Index>(current));
  }
  void restore_device(Device device) noexcept override {
    (void)cudaSetDevice(device.index());  // exchange_device returned it, with its index
  }
};

}  // namespace

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

bool register_cuda_backend() {
  static const bool registered = [] {
    if (device_count() == 0) return false;
    static CudaGuard guard;
    set_allocator(kCUDA, &caching_allocator());
    set_device_guard_impl(kCUDA, &guard);
    return true;
  }();
  return registered;
}

void copy_bytes(void* dst, const void* src, std::size_t nbytes) {
  if (nbytes == 0) return;
  // On the current stream, after the kernels queued there; then waited for, so host
  // memory on either side may be used (or freed) on return.
  const Stream stream = current_stream();
  check(cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDefault, stream.handle()), "cudaMemcpyAsync");
  stream.synchronize();
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace sops::cuda
