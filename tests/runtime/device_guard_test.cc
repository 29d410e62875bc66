// DeviceGuard (no-op on cpu/meta, hook for accelerators) and check_same_device.
#include "runtime/device_guard.h"

#include <optional>
#include <vector>

#include <gtest/gtest.h>

namespace {

using sops::Device;
using sops::Tensor;

class FakeCudaGuard final : public sops::DeviceGuardImpl {
 public:
  Device exchange_device(Device d) override {
    Device previous = current;
    current = d;
    log.push_back(d.index());
    return previous;
  }
  void restore_device(Device d) noexcept override { current = d; }
  Device current{sops::kCUDA, 0};
  std::vector<int> log;
};

TEST(DeviceGuard, IsANoOpForCpuAndMeta) {
  EXPECT_EQ(sops::get_device_guard_impl(sops::kCPU), nullptr);
  sops::DeviceGuard g(Device(sops::kCPU));
  sops::DeviceGuard g2(sops::device_of(Tensor()));  // absent: nothing
}

TEST(DeviceGuard, SwitchesAndRestoresThroughTheBackendHook) {
  FakeCudaGuard fake;
  sops::DeviceGuardImpl* previous = sops::set_device_guard_impl(sops::kCUDA, &fake);
  {
    sops::DeviceGuard g(Device(sops::kCUDA, 1));
    EXPECT_EQ(fake.current, Device(sops::kCUDA, 1));
  }
  EXPECT_EQ(fake.current, Device(sops::kCUDA, 0));
  sops::set_device_guard_impl(sops::kCUDA, previous);
}

TEST(CheckSameDevice, NamesOperatorAndOffendingArgument) {
  const Tensor cpu = sops::empty({1});
  const Tensor meta = sops::empty({1}, sops::TensorOptions().device(sops::kMeta));
  const std::optional<Tensor> absent;
  EXPECT_NO_THROW(sops::check_same_device("add.out", {{"self", cpu}, {"other", cpu}}));
  EXPECT_NO_THROW(
      sops::check_same_device("addmm", {{"bias", absent}, {"self", meta}, {"out", Tensor()}}));
  try {
    sops::check_same_device("add.out", {{"self", cpu}, {"other", meta}});
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.out");
    EXPECT_EQ(e.argument(), "other");
    EXPECT_STREQ(e.what(),
                 "add.out: argument 'other': expected all tensors to be on the same "
                 "device as 'self' (cpu), but got meta");
  }
}

}  // namespace
