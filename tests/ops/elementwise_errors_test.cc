// The element-wise operators' errors name the operator and the argument at fault (the
// golden runner checks PyTorch's message and the operator; this checks the argument),
// and a few results the golden data cannot hold (the Scalar overloads' promotion).
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

Tensor filled(std::initializer_list<double> values, ScalarType dtype) {
  Tensor t = sops::empty({static_cast<int64_t>(values.size())}, dtype);
  char* p = static_cast<char*>(t.data_ptr());
  std::size_t i = 0;
  for (double v : values) store_as<double>(p + (i++) * t.element_size(), dtype, v);
  return t;
}

// Runs f, which must throw a sops::Error naming `op` and `argument` whose message
// contains `message`.
::testing::AssertionResult names(const std::function<void()>& f, const std::string& op,
                                 const std::string& argument, const std::string& message) {
  try {
    f();
  } catch (const Error& e) {
    if (e.op() != op || e.argument() != argument ||
        e.message().find(message) == std::string::npos) {
      return ::testing::AssertionFailure() << "got \"" << e.what() << "\" (op '" << e.op()
                                           << "', argument '" << e.argument() << "')";
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

TEST(ElementwiseErrors, NameTheOperatorAndTheArgument) {
  const Tensor i64 = filled({1, 0, 2}, ScalarType::Long);
  const Tensor f32 = filled({1, 0, 2}, ScalarType::Float);
  const Tensor b = filled({1, 0, 1}, ScalarType::Bool);
  EXPECT_TRUE(names([&] { aten::div(i64, i64, std::string_view("floor")); }, "div.Tensor_mode",
                    "other", "ZeroDivisionError"));
  EXPECT_TRUE(names([&] { aten::div(f32, f32, std::string_view("round")); }, "div.Tensor_mode",
                    "rounding_mode", "div expected rounding_mode to be one of None"));
  EXPECT_TRUE(names([&] { aten::sub(b, b); }, "sub.Tensor", "self",
                    "Subtraction, the `-` operator, with two bool tensors is not supported."));
  EXPECT_TRUE(names([&] { aten::neg(b); }, "neg", "self", "Negation, the `-` operator"));
  EXPECT_TRUE(
      names([&] { aten::silu(i64); }, "silu", "self", "\"silu_cpu\" not implemented for 'Long'"));
  EXPECT_TRUE(names([&] { aten::gelu(f32, "erf"); }, "gelu", "approximate",
                    "approximate argument must be either none or tanh."));
  EXPECT_TRUE(names([&] { aten::where(f32, f32, f32); }, "where.self", "condition",
                    "where expected condition to be a boolean tensor"));
  EXPECT_TRUE(names([&] { aten::pow(i64, Scalar(int64_t{-1})); }, "pow.Tensor_Scalar", "exponent",
                    "Integers to negative integer powers are not allowed."));
  EXPECT_TRUE(names([&] { aten::clamp(f32, std::optional<Scalar>(), std::optional<Scalar>()); },
                    "clamp", "min", "At least one of 'min' or 'max' must not be None"));
  Tensor out = sops::empty({3}, ScalarType::Double);
  EXPECT_TRUE(names([&] { aten::neg_out(out, f32); }, "neg.out", "out",
                    "Found dtype Double but expected Float"));
}

// A Scalar promotes as a Python number: int64 tensor + 2 stays int64, + 2.5 is float32;
// a float64 number with a float32 tensor stays float32.
TEST(ElementwiseScalarOverloads, PromoteAsNumbers) {
  const Tensor i64 = filled({1, 2, 3}, ScalarType::Long);
  const Tensor f32 = filled({1, 2, 3}, ScalarType::Float);
  EXPECT_EQ(aten::add(i64, Scalar(int64_t{2})).scalar_type(), ScalarType::Long);
  EXPECT_EQ(aten::add(i64, Scalar(2.5)).scalar_type(), ScalarType::Float);
  EXPECT_EQ(aten::mul(f32, Scalar(2.5)).scalar_type(), ScalarType::Float);
  EXPECT_EQ(aten::div(i64, Scalar(int64_t{2})).scalar_type(), ScalarType::Float);
  EXPECT_EQ(aten::div(i64, Scalar(int64_t{2}), std::string_view("floor")).scalar_type(),
            ScalarType::Long);
  EXPECT_EQ(aten::eq(i64, Scalar(2.0)).scalar_type(), ScalarType::Bool);
  // On meta tensors the wrapped number is made on meta: no cpu memory is touched.
  const Tensor meta = sops::empty({3}, TensorOptions(ScalarType::Long).device(kMeta));
  NoCpuAllocations no_cpu;
  EXPECT_EQ(aten::sub(meta, Scalar(1.5)).scalar_type(), ScalarType::Float);
  EXPECT_EQ(aten::lt(meta, Scalar(int64_t{1})).scalar_type(), ScalarType::Bool);
}

}  // namespace
}  // namespace sops::optest
