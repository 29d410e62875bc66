// The RFC's `Common` path: an external backend that only writes an out= kernel gets
// working functional and inplace variants; a backend that opts out is not wrapped.
//
// The "backend" here is the CUDA dispatch key with host memory (no GPU needed): a
// test allocator serves CUDA tensors, and add.out's CUDA kernel computes on the host.
#include <gtest/gtest.h>

#include "demo_ops/Functions.h"
#include "runtime/dispatcher.h"

namespace {

using sops::DispatchKey;
using sops::Tensor;

const sops::TensorOptions kDevice =
    sops::TensorOptions().device(sops::Device(sops::DeviceType::CUDA, 0));

int out_kernel_calls = 0;

// The backend's only kernel: add.out, with the kernel signature of the operator.
Tensor& host_add_out(const Tensor& self, const Tensor& other, const sops::Scalar& alpha,
                     Tensor& out) {
  ++out_kernel_calls;
  EXPECT_EQ(out.device().type(), sops::DeviceType::CUDA);
  const float a = alpha.to<float>();
  for (int64_t i = 0; i < out.numel(); ++i) {
    out.data_ptr<float>()[i] = self.data_ptr<float>()[i] + a * other.data_ptr<float>()[i];
  }
  return out;
}

class CommonBackend : public ::testing::Test {
 protected:
  Tensor filled(std::initializer_list<float> values) {
    Tensor t = sops::empty({static_cast<int64_t>(values.size())}, kDevice);
    float* data = t.data_ptr<float>();
    for (float v : values) *data++ = v;
    return t;
  }

  sops::ScopedAllocator allocator_{sops::DeviceType::CUDA, sops::cpu_allocator()};
  sops::RegisterKernel out_kernel_{"add.out", DispatchKey::CUDA, &host_add_out};
};

TEST_F(CommonBackend, FunctionalVariantComesFromTheOutKernel) {
  out_kernel_calls = 0;
  const Tensor a = filled({1, 2, 3});
  const Tensor b = filled({10, 20, 30});
  const Tensor c = demo::ops::add(a, b, 2);
  EXPECT_EQ(out_kernel_calls, 1);
  EXPECT_EQ(c.device().type(), sops::DeviceType::CUDA);
  ASSERT_EQ(c.numel(), 3);
  EXPECT_EQ(c.data_ptr<float>()[0], 21.0f);
  EXPECT_EQ(c.data_ptr<float>()[2], 63.0f);
}

TEST_F(CommonBackend, InplaceVariantComesFromTheOutKernel) {
  out_kernel_calls = 0;
  Tensor a = filled({1, 2, 3});
  const Tensor b = filled({1, 1, 1});
  Tensor& result = demo::ops::add_(a, b);
  EXPECT_EQ(out_kernel_calls, 1);
  EXPECT_TRUE(result.is_same(a));
  EXPECT_EQ(a.data_ptr<float>()[1], 3.0f);
}

TEST_F(CommonBackend, MetaStillChecksTheArgumentsFirst) {
  out_kernel_calls = 0;
  try {
    demo::ops::add(filled({1, 2, 3}), filled({1, 2}));
    FAIL() << "shapes [3] and [2] do not broadcast";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.Tensor");
  }
  EXPECT_EQ(out_kernel_calls, 0);
}

TEST_F(CommonBackend, ABackendThatOptsOutIsNotWrapped) {
  const sops::RegisterFallthrough opt_out("add.Tensor", DispatchKey::Common, DispatchKey::CUDA);
  try {
    demo::ops::add(filled({1}), filled({2}));
    FAIL() << "with Common opted out, CUDA has no functional add";
  } catch (const sops::Error& e) {
    EXPECT_NE(std::string(e.what()).find("add.Tensor"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("CUDA"), std::string::npos) << e.what();
  }
}

}  // namespace
