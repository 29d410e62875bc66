// The boxed calling convention, as an interpreter uses it: generated libraries
// (demo_ops, boxed_ops) register their unboxing wrappers and schemas into an
// OperatorRegistry, and calls through it agree with the unboxed API, fill in defaults,
// check their values, and name the operator and argument when they are wrong. Two
// libraries that declare one operator cannot both register it.
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "boxed_ops/Functions.h"
#include "boxed_ops/UnboxingFunctions.h"
#include "demo_ops/Functions.h"
#include "demo_ops/UnboxingFunctions.h"
#include "runtime/error.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"

namespace {

using sops::OperatorRegistry;
using sops::Stack;
using sops::Tensor;
using sops::Value;

constexpr std::string_view kDemoYaml = "tests/foundation/testdata/demo_ops.yaml";
constexpr std::string_view kBoxedYaml = "tests/foundation/testdata/boxed_ops.yaml";

Tensor floats(std::initializer_list<float> values) {
  Tensor t = sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions());
  float* data = t.data_ptr<float>();
  for (float v : values) *data++ = v;
  return t;
}

template <typename T>
std::vector<T> elements(const Tensor& t) {
  const T* data = t.data_ptr<T>();
  return std::vector<T>(data, data + t.numel());
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_TRUE(contains((text), (part))) << "expected \"" << (part) << "\" in: " << (text)

// The sops::Error that f throws (a test failure if none).
template <typename F>
sops::Error error_of(F&& f) {
  try {
    f();
  } catch (const sops::Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a sops::Error";
  return sops::Error("no error");
}

// A registry holding demo_ops (add.Tensor, add_.Tensor, add.out, relu).
class DemoRegistry : public ::testing::Test {
 protected:
  void SetUp() override { demo::ops::register_demo_ops_kernels(registry_); }

  // Calls `name` on `stack` through the registry.
  void call(std::string_view name, Stack& stack) const { registry_.find_or_throw(name).call(stack); }

  OperatorRegistry registry_;
};

// A registry holding boxed_ops (relu, boxed::window, describe, pair, pair.out).
class BoxedRegistry : public DemoRegistry {
 protected:
  void SetUp() override { boxed::ops::register_boxed_ops_kernels(registry_); }
};

// ---------------------------------------------------------------------------------
// (a) Calls agree with the unboxed API.

TEST_F(DemoRegistry, RegistersEveryOperatorOfTheLibrary) {
  EXPECT_EQ(registry_.size(), 4u);
  EXPECT_EQ(registry_.operator_names(),
            (std::vector<std::string_view>{"aten::add.Tensor", "aten::add.out",
                                           "aten::add_.Tensor", "aten::relu"}));
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

// ---------------------------------------------------------------------------------
// (d) One operator, two registrations.

TEST(DuplicateRegistration, TwoLibrariesDeclaringOneOperator) {
  OperatorRegistry registry;
  demo::ops::register_demo_ops_kernels(registry);
  ASSERT_EQ(registry.size(), 4u);
  const sops::Error e = error_of([&] { boxed::ops::register_boxed_ops_kernels(registry); });
  EXPECT_EQ(e.op(), "aten::relu");
  const std::string what = e.what();
  EXPECT_CONTAINS(what, "aten::relu");
  EXPECT_CONTAINS(what, "'demo_ops'");
  EXPECT_CONTAINS(what, "'boxed_ops'");
  EXPECT_CONTAINS(what, kDemoYaml);
  EXPECT_CONTAINS(what, kBoxedYaml);
  EXPECT_CONTAINS(what, "namespace");
  EXPECT_CONTAINS(what, "my_ops::relu");

  // All or nothing: none of boxed_ops's operators is registered, not even those
  // that came before relu in its table; relu is still demo_ops's.
  EXPECT_EQ(registry.size(), 4u);
  EXPECT_EQ(registry.find("boxed::window"), nullptr);
  EXPECT_EQ(registry.find("aten::describe"), nullptr);
  EXPECT_EQ(registry.find("aten::pair"), nullptr);
  EXPECT_EQ(registry.find_or_throw("aten::relu").library().name, "demo_ops");
  Stack stack{floats({-1, 1})};
  registry.find_or_throw("aten::relu").call(stack);
  EXPECT_EQ(elements<float>(stack[0].to_tensor()), (std::vector<float>{0, 1}));
}

TEST(DuplicateRegistration, EitherOrderNamesBothLibraries) {
  OperatorRegistry registry;
  boxed::ops::register_boxed_ops_kernels(registry);
  const std::size_t size = registry.size();
  const std::string what = error_of([&] { demo::ops::register_demo_ops_kernels(registry); }).what();
  EXPECT_CONTAINS(what, "aten::relu");
  EXPECT_CONTAINS(what, "'boxed_ops'");
  EXPECT_CONTAINS(what, "'demo_ops'");
  EXPECT_CONTAINS(what, kDemoYaml);
  EXPECT_CONTAINS(what, kBoxedYaml);
  EXPECT_EQ(registry.size(), size);
  EXPECT_EQ(registry.find("aten::add.Tensor"), nullptr);
}

TEST(DuplicateRegistration, TheSameLibraryTwice) {
  OperatorRegistry registry;
  demo::ops::register_demo_ops_kernels(registry);
  const sops::Error e = error_of([&] { demo::ops::register_demo_ops_kernels(registry); });
  const std::string what = e.what();
  EXPECT_FALSE(e.op().empty());
  EXPECT_CONTAINS(what, e.op());
  EXPECT_CONTAINS(what, "registered twice");
  EXPECT_CONTAINS(what, "'demo_ops'");
  EXPECT_CONTAINS(what, kDemoYaml);
  EXPECT_CONTAINS(what, "register_<library>_kernels() called twice");
  EXPECT_EQ(registry.size(), 4u);
}

TEST(DuplicateRegistration, SeparateRegistriesAreIndependent) {
  OperatorRegistry demo_registry;
  OperatorRegistry boxed_registry;
  demo::ops::register_demo_ops_kernels(demo_registry);
  boxed::ops::register_boxed_ops_kernels(boxed_registry);
  EXPECT_EQ(demo_registry.find_or_throw("aten::relu").library().name, "demo_ops");
  EXPECT_EQ(boxed_registry.find_or_throw("aten::relu").library().name, "boxed_ops");
}

void noop_kernel(Stack& /*stack*/) {}
constexpr sops::FunctionSchema kFirst{"test::first", "test", "first", "", {}, {}};
constexpr sops::FunctionSchema kSecond{"test::second", "test", "second", "", {}, {}};

TEST(DuplicateRegistration, AnOperatorTwiceInOneTable) {
  static constexpr sops::KernelLibrary library{"handmade", "handmade.yaml"};
  const sops::Kernel table[] = {{&kFirst, &noop_kernel}, {&kSecond, &noop_kernel},
                                {&kFirst, &noop_kernel}};
  OperatorRegistry registry;
  const sops::Error e = error_of([&] { registry.register_kernels(library, table); });
  EXPECT_EQ(e.op(), "test::first");
  EXPECT_CONTAINS(std::string(e.what()), "'handmade'");
  EXPECT_CONTAINS(std::string(e.what()), "handmade.yaml");
  EXPECT_EQ(registry.size(), 0u);
  EXPECT_EQ(registry.find("test::second"), nullptr);

  // Across the parts of one library's table (its shards) too.
  const sops::Kernel part0[] = {{&kFirst, &noop_kernel}};
  const sops::Kernel part1[] = {{&kSecond, &noop_kernel}, {&kFirst, &noop_kernel}};
  EXPECT_THROW(registry.register_kernels(library, {part0, part1}), sops::Error);
  EXPECT_EQ(registry.size(), 0u);

  // A table without duplicates registers, and an operator with no arguments is called.
  const sops::Kernel good[] = {{&kFirst, &noop_kernel}, {&kSecond, &noop_kernel}};
  registry.register_kernels(library, good);
  EXPECT_EQ(registry.size(), 2u);
  Stack stack;
  registry.find_or_throw("test::first").call(stack);
  EXPECT_TRUE(stack.empty());
  Stack extra{1};
  EXPECT_THROW(registry.find_or_throw("test::first").call(extra), sops::Error);
}

// ---------------------------------------------------------------------------------
// (e) Schemas as data.

// Each `- func:` of a yaml, as FunctionSchema::str() spells it (with its namespace).
std::vector<std::string> declared_schemas(std::string_view yaml) {
  std::ifstream in{std::string(yaml)};
  EXPECT_TRUE(in.good()) << "cannot read " << yaml;
  std::vector<std::string> schemas;
  std::string line;
  const std::string prefix = "- func: ";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::string schema = line.substr(prefix.size());
    if (schema.substr(0, schema.find('(')).find("::") == std::string::npos) {
      schema = "aten::" + schema;
    }
    schemas.push_back(schema);
  }
  return schemas;
}

void expect_schemas_match_yaml(const OperatorRegistry& registry, std::string_view yaml) {
  const std::vector<std::string> schemas = declared_schemas(yaml);
  ASSERT_EQ(schemas.size(), registry.size()) << yaml;
  for (const std::string& text : schemas) {
    const std::string name = text.substr(0, text.find('('));
    const sops::RegisteredOperator* op = registry.find(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->schema().str(), text);
    EXPECT_EQ(op->schema().full_name, name);
  }
}

TEST_F(DemoRegistry, SchemaTextIsTheYamls) {
  expect_schemas_match_yaml(registry_, kDemoYaml);
  EXPECT_EQ(registry_.find_or_throw("aten::add.out").schema().str(),
            "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> "
            "Tensor(a!)");
}

TEST_F(BoxedRegistry, SchemaTextIsTheYamls) {
  expect_schemas_match_yaml(registry_, kBoxedYaml);
  EXPECT_EQ(registry_.find_or_throw("aten::describe").schema().str(),
            "aten::describe(Tensor self, *, str mode='mean', float eps=1e-05, int dim=-1, "
            "ScalarType? dtype=None, bool[3] mask=[True,False,True]) -> Tensor");
  EXPECT_EQ(registry_.find_or_throw("aten::pair.out").schema().str(),
            "aten::pair.out(Tensor self, Scalar scale=2.5, *, Tensor(a!) first, Tensor(b!) "
            "second) -> (Tensor(a!) first, Tensor(b!) second)");
}

TEST_F(DemoRegistry, ArgumentsOfAnOutVariant) {
  const sops::FunctionSchema& s = registry_.find_or_throw("aten::add.out").schema();
  EXPECT_EQ(s.ns, "aten");
  EXPECT_EQ(s.name, "add");
  EXPECT_EQ(s.overload, "out");
  ASSERT_EQ(s.arguments.size(), 4u);
  ASSERT_EQ(s.returns.size(), 1u);

  const sops::ArgumentSchema& self = s.arguments[0];
  EXPECT_EQ(self.name, "self");
  EXPECT_FALSE(self.kwarg_only);
  EXPECT_FALSE(self.is_out);
  EXPECT_FALSE(self.has_default);
  EXPECT_TRUE(self.alias.empty());
  EXPECT_EQ(self.type.kind, sops::TypeSchema::Kind::Tensor);
  EXPECT_EQ(self.type.text, "Tensor");

  const sops::ArgumentSchema& alpha = s.arguments[2];
  EXPECT_EQ(alpha.name, "alpha");
  EXPECT_TRUE(alpha.kwarg_only);
  EXPECT_FALSE(alpha.is_out);
  EXPECT_TRUE(alpha.has_default);
  EXPECT_EQ(alpha.default_text, "1");
  EXPECT_EQ(alpha.type.kind, sops::TypeSchema::Kind::Scalar);
  EXPECT_EQ(alpha.default_value.to_value().to_int(), 1);

  const sops::ArgumentSchema& out = s.arguments[3];
  EXPECT_EQ(out.name, "out");
  EXPECT_TRUE(out.kwarg_only);
  EXPECT_TRUE(out.is_out);
  EXPECT_FALSE(out.has_default);
  EXPECT_EQ(out.alias, "a!");
  EXPECT_TRUE(out.is_write());
  EXPECT_EQ(out.type.text, "Tensor");  // the annotation is apart

  EXPECT_EQ(s.returns[0].alias, "a!");
  EXPECT_TRUE(s.returns[0].name.empty());
  EXPECT_EQ(s.argument_index("out"), 3);
  EXPECT_EQ(s.argument_index("self"), 0);
  EXPECT_EQ(s.argument_index("nope"), -1);

  // An inplace variant: self is written, not an out= argument.
  const sops::FunctionSchema& inplace = registry_.find_or_throw("aten::add_.Tensor").schema();
  EXPECT_EQ(inplace.name, "add_");
  EXPECT_EQ(inplace.arguments[0].alias, "a!");
  EXPECT_TRUE(inplace.arguments[0].is_write());
  EXPECT_FALSE(inplace.arguments[0].is_out);

  // The default overload has an empty overload name.
  const sops::FunctionSchema& relu = registry_.find_or_throw("aten::relu").schema();
  EXPECT_EQ(relu.name, "relu");
  EXPECT_EQ(relu.overload, "");
}

TEST_F(BoxedRegistry, ArgumentsOfListsOptionalsAndDefaults) {
  using Kind = sops::TypeSchema::Kind;
  const sops::FunctionSchema& window = registry_.find_or_throw("boxed::window").schema();
  EXPECT_EQ(window.ns, "boxed");
  EXPECT_EQ(window.name, "window");
  EXPECT_EQ(window.overload, "");
  ASSERT_EQ(window.arguments.size(), 5u);
  const sops::ArgumentSchema& kernel_size = window.arguments[1];
  EXPECT_EQ(kernel_size.type.kind, Kind::Int);
  EXPECT_TRUE(kernel_size.type.list);
  EXPECT_EQ(kernel_size.type.size, 2);
  EXPECT_FALSE(kernel_size.type.optional);
  EXPECT_EQ(kernel_size.type.text, "int[2]");
  EXPECT_FALSE(kernel_size.has_default);
  EXPECT_TRUE(kernel_size.type.accepts(Value(std::vector<int64_t>{1, 2})));
  EXPECT_TRUE(kernel_size.type.accepts(Value(3)));  // repeated
  EXPECT_FALSE(kernel_size.type.accepts(Value(2.5)));
  EXPECT_FALSE(kernel_size.type.accepts(Value()));

  const sops::ArgumentSchema& stride = window.arguments[2];
  EXPECT_EQ(stride.default_text, "[]");
  EXPECT_TRUE(stride.default_value.to_value().to_int_list().empty());
  const sops::ArgumentSchema& padding = window.arguments[3];
  EXPECT_EQ(padding.default_text, "0");
  EXPECT_EQ(padding.default_value.to_value().to_int_list(), (std::vector<int64_t>{0, 0}));
  EXPECT_FALSE(padding.kwarg_only);

  const sops::FunctionSchema& describe = registry_.find_or_throw("aten::describe").schema();
  ASSERT_EQ(describe.arguments.size(), 6u);
  EXPECT_FALSE(describe.arguments[0].kwarg_only);
  for (std::size_t i = 1; i < describe.arguments.size(); ++i) {
    EXPECT_TRUE(describe.arguments[i].kwarg_only) << describe.arguments[i].name;
    EXPECT_FALSE(describe.arguments[i].is_out) << describe.arguments[i].name;
    EXPECT_TRUE(describe.arguments[i].has_default) << describe.arguments[i].name;
  }
  const sops::ArgumentSchema& mode = describe.arguments[1];
  EXPECT_EQ(mode.type.kind, Kind::Str);
  EXPECT_EQ(mode.default_text, "'mean'");
  EXPECT_EQ(mode.default_value.to_value().to_string(), "mean");
  const sops::ArgumentSchema& eps = describe.arguments[2];
  EXPECT_EQ(eps.type.kind, Kind::Float);
  EXPECT_EQ(eps.default_text, "1e-05");
  EXPECT_EQ(eps.default_value.to_value().to_double(), 1e-05);
  EXPECT_TRUE(eps.type.accepts(Value(1)));  // an int for a float
  const sops::ArgumentSchema& dtype = describe.arguments[4];
  EXPECT_EQ(dtype.type.kind, Kind::ScalarType);
  EXPECT_TRUE(dtype.type.optional);
  EXPECT_EQ(dtype.type.text, "ScalarType?");
  EXPECT_EQ(dtype.default_text, "None");
  EXPECT_TRUE(dtype.default_value.to_value().is_none());
  EXPECT_TRUE(dtype.type.accepts(Value()));
  EXPECT_TRUE(dtype.type.accepts(Value(sops::ScalarType::Float)));
  const sops::ArgumentSchema& mask = describe.arguments[5];
  EXPECT_EQ(mask.type.kind, Kind::Bool);
  EXPECT_TRUE(mask.type.list);
  EXPECT_EQ(mask.type.size, 3);
  EXPECT_EQ(mask.type.text, "bool[3]");
  EXPECT_EQ(mask.default_text, "[True,False,True]");
  EXPECT_EQ(mask.default_value.to_value().to_bool_list(), (std::vector<bool>{true, false, true}));

  const sops::FunctionSchema& pair = registry_.find_or_throw("aten::pair.out").schema();
  ASSERT_EQ(pair.returns.size(), 2u);
  EXPECT_EQ(pair.returns[0].name, "first");
  EXPECT_EQ(pair.returns[0].alias, "a!");
  EXPECT_EQ(pair.returns[1].name, "second");
  EXPECT_EQ(pair.returns[1].alias, "b!");
  const sops::ArgumentSchema& scale = pair.arguments[1];
  EXPECT_FALSE(scale.kwarg_only);  // before the `*`
  EXPECT_EQ(scale.default_text, "2.5");
  EXPECT_EQ(scale.default_value.to_value().to_double(), 2.5);
  EXPECT_TRUE(pair.arguments[2].is_out);
  EXPECT_TRUE(pair.arguments[2].kwarg_only);
  EXPECT_TRUE(pair.arguments[3].is_out);
  EXPECT_EQ(pair.arguments[3].alias, "b!");
}

}  // namespace
