// sops::Value (runtime/value.h): every kind of boxed value round-trips through its
// constructor, tag, accessor and type name; optionals box to None or their value; an
// accessor of the wrong kind is a sops::Error naming both types; values print readably.
#include "runtime/value.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/error.h"

namespace {

using sops::Value;
using Tag = sops::Value::Tag;

sops::Tensor floats(std::vector<float> values) {
  sops::Tensor t = sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions());
  for (std::size_t i = 0; i < values.size(); ++i) t.data_ptr<float>()[i] = values[i];
  return t;
}

std::string printed(const Value& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// The message of the sops::Error that f throws ("" and a test failure if none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const sops::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a sops::Error";
  return "";
}

void expect_kind(const Value& v, Tag tag, std::string_view type_name) {
  EXPECT_EQ(v.tag(), tag) << type_name;
  EXPECT_EQ(v.type_name(), type_name);
  EXPECT_EQ(Value::tag_name(tag), type_name);
  EXPECT_EQ(v.is_none(), tag == Tag::None);
  EXPECT_EQ(v.is_tensor(), tag == Tag::Tensor);
  EXPECT_EQ(v.is_int(), tag == Tag::Int);
  EXPECT_EQ(v.is_double(), tag == Tag::Double);
  EXPECT_EQ(v.is_bool(), tag == Tag::Bool);
}

TEST(Value, NoneByDefaultAndFromNullopt) {
  expect_kind(Value(), Tag::None, "None");
  expect_kind(Value(std::nullopt), Tag::None, "None");
}

TEST(Value, TensorRoundTripsAsTheSameTensor) {
  const sops::Tensor t = floats({1, 2});
  const Value v(t);
  expect_kind(v, Tag::Tensor, "Tensor");
  EXPECT_TRUE(v.to_tensor().is_same(t));

  // Moving out of an rvalue Value hands over the same tensor.
  Value w(t);
  const sops::Tensor moved = std::move(w).to_tensor();
  EXPECT_TRUE(moved.is_same(t));
}

TEST(Value, EveryIntegerTypeIsAnInt) {
  expect_kind(Value(3), Tag::Int, "int");
  EXPECT_EQ(Value(3).to_int(), 3);
  EXPECT_EQ(Value(int64_t{-1} << 40).to_int(), int64_t{-1} << 40);
  EXPECT_EQ(Value(uint8_t{200}).to_int(), 200);
  EXPECT_EQ(Value(std::size_t{7}).to_int(), 7);
  EXPECT_EQ(Value(short{-5}).to_int(), -5);
}

TEST(Value, NumbersAndBools) {
  expect_kind(Value(2.5), Tag::Double, "float");
  EXPECT_EQ(Value(2.5).to_double(), 2.5);
  expect_kind(Value(1.5f), Tag::Double, "float");  // a float is a double, not a bool
  EXPECT_EQ(Value(1.5f).to_double(), 1.5);

  expect_kind(Value(true), Tag::Bool, "bool");
  EXPECT_TRUE(Value(true).to_bool());
  EXPECT_FALSE(Value(false).to_bool());
}

TEST(Value, StringsFromEveryStringType) {
  const std::string s = "reflect";
  for (const Value& v : {Value(s), Value(std::string_view(s)), Value("reflect")}) {
    expect_kind(v, Tag::String, "str");
    EXPECT_EQ(v.to_string(), "reflect");
  }
  EXPECT_EQ(Value("").to_string(), "");  // a string, not None
}

TEST(Value, ScalarsKeepTheirKind) {
  expect_kind(Value(sops::Scalar(2.5)), Tag::Scalar, "Scalar");
  EXPECT_TRUE(Value(sops::Scalar(2.5)).to_scalar().is_floating_point());
  EXPECT_EQ(Value(sops::Scalar(2.5)).to_scalar().to<double>(), 2.5);
  EXPECT_TRUE(Value(sops::Scalar(int64_t{4})).to_scalar().is_integral(false));
  EXPECT_EQ(Value(sops::Scalar(int64_t{4})).to_scalar().to<int64_t>(), 4);
  EXPECT_TRUE(Value(sops::Scalar(true)).to_scalar().is_boolean());
}

