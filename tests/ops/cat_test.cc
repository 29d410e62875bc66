// cat (structured with precomputed): functional and out variants, static entry point,
// meta tensors and promotion against PyTorch.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

TEST(CatTest, MatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("cat.golden", "cat");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const std::vector<Tensor> tensors = to_tensors(c.arg("tensors").tensors);
    const int64_t dim = c.arg("dim").int_value;
    if (c.is_error() || expects_unrepresentable(c)) {
      const std::string expected = c.is_error() ? c.expect.error : "int16";
      EXPECT_TRUE(throws_error([&] { aten::cat(tensors, dim); }, expected, "cat"));
      continue;
    }
    const Tensor result = aten::cat(tensors, dim);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::cat(tensors, dim), result));
    Tensor out = sops::empty({0}, result.scalar_type());
    EXPECT_TRUE(aten::cat_outf(tensors, dim, out).is_same(out));
    EXPECT_TRUE(matches(out, c));
    const std::vector<Tensor> meta = to_tensors(c.arg("tensors").tensors, kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::cat(meta, dim), c));
  }
}

TEST(CatTest, OutOfUncastableDtypeIsRejected) {
  const std::vector<Tensor> tensors = {sops::empty({2}, kFloat), sops::empty({3}, kFloat)};
  Tensor out = sops::empty({5}, kLong);
  try {
    aten::cat_out(out, tensors, 0);
    ADD_FAILURE() << "float32 inputs were concatenated into an int64 out";
  } catch (const Error& e) {
    EXPECT_EQ(e.op(), "cat.out") << e.what();
    EXPECT_EQ(e.argument(), "out") << e.what();
  }
}

TEST(CatTest, OutOfWiderDtypeReceivesConvertedValues) {
  Tensor a = sops::empty({2}, kInt);
  aten::fill_(a, 3);
  Tensor out = sops::empty({1}, kDouble);
  aten::cat_out(out, std::vector<Tensor>{a, a}, 0);
  ASSERT_EQ(out.sizes().vec(), std::vector<int64_t>({4}));
  EXPECT_EQ(out.data_ptr<double>()[3], 3.0);
}

}  // namespace
}  // namespace sops::optest
