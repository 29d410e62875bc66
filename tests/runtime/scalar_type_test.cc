// Element types: sizes, names, categories, and promotion checked against PyTorch's
// torch.promote_types table (PyTorch 2.x, c10/core/ScalarType.cpp), written out
// here by hand for our subset.
#include "runtime/scalar_type.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/tensor.h"
#include "runtime/visit_dtype.h"

namespace {

using sops::ScalarType;

TEST(ScalarType, SizesAndNames) {
  EXPECT_EQ(sops::element_size(sops::kByte), 1u);
  EXPECT_EQ(sops::element_size(sops::kChar), 1u);
  EXPECT_EQ(sops::element_size(sops::kInt), 4u);
  EXPECT_EQ(sops::element_size(sops::kLong), 8u);
  EXPECT_EQ(sops::element_size(sops::kHalf), 2u);
  EXPECT_EQ(sops::element_size(sops::kFloat), 4u);
  EXPECT_EQ(sops::element_size(sops::kDouble), 8u);
  EXPECT_EQ(sops::element_size(sops::kBool), 1u);
  EXPECT_EQ(sops::element_size(sops::kBFloat16), 2u);
  EXPECT_EQ(sops::to_string(sops::kFloat), "float32");
  EXPECT_EQ(sops::to_string(sops::kLong), "int64");
  EXPECT_EQ(sops::to_string(sops::kHalf), "float16");
  EXPECT_EQ(sops::to_string(sops::kByte), "uint8");
  EXPECT_EQ(sops::to_string(sops::kBFloat16), "bfloat16");
  EXPECT_EQ(sops::cpp_type_name(sops::kLong), "int64_t");
  EXPECT_EQ(sops::cpp_type_name(sops::kHalf), "sops::Half");
  EXPECT_EQ(sops::parse_scalar_type("float64"), sops::kDouble);
  EXPECT_EQ(sops::parse_scalar_type("Long"), sops::kLong);
  EXPECT_EQ(sops::parse_scalar_type("complex64"), sops::kComplexFloat);
  EXPECT_EQ(sops::parse_scalar_type("float"), ScalarType::Undefined);
}

// int16 and the complex types: PyTorch's names and sizes (torch.int16.itemsize == 2,
// torch.complex32 / complex64 / complex128 itemsize 4 / 8 / 16), nothing more.
TEST(ScalarType, NamesOnlyTypesHavePyTorchsNamesAndSizes) {
  const struct {
    ScalarType type;
    const char* name;
    const char* enumerator;
    std::size_t size;
  } cases[] = {
      {sops::kShort, "int16", "Short", 2},
      {sops::kComplexHalf, "complex32", "ComplexHalf", 4},
      {sops::kComplexFloat, "complex64", "ComplexFloat", 8},
      {sops::kComplexDouble, "complex128", "ComplexDouble", 16},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(sops::to_string(c.type), c.name);
    EXPECT_EQ(sops::element_size(c.type), c.size) << c.name;
    EXPECT_EQ(sops::parse_scalar_type(c.name), c.type);
    EXPECT_EQ(sops::parse_scalar_type(c.enumerator), c.type);
    EXPECT_FALSE(sops::is_tensor_dtype(c.type)) << c.name;
    EXPECT_FALSE(sops::is_floating_point(c.type)) << c.name;
  }
  EXPECT_TRUE(sops::is_integral(sops::kShort, false));
  EXPECT_TRUE(sops::is_signed(sops::kShort));
  EXPECT_TRUE(sops::is_complex(sops::kComplexHalf));
  EXPECT_FALSE(sops::is_complex(sops::kDouble));
  EXPECT_TRUE(sops::is_tensor_dtype(sops::kBFloat16));
  EXPECT_FALSE(sops::is_tensor_dtype(ScalarType::Undefined));
}

TEST(ScalarType, EveryEnumeratorIndexesAKNumScalarTypesTable) {
  std::vector<int> seen(sops::kNumScalarTypes, 0);
  for (const ScalarType t :
       {sops::kByte, sops::kChar, sops::kInt, sops::kLong, sops::kHalf, sops::kFloat, sops::kDouble,
        sops::kBool, sops::kBFloat16, sops::kShort, sops::kComplexHalf, sops::kComplexFloat,
        sops::kComplexDouble}) {
    const int i = static_cast<int>(t);
    ASSERT_TRUE(i >= 0 && i < sops::kNumScalarTypes) << t;
    ++seen[static_cast<std::size_t>(i)];
    EXPECT_EQ(sops::is_tensor_dtype(t), i < sops::kNumTensorScalarTypes) << t;
  }
  EXPECT_EQ(seen, std::vector<int>(sops::kNumScalarTypes, 1));
  EXPECT_EQ(sops::kNumTensorScalarTypes, 9);
}

TEST(ScalarType, NoTensorHoldsANamesOnlyType) {
  for (const ScalarType t : {sops::kShort, sops::kComplexFloat}) {
    try {
      sops::empty({2}, t);
      FAIL() << "no throw for " << t;
    } catch (const sops::Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "cannot make a tensor of dtype " + std::string(sops::to_string(t)) +
                    ": sops tensors hold uint8, int8, int32, int64, float16, float32, "
                    "float64, bool, bfloat16 only");
    }
    EXPECT_THROW(sops::empty({2}, sops::TensorOptions(t).device(sops::kMeta)), sops::Error);
    EXPECT_THROW(sops::empty_strided({2}, {1}, t), sops::Error);
    int16_t data[2] = {1, 2};
    EXPECT_THROW(sops::from_blob(data, {2}, t), sops::Error);
  }
  EXPECT_THROW(sops::empty({2}, ScalarType::Undefined), sops::Error);
}

