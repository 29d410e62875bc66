// sum.dim_IntList against PyTorch: functional and out variants, static entry point,
// meta tensors, out= resizing and dtype errors.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

OptionalIntArrayRef dim_arg(const GoldenCase& c) {
  const golden::GoldenArg& a = c.arg("dim");
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return IntArrayRef(a.ints);
}

TEST(SumTest, MatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("sum.golden", "sum.dim_IntList");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const OptionalIntArrayRef dim = dim_arg(c);
    const bool keepdim = c.arg("keepdim").bool_value;
    const std::optional<ScalarType> dtype = optional_dtype_arg(c, "dtype");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::sum(self, dim, keepdim, dtype); }, c.expect.error,
                               "sum.dim_IntList"));
      Tensor out = sops::empty({0});
      EXPECT_TRUE(throws_error([&] { aten::sum_outf(self, dim, keepdim, dtype, out); },
                               c.expect.error, "sum.IntList_out"));
      continue;
    }
    const Tensor result = aten::sum(self, dim, keepdim, dtype);
    EXPECT_TRUE(matches(result, c));
    EXPECT_TRUE(same_result(aten::cpu::sum(self, dim, keepdim, dtype), result));
    // out=: resized from empty; the result dtype comes from out when dtype is absent.
    Tensor out = sops::empty({0}, dtype_of(c.expect.dtype));
    EXPECT_TRUE(aten::sum_outf(self, dim, keepdim, dtype, out).is_same(out));
    EXPECT_TRUE(matches(out, c));
    Tensor out2 = sops::empty({3, 1}, dtype_of(c.expect.dtype));
    aten::sum_out(out2, self, dim, keepdim, dtype);
    EXPECT_TRUE(matches(out2, c));
    // Meta.
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::sum(meta, dim, keepdim, dtype), c));
  }
}

TEST(SumTest, OutOfAnotherDtypeThanRequestedIsRejected) {
  const Tensor self = sops::empty({2, 3}, kFloat);
  Tensor out = sops::empty({2}, kLong);
  const int64_t dims[] = {1};
  try {
    aten::sum_outf(self, IntArrayRef(dims), false, kFloat, out);
    ADD_FAILURE() << "an int64 out accepted a float32 sum";
  } catch (const Error& e) {
    EXPECT_EQ(e.op(), "sum.IntList_out") << e.what();
    EXPECT_EQ(e.argument(), "out") << e.what();
  }
}

}  // namespace
}  // namespace sops::optest