TEST(Value, Enums) {
  expect_kind(Value(sops::ScalarType::Half), Tag::ScalarType, "ScalarType");
  EXPECT_EQ(Value(sops::ScalarType::Half).to_scalar_type(), sops::ScalarType::Half);

  expect_kind(Value(sops::Layout::Sparse), Tag::Layout, "Layout");
  EXPECT_EQ(Value(sops::Layout::Sparse).to_layout(), sops::Layout::Sparse);

  expect_kind(Value(sops::MemoryFormat::ChannelsLast), Tag::MemoryFormat, "MemoryFormat");
  EXPECT_EQ(Value(sops::MemoryFormat::ChannelsLast).to_memory_format(),
            sops::MemoryFormat::ChannelsLast);

  const sops::Device cuda1(sops::DeviceType::CUDA, 1);
  expect_kind(Value(cuda1), Tag::Device, "Device");
  EXPECT_EQ(Value(cuda1).to_device(), cuda1);
}

TEST(Value, GeneratorIsShared) {
  const sops::Generator g = sops::make_cpu_generator(1234);
  const Value v(g);
  expect_kind(v, Tag::Generator, "Generator");
  EXPECT_TRUE(v.to_generator() == g);
  EXPECT_EQ(v.to_generator().current_seed(), 1234u);
}

TEST(Value, Lists) {
  const Value ints(std::vector<int64_t>{1, -2, 3});
  expect_kind(ints, Tag::IntList, "int[]");
  EXPECT_EQ(ints.to_int_list(), (std::vector<int64_t>{1, -2, 3}));
  expect_kind(Value(std::vector<int64_t>{}), Tag::IntList, "int[]");  // empty, not None

  const Value doubles(std::vector<double>{0.5, -1});
  expect_kind(doubles, Tag::DoubleList, "float[]");
  EXPECT_EQ(doubles.to_double_list(), (std::vector<double>{0.5, -1}));

  const Value bools(std::vector<bool>{true, false, true});
  expect_kind(bools, Tag::BoolList, "bool[]");
  EXPECT_EQ(bools.to_bool_list(), (std::vector<bool>{true, false, true}));

  const sops::Tensor a = floats({1});
  const sops::Tensor b = floats({2});
  const Value tensors(std::vector<sops::Tensor>{a, b});
  expect_kind(tensors, Tag::TensorList, "Tensor[]");
  ASSERT_EQ(tensors.to_tensor_list().size(), 2u);
  EXPECT_TRUE(tensors.to_tensor_list()[0].is_same(a));
  EXPECT_TRUE(tensors.to_tensor_list()[1].is_same(b));

  const Value optional_tensors(std::vector<std::optional<sops::Tensor>>{a, std::nullopt});
  expect_kind(optional_tensors, Tag::OptionalTensorList, "Tensor?[]");
  ASSERT_EQ(optional_tensors.to_optional_tensor_list().size(), 2u);
  EXPECT_TRUE(optional_tensors.to_optional_tensor_list()[0]->is_same(a));
  EXPECT_FALSE(optional_tensors.to_optional_tensor_list()[1].has_value());

  const Value scalars(std::vector<sops::Scalar>{1, 2.5});
  expect_kind(scalars, Tag::ScalarList, "Scalar[]");
  ASSERT_EQ(scalars.to_scalar_list().size(), 2u);
  EXPECT_EQ(scalars.to_scalar_list()[0].to<int64_t>(), 1);
  EXPECT_EQ(scalars.to_scalar_list()[1].to<double>(), 2.5);
}