TEST(ScalarType, NamesOnlyTypesTakePartInNoPromotionOrDispatch) {
  try {
    sops::promote_types(sops::kFloat, sops::kComplexFloat);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "cannot promote float32 with complex64: sops tensors cannot hold complex64 "
                 "elements");
  }
  EXPECT_THROW(sops::promote_types(sops::kShort, sops::kShort), sops::Error);
  EXPECT_THROW(sops::promote_types(sops::kShort, sops::kLong), sops::Error);
  EXPECT_EQ(sops::promote_types(sops::kShort, ScalarType::Undefined), ScalarType::Undefined);
  try {
    SOPS_DISPATCH_EVERY_TYPE(sops::kShort, "abs", [&] { return 0; });
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("abs: dtype int16 is not supported (supported: ", 0), 0u)
        << e.what();
  }
}

TEST(ScalarType, Categories) {
  EXPECT_TRUE(sops::is_floating_point(sops::kHalf));
  EXPECT_TRUE(sops::is_floating_point(sops::kBFloat16));
  EXPECT_FALSE(sops::is_floating_point(sops::kLong));
  EXPECT_TRUE(sops::is_integral(sops::kByte, false));
  EXPECT_FALSE(sops::is_integral(sops::kBool, false));
  EXPECT_TRUE(sops::is_integral(sops::kBool, true));
  EXPECT_FALSE(sops::is_integral(sops::kFloat, true));
}

TEST(ScalarType, CppTypeMapping) {
  static_assert(sops::scalar_type_of<float> == sops::kFloat);
  static_assert(sops::scalar_type_of<const int64_t&> == sops::kLong);
  static_assert(std::is_same_v<sops::cpp_type_t<ScalarType::BFloat16>, sops::BFloat16>);
  static_assert(std::is_same_v<sops::cpp_type_t<ScalarType::Char>, int8_t>);
}

TEST(ScalarType, PromoteTypesMatchesPyTorchTable) {
  // Order: u8 i8 i32 i64 f16 f32 f64 bool bf16; X marks uint8+int8 (int16 in PyTorch).
  const ScalarType u1 = sops::kByte, i1 = sops::kChar, i4 = sops::kInt, i8 = sops::kLong,
                   f2 = sops::kHalf, f4 = sops::kFloat, f8 = sops::kDouble, b1 = sops::kBool,
                   bf = sops::kBFloat16, X = ScalarType::Undefined;
  const std::vector<ScalarType> order = {u1, i1, i4, i8, f2, f4, f8, b1, bf};
  const ScalarType table[9][9] = {
      /* u1 */ {u1, X, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {X, i1, i4, i8, f2, f4, f8, i1, bf},
      /* i4 */ {i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  for (std::size_t r = 0; r < order.size(); ++r) {
    for (std::size_t c = 0; c < order.size(); ++c) {
      if (table[r][c] == X) {
        EXPECT_THROW(sops::promote_types(order[r], order[c]), sops::Error);
      } else {
        EXPECT_EQ(sops::promote_types(order[r], order[c]), table[r][c])
            << order[r] << " with " << order[c];
      }
    }
  }
}

TEST(ScalarType, PromotingUint8WithInt8IsAnErrorNamingInt16) {
  try {
    sops::promote_types(sops::kByte, sops::kChar);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_NE(std::string(e.what()).find("int16"), std::string::npos) << e.what();
  }
}

TEST(ScalarType, CanCastFollowsTorchCanCast) {
  EXPECT_TRUE(sops::can_cast(sops::kLong, sops::kFloat));
  EXPECT_TRUE(sops::can_cast(sops::kInt, sops::kByte));
  EXPECT_TRUE(sops::can_cast(sops::kBool, sops::kInt));
  EXPECT_FALSE(sops::can_cast(sops::kFloat, sops::kInt));
  EXPECT_FALSE(sops::can_cast(sops::kInt, sops::kBool));
  EXPECT_TRUE(sops::can_cast(sops::kDouble, sops::kHalf));
  // torch.can_cast(torch.complex64, torch.float64) is False; float to complex is fine.
  EXPECT_FALSE(sops::can_cast(sops::kComplexFloat, sops::kDouble));
  EXPECT_FALSE(sops::can_cast(sops::kComplexDouble, sops::kBool));
  EXPECT_TRUE(sops::can_cast(sops::kComplexDouble, sops::kComplexHalf));
  EXPECT_TRUE(sops::can_cast(sops::kDouble, sops::kComplexFloat));
  EXPECT_FALSE(sops::can_cast(sops::kShort, sops::kBool));
}

TEST(VisitDtype, CallsTheLambdaWithTheElementType) {
  const auto size = sops::visit_dtype<sops::dtypes::kEveryType>(
      sops::kHalf, "size", [](auto tag) { return sizeof(typename decltype(tag)::type); });
  EXPECT_EQ(size, 2u);
  const auto name =
      SOPS_DISPATCH_ALL_TYPES(sops::kLong, "name", [&] { return sops::scalar_type_of<scalar_t>; });
  EXPECT_EQ(name, sops::kLong);
}

TEST(VisitDtype, UnsupportedDtypeThrowsListingTheSet) {
  try {
    SOPS_DISPATCH_FLOATING_TYPES(sops::kInt, "sqrt", [&] { return 0; });
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "sqrt: dtype int32 is not supported (supported: float32, float64)");
  }
}

}  // namespace
