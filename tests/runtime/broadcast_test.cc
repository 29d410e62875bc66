// Broadcasting: PyTorch's rules, errors that name both shapes, expand as a view.
#include "runtime/broadcast.h"

#include <vector>

#include <gtest/gtest.h>

#include "tests/runtime/test_util.h"

namespace {

using sops::testing::make;
using sops::testing::values;
using sops::testing::vec;
using V = std::vector<int64_t>;

TEST(InferSize, FollowsBroadcastingRules) {
  EXPECT_EQ(vec(sops::infer_size({2, 3}, {3})), (V{2, 3}));
  EXPECT_EQ(vec(sops::infer_size({5, 1, 4}, {3, 1})), (V{5, 3, 4}));
  EXPECT_EQ(vec(sops::infer_size({}, {2, 2})), (V{2, 2}));
  EXPECT_EQ(vec(sops::infer_size({0, 1}, {1, 3})), (V{0, 3}));
  EXPECT_EQ(vec(sops::infer_size({1}, {0})), (V{0}));
}

TEST(InferSize, MismatchNamesBothShapes) {
  try {
    sops::infer_size({2, 3}, {4});
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "shapes [2, 3] and [4] are not broadcastable: the size of tensor a (3) must "
                 "match the size of tensor b (4) at non-singleton dimension 1");
  }
}

TEST(IsExpandableTo, ChecksOneDirection) {
  EXPECT_TRUE(sops::is_expandable_to({3}, {2, 3}));
  EXPECT_TRUE(sops::is_expandable_to({1, 3}, {2, 3}));
  EXPECT_FALSE(sops::is_expandable_to({2, 3}, {3}));
  EXPECT_FALSE(sops::is_expandable_to({2}, {2, 3}));
}

TEST(Expand, IsAStrideZeroViewOfTheSameStorage) {
  sops::Tensor t = make<float>({1, 2, 3}, {3});
  sops::Tensor e = t.expand({2, 3});
  EXPECT_EQ(vec(e.sizes()), (V{2, 3}));
  EXPECT_EQ(vec(e.strides()), (V{0, 1}));
  EXPECT_TRUE(e.is_alias_of(t));
  EXPECT_EQ(values<float>(e), (std::vector<float>{1, 2, 3, 1, 2, 3}));

  sops::Tensor col = make<float>({1, 2}, {2, 1});
  sops::Tensor ec = sops::expand(col, {2, 4});
  EXPECT_EQ(vec(ec.strides()), (V{1, 0}));
  EXPECT_EQ(values<float>(ec), (std::vector<float>{1, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(vec(col.expand({-1, 3}).sizes()), (V{2, 3}));
}

TEST(Expand, IncompatibleSizesAreErrors) {
  sops::Tensor t = sops::empty({3});
  EXPECT_THROW(t.expand({2, 4}), sops::Error);
  EXPECT_THROW(t.expand({}), sops::Error);
  EXPECT_THROW(t.expand({-1, 3}), sops::Error);
}

}  // namespace