TEST(Value, CopiesOfAListAreIndependent) {
  Value a(std::vector<int64_t>{1, 2});
  Value b = a;
  ASSERT_NE(b.get_if<std::vector<int64_t>>(), nullptr);
  b.get_if<std::vector<int64_t>>()->push_back(3);  // an interpreter filling a list in place
  EXPECT_EQ(a.to_int_list().size(), 2u);
  EXPECT_EQ(b.to_int_list(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(a.get_if<double>(), nullptr);  // not a float
}

TEST(Value, OptionalIsNoneOrTheValue) {
  expect_kind(Value(std::optional<int64_t>()), Tag::None, "None");
  expect_kind(Value(std::optional<int64_t>(5)), Tag::Int, "int");
  EXPECT_EQ(Value(std::optional<int64_t>(5)).to_int(), 5);
  EXPECT_EQ(Value(std::optional<int>(0)).to_int(), 0);  // 0 is a value, not None

  expect_kind(Value(std::optional<double>()), Tag::None, "None");
  EXPECT_EQ(Value(std::optional<double>(0.25)).to_double(), 0.25);

  expect_kind(Value(std::optional<bool>(false)), Tag::Bool, "bool");
  EXPECT_FALSE(Value(std::optional<bool>(false)).to_bool());

  expect_kind(Value(std::optional<std::string>()), Tag::None, "None");
  EXPECT_EQ(Value(std::optional<std::string>("x")).to_string(), "x");
  EXPECT_EQ(Value(std::optional<std::string_view>("y")).to_string(), "y");

  const sops::Tensor t = floats({3});
  expect_kind(Value(std::optional<sops::Tensor>()), Tag::None, "None");
  EXPECT_TRUE(Value(std::optional<sops::Tensor>(t)).to_tensor().is_same(t));

  expect_kind(Value(std::optional<sops::ScalarType>(sops::ScalarType::Long)), Tag::ScalarType,
              "ScalarType");
  expect_kind(Value(std::optional<sops::Device>()), Tag::None, "None");
  EXPECT_EQ(Value(std::optional<std::vector<int64_t>>(std::vector<int64_t>{4, 5})).to_int_list(),
            (std::vector<int64_t>{4, 5}));
  expect_kind(Value(std::optional<std::vector<int64_t>>()), Tag::None, "None");
}

TEST(Value, WrongAccessorThrowsNamingBothTypes) {
  EXPECT_EQ(error_of([] { Value(3).to_string(); }), "expected a value of type str but got int");
  EXPECT_EQ(error_of([] { Value("x").to_tensor(); }),
            "expected a value of type Tensor but got str");
  EXPECT_EQ(error_of([] { Value().to_int(); }), "expected a value of type int but got None");
  EXPECT_EQ(error_of([] { Value(2.5).to_int(); }), "expected a value of type int but got float");
  EXPECT_EQ(error_of([] { Value(1).to_double(); }), "expected a value of type float but got int");
  EXPECT_EQ(error_of([] { Value(1).to_bool(); }), "expected a value of type bool but got int");
  EXPECT_EQ(error_of([] { Value(std::vector<int64_t>{1}).to_double_list(); }),
            "expected a value of type float[] but got int[]");
  EXPECT_EQ(error_of([] { Value(std::vector<sops::Tensor>{}).to_optional_tensor_list(); }),
            "expected a value of type Tensor?[] but got Tensor[]");
  EXPECT_EQ(error_of([] { Value(std::vector<int64_t>{1}).to_tuple(); }),
            "expected a value of type tuple but got int[]");
  EXPECT_EQ(error_of([] { Value::tuple({}).to_int_list(); }),
            "expected a value of type int[] but got tuple");
  // An rvalue's accessor checks too.
  EXPECT_EQ(error_of([] { Value(7).to_tensor(); }), "expected a value of type Tensor but got int");
  EXPECT_EQ(error_of([] { std::move(Value(7)).to_tensor(); }),
            "expected a value of type Tensor but got int");
}

TEST(Value, EveryAccessorRejectsNone) {
  const Value none;
  const std::vector<std::pair<std::string, std::function<void()>>> accessors = {
      {"Tensor", [&] { none.to_tensor(); }},
      {"int", [&] { none.to_int(); }},
      {"float", [&] { none.to_double(); }},
      {"bool", [&] { none.to_bool(); }},
      {"str", [&] { none.to_string(); }},
      {"Scalar", [&] { none.to_scalar(); }},
      {"ScalarType", [&] { none.to_scalar_type(); }},
      {"Layout", [&] { none.to_layout(); }},
      {"Device", [&] { none.to_device(); }},
      {"MemoryFormat", [&] { none.to_memory_format(); }},
      {"Generator", [&] { none.to_generator(); }},
      {"int[]", [&] { none.to_int_list(); }},
      {"float[]", [&] { none.to_double_list(); }},
      {"bool[]", [&] { none.to_bool_list(); }},
      {"Tensor[]", [&] { none.to_tensor_list(); }},
      {"Tensor?[]", [&] { none.to_optional_tensor_list(); }},
      {"Scalar[]", [&] { none.to_scalar_list(); }},
      {"tuple", [&] { none.to_tuple(); }},
  };
  for (const auto& [type, access] : accessors) {
    EXPECT_EQ(error_of(access), "expected a value of type " + type + " but got None");
  }
}

TEST(Value, TupleHoldsItsElementsInOrder) {
  const sops::Tensor t = floats({1});
  const Value v = Value::tuple({t, 2, "three", Value()});
  expect_kind(v, Tag::Tuple, "tuple");
  const std::vector<Value>& elements = v.to_tuple();
  ASSERT_EQ(elements.size(), 4u);
  EXPECT_TRUE(elements[0].to_tensor().is_same(t));
  EXPECT_EQ(elements[1].to_int(), 2);
  EXPECT_EQ(elements[2].to_string(), "three");
  EXPECT_TRUE(elements[3].is_none());

  // Copies share the (immutable) elements.
  const Value copy = v;
  EXPECT_EQ(&copy.to_tuple(), &v.to_tuple());

  // Empty and nested tuples.
  EXPECT_TRUE(Value::tuple({}).to_tuple().empty());
  const Value nested = Value::tuple({Value::tuple({1, 2}), 3});
  EXPECT_EQ(nested.to_tuple()[0].to_tuple()[1].to_int(), 2);
}

TEST(Value, Prints) {
  EXPECT_EQ(printed(Value()), "None");
  EXPECT_EQ(printed(Value(3)), "3");
  EXPECT_EQ(printed(Value(-2.5)), "-2.5");
  EXPECT_EQ(printed(Value(true)), "True");
  EXPECT_EQ(printed(Value(false)), "False");
  EXPECT_EQ(printed(Value("reflect")), "\"reflect\"");
  EXPECT_EQ(printed(Value(sops::Scalar(int64_t{4}))), "4");
  EXPECT_EQ(printed(Value(sops::ScalarType::Float)), "float32");
  EXPECT_EQ(printed(Value(sops::Layout::Strided)), "Strided");
  EXPECT_EQ(printed(Value(sops::MemoryFormat::ChannelsLast)), "ChannelsLast");
  EXPECT_EQ(printed(Value(sops::Device(sops::DeviceType::CUDA, 1))), "cuda:1");
  EXPECT_EQ(printed(Value(std::vector<int64_t>{1, 2})), "[1, 2]");
  EXPECT_EQ(printed(Value(std::vector<int64_t>{})), "[]");
  EXPECT_EQ(printed(Value(std::vector<bool>{true, false})), "[True, False]");
  EXPECT_EQ(printed(Value(std::vector<double>{0.5})), "[0.5]");
  EXPECT_EQ(printed(Value::tuple({1, "a", Value()})), "(1, \"a\", None)");
  EXPECT_EQ(printed(Value::tuple({})), "()");

  // Tensors print as Tensor's own operator<< does.
  const sops::Tensor t = sops::empty({2, 3}, sops::TensorOptions());
  EXPECT_EQ(printed(Value(t)), t.str());
  EXPECT_NE(printed(Value(t)).find("[2, 3]"), std::string::npos) << printed(Value(t));
  EXPECT_EQ(printed(Value(std::vector<std::optional<sops::Tensor>>{t, std::nullopt})),
            "[" + t.str() + ", None]");
}

TEST(Value, StackHoldsValuesInOrder) {
  sops::Stack stack{floats({1}), 2, 2.5, "s", Value()};
  ASSERT_EQ(stack.size(), 5u);
  EXPECT_EQ(stack[0].tag(), Tag::Tensor);
  EXPECT_EQ(stack[1].tag(), Tag::Int);
  EXPECT_EQ(stack[2].tag(), Tag::Double);
  EXPECT_EQ(stack[3].tag(), Tag::String);
  EXPECT_EQ(stack[4].tag(), Tag::None);
}

}  // namespace
