// The kernels that `autogen:` writes, as a user calls them: out= variants of operators
// with tuple and list returns, and the functional and out= variants of a mutable
// operator. They copy with //ops:aten's copy_ (autogen_ops.yaml declares none).
#include <gtest/gtest.h>

#include <vector>

#include "autogen_ops/Functions.h"

namespace {

using sops::Tensor;

Tensor floats(std::vector<float> values) {
  Tensor t = sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions(sops::kFloat));
  std::copy(values.begin(), values.end(), t.data_ptr<float>());
  return t;
}

std::vector<float> values(const Tensor& t) {
  return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
}

TEST(Autogen, OutVariantOfATupleReturnResizesAndFillsEachOut) {
  Tensor lo = floats({7, 7, 7});  // wrong size: resized to the 0-d result
  Tensor hi = floats({});
  auto [a, b] = autogen_ops::minmax_out(lo, hi, floats({3, -2, 5}));
  EXPECT_EQ(&a, &lo);
  EXPECT_EQ(&b, &hi);
  EXPECT_EQ(lo.dim(), 0);
  EXPECT_EQ(lo.item<float>(), -2.0f);
  EXPECT_EQ(hi.item<float>(), 5.0f);
}

// As PyTorch's generated out= kernels: an out of another dtype than the result is
// refused, not converted.
TEST(Autogen, OutVariantRefusesAnOutOfAnotherDtype) {
  Tensor lo = floats({0});
  Tensor hi = sops::empty({0}, sops::TensorOptions(sops::kDouble));
  try {
    autogen_ops::minmax_out(lo, hi, floats({3, -2, 5}));
    FAIL() << "expected an error";
  } catch (const sops::Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "Expected out tensor to have dtype float, but got double instead"),
              std::string::npos)
        << e.what();
  }
}

TEST(Autogen, OutVariantOfAListReturnFillsEveryOut) {
  std::vector<Tensor> outs = {floats({0}), floats({0, 0, 0, 0})};
  autogen_ops::halves_out(outs, floats({1, 2, 3, 4, 5}));
  EXPECT_EQ(values(outs[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(values(outs[1]), (std::vector<float>{3, 4, 5}));
}

TEST(Autogen, OutVariantOfAListReturnRefusesTheWrongNumberOfOuts) {
  std::vector<Tensor> outs = {floats({0})};
  try {
    autogen_ops::halves_out(outs, floats({1, 2}));
    FAIL() << "expected an error";
  } catch (const sops::Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected 2 out= tensors, got 1"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("halves.out"), std::string::npos) << e.what();
  }
}

TEST(Autogen, FunctionalVariantOfAMutableOperatorLeavesItsInputsAlone) {
  Tensor self = floats({1, 2});
  Tensor total = floats({10, 20});
  auto [result, new_total] = autogen_ops::running_add_functional(self, total);
  EXPECT_EQ(values(result), (std::vector<float>{11, 22}));
  EXPECT_EQ(values(new_total), (std::vector<float>{11, 22}));
  EXPECT_EQ(values(total), (std::vector<float>{10, 20}));  // untouched
}

TEST(Autogen, OutVariantOfAMutableOperatorWritesTheOutAndTheMutatedInput) {
  Tensor total = floats({10, 20});
  Tensor out = floats({});
  Tensor& r = autogen_ops::running_add_out(out, floats({1, 2}), total);
  EXPECT_EQ(&r, &out);
  EXPECT_EQ(values(out), (std::vector<float>{11, 22}));
  EXPECT_EQ(values(total), (std::vector<float>{11, 22}));  // as the mutable operator would
}

}  // namespace
