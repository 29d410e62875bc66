// Device and Scalar: the small value types.
#include "runtime/scalar.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "runtime/device.h"
#include "runtime/error.h"

namespace {

using sops::Device;
using sops::Scalar;

TEST(Device, TypeIndexAndText) {
  EXPECT_EQ(Device(sops::kCPU).str(), "cpu");
  EXPECT_EQ(Device(sops::kCUDA, 1).str(), "cuda:1");
  EXPECT_EQ(Device("meta"), Device(sops::kMeta));
  EXPECT_EQ(Device("cuda:2"), Device(sops::kCUDA, 2));
  EXPECT_FALSE(Device("cuda").has_index());
  EXPECT_TRUE(Device("meta").is_meta());
  EXPECT_NE(Device(sops::kCUDA, 0), Device(sops::kCUDA, 1));
  EXPECT_THROW(Device("tpu"), sops::Error);
  EXPECT_THROW(Device("cuda:x"), sops::Error);
}

TEST(Scalar, KindsFromLiterals) {
  EXPECT_TRUE(Scalar(true).is_boolean());
  EXPECT_TRUE(Scalar(3).is_integral(false));
  EXPECT_TRUE(Scalar(int8_t{3}).is_integral(false));
  EXPECT_TRUE(Scalar(2.5).is_floating_point());
  EXPECT_TRUE(Scalar(2.5f).is_floating_point());
  EXPECT_TRUE(Scalar(sops::Half(1.0f)).is_floating_point());
  EXPECT_EQ(Scalar(true).type(), sops::kBool);
  EXPECT_EQ(Scalar(3).type(), sops::kLong);
  EXPECT_EQ(Scalar(2.5f).type(), sops::kDouble);
  EXPECT_EQ(Scalar().to<int64_t>(), 0);
}

TEST(Scalar, ConvertsToElementTypes) {
  EXPECT_EQ(Scalar(3).to<float>(), 3.0f);
  EXPECT_EQ(Scalar(2.75).to<int32_t>(), 2);
  EXPECT_EQ(Scalar(true).to<int64_t>(), 1);
  EXPECT_EQ(Scalar(0.5).to<bool>(), true);
  EXPECT_EQ(static_cast<float>(Scalar(1.5).to<sops::Half>()), 1.5f);
  EXPECT_EQ(Scalar(7).toDouble(), 7.0);
  EXPECT_EQ(Scalar(7.9).toLong(), 7);
}

TEST(Scalar, OverflowIsAnError) {
  EXPECT_EQ(Scalar(127).to<int8_t>(), 127);
  try {
    Scalar(300).to<int8_t>();
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "value cannot be converted to type int8 without overflow");
  }
  EXPECT_THROW(Scalar(-1).to<uint8_t>(), sops::Error);
  EXPECT_THROW(Scalar(1e20).to<int64_t>(), sops::Error);
  EXPECT_THROW(Scalar(1e300).to<float>(), sops::Error);
  EXPECT_THROW(Scalar(70000.0).to<sops::Half>(), sops::Error);
  EXPECT_TRUE(std::isinf(Scalar(std::numeric_limits<double>::infinity()).to<float>()));
  EXPECT_THROW(Scalar(std::numeric_limits<uint64_t>::max()), sops::Error);
  EXPECT_EQ(Scalar(1e20).to_unchecked<double>(), 1e20);
}

TEST(Scalar, NegationEqualityAndText) {
  EXPECT_TRUE((-Scalar(2)).equal(Scalar(-2)));
  EXPECT_FALSE(Scalar(2).equal(Scalar(2.0)));
  EXPECT_THROW(-Scalar(true), sops::Error);
  EXPECT_EQ(Scalar(2.5).str(), "2.5");
  EXPECT_EQ(Scalar(false).str(), "false");
}

}  // namespace
