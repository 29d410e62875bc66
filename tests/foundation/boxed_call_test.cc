// The boxed calling convention, as an interpreter uses it: calls through an
// OperatorRegistry agree with the unboxed API and fill in defaults; wrong values and
// unknown names are errors naming the operator and the argument.
#include <string>
#include <string_view>
#include <vector>

#include "tests/foundation/boxed_test_util.h"

namespace boxed_test {
namespace {

// ---------------------------------------------------------------------------------
// (a) Calls agree with the unboxed API.

TEST_F(DemoRegistry, RegistersEveryOperatorOfTheLibrary) {
  EXPECT_EQ(registry_.size(), 4u);
  EXPECT_EQ(registry_.operator_names(),
            (std::vector<std::string_view>{"aten::add.Tensor", "aten::add.out", "aten::add_.Tensor",
                                           "aten::relu"}));
  const sops::RegisteredOperator* relu = registry_.find("aten::relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->name(), "aten::relu");
  EXPECT_EQ(relu->library().name, "demo_ops");
  EXPECT_EQ(relu->library().source, kDemoYaml);
  EXPECT_NE(relu->kernel(), nullptr);
}

TEST_F(DemoRegistry, FunctionalCallEqualsTheUnboxedApi) {
  const Tensor a = floats({1, -2, 3});
  const Tensor b = floats({10, 20, 30});
  Stack stack{a, b, 2};
  call("aten::add.Tensor", stack);
  ASSERT_EQ(stack.size(), 1u);  // the arguments are replaced by the one return
  const Tensor boxed = stack[0].to_tensor();
  EXPECT_EQ(elements<float>(boxed), elements<float>(demo::ops::add(a, b, 2)));
  EXPECT_EQ(elements<float>(boxed), (std::vector<float>{21, 38, 63}));
  // The inputs are unchanged.
  EXPECT_EQ(elements<float>(a), (std::vector<float>{1, -2, 3}));

  Stack relu{a};
  call("aten::relu", relu);
  ASSERT_EQ(relu.size(), 1u);
  EXPECT_EQ(elements<float>(relu[0].to_tensor()), elements<float>(demo::ops::relu(a)));
}

TEST_F(DemoRegistry, ScalarArgumentsAcceptIntsFloatsAndBools) {
  const Tensor a = floats({1, 2});
  const Tensor b = floats({4, 8});
  for (const Value& alpha : {Value(2), Value(0.5), Value(true), Value(sops::Scalar(3))}) {
    Stack stack{a, b, alpha};
    call("aten::add.Tensor", stack);
    ASSERT_EQ(stack.size(), 1u) << alpha;
    const sops::Scalar expected = alpha.is_int()      ? sops::Scalar(alpha.to_int())
                                  : alpha.is_double() ? sops::Scalar(alpha.to_double())
                                  : alpha.is_bool()   ? sops::Scalar(alpha.to_bool())
                                                      : alpha.to_scalar();
    EXPECT_EQ(elements<float>(stack[0].to_tensor()),
              elements<float>(demo::ops::add(a, b, expected)))
        << alpha;
  }
}

TEST_F(DemoRegistry, TrailingDefaultsAreFilledIn) {
  const Tensor a = floats({1, 2});
  const Tensor b = floats({10, 20});
  Stack stack{a, b};  // alpha=1 left out
  call("aten::add.Tensor", stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), elements<float>(demo::ops::add(a, b)));
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), (std::vector<float>{11, 22}));

  // check_arguments alone fills the stack in without calling the kernel.
  Stack checked{a, b};
  registry_.find_or_throw("aten::add.Tensor").check_arguments(checked);
  ASSERT_EQ(checked.size(), 3u);
  EXPECT_EQ(checked[2].tag(), Value::Tag::Int);
  EXPECT_EQ(checked[2].to_int(), 1);
}

