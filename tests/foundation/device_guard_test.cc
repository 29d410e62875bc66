// Generated CUDA wrappers honour device_guard and device_check (no GPU needed: the
// CUDA tensors of this test live in host memory, and a recording guard stands in for
// the CUDA runtime's current device).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "device_ops/CUDAFunctions.h"
#include "device_ops/Functions.h"
#include "runtime/device_guard.h"

namespace {

using sops::Device;
using sops::DeviceType;
using sops::Tensor;

class RecordingGuard : public sops::DeviceGuardImpl {
 public:
  Device exchange_device(Device device) override {
    set.push_back(device.index());
    Device previous = current;
    current = device;
    return previous;
  }
  void restore_device(Device device) noexcept override { current = device; }

  Device current{DeviceType::CUDA, 0};
  std::vector<int> set;
};

class DeviceWrappers : public ::testing::Test {
 protected:
  DeviceWrappers() { previous_ = sops::set_device_guard_impl(DeviceType::CUDA, &guard_); }
  ~DeviceWrappers() override { sops::set_device_guard_impl(DeviceType::CUDA, previous_); }

  static Tensor ones_on(int index) {
    Tensor t = sops::empty({2}, sops::TensorOptions().device(Device(DeviceType::CUDA, index)));
    t.data_ptr<float>()[0] = t.data_ptr<float>()[1] = 1.0f;
    return t;
  }

  RecordingGuard guard_;
  sops::DeviceGuardImpl* previous_ = nullptr;
  sops::ScopedAllocator allocator_{DeviceType::CUDA, sops::cpu_allocator()};
};

TEST_F(DeviceWrappers, GuardMakesTheTensorsDeviceCurrentThenRestoresIt) {
  const Tensor a = ones_on(1);
  const Tensor b = ones_on(1);
  guard_.set.clear();
  const Tensor c = device::ops::add(a, b);
  // The wrapper's guard, then the one the output's allocation on cuda:1 makes.
  EXPECT_EQ(guard_.set, (std::vector<int>{1, 1}));
  EXPECT_EQ(guard_.current.index(), 0);  // restored
  EXPECT_EQ(c.device(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(c.data_ptr<float>()[0], 2.0f);
  // The static entry point is the same wrapper.
  guard_.set.clear();
  device::ops::cuda::add(a, b);
  EXPECT_EQ(guard_.set, (std::vector<int>{1, 1}));
}

TEST_F(DeviceWrappers, ATensorIsAllocatedWithItsDeviceCurrent) {
  const Tensor t = ones_on(1);
  EXPECT_EQ(guard_.set, (std::vector<int>{1}));
  EXPECT_EQ(guard_.current.index(), 0);  // restored
  EXPECT_EQ(t.device(), Device(DeviceType::CUDA, 1));
}

TEST_F(DeviceWrappers, TensorsOnDifferentDevicesAreRejectedNamingTheOperator) {
  try {
    device::ops::cuda::add(ones_on(0), ones_on(1));
    FAIL() << "cuda:0 + cuda:1 must be rejected";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.Tensor");
    EXPECT_NE(std::string(e.what()).find("cuda:1"), std::string::npos) << e.what();
  }
}

TEST_F(DeviceWrappers, ListsAndOptionalTensorsAreGuardedAndChecked) {
  const Tensor a = ones_on(1);
  const Tensor b = ones_on(1);
  const Tensor w = ones_on(1);
  guard_.set.clear();
  const Tensor c = device::ops::cuda::sum_list({a, b}, w);
  EXPECT_EQ(guard_.set, (std::vector<int>{1, 1}));  // tensors[0]'s device, then the output's
  EXPECT_EQ(c.data_ptr<float>()[0], 2.0f);
  try {
    device::ops::cuda::sum_list({a, b, ones_on(0)});
    FAIL() << "a list on cuda:1 and cuda:0 must be rejected";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "sum_list");
    EXPECT_EQ(e.argument(), "tensors");
    EXPECT_NE(std::string(e.what()).find("as 'tensors[0]' (cuda:1), but got cuda:0 at tensors[2]"),
              std::string::npos)
        << e.what();
  }
  try {
    device::ops::cuda::sum_list({a}, ones_on(0));
    FAIL() << "a weight on another device must be rejected";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "weight");
    EXPECT_NE(std::string(e.what()).find("but got cuda:0"), std::string::npos) << e.what();
  }
}

TEST_F(DeviceWrappers, AFactoryIsGuardedOnItsDeviceArgument) {
  guard_.set.clear();
  const Tensor t = device::ops::ones(2, Device(DeviceType::CUDA, 1));
  EXPECT_EQ(guard_.set, (std::vector<int>{1, 1}));  // the wrapper's guard, then the allocation's
  EXPECT_EQ(guard_.current.index(), 0);             // restored
  EXPECT_EQ(t.device(), Device(DeviceType::CUDA, 1));
  EXPECT_EQ(t.data_ptr<float>()[1], 1.0f);
}

TEST_F(DeviceWrappers, EntriesThatOptOutGetNoGuardAndNoCheck) {
  const Tensor a = ones_on(0);
  const Tensor b = ones_on(1);
  guard_.set.clear();
  const Tensor c = device::ops::cuda::mul(a, b);  // NoCheck: accepted
  // device_guard: False: no guard of the wrapper's; only the output's allocation (on
  // the first input's device) makes its device current.
  EXPECT_EQ(guard_.set, (std::vector<int>{0}));
  EXPECT_EQ(c.data_ptr<float>()[1], 1.0f);
}

TEST_F(DeviceWrappers, CpuWrappersNeedNoGuard) {
  Tensor a = sops::empty({1}, sops::TensorOptions());
  a.data_ptr<float>()[0] = 3.0f;
  EXPECT_EQ(device::ops::add(a, a).data_ptr<float>()[0], 6.0f);
  EXPECT_TRUE(guard_.set.empty());
}

}  // namespace
