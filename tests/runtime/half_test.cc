// Half and BFloat16: conversions round to nearest even, special values survive.
#include "runtime/half.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace {

using sops::BFloat16;
using sops::Half;

TEST(Half, ExactValuesRoundTrip) {
  for (float f : {0.0f, 1.0f, -2.5f, 0.000061035156f /* 2^-14 */, 65504.0f, 5.9604645e-08f}) {
    EXPECT_EQ(static_cast<float>(Half(f)), f);
  }
  EXPECT_EQ(Half(1.0f).x, 0x3c00);
  EXPECT_EQ(Half(-2.0f).x, 0xc000);
  EXPECT_EQ(Half(65504.0f).x, 0x7bff);
  EXPECT_EQ(Half(5.9604645e-08f).x, 0x0001);  // smallest subnormal
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11)).x, 0x3c00);
  // 1 + 3*2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: up.
  EXPECT_EQ(Half(1.0f + 3 * std::ldexp(1.0f, -11)).x, 0x3c02);
  // Just above halfway rounds up.
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)).x, 0x3c01);
  // 65520 is halfway between 65504 and 65536: rounds to infinity; 65519 does not.
  EXPECT_EQ(Half(65520.0f).x, 0x7c00);
  EXPECT_EQ(Half(65519.0f).x, 0x7bff);
  // Subnormal tie: 1.5 * 2^-24 rounds to 2 * 2^-24.
  EXPECT_EQ(Half(1.5f * 5.9604645e-08f).x, 0x0002);
  EXPECT_EQ(Half(0.5f * 5.9604645e-08f).x, 0x0000);
}

TEST(Half, SpecialValues) {
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(std::numeric_limits<float>::infinity()))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::nanf("")))));
  EXPECT_EQ(Half(-0.0f).x, 0x8000);
  EXPECT_EQ(Half(1e-10f).x, 0x0000);
}

TEST(Half, ArithmeticHappensInFloat) {
  Half a = 1.5f;
  Half b = 2.25f;
  Half c = a + b;
  EXPECT_EQ(static_cast<float>(c), 3.75f);
  EXPECT_TRUE(a < b);
}

TEST(BFloat16, ConversionsRoundToNearestEven) {
  EXPECT_EQ(BFloat16(1.0f).x, 0x3f80);
  EXPECT_EQ(static_cast<float>(BFloat16(3.0f)), 3.0f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to even (1).
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).x, 0x3f80);
  // 1 + 3 * 2^-8: halfway, odd below: up.
  EXPECT_EQ(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).x, 0x3f82);
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::nanf("")))));
  EXPECT_TRUE(std::isinf(static_cast<float>(BFloat16(std::numeric_limits<float>::infinity()))));
}

}  // namespace