TEST_F(DemoRegistry, OutVariantReturnsTheOutTensor) {
  const Tensor a = floats({1, 2, 3});
  const Tensor b = floats({1, 1, 1});
  const Tensor out = sops::empty({0}, sops::TensorOptions());  // resized by the kernel
  Stack stack{a, b, 3, out};
  call("aten::add.out", stack);
  ASSERT_EQ(stack.size(), 1u);
  const Tensor& result = stack[0].to_tensor();
  EXPECT_TRUE(result.is_same(out));
  EXPECT_TRUE(result.is_alias_of(out));
  EXPECT_EQ(elements<float>(out), (std::vector<float>{4, 5, 6}));

  Tensor unboxed_out = sops::empty({0}, sops::TensorOptions());
  demo::ops::add_out(unboxed_out, a, b, 3);
  EXPECT_EQ(elements<float>(out), elements<float>(unboxed_out));
}

TEST_F(DemoRegistry, InplaceVariantReturnsSelf) {
  const Tensor self = floats({1, 2});
  const Tensor other = floats({5, 5});
  const void* storage = self.data_ptr();
  Stack stack{self, other};  // alpha defaults to 1
  call("aten::add_.Tensor", stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].to_tensor().is_same(self));
  EXPECT_EQ(stack[0].to_tensor().data_ptr(), storage);
  EXPECT_EQ(elements<float>(self), (std::vector<float>{6, 7}));
}

TEST_F(BoxedRegistry, FixedSizeListsAndTheirDefaults) {
  const Tensor x = floats({0});
  // kernel_size only: stride=[] (empty), padding=0 (as [0, 0]), ceil_mode=False.
  Stack stack{x, std::vector<int64_t>{3, 2}};
  call("boxed::window", stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(elements<double>(stack[0].to_tensor()),
            (std::vector<double>{3, 2, 0, -1, -1, 0, 0, 0}));
  EXPECT_EQ(elements<double>(stack[0].to_tensor()),
            elements<double>(boxed::ops::window(x, {3, 2})));

  // One int for an int[2] is repeated; every argument given.
  Stack all{x, 3, std::vector<int64_t>{1, 2}, 1, true};
  call("boxed::window", all);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(elements<double>(all[0].to_tensor()), (std::vector<double>{3, 3, 2, 1, 2, 1, 1, 1}));
  EXPECT_EQ(elements<double>(all[0].to_tensor()),
            elements<double>(boxed::ops::window(x, {3, 3}, {1, 2}, {1, 1}, true)));
}

TEST_F(BoxedRegistry, KeywordOnlyDefaultsOfEveryKind) {
  const Tensor x = floats({0});
  Stack defaults{x};
  call("aten::describe", defaults);
  ASSERT_EQ(defaults.size(), 1u);
  // mode='mean', eps=1e-05, dim=-1, dtype=None, mask=[True,False,True]
  EXPECT_EQ(elements<double>(defaults[0].to_tensor()),
            (std::vector<double>{1, 1e-05, -1, -1, 1, 0, 1}));
  EXPECT_EQ(elements<double>(defaults[0].to_tensor()), elements<double>(boxed::ops::describe(x)));

  // Every argument given; an int for a float.
  Stack given{x, "sum", 2, 0, sops::ScalarType::Float, std::vector<bool>{false, true, false}};
  call("aten::describe", given);
  ASSERT_EQ(given.size(), 1u);
  const double float_code = static_cast<int>(sops::ScalarType::Float);
  EXPECT_EQ(elements<double>(given[0].to_tensor()),
            (std::vector<double>{2, 2, 0, float_code, 0, 1, 0}));
  EXPECT_EQ(elements<double>(given[0].to_tensor()),
            elements<double>(boxed::ops::describe(x, "sum", 2.0, 0, sops::ScalarType::Float,
                                                  {false, true, false})));
}

TEST_F(BoxedRegistry, TupleReturnsArePushedOneByOne) {
  const Tensor x = floats({1, 2});
  Stack stack{x};  // scale=2.5
  call("aten::pair", stack);
  ASSERT_EQ(stack.size(), 2u);  // two values, not one tuple
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), (std::vector<float>{2.5, 5}));
  EXPECT_EQ(elements<float>(stack[1].to_tensor()), (std::vector<float>{3.5, 4.5}));
  const auto [first, second] = boxed::ops::pair(x);
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), elements<float>(first));
  EXPECT_EQ(elements<float>(stack[1].to_tensor()), elements<float>(second));
}

