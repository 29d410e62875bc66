// Two libraries that declare one operator cannot both register it: the error names the
// operator, both libraries and their yamls, and nothing of the failed table stays.
#include <string>
#include <string_view>
#include <vector>

#include "tests/foundation/boxed_test_util.h"

namespace boxed_test {
namespace {

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
  const sops::Kernel table[] = {
      {&kFirst, &noop_kernel}, {&kSecond, &noop_kernel}, {&kFirst, &noop_kernel}};
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

}  // namespace
}  // namespace boxed_test
