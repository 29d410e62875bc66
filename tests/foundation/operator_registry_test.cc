// The generated operator registry holds what testdata/demo_ops.yaml declares.
#include "demo_ops/Operators.h"

#include <string_view>

#include <gtest/gtest.h>

namespace {

using demo::ops::find_operator;
using demo::ops::kOperators;

TEST(OperatorRegistry, HoldsEveryDeclaredOperator) {
  EXPECT_EQ(demo::ops::kNumOperators, 5u);
  EXPECT_EQ(kOperators.size(), 5u);
}

TEST(OperatorRegistry, FindsOperatorsByNameAndOverload) {
  const auto* add_out = find_operator("add", "out");
  ASSERT_NE(add_out, nullptr);
  EXPECT_EQ(add_out->schema,
            "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");

  const auto* relu = find_operator("relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->overload, "");
  EXPECT_EQ(relu->schema, "relu(Tensor self) -> Tensor");
}

TEST(OperatorRegistry, RejectsUnknownNamesAndOverloads) {
  EXPECT_EQ(find_operator("add"), nullptr);  // add has no default overload
  EXPECT_EQ(find_operator("add", "Scalar"), nullptr);
  EXPECT_EQ(find_operator("sub", "Tensor"), nullptr);
  EXPECT_EQ(find_operator(""), nullptr);
}

TEST(OperatorRegistry, IsSortedByNameThenOverload) {
  for (std::size_t i = 1; i < kOperators.size(); ++i) {
    const auto& a = kOperators[i - 1];
    const auto& b = kOperators[i];
    EXPECT_TRUE(a.name < b.name || (a.name == b.name && a.overload < b.overload))
        << a.name << "." << a.overload << " before " << b.name << "." << b.overload;
  }
}

}  // namespace