TEST_F(BoxedRegistry, OutVariantWithTwoOutsReturnsBoth) {
  const Tensor x = floats({1, 2});
  const Tensor first = sops::empty({0}, sops::TensorOptions());
  const Tensor second = sops::empty({0}, sops::TensorOptions());
  // Exactly as many slots as values: pushing the returns reallocates the stack, while
  // the kernel's returns are references to the out= tensors on it.
  Stack stack{x, 2, first, second};
  stack.shrink_to_fit();
  call("aten::pair.out", stack);
  ASSERT_EQ(stack.size(), 2u);
  ASSERT_TRUE(stack[0].is_tensor());
  ASSERT_TRUE(stack[1].is_tensor());
  EXPECT_TRUE(stack[0].to_tensor().is_same(first));
  EXPECT_TRUE(stack[1].to_tensor().is_same(second));
  EXPECT_EQ(elements<float>(first), (std::vector<float>{2, 4}));
  EXPECT_EQ(elements<float>(second), (std::vector<float>{3, 4}));
}

TEST_F(BoxedRegistry, TheLibraryThatRegisteredAnOperatorRunsIt) {
  // boxed_ops's relu (a constant 42), not demo_ops's.
  Stack stack{floats({-1, 1})};
  call("aten::relu", stack);
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), (std::vector<float>{42, 42}));
  EXPECT_EQ(registry_.find_or_throw("aten::relu").library().name, "boxed_ops");
}

TEST(GlobalRegistry, RegisterWithoutARegistryFillsTheGlobalOne) {
  ASSERT_EQ(OperatorRegistry::global().find("aten::add.out"), nullptr);
  demo::ops::register_demo_ops_kernels();
  const sops::RegisteredOperator* add = OperatorRegistry::global().find("aten::add.out");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->library().name, "demo_ops");
  Stack stack{floats({1}), floats({2})};
  OperatorRegistry::global().find_or_throw("aten::add.Tensor").call(stack);
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), (std::vector<float>{3}));
}

// ---------------------------------------------------------------------------------
// (b) Wrong values: errors name the operator and the argument.

TEST_F(DemoRegistry, TooManyValuesNameTheOperator) {
  const Tensor a = floats({1});
  Stack stack{a, a, 1, 2};
  const sops::Error e = error_of([&] { call("aten::add.Tensor", stack); });
  EXPECT_EQ(e.op(), "aten::add.Tensor");
  const std::string what = e.what();
  EXPECT_CONTAINS(what, "aten::add.Tensor");
  EXPECT_CONTAINS(what, "at most 3 arguments (self, other, alpha) but got 4");
}

TEST_F(DemoRegistry, AMissingArgumentWithoutDefaultIsNamed) {
  Stack stack{floats({1})};
  const sops::Error e = error_of([&] { call("aten::add.Tensor", stack); });
  EXPECT_EQ(e.op(), "aten::add.Tensor");
  EXPECT_EQ(e.argument(), "other");
  const std::string what = e.what();
  EXPECT_CONTAINS(what, "aten::add.Tensor");
  EXPECT_CONTAINS(what, "missing argument 'other'");

  // An out= argument has no default either.
  const Tensor a = floats({1});
  Stack out_missing{a, a, 1};
  const sops::Error out = error_of([&] { call("aten::add.out", out_missing); });
  EXPECT_EQ(out.argument(), "out");
  EXPECT_CONTAINS(std::string(out.what()), "aten::add.out");
  EXPECT_CONTAINS(std::string(out.what()), "missing argument 'out'");

  Stack empty;
  const sops::Error none = error_of([&] { call("aten::relu", empty); });
  EXPECT_EQ(none.argument(), "self");
  EXPECT_CONTAINS(std::string(none.what()), "aten::relu");
}

