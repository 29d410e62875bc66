// Hostile sizes, strides, pads and steps, as a crafted model gives them: each operator
// either computes PyTorch's finite result or raises one sops::Error naming the operator
// and the argument, never wraps a size around (run under --config=asan too, whose UBSan
// reports any signed overflow left). The expectations are PyTorch 2.13's where it has a
// finite answer (noted per case), else the argument at fault.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t k2to40 = int64_t{1} << 40;
constexpr int64_t k2to62 = int64_t{1} << 62;

// Runs f, which must raise a sops::Error whose operator starts with `op` ("split" for
// "split.Tensor"), whose argument is `argument` and whose message contains `message`.
template <typename F>
::testing::AssertionResult refuses(F&& f, const std::string& op, const std::string& argument,
                                   const std::string& message) {
  try {
    f();
  } catch (const Error& e) {
    if (e.op().rfind(op, 0) != 0 || e.argument() != argument ||
        e.message().find(message) == std::string::npos) {
      return ::testing::AssertionFailure() << "got \"" << e.what() << "\" (op '" << e.op()
                                           << "', argument '" << e.argument() << "')";
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not raise";
}

Tensor ones(IntArrayRef sizes, ScalarType dtype = ScalarType::Float) {
  return aten::full(sizes, 1.0, dtype);
}

TEST(SizeOverflow, ArangeLengthIsExactOrRefused) {
  // -2^63 to 2^63 - 1 by 2^62: 4 values (PyTorch's int64 sum wraps and gives none).
  const Tensor r = aten::arange(kMin, kMax, k2to62, ScalarType::Long);
  ASSERT_EQ(r.numel(), 4);
  const auto* p = static_cast<const int64_t*>(r.data_ptr());
  EXPECT_EQ(p[0], kMin);
  EXPECT_EQ(p[1], -k2to62);
  EXPECT_EQ(p[2], 0);
  EXPECT_EQ(p[3], k2to62);
  // 2^64 - 1 values: PyTorch's "invalid size, possible overflow?".
  EXPECT_TRUE(refuses([] { aten::arange(kMin, kMax, 1, ScalarType::Long); }, "arange", "end",
                      "invalid size, possible overflow?"));
  EXPECT_TRUE(refuses([] { aten::arange(0.0, 1e300, 1e-300, ScalarType::Double); }, "arange", "end",
                      "invalid size, possible overflow?"));
}

TEST(SizeOverflow, SplitAndSliceWithHugeSteps) {
  const Tensor x = ones({4, 2});
  // PyTorch: split(2^63 - 1) gives the whole tensor as one split.
  const std::vector<Tensor> parts = aten::split(x, kMax, 0);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].sizes(), IntArrayRef({4, 2}));
  const std::vector<Tensor> threes = aten::split(x, 3, 0);
  ASSERT_EQ(threes.size(), 2u);
  EXPECT_EQ(threes[1].size(0), 1);
  // PyTorch: x[:, ::2^62] has one column.
  const Tensor col = aten::slice(x, 1, std::nullopt, std::nullopt, k2to62);
  EXPECT_EQ(col.sizes(), IntArrayRef({4, 1}));
  const Tensor row = aten::slice(x, 0, std::nullopt, std::nullopt, kMax);  // stride 2 * (2^63-1)
  EXPECT_EQ(row.sizes(), IntArrayRef({1, 2}));
  EXPECT_EQ(row.storage_offset(), 0);
}

TEST(SizeOverflow, ExpandedViewsAreRefusedWhenMaterialized) {
  const Tensor one = ones({1});
  const Tensor big = aten::expand(one, {k2to62});
  EXPECT_EQ(big.numel(), k2to62);
  // The copy would need 2^64 bytes: refused, not a wrapped 0-byte buffer written past.
  // (The innermost operator names the error: clone's empty_like.)
  EXPECT_TRUE(refuses([&] { aten::clone(big); }, "empty_like", "", "int64"));
  EXPECT_TRUE(refuses([] { aten::expand(ones({1}), {k2to62, 4}); }, "expand", "",
                      "numel of shape [4611686018427387904, 4] overflows int64"));
  // cat of two such views: the output size is 2^63.
  EXPECT_TRUE(refuses([&] { aten::cat(std::vector<Tensor>{big, big}, 0); }, "cat", "tensors",
                      "cat output size (4611686018427387904 + 4611686018427387904) overflows"));
  // An expanded empty tensor of sizes [0, 2^40, 2^40]: no element, but the output of an
  // element-wise operator would need strides past int64 (PyTorch: "Stride calculation
  // overflowed").
  const Tensor empty = aten::expand(ones({0, 1, 1}), {0, k2to40, k2to40});
  EXPECT_TRUE(refuses([&] { aten::add(empty, empty); }, "add", "", "overflow int64"));
}

