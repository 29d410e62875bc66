// upsample_nearest1d/2d (structured: functional, out, meta, static) and their .vec
// composites against PyTorch.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

std::optional<ArrayRef<double>> floats_arg(const GoldenCase& c, const std::string& name) {
  const golden::GoldenArg& a = c.arg(name);
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return ArrayRef<double>(a.floats);
}

OptionalIntArrayRef ints_arg(const GoldenCase& c, const std::string& name) {
  const golden::GoldenArg& a = c.arg(name);
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return IntArrayRef(a.ints);
}

TEST(UpsampleTest, Nearest1dMatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("upsample_nearest.golden", "upsample_nearest1d");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const IntArrayRef size(c.arg("output_size").ints);
    const std::optional<double> scales = optional_float_arg(c, "scales");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::upsample_nearest1d(self, size, scales); },
                               c.expect.error, "upsample_nearest1d"));
      continue;
    }
    const Tensor result = aten::upsample_nearest1d(self, size, scales);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::upsample_nearest1d(self, size, scales), result));
    Tensor out = sops::empty({0}, self.scalar_type());
    EXPECT_TRUE(aten::upsample_nearest1d_outf(self, size, scales, out).is_same(out));
    EXPECT_TRUE(matches(out, c));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::upsample_nearest1d(meta, size, scales), c));
  }
}

TEST(UpsampleTest, Nearest2dMatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("upsample_nearest.golden", "upsample_nearest2d");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const IntArrayRef size(c.arg("output_size").ints);
    const std::optional<double> scales_h = optional_float_arg(c, "scales_h");
    const std::optional<double> scales_w = optional_float_arg(c, "scales_w");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::upsample_nearest2d(self, size, scales_h, scales_w); },
                               c.expect.error, "upsample_nearest2d"));
      continue;
    }
    const Tensor result = aten::upsample_nearest2d(self, size, scales_h, scales_w);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));  // channels-last is kept
    EXPECT_TRUE(same_result(aten::cpu::upsample_nearest2d(self, size, scales_h, scales_w), result));
    Tensor out = sops::empty({0}, self.scalar_type());
    aten::upsample_nearest2d_out(out, self, size, scales_h, scales_w);
    EXPECT_TRUE(matches(out, c));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::upsample_nearest2d(meta, size, scales_h, scales_w), c));
  }
}

TEST(UpsampleTest, VecOverloadsMatchPyTorch) {
  for (const std::string op : {"upsample_nearest1d.vec", "upsample_nearest2d.vec"}) {
    const auto cases = cases_of("upsample_nearest.golden", op);
    ASSERT_FALSE(cases.empty()) << op;
    for (const GoldenCase& c : cases) {
      SCOPED_TRACE(c.where());
      const Tensor input = tensor_arg(c, "input");
      const OptionalIntArrayRef size = ints_arg(c, "output_size");
      const std::optional<ArrayRef<double>> scales = floats_arg(c, "scale_factors");
      auto call = [&]() {
        return op == "upsample_nearest1d.vec" ? aten::upsample_nearest1d(input, size, scales)
                                              : aten::upsample_nearest2d(input, size, scales);
      };
      if (c.is_error()) {
        EXPECT_TRUE(throws_error([&] { call(); }, c.expect.error, op));
        continue;
      }
      EXPECT_TRUE(matches(call(), c));
    }
  }
}

}  // namespace
}  // namespace sops::optest
