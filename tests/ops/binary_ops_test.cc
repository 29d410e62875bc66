// add and mul against PyTorch: functional, inplace and out variants, static entry
// points, meta tensors, out= resizing and dtype errors.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

// One binary operator under test; alpha is ignored by mul.
struct BinaryOp {
  std::string name;  // "add" / "mul"
  std::function<Tensor(const Tensor&, const Tensor&, const Scalar&)> functional;
  std::function<Tensor(const Tensor&, const Tensor&, const Scalar&)> static_functional;
  std::function<Tensor&(Tensor&, const Tensor&, const Scalar&)> inplace;
  std::function<Tensor&(const Tensor&, const Tensor&, const Scalar&, Tensor&)> out;
};

BinaryOp add_op() {
  return {
      "add", [](const Tensor& a, const Tensor& b, const Scalar& s) { return aten::add(a, b, s); },
      [](const Tensor& a, const Tensor& b, const Scalar& s) { return aten::cpu::add(a, b, s); },
      [](Tensor& a, const Tensor& b, const Scalar& s) -> Tensor& { return aten::add_(a, b, s); },
      [](const Tensor& a, const Tensor& b, const Scalar& s, Tensor& o) -> Tensor& {
        return aten::add_outf(a, b, s, o);
      }};
}

BinaryOp mul_op() {
  return {"mul", [](const Tensor& a, const Tensor& b, const Scalar&) { return aten::mul(a, b); },
          [](const Tensor& a, const Tensor& b, const Scalar&) { return aten::cpu::mul(a, b); },
          [](Tensor& a, const Tensor& b, const Scalar&) -> Tensor& { return aten::mul_(a, b); },
          [](const Tensor& a, const Tensor& b, const Scalar&, Tensor& o) -> Tensor& {
            return aten::mul_outf(a, b, o);
          }};
}

Scalar alpha_of(const GoldenCase& c) {
  return c.find_arg("alpha") != nullptr ? scalar_arg(c, "alpha") : Scalar(1);
}

class BinaryOpTest : public ::testing::TestWithParam<std::string> {
 protected:
  BinaryOp op() const { return GetParam() == "add" ? add_op() : mul_op(); }
  std::string file() const { return GetParam() + ".golden"; }
};

TEST_P(BinaryOpTest, FunctionalMatchesPyTorchInEveryVariant) {
  const BinaryOp op = this->op();
  const std::string name = op.name + ".Tensor";
  const auto cases = cases_of(file(), name);
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor other = tensor_arg(c, "other");
    const Scalar alpha = alpha_of(c);
    if (c.is_error() || expects_unrepresentable(c)) {
      const std::string expected = c.is_error() ? c.expect.error : "int16";
      EXPECT_TRUE(throws_error([&] { op.functional(self, other, alpha); }, expected, name));
      continue;
    }
    const Tensor result = op.functional(self, other, alpha);
    EXPECT_TRUE(matches(result, c));
    // The static entry point computes the same.
    EXPECT_TRUE(same_result(op.static_functional(self, other, alpha), result));
    // out=: an empty out of the result dtype is resized.
    Tensor out = sops::empty({0}, dtype_of(c.expect.dtype));
    Tensor& returned = op.out(self, other, alpha, out);
    EXPECT_TRUE(returned.is_same(out));
    EXPECT_TRUE(matches(out, c));
    // ... and a right-sized one is written in place.
    Tensor sized = sops::empty(c.expect.sizes, dtype_of(c.expect.dtype));
    op.out(self, other, alpha, sized);
    EXPECT_TRUE(matches(sized, c));
    // Inplace, where self already has the result's shape and dtype.
    if (self.sizes() == IntArrayRef(c.expect.sizes) && self.scalar_type() == result.scalar_type()) {
      Tensor s = clone(self);
      Tensor& r = op.inplace(s, other, alpha);
      EXPECT_TRUE(r.is_same(s));
      EXPECT_TRUE(matches(s, c));
    }
    // Meta: right shape and dtype, no cpu memory touched.
    const Tensor meta_self = tensor_arg(c, "self", kMeta);
    const Tensor meta_other = tensor_arg(c, "other", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(op.functional(meta_self, meta_other, alpha), c));
  }
}

TEST_P(BinaryOpTest, OutVariantMatchesPyTorch) {
  const BinaryOp op = this->op();
  const std::string name = op.name + ".out";
  const auto cases = cases_of(file(), name);
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor other = tensor_arg(c, "other");
    Tensor out = tensor_arg(c, "out");
    const Scalar alpha = alpha_of(c);
    if (c.is_error() || expects_unrepresentable(c)) {
      const std::string expected = c.is_error() ? c.expect.error : "int16";
      EXPECT_TRUE(throws_error([&] { op.out(self, other, alpha, out); }, expected, name));
      continue;
    }
    const std::vector<int64_t> strides_before = out.strides().vec();
    const bool right_size = out.sizes() == IntArrayRef(c.expect.sizes);
    op.out(self, other, alpha, out);
    EXPECT_TRUE(matches(out, c));
    if (right_size) {
      EXPECT_EQ(out.strides().vec(), strides_before) << "a right-sized out keeps its strides";
    }
  }
}

TEST_P(BinaryOpTest, InplaceMatchesPyTorch) {
  const BinaryOp op = this->op();
  const std::string name = op.name + "_.Tensor";
  const auto cases = cases_of(file(), name);
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    Tensor self = tensor_arg(c, "self");
    const Tensor other = tensor_arg(c, "other");
    const Scalar alpha = alpha_of(c);
    if (c.is_error() || expects_unrepresentable(c)) {
      const std::string expected = c.is_error() ? c.expect.error : "int16";
      EXPECT_TRUE(throws_error([&] { op.inplace(self, other, alpha); }, expected, name));
      continue;
    }
    op.inplace(self, other, alpha);
    EXPECT_TRUE(matches(self, c, /*check_strides=*/true));
  }
}

TEST_P(BinaryOpTest, OutOfUncastableDtypeIsRejected) {
  const BinaryOp op = this->op();
  const Tensor a = sops::empty({2, 3}, kFloat);
  const Tensor b = sops::empty({2, 3}, kFloat);
  Tensor out = sops::empty({2, 3}, kLong);
  try {
    op.out(a, b, 1, out);
    ADD_FAILURE() << "a float result was written into an int64 out";
  } catch (const Error& e) {
    EXPECT_EQ(e.op(), op.name + ".out") << e.what();
    EXPECT_EQ(e.argument(), "out") << e.what();
  }
}

TEST_P(BinaryOpTest, OneElementFastPathAllocatesOnlyTheOutput) {
  const BinaryOp op = this->op();
  const Tensor a = sops::scalar_to_tensor(2.5);
  const Tensor b = sops::scalar_to_tensor(4.0);
  CountCpuAllocations allocations;
  const Tensor r = op.functional(a, b, 1);
  EXPECT_EQ(allocations.count(), 1);
  EXPECT_EQ(r.item<double>(), op.name == "add" ? 6.5 : 10.0);
}

INSTANTIATE_TEST_SUITE_P(AddMul, BinaryOpTest, ::testing::Values("add", "mul"));

}  // namespace
}  // namespace sops::optest
