// The generated library of testdata/demo_ops.yaml: its operator table, and a call
// through each generated entry point (dispatcher, static, Meta).
#include <string_view>

#include <gtest/gtest.h>

#include "demo_ops/CPUFunctions.h"
#include "demo_ops/Functions.h"
#include "demo_ops/Operators.h"

namespace {

using demo::ops::find_operator;
using demo::ops::operator_schemas;
using sops::Tensor;

Tensor vector_of(std::initializer_list<float> values) {
  Tensor t = sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions());
  float* data = t.data_ptr<float>();
  for (float v : values) *data++ = v;
  return t;
}

TEST(OperatorRegistry, HoldsEveryDeclaredOperator) {
  EXPECT_EQ(operator_schemas().size(), 4u);
  // Merged once from the shards' tables: every call sees the same table.
  EXPECT_EQ(operator_schemas().data(), operator_schemas().data());
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
  const auto ops = operator_schemas();
  for (std::size_t i = 1; i < ops.size(); ++i) {
    const auto& a = ops[i - 1];
    const auto& b = ops[i];
    EXPECT_TRUE(a.name < b.name || (a.name == b.name && a.overload < b.overload))
        << a.name << "." << a.overload << " before " << b.name << "." << b.overload;
  }
}

TEST(GeneratedEntryPoints, DispatchedStaticAndOutVariantsAgree) {
  const Tensor a = vector_of({1, -2, 3});
  const Tensor b = vector_of({10, 20, 30});
  const Tensor dispatched = demo::ops::add(a, b, 2);
  const Tensor direct = demo::ops::cpu::add(a, b, 2);
  Tensor out = sops::empty({0}, sops::TensorOptions());
  demo::ops::add_out(out, a, b, 2);  // resized from 0 elements
  const float expected[] = {21, 38, 63};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(dispatched.data_ptr<float>()[i], expected[i]);
    EXPECT_EQ(direct.data_ptr<float>()[i], expected[i]);
    EXPECT_EQ(out.data_ptr<float>()[i], expected[i]);
  }
  const Tensor relu = demo::ops::relu(a);
  EXPECT_EQ(relu.data_ptr<float>()[1], 0.0f);
  EXPECT_EQ(relu.data_ptr<float>()[2], 3.0f);
}

TEST(GeneratedEntryPoints, MetaTensorsGetShapesWithoutData) {
  const auto meta = sops::TensorOptions().device(sops::Device(sops::DeviceType::Meta));
  const Tensor a = sops::empty({4, 1}, meta);
  const Tensor b = sops::empty({3}, meta.dtype(sops::ScalarType::Double));
  const Tensor c = demo::ops::add(a, b);
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(c.sizes().vec(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(c.scalar_type(), sops::ScalarType::Double);
}

TEST(GeneratedEntryPoints, ErrorsNameTheOperatorAndArgument) {
  Tensor out = sops::empty({3}, sops::TensorOptions().dtype(sops::ScalarType::Long));
  try {
    demo::ops::add_out(out, vector_of({1, 2, 3}), vector_of({1, 2, 3}));
    FAIL() << "an int64 out for a float32 result must be rejected";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.out");
    EXPECT_EQ(e.argument(), "out");
  }
}

}  // namespace
