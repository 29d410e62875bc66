// The CUDA backend (backends/cuda/runtime/cuda_backend.h): without a GPU, it says so and CUDA
// tensors fail cleanly; with one, the allocator caches, copies round-trip and the
// device guard switches devices.
#include "backends/cuda/runtime/cuda_backend.h"

#include <vector>

#include <gtest/gtest.h>

#include "backends/cuda/runtime/cuda_allocator.h"
#include "runtime/device_guard.h"
#include "runtime/tensor.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::kCUDA;
using sops::Tensor;
using sops::TensorOptions;

TEST(CudaBackend, WithoutADeviceNothingIsInstalledAndCudaTensorsFailCleanly) {
  if (sops::cuda::device_count() > 0) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_FALSE(sops::cuda::register_cuda_backend());
  EXPECT_EQ(sops::testing::error_message(
                [] { sops::empty({2, 3}, TensorOptions(sops::ScalarType::Float).device(kCUDA)); }),
            "no allocator is registered for device type cuda (a backend registers one with "
            "sops::set_allocator)");
}

TEST(CudaBackend, TheAllocatorCachesWhatTensorsFree) {
  if (!sops::cuda::register_cuda_backend()) GTEST_SKIP() << "no CUDA device";
  auto& allocator = sops::cuda::caching_allocator();
  const auto before = allocator.stats();
  {
    const Tensor a = sops::empty({256, 256}, TensorOptions(sops::ScalarType::Float).device(kCUDA));
  }
  {
    const Tensor b = sops::empty({250, 256}, TensorOptions(sops::ScalarType::Float).device(kCUDA));
  }
  const auto after = allocator.stats();
  EXPECT_EQ(after.device_allocations - before.device_allocations, 1u);  // b reused a's block
  EXPECT_EQ(after.cache_hits - before.cache_hits, 1u);
  EXPECT_EQ(after.in_use_bytes, before.in_use_bytes);
  allocator.empty_cache();
  EXPECT_EQ(allocator.stats().cached_bytes, 0u);
}

TEST(CudaBackend, BytesRoundTripThroughTheDevice) {
  if (!sops::cuda::register_cuda_backend()) GTEST_SKIP() << "no CUDA device";
  const Tensor d = sops::empty({1000}, TensorOptions(sops::ScalarType::Float).device(kCUDA));
  EXPECT_TRUE(d.device().is_cuda());
  std::vector<float> host(1000), back(1000, 0.0f);
  for (int i = 0; i < 1000; ++i) host[i] = 0.25f * static_cast<float>(i);
  sops::cuda::copy_bytes(d.data_ptr(), host.data(), host.size() * sizeof(float));
  sops::cuda::copy_bytes(back.data(), d.data_ptr(), back.size() * sizeof(float));
  EXPECT_EQ(back, host);
}

TEST(CudaBackend, TheDeviceGuardMakesItsDeviceCurrent) {
  if (!sops::cuda::register_cuda_backend()) GTEST_SKIP() << "no CUDA device";
  if (sops::cuda::device_count() < 2) GTEST_SKIP() << "needs two CUDA devices";
  const int last = sops::cuda::device_count() - 1;
  {
    const sops::DeviceGuard guard(sops::Device(kCUDA, static_cast<sops::Device::Index>(last)));
    const Tensor t = sops::empty({8}, TensorOptions(sops::ScalarType::Float).device(kCUDA));
    EXPECT_EQ(t.device().index(), last);
  }
  const Tensor t = sops::empty({8}, TensorOptions(sops::ScalarType::Float).device(kCUDA));
  EXPECT_EQ(t.device().index(), 0);
}

}  // namespace
