// empty.memory_format and zeros (+ zeros.out) against PyTorch, on cpu and meta.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

TEST(EmptyTest, MatchesPyTorch) {
  const auto cases = cases_of("empty.golden", "empty.memory_format");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const IntArrayRef size(c.arg("size").ints);
    const std::optional<ScalarType> dtype = optional_dtype_arg(c, "dtype");
    const std::optional<MemoryFormat> format = optional_memory_format_arg(c, "memory_format");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error(
          [&] { aten::empty(size, dtype, std::nullopt, std::nullopt, std::nullopt, format); },
          c.expect.error, "empty.memory_format"));
      EXPECT_TRUE(throws_error(
          [&] { aten::empty(size, dtype, std::nullopt, Device(kMeta), std::nullopt, format); },
          c.expect.error, "empty.memory_format"));
      continue;
    }
    const Tensor t = aten::empty(size, dtype, std::nullopt, std::nullopt, std::nullopt, format);
    EXPECT_TRUE(t.is_cpu());
    EXPECT_TRUE(matches(t, c, /*check_strides=*/true));
    EXPECT_TRUE(
        matches(aten::cpu::empty(size, dtype, std::nullopt, std::nullopt, std::nullopt, format), c,
                /*check_strides=*/true));
    NoCpuAllocations no_cpu;
    const Tensor m = aten::empty(size, dtype, std::nullopt, Device(kMeta), std::nullopt, format);
    EXPECT_TRUE(matches_meta(m, c));
    EXPECT_EQ(m.strides().vec(), c.expect.strides);
  }
}

TEST(ZerosTest, MatchesPyTorch) {
  const auto cases = cases_of("zeros.golden", "zeros");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const IntArrayRef size(c.arg("size").ints);
    const std::optional<ScalarType> dtype = optional_dtype_arg(c, "dtype");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::zeros(size, dtype); }, c.expect.error, "zeros"));
      Tensor out = sops::empty({0});
      EXPECT_TRUE(throws_error([&] { aten::zeros_out(out, size); }, c.expect.error, "zeros.out"));
      continue;
    }
    EXPECT_TRUE(matches(aten::zeros(size, dtype), c, /*check_strides=*/true));
    // zeros.out: resizes and zeroes a tensor of any dtype.
    Tensor out = aten::empty({7}, dtype);
    aten::fill_(out, 3);
    EXPECT_TRUE(aten::zeros_out(out, size).is_same(out));
    EXPECT_TRUE(matches(out, c));
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::zeros(size, dtype, std::nullopt, Device(kMeta)), c));
  }
}

}  // namespace
}  // namespace sops::optest
