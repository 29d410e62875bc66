// Checked size arithmetic (runtime/checked_math.h): every helper raises a sops::Error
// naming the operator and the argument where int64 overflows, and the runtime's tensors
// use them, so a hostile shape is an error, never a wrapped size (checked under
// --config=asan, whose UBSan reports any signed overflow left).
#include "runtime/checked_math.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "runtime/broadcast.h"
#include "runtime/tensor.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::Error;
using sops::Tensor;
using sops::testing::error_message;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k2to40 = int64_t{1} << 40;
constexpr int64_t k2to62 = int64_t{1} << 62;

// Runs f, which must raise an Error of operator `op`, argument `argument` and a message
// containing `message`.
template <typename F>
::testing::AssertionResult raises(F&& f, const std::string& op, const std::string& argument,
                                  const std::string& message) {
  try {
    f();
  } catch (const Error& e) {
    if (e.op() != op || e.argument() != argument ||
        e.message().find(message) == std::string::npos) {
      return ::testing::AssertionFailure() << "got \"" << e.what() << "\"";
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not raise";
}

TEST(CheckedMath, ArithmeticInRangeIsExact) {
  EXPECT_EQ(sops::checked_add(kMax - 1, 1, "sum"), kMax);
  EXPECT_EQ(sops::checked_sub(kMin + 1, 1, "difference"), kMin);
  EXPECT_EQ(sops::checked_mul(int64_t{1} << 31, int64_t{1} << 31, "product"), int64_t{1} << 62);
  EXPECT_EQ(sops::checked_mul(-1, kMax, "product"), -kMax);
}

TEST(CheckedMath, OverflowNamesTheOperatorTheArgumentAndTheOperands) {
  const sops::OperatorScope scope("split.Tensor");
  EXPECT_TRUE(raises([] { (void)sops::checked_add(kMax, 1, "output size", "split_size"); },
                     "split.Tensor", "split_size",
                     "output size (9223372036854775807 + 1) overflows int64"));
  EXPECT_TRUE(raises([] { (void)sops::checked_sub(kMin, 1, "offset", "start"); }, "split.Tensor",
                     "start", "offset (-9223372036854775808 - 1) overflows int64"));
  EXPECT_TRUE(raises([] { (void)sops::checked_mul(k2to62, 2, "stride", "step"); }, "split.Tensor",
                     "step", "stride (4611686018427387904 * 2) overflows int64"));
  EXPECT_TRUE(raises([] { (void)sops::checked_mul(kMin, -1, "stride"); }, "split.Tensor", "",
                     "overflows int64"));
}

TEST(CheckedMath, Numel) {
  EXPECT_EQ(sops::checked_numel({}), 1);
  EXPECT_EQ(sops::checked_numel({2, 3, 4}), 24);
  EXPECT_EQ(sops::checked_numel({0, k2to40, k2to40}), 0);  // 0 first: the product never grows
  EXPECT_EQ(sops::checked_numel({k2to62, 1}), k2to62);
  const sops::OperatorScope scope("expand");
  EXPECT_TRUE(raises([] { (void)sops::checked_numel({k2to40, k2to40}, "size"); }, "expand", "size",
                     "numel of shape [1099511627776, 1099511627776] overflows int64"));
  // PyTorch refuses [2^40, 2^40, 0] too ("Storage size calculation overflowed").
  EXPECT_TRUE(raises([] { (void)sops::checked_numel({k2to40, k2to40, 0}, "size"); }, "expand",
                     "size", "overflows int64"));
  EXPECT_TRUE(raises([] { (void)sops::checked_numel({k2to40, k2to40, -1}, "size"); }, "expand",
                     "size", "negative dimension -1"));
}

TEST(CheckedMath, Nbytes) {
  EXPECT_EQ(sops::checked_nbytes({2, 3}, 8), 48);
  EXPECT_EQ(sops::checked_nbytes({int64_t{1} << 60}, 4), int64_t{1} << 62);
  const std::string message = error_message([] { (void)sops::checked_nbytes({k2to62}, 4); });
  EXPECT_NE(message.find("shape [4611686018427387904] of 4-byte elements needs more bytes than "
                         "int64 counts"),
            std::string::npos)
      << message;
}

TEST(CheckedMath, MaxOffset) {
  EXPECT_EQ(sops::checked_max_offset({2, 3}, {3, 1}, 0), 5);
  EXPECT_EQ(sops::checked_max_offset({2, 3}, {3, 1}, 10), 15);
  EXPECT_EQ(sops::checked_max_offset({k2to62, 4}, {0, 1}, 0), 3);  // expanded: stride 0
  EXPECT_EQ(sops::checked_max_offset({1}, {kMax}, 5), 5);          // a size-1 stride never moves
  EXPECT_EQ(sops::checked_max_offset({0, 2}, {1, kMax}, 7), 6);    // no element: none reached
  EXPECT_NE(error_message([] {
              (void)sops::checked_max_offset({3}, {k2to62}, 0);
            }).find("overflow int64"),
            std::string::npos);
  EXPECT_NE(
      error_message([] { (void)sops::checked_max_offset({2}, {1}, kMax); }).find("overflow int64"),
      std::string::npos);
  EXPECT_NE(error_message([] {
              (void)sops::checked_max_offset({2}, {-1}, 4);
            }).find("negative stride -1"),
            std::string::npos);
  EXPECT_NE(error_message([] {
              (void)sops::checked_max_offset({2}, {1}, -1);
            }).find("negative storage offset"),
            std::string::npos);
}

// The runtime's own tensors use the helpers: a zero-then-huge shape, an expanded view
// that counts more bytes than int64, a view that reaches past int64.
TEST(CheckedMath, TensorsRefuseSizesThatOverflow) {
  // [0, 2^40, 2^40] has no element, but its contiguous strides overflow (PyTorch:
  // "Stride calculation overflowed").
  EXPECT_NE(error_message([] { sops::empty({0, k2to40, k2to40}, sops::dtype(sops::kFloat)); })
                .find("the contiguous strides of shape [0, 1099511627776, 1099511627776] "
                      "overflow int64"),
            std::string::npos);
  EXPECT_NE(error_message([] {
              sops::empty({k2to62}, sops::dtype(sops::kFloat));
            }).find("shape [4611686018427387904] of 4-byte elements needs more bytes"),
            std::string::npos);
  EXPECT_NE(error_message([] {
              sops::empty_strided({k2to40, k2to40}, {k2to40, 1}, sops::dtype(sops::kFloat));
            }).find("overflow int64"),
            std::string::npos);

  // A 1-element tensor expanded to 2^62 elements: a view is fine, its byte count is not
  // (it wrapped to 0 as a size_t, and a writer of the output then overflowed the heap).
  const Tensor one = sops::empty({1}, sops::dtype(sops::kFloat));
  const Tensor big = sops::expand(one, {k2to62});
  EXPECT_EQ(big.numel(), k2to62);
  EXPECT_NE(error_message([&] { (void)big.nbytes(); })
                .find("the byte size numel * element size (4611686018427387904 * 4) overflows "
                      "int64"),
            std::string::npos);
  EXPECT_NE(error_message([&] { sops::empty_like(big); }).find("int64"), std::string::npos);

  // A view whose offsets pass int64 (they wrapped to a small, in-bounds figure).
  const Tensor four = sops::empty({4}, sops::dtype(sops::kFloat));
  EXPECT_NE(error_message([&] {
              (void)four.as_strided({2, 2}, {k2to62, k2to62}, 0);
            }).find("overflow int64"),
            std::string::npos);
  EXPECT_NE(error_message([&] { (void)four.as_strided({2}, {1}, kMax); }).find("overflow int64"),
            std::string::npos);
  // An empty view may have any stride, as in PyTorch.
  EXPECT_EQ(four.as_strided({0, 2}, {1, kMax}, 0).numel(), 0);
}

TEST(CheckedMath, ContiguityOfHugeStridesDoesNotOverflow) {
  const Tensor four = sops::empty({4}, sops::dtype(sops::kFloat));
  // Sizes [0, 2^40, 2^40] with the strides contiguity would need past int64: empty, so
  // contiguous, and computed without overflow.
  const Tensor v = four.as_strided({0, k2to40, k2to40}, {0, k2to40, 1}, 0);
  EXPECT_TRUE(v.is_contiguous());
  // [2^40, 2^40, 0]: PyTorch refuses the product before the 0, and so does this.
  EXPECT_NE(error_message([&] {
              (void)four.as_strided({k2to40, k2to40, 0}, {0, 0, 1}, 0);
            }).find("overflows int64"),
            std::string::npos);
}

}  // namespace
