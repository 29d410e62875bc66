// result_type: the examples of PyTorch's "Type promotion" documentation
// (docs/source/tensor_attributes.rst), which a user would check us against.
#include "runtime/type_promotion.h"

#include <gtest/gtest.h>

#include "runtime/tensor.h"

namespace {

using sops::Tensor;

Tensor dimensioned(sops::ScalarType t) { return sops::empty({1}, t); }
Tensor zero_dim(sops::ScalarType t) { return sops::empty({}, t); }

TEST(ResultType, PyTorchDocumentationExamples) {
  const Tensor float_tensor = dimensioned(sops::kFloat);
  const Tensor double_tensor = dimensioned(sops::kDouble);
  const Tensor int_tensor = dimensioned(sops::kInt);
  const Tensor long_tensor = dimensioned(sops::kLong);
  const Tensor uint_tensor = dimensioned(sops::kByte);
  const Tensor bool_tensor = dimensioned(sops::kBool);
  const Tensor long_zerodim = zero_dim(sops::kLong);

  // torch.add(5, 5).dtype -> int64
  EXPECT_EQ(sops::result_type(sops::Scalar(5), sops::Scalar(5)), sops::kLong);
  // 5 is an int64 but not of a higher category than int_tensor.
  EXPECT_EQ(sops::result_type(int_tensor, sops::Scalar(5)), sops::kInt);
  EXPECT_EQ(sops::result_type(int_tensor, long_zerodim), sops::kInt);
  EXPECT_EQ(sops::result_type(long_tensor, int_tensor), sops::kLong);
  EXPECT_EQ(sops::result_type(bool_tensor, long_tensor), sops::kLong);
  EXPECT_EQ(sops::result_type(bool_tensor, uint_tensor), sops::kByte);
  EXPECT_EQ(sops::result_type(float_tensor, double_tensor), sops::kDouble);
  EXPECT_EQ(sops::result_type(bool_tensor, int_tensor), sops::kInt);
  // long is a different kind than float: the result only needs to hold the float.
  EXPECT_EQ(sops::result_type(long_tensor, float_tensor), sops::kFloat);
}

TEST(ResultType, NumbersCountOnlyWhenOfAHigherCategory) {
  const Tensor int_tensor = dimensioned(sops::kInt);
  const Tensor half_tensor = dimensioned(sops::kHalf);
  // A floating number makes an integral tensor the default dtype, float32.
  EXPECT_EQ(sops::result_type(int_tensor, sops::Scalar(2.5)), sops::kFloat);
  // ... and leaves a floating tensor's dtype alone.
  EXPECT_EQ(sops::result_type(half_tensor, sops::Scalar(2.5)), sops::kHalf);
  EXPECT_EQ(sops::result_type(dimensioned(sops::kBool), sops::Scalar(5)), sops::kLong);
  EXPECT_EQ(sops::result_type(sops::Scalar(1), sops::Scalar(1.0)), sops::kFloat);
  EXPECT_EQ(sops::result_type(sops::Scalar(true), sops::Scalar(false)), sops::kBool);
  // A wrapped-number tensor is a number.
  EXPECT_EQ(sops::result_type(int_tensor, sops::wrapped_scalar_tensor(2.5)), sops::kFloat);
  EXPECT_EQ(sops::result_type(dimensioned(sops::kByte), sops::wrapped_scalar_tensor(300)),
            sops::kByte);
}

TEST(ResultType, ZeroDimTensorsOfAHigherCategoryKeepTheirWidth) {
  EXPECT_EQ(sops::result_type(dimensioned(sops::kInt), zero_dim(sops::kDouble)), sops::kDouble);
  EXPECT_EQ(sops::result_type(dimensioned(sops::kFloat), zero_dim(sops::kDouble)), sops::kFloat);
  EXPECT_EQ(sops::result_type(zero_dim(sops::kInt), zero_dim(sops::kLong)), sops::kLong);
  EXPECT_EQ(sops::result_type(zero_dim(sops::kInt), sops::Scalar(2.0)), sops::kFloat);
  EXPECT_EQ(sops::result_type({dimensioned(sops::kByte), zero_dim(sops::kLong),
                               sops::wrapped_scalar_tensor(1.5)}),
            sops::kFloat);
}

TEST(ResultType, UndefinedTensorsAreIgnored) {
  EXPECT_EQ(sops::result_type(Tensor(), dimensioned(sops::kHalf)), sops::kHalf);
}

}  // namespace
