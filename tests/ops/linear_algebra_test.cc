// mm, addmm (functional, inplace, out) and linear against PyTorch, with static entry
// points and meta tensors.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

TEST(MmTest, MatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("mm.golden", "mm");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor mat2 = tensor_arg(c, "mat2");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::mm(self, mat2); }, c.expect.error, "mm"));
      Tensor out = sops::empty({0}, self.scalar_type());
      EXPECT_TRUE(throws_error([&] { aten::mm_out(out, self, mat2); }, c.expect.error, "mm.out"));
      continue;
    }
    const Tensor result = aten::mm(self, mat2);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::mm(self, mat2), result));
    Tensor out = sops::empty({5}, self.scalar_type());
    EXPECT_TRUE(aten::mm_out(out, self, mat2).is_same(out));
    EXPECT_TRUE(matches(out, c));
    const Tensor meta_self = tensor_arg(c, "self", kMeta);
    const Tensor meta_mat2 = tensor_arg(c, "mat2", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::mm(meta_self, meta_mat2), c));
  }
}

TEST(MmTest, OutOfWrongDtypeIsRejected) {
  const Tensor a = sops::empty({2, 3}, kFloat);
  const Tensor b = sops::empty({3, 4}, kFloat);
  Tensor out = sops::empty({2, 4}, kDouble);
  try {
    aten::mm_outf(a, b, out);
    ADD_FAILURE() << "a float64 out accepted a float32 product";
  } catch (const Error& e) {
    EXPECT_EQ(e.op(), "mm.out") << e.what();
    EXPECT_EQ(e.argument(), "out") << e.what();
  }
}

TEST(AddmmTest, MatchesPyTorchInEveryVariant) {
  const auto cases = cases_of("addmm.golden", "addmm");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor mat1 = tensor_arg(c, "mat1");
    const Tensor mat2 = tensor_arg(c, "mat2");
    const Scalar beta = scalar_arg(c, "beta");
    const Scalar alpha = scalar_arg(c, "alpha");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::addmm(self, mat1, mat2, beta, alpha); }, c.expect.error,
                               "addmm"));
      continue;
    }
    const Tensor result = aten::addmm(self, mat1, mat2, beta, alpha);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::addmm(self, mat1, mat2, beta, alpha), result));
    Tensor out = sops::empty({0}, self.scalar_type());
    EXPECT_TRUE(aten::addmm_outf(self, mat1, mat2, beta, alpha, out).is_same(out));
    EXPECT_TRUE(matches(out, c));
    if (self.sizes() == IntArrayRef(c.expect.sizes)) {
      Tensor s = clone(self);
      EXPECT_TRUE(aten::addmm_(s, mat1, mat2, beta, alpha).is_same(s));
      EXPECT_TRUE(matches(s, c));
    } else {
      // Inplace cannot broadcast self.
      Tensor s = clone(self);
      EXPECT_TRUE(
          throws_error([&] { aten::addmm_(s, mat1, mat2, beta, alpha); }, "shape", "addmm_"));
    }
    const Tensor m_self = tensor_arg(c, "self", kMeta);
    const Tensor m1 = tensor_arg(c, "mat1", kMeta);
    const Tensor m2 = tensor_arg(c, "mat2", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::addmm(m_self, m1, m2, beta, alpha), c));
  }
}

TEST(LinearTest, MatchesPyTorch) {
  const auto cases = cases_of("linear.golden", "linear");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor input = tensor_arg(c, "input");
    const Tensor weight = tensor_arg(c, "weight");
    const std::optional<Tensor> bias = optional_tensor_arg(c, "bias");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::linear(input, weight, bias); }, c.expect.error));
      continue;
    }
    EXPECT_TRUE(matches(aten::linear(input, weight, bias), c));
    // A composite: on meta tensors it runs the meta kernels of what it calls.
    const Tensor m_input = tensor_arg(c, "input", kMeta);
    const Tensor m_weight = tensor_arg(c, "weight", kMeta);
    const std::optional<Tensor> m_bias = optional_tensor_arg(c, "bias", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::linear(m_input, m_weight, m_bias), c));
  }
}

}  // namespace
}  // namespace sops::optest
