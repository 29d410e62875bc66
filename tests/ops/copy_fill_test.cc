// copy_ and fill_ (Scalar and Tensor values) against PyTorch, on cpu and meta.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

TEST(CopyTest, MatchesPyTorch) {
  const auto cases = cases_of("copy.golden", "copy_");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    Tensor self = tensor_arg(c, "self");
    const Tensor src = tensor_arg(c, "src");
    const bool non_blocking = c.arg("non_blocking").bool_value;
    if (c.is_error()) {
      EXPECT_TRUE(
          throws_error([&] { aten::copy_(self, src, non_blocking); }, c.expect.error, "copy_"));
      continue;
    }
    EXPECT_TRUE(aten::copy_(self, src, non_blocking).is_same(self));
    EXPECT_TRUE(matches(self, c, /*check_strides=*/true));
    Tensor meta_self = tensor_arg(c, "self", kMeta);
    const Tensor meta_src = tensor_arg(c, "src", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(aten::copy_(meta_self, meta_src).is_same(meta_self));
  }
}

TEST(CopyTest, BroadcastsSourceAndRejectsLargerOne) {
  Tensor self = aten::zeros({2, 3}, kLong);
  Tensor row = aten::empty({3}, kFloat);
  aten::fill_(row, 2.75);
  aten::copy_(self, row);
  EXPECT_EQ(self.data_ptr<int64_t>()[4], 2);
  Tensor small = aten::zeros({3}, kFloat);
  EXPECT_TRUE(throws_error([&] { aten::copy_(small, self); }, "doesn't match the broadcast shape",
                           "copy_"));
}

void check_fill(const std::string& op, bool tensor_value) {
  const auto cases = cases_of("fill.golden", op);
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    Tensor self = tensor_arg(c, "self");
    auto call = [&](Tensor& s) -> Tensor& {
      return tensor_value ? aten::fill_(s, tensor_arg(c, "value"))
                          : aten::fill_(s, scalar_arg(c, "value"));
    };
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { call(self); }, c.expect.error, op));
      continue;
    }
    EXPECT_TRUE(call(self).is_same(self));
    EXPECT_TRUE(matches(self, c, /*check_strides=*/true));
    // The static entry point does the same on a fresh self.
    Tensor again = tensor_arg(c, "self");
    if (tensor_value) {
      aten::cpu::fill_(again, tensor_arg(c, "value"));
    } else {
      aten::cpu::fill_(again, scalar_arg(c, "value"));
    }
    EXPECT_TRUE(matches(again, c));
    if (!tensor_value) {
      Tensor meta = tensor_arg(c, "self", kMeta);
      NoCpuAllocations no_cpu;
      EXPECT_TRUE(aten::fill_(meta, scalar_arg(c, "value")).is_same(meta));
    }
  }
}

TEST(FillTest, ScalarMatchesPyTorch) { check_fill("fill_.Scalar", false); }
TEST(FillTest, TensorMatchesPyTorch) { check_fill("fill_.Tensor", true); }

// fill.Scalar and fill.Scalar_out are not written by hand: `autogen:` makes them from
// fill_.Scalar and copy_. They must give what fill_ gives, and leave self alone.
TEST(FillTest, AutogenFunctionalAndOutMatchPyTorch) {
  for (const GoldenCase& c : cases_of("fill.golden", "fill_.Scalar")) {
    if (c.is_error()) continue;
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor before = clone(self);
    const Tensor result = aten::fill(self, scalar_arg(c, "value"));
    EXPECT_FALSE(result.is_alias_of(self));
    EXPECT_TRUE(matches(result, c));
    EXPECT_TRUE(same_result(self, before));
    Tensor out = empty({0}, self.options());
    EXPECT_TRUE(aten::fill_out(out, self, scalar_arg(c, "value")).is_same(out));
    EXPECT_TRUE(matches(out, c));
  }
}

}  // namespace
}  // namespace sops::optest