TEST_F(DemoRegistry, AValueOfTheWrongTypeIsNamed) {
  const Tensor a = floats({1});
  Stack stack{a, 3};  // an int where `other` (a Tensor) goes
  const sops::Error e = error_of([&] { call("aten::add.Tensor", stack); });
  EXPECT_EQ(e.op(), "aten::add.Tensor");
  EXPECT_EQ(e.argument(), "other");
  const std::string what = e.what();
  EXPECT_CONTAINS(what, "aten::add.Tensor");
  EXPECT_CONTAINS(what, "'other'");
  EXPECT_CONTAINS(what, "expected a value of type Tensor");
  EXPECT_CONTAINS(what, "but got int");

  Stack none_self{Value(), a};  // Tensor is not optional
  const sops::Error n = error_of([&] { call("aten::add.Tensor", none_self); });
  EXPECT_EQ(n.argument(), "self");
  EXPECT_CONTAINS(std::string(n.what()), "but got None");

  Stack bad_alpha{a, a, "two"};
  const sops::Error s = error_of([&] { call("aten::add.Tensor", bad_alpha); });
  EXPECT_EQ(s.argument(), "alpha");
  EXPECT_CONTAINS(std::string(s.what()), "expected a value of type Scalar");
  EXPECT_CONTAINS(std::string(s.what()), "but got str");

  Stack bad_out{a, a, 1, std::vector<int64_t>{1}};
  const sops::Error o = error_of([&] { call("aten::add.out", bad_out); });
  EXPECT_EQ(o.op(), "aten::add.out");
  EXPECT_EQ(o.argument(), "out");
}

TEST_F(BoxedRegistry, WrongValuesOfOtherTypesAreNamed) {
  const Tensor x = floats({0});
  Stack float_for_ints{x, 2.5};
  const sops::Error e = error_of([&] { call("boxed::window", float_for_ints); });
  EXPECT_EQ(e.op(), "boxed::window");
  EXPECT_EQ(e.argument(), "kernel_size");
  EXPECT_CONTAINS(std::string(e.what()), "int[2]");
  EXPECT_CONTAINS(std::string(e.what()), "but got float");

  Stack float_for_int{x, "mean", 1e-5, 1.5};
  const sops::Error d = error_of([&] { call("aten::describe", float_for_int); });
  EXPECT_EQ(d.argument(), "dim");

  // A list of the wrong length is found by the wrapper; the error still names the
  // operator.
  Stack short_mask{x, "mean", 1e-5, 0, Value(), std::vector<bool>{true}};
  const sops::Error m = error_of([&] { call("aten::describe", short_mask); });
  EXPECT_EQ(m.op(), "aten::describe");
  EXPECT_CONTAINS(std::string(m.what()), "aten::describe");
  EXPECT_CONTAINS(std::string(m.what()), "3 bools");
}

// ---------------------------------------------------------------------------------
// (c) Unknown names.

TEST_F(DemoRegistry, UnknownNamesListTheCloseOverloads) {
  EXPECT_EQ(registry_.find("aten::add"), nullptr);
  EXPECT_EQ(registry_.find("add.Tensor"), nullptr);  // the namespace is part of the name

  for (const std::string_view name : {"aten::add", "aten::add.Scalar"}) {
    const std::string what = error_of([&] { registry_.find_or_throw(name); }).what();
    EXPECT_CONTAINS(what, "unknown operator '" + std::string(name) + "'");
    EXPECT_CONTAINS(what, "registered overloads: aten::add.Tensor, aten::add.out");
    EXPECT_FALSE(contains(what, "add_")) << what;  // another name, not an overload
  }

  const std::string none = error_of([&] { registry_.find_or_throw("aten::sub.Tensor"); }).what();
  EXPECT_CONTAINS(none, "unknown operator 'aten::sub.Tensor'");
  EXPECT_CONTAINS(none, "no library registered it");
  EXPECT_FALSE(contains(none, "registered overloads")) << none;
}

}  // namespace
}  // namespace boxed_test
