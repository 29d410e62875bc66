// Schemas as data: each registered operator's FunctionSchema is its yaml's `- func:`,
// with every argument's type, default, keyword-only-ness and alias.
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "tests/foundation/boxed_test_util.h"

namespace boxed_test {
namespace {

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
}  // namespace boxed_test
