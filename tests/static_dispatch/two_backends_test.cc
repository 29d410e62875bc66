// Static dispatch over two backends: the dispatcher API of a statically dispatched
// library reaches the kernel of its arguments' backend (CPU or CUDA; the CUDA tensors
// live in host memory), falls back to Common and the composite kernels as the
// dispatcher does, and rejects tensors on two devices and backends with no kernel.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/allocator.h"
#include "runtime/error.h"
#include "tests/static_dispatch/two_backend_kernels.h"
#include "two_backend_ops/CPUFunctions.h"
#include "two_backend_ops/CUDAFunctions.h"
#include "two_backend_ops/Functions.h"

namespace {

using sops::Device;
using sops::DeviceType;
using sops::Tensor;
using two::ops::testing::calls;
using Calls = std::vector<std::string>;

class TwoBackends : public ::testing::Test {
 protected:
  TwoBackends() { calls().clear(); }

  static Tensor filled(DeviceType type, float value, int64_t n = 2) {
    Tensor t = sops::empty({n}, sops::TensorOptions().device(Device(type)));
    if (type != DeviceType::Meta) {
      for (int64_t i = 0; i < n; ++i) t.data_ptr<float>()[i] = value;
    }
    return t;
  }
  static Tensor cpu(float value) { return filled(DeviceType::CPU, value); }
  static Tensor cuda(float value) { return filled(DeviceType::CUDA, value); }
  static Tensor meta() { return filled(DeviceType::Meta, 0); }

  // Runs f, which must throw a sops::Error of operator `op` whose message has `text`.
  template <typename F>
  static void expect_error(F&& f, const std::string& op, const std::string& text) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one of " << op << " saying: " << text;
    } catch (const sops::Error& e) {
      EXPECT_EQ(e.op(), op) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }

  sops::ScopedAllocator allocator_{DeviceType::CUDA, sops::cpu_allocator()};
};

TEST_F(TwoBackends, EachBackendsTensorsReachItsKernel) {
  const Tensor c = two::ops::add(cpu(1), cpu(2), 3);
  EXPECT_EQ(c.device().type(), DeviceType::CPU);
  EXPECT_EQ(c.data_ptr<float>()[0], 7.0f);
  const Tensor g = two::ops::add(cuda(1), cuda(2), 3);
  EXPECT_EQ(g.device().type(), DeviceType::CUDA);
  EXPECT_EQ(g.data_ptr<float>()[1], 7.0f);
  EXPECT_EQ(calls(), (Calls{"add_out_cpu", "add_out_cuda"}));

  calls().clear();
  EXPECT_EQ(two::ops::neg(cpu(2)).data_ptr<float>()[0], -2.0f);
  EXPECT_EQ(two::ops::neg(cuda(2)).data_ptr<float>()[0], -2.0f);
  EXPECT_EQ(two::ops::neg(meta()).device().type(), DeviceType::Meta);
  EXPECT_EQ(calls(), (Calls{"neg_cpu", "neg_cuda", "neg_meta"}));
}

TEST_F(TwoBackends, InplaceAndOutVariantsReachTheirBackend) {
  Tensor a = cuda(1);
  EXPECT_TRUE(two::ops::add_(a, cuda(2)).is_same(a));
  EXPECT_EQ(a.data_ptr<float>()[0], 3.0f);
  Tensor out = sops::empty({0}, sops::TensorOptions().device(Device(DeviceType::CUDA)));
  EXPECT_TRUE(two::ops::add_outf(cuda(1), cuda(1), 1, out).is_same(out));
  EXPECT_EQ(out.numel(), 2);
  EXPECT_EQ(out.data_ptr<float>()[1], 2.0f);
  Tensor cpu_out = sops::empty({0});
  two::ops::add_out(cpu_out, cpu(1), cpu(4));
  EXPECT_EQ(cpu_out.data_ptr<float>()[0], 5.0f);
  EXPECT_EQ(calls(), (Calls{"add_out_cuda", "add_out_cuda", "add_out_cpu"}));
}

TEST_F(TwoBackends, StaticEntryPointsAreWhatTheSwitchCalls) {
  two::ops::cpu::add(cpu(1), cpu(1));
  two::ops::cuda::add(cuda(1), cuda(1));
  EXPECT_EQ(calls(), (Calls{"add_out_cpu", "add_out_cuda"}));
}

TEST_F(TwoBackends, MetaTensorsRunTheMetaKernelsOnly) {
  const Tensor m = two::ops::add(meta(), meta());
  EXPECT_EQ(m.device().type(), DeviceType::Meta);
  EXPECT_EQ(m.sizes().vec(), (std::vector<int64_t>{2}));
  EXPECT_TRUE(calls().empty());  // the Meta wrapper runs meta() and no impl()
}