TEST(SizeOverflow, FactoriesAndRepeat) {
  // PyTorch: "Storage size calculation overflowed with sizes=[4611686018427387904, 4]".
  // (full's empty names it.)
  EXPECT_TRUE(refuses([] { aten::full({k2to62, 4}, 1.0); }, "empty", "",
                      "numel of shape [4611686018427387904, 4] overflows int64"));
  EXPECT_TRUE(refuses([] { aten::empty_strided({k2to40, k2to40}, {k2to40, 1}); }, "empty_strided",
                      "stride", "overflow int64"));
  EXPECT_TRUE(refuses([] { aten::empty({0, k2to40, k2to40}); }, "empty", "",
                      "the contiguous strides of shape"));
  EXPECT_TRUE(refuses([] { aten::repeat(ones({2, 2}), {k2to62, 2}); }, "repeat", "repeats",
                      "repeat output size (2 * 4611686018427387904) overflows int64"));
  EXPECT_TRUE(refuses([] { aten::as_strided(ones({4}), {2}, {1}, kMax); }, "as_strided", "stride",
                      "overflow int64"));
  EXPECT_TRUE(refuses([] { aten::as_strided(ones({4}), {3, 3}, {k2to62, k2to62}); }, "as_strided",
                      "stride", "overflow int64"));
}

TEST(SizeOverflow, Padding) {
  const Tensor x = ones({1, 2, 3});
  EXPECT_TRUE(refuses([&] { aten::constant_pad_nd(x, {kMin, 2}); }, "constant_pad_nd", "pad",
                      "overflows int64"));
  EXPECT_TRUE(refuses([&] { aten::constant_pad_nd(x, {k2to62, kMax}); }, "constant_pad_nd", "pad",
                      "padded size"));
  EXPECT_TRUE(refuses([&] { aten::replication_pad1d(x, {kMax, kMax}); }, "replication_pad1d",
                      "padding", "padded size"));
  // PyTorch: replication_pad1d by (-2^62, 2^62) crops then repeats: [[2, 2, 2]] for 0, 1, 2.
  const Tensor r = aten::reshape(aten::arange(0, 3, 1, ScalarType::Float), {1, 1, 3});
  const Tensor y = aten::replication_pad1d(r, {-k2to62, k2to62});
  ASSERT_EQ(y.sizes(), IntArrayRef({1, 1, 3}));
  const auto* py = static_cast<const float*>(y.data_ptr());
  EXPECT_EQ(py[0], 2.0f);
  EXPECT_EQ(py[2], 2.0f);
  const Tensor z = aten::replication_pad1d(r, {k2to62, -k2to62});
  const auto* pz = static_cast<const float*>(z.data_ptr());
  EXPECT_EQ(pz[0], 0.0f);
  EXPECT_EQ(pz[2], 0.0f);
}

TEST(SizeOverflow, PoolingAndConvolution) {
  const Tensor x = ones({1, 2, 3, 3});
  // PyTorch: max_pool2d with stride 2^63 - 1 gives one window per dimension.
  const auto [pooled, indices] = aten::max_pool2d_with_indices(x, {2, 2}, {kMax, kMax});
  EXPECT_EQ(pooled.sizes(), IntArrayRef({1, 2, 1, 1}));
  const auto [ceiled, ceil_indices] =
      aten::max_pool2d_with_indices(x, {2, 2}, {kMax, kMax}, {0, 0}, {1, 1}, true);
  EXPECT_EQ(ceiled.sizes(), IntArrayRef({1, 2, 1, 1}));
  EXPECT_TRUE(refuses([&] { aten::max_pool2d_with_indices(x, {2, 2}, {1, 1}, {0, 0}, {kMax, 1}); },
                      "max_pool2d", "dilation", "overflows int64"));

  const Tensor w = ones({1, 2, 1, 1});
  // PyTorch: conv with stride 2^63 - 1 gives a 1x1 output.
  const Tensor y =
      aten::convolution(x, w, std::nullopt, {kMax, kMax}, {0, 0}, {1, 1}, false, {0, 0}, 1);
  ASSERT_EQ(y.sizes(), IntArrayRef({1, 1, 1, 1}));
  EXPECT_EQ(*static_cast<const float*>(y.data_ptr()), 2.0f);
  const Tensor w1 = ones({1, 2, 1});
  const Tensor y1 =
      aten::convolution(ones({1, 2, 3}), w1, std::nullopt, {kMax}, {0}, {1}, false, {0}, 1);
  EXPECT_EQ(y1.sizes(), IntArrayRef({1, 1, 1}));
  EXPECT_TRUE(refuses(
      [&] { aten::convolution(x, w, std::nullopt, {1, 1}, {k2to62, 0}, {1, 1}, false, {0, 0}, 1); },
      "convolution", "padding", "overflows int64"));
  const Tensor w2 = ones({1, 2, 2, 2});
  EXPECT_TRUE(refuses(
      [&] { aten::convolution(x, w2, std::nullopt, {1, 1}, {0, 0}, {kMax, 1}, false, {0, 0}, 1); },
      "convolution", "dilation", "overflows int64"));
  // Transposed, the output grows with the stride: (3 - 1) * 2^62 overflows.
  const Tensor wt = ones({2, 1, 1, 1});
  EXPECT_TRUE(refuses(
      [&] { aten::convolution(x, wt, std::nullopt, {k2to62, 1}, {0, 0}, {1, 1}, true, {0, 0}, 1); },
      "convolution", "stride", "overflows int64"));
}

TEST(SizeOverflow, UpsampleScale) {
  const Tensor x = ones({1, 1, 2, 2});
  const std::vector<double> huge{0x1p62, 1.0};
  EXPECT_TRUE(refuses([&] { aten::upsample_nearest2d(x, std::nullopt, ArrayRef<double>(huge)); },
                      "upsample_nearest2d", "scale_factors", "int64 cannot hold"));
}

}  // namespace
}  // namespace sops::optest
