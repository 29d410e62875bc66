// relu and relu_ against PyTorch, the static entry points and meta tensors.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

TEST(ReluTest, FunctionalMatchesPyTorch) {
  const auto cases = cases_of("relu.golden", "relu");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::relu(self); }, c.expect.error, "relu"));
      const Tensor meta = tensor_arg(c, "self", kMeta);
      EXPECT_TRUE(throws_error([&] { aten::relu(meta); }, c.expect.error, "relu"));
      continue;
    }
    const Tensor result = aten::relu(self);
    EXPECT_TRUE(matches(result, c));
    EXPECT_FALSE(result.is_alias_of(self));
    EXPECT_TRUE(same_result(aten::cpu::relu(self), result));
    // relu_ on a copy gives the same values.
    Tensor copy = clone(self);
    EXPECT_TRUE(aten::relu_(copy).is_same(copy));
    EXPECT_TRUE(matches(copy, c));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::relu(meta), c));
  }
}

TEST(ReluTest, InplaceMatchesPyTorch) {
  const auto cases = cases_of("relu.golden", "relu_");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    Tensor self = tensor_arg(c, "self");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::relu_(self); }, c.expect.error, "relu_"));
      continue;
    }
    Tensor& r = aten::cpu::relu_(self);
    EXPECT_TRUE(r.is_same(self));
    EXPECT_TRUE(matches(self, c, /*check_strides=*/true));
    Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(aten::relu_(meta).is_same(meta));
  }
}

// relu.out: `autogen: relu.out` in the yaml, the CPU kernel the backend's own
// (backends/cpu/autogen_kernels.yaml); an empty out is resized, as autogen's would be.
TEST(ReluTest, AutogenOutMatchesPyTorch) {
  const auto cases = cases_of("relu.golden", "relu");
  for (const GoldenCase& c : cases) {
    if (c.is_error()) continue;
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    Tensor out = empty({0}, self.options());
    EXPECT_TRUE(aten::relu_out(out, self).is_same(out));
    EXPECT_TRUE(matches(out, c));
    Tensor meta_out = empty({0}, self.options().device(Device(DeviceType::Meta)));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::relu_outf(meta, meta_out), c));
  }
}

}  // namespace
}  // namespace sops::optest