TEST_F(TwoBackends, CompositeImplicitReachesTheBackendOfWhatItCalls) {
  EXPECT_EQ(two::ops::double_it(cuda(4)).data_ptr<float>()[0], 8.0f);
  EXPECT_EQ(two::ops::double_it(cpu(4)).data_ptr<float>()[0], 8.0f);
  EXPECT_EQ(two::ops::double_it(meta()).device().type(), DeviceType::Meta);
  EXPECT_EQ(calls(), (Calls{"double_it", "add_out_cuda", "double_it", "add_out_cpu", "double_it"}));
}

TEST_F(TwoBackends, BackendKernelBeforeCompositeExplicitFallback) {
  EXPECT_EQ(two::ops::scale(cpu(2), 3.0).data_ptr<float>()[0], 6.0f);
  EXPECT_EQ(two::ops::scale(cuda(2), 3.0).data_ptr<float>()[0], 6.0f);
  EXPECT_EQ(two::ops::scale(meta(), 3.0).device().type(), DeviceType::Meta);
  EXPECT_EQ(calls(), (Calls{"scale_cpu", "scale_generic", "scale_generic"}));
}

TEST_F(TwoBackends, CommonServesABackendWithoutItsOwnKernel) {
  // mul has a CPU kernel only: CUDA tensors reach the Common wrapper, which runs meta()
  // and calls mul.out, which has no CUDA kernel (as through the dispatcher).
  EXPECT_EQ(two::ops::mul(cpu(2), cpu(3)).data_ptr<float>()[0], 6.0f);
  EXPECT_EQ(calls(), (Calls{"mul_out"}));
  expect_error([] { two::ops::mul(cuda(2), cuda(3)); }, "mul.out",
               "no kernel for dispatch key CUDA; registered: CPU, Meta");
  EXPECT_EQ(two::ops::mul(meta(), meta()).device().type(), DeviceType::Meta);
}

TEST_F(TwoBackends, ABackendWithNoKernelIsAClearError) {
  expect_error([] { two::ops::cpu_only(cuda(1)); }, "cpu_only",
               "no kernel for dispatch key CUDA; registered: CPU");
  expect_error([] { two::ops::cpu_only(meta()); }, "cpu_only",
               "no kernel for dispatch key Meta; registered: CPU");
  expect_error([] { two::ops::make(2, Device(DeviceType::Meta)); }, "make",
               "no kernel for dispatch key Meta; registered: CPU, CUDA");
  EXPECT_EQ(calls(), Calls{});
}

TEST_F(TwoBackends, NoCheckOperatorsTakeCpuTensorsBesideAnotherDevice) {
  // device_check: NoCheck (copy_, element-wise ops taking a cpu scalar): the other
  // device's kernel runs, in either argument order; two non-cpu devices stay an error.
  two::ops::copy_from(cpu(1), cuda(2));
  two::ops::copy_from(cuda(1), cpu(2));
  two::ops::copy_from(cpu(1), cpu(2));
  EXPECT_EQ(calls(), (Calls{"copy_from_cuda", "copy_from_cuda", "copy_from_cpu"}));
  expect_error([] { two::ops::copy_from(meta(), cuda(1)); }, "copy_from", "cuda and meta");
}

TEST_F(TwoBackends, TensorsOnTwoDevicesAreAnErrorNamingBoth) {
  expect_error([] { two::ops::add(cpu(1), cuda(1)); }, "add.Tensor",
               "expected all tensors to be on the same device, but found tensors on cpu and cuda");
  expect_error([] { two::ops::sum_all({cuda(1), cpu(1)}); }, "sum_all", "cpu and cuda");
  expect_error([] { two::ops::add(meta(), cuda(1)); }, "add.Tensor", "cuda and meta");
  Tensor out = cpu(0);
  expect_error([&] { two::ops::add_outf(cuda(1), cuda(1), 1, out); }, "add.out", "cpu and cuda");
  EXPECT_EQ(calls(), Calls{});
}

TEST_F(TwoBackends, TensorListsChooseByTheirTensors) {
  EXPECT_EQ(two::ops::sum_all({cuda(1), cuda(2)}).data_ptr<float>()[0], 6.0f);
  EXPECT_EQ(two::ops::sum_all({cpu(1)}).data_ptr<float>()[0], 2.0f);
  EXPECT_EQ(calls(), (Calls{"sum_all_cuda", "sum_all_cpu"}));
}

TEST_F(TwoBackends, WithoutTensorsTheDeviceArgumentChoosesElseCpu) {
  EXPECT_EQ(two::ops::make(3).device().type(), DeviceType::CPU);
  EXPECT_EQ(two::ops::make(3, Device(DeviceType::CUDA)).device().type(), DeviceType::CUDA);
  EXPECT_EQ(calls(), (Calls{"make_cpu", "make_cuda"}));
}

TEST_F(TwoBackends, TensorsOutrankTheDeviceArgument) {
  two::ops::move(cpu(1), Device(DeviceType::CUDA));
  two::ops::move(cuda(1), Device(DeviceType::CPU));
  two::ops::move(cuda(1));
  EXPECT_EQ(calls(), (Calls{"move_cpu", "move_cuda", "move_cuda"}));
}

}  // namespace
