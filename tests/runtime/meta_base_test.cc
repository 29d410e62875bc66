// MetaBase: the functional / out / inplace / meta variants a generator writes for a
// structured operator, here by hand for "double_up(Tensor self) -> Tensor" (the
// result repeats self twice along a new leading dimension) and for an inplace
// "scale_(Tensor self)".
#include "runtime/meta_base.h"

#include <array>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/error.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::IntArrayRef;
using sops::Tensor;
using sops::TensorOptions;
using sops::testing::make;
using sops::testing::values;
using sops::testing::vec;
using V = std::vector<int64_t>;

namespace meta {
struct structured_double_up : sops::MetaBase {
  void meta(const Tensor& self);
};
SOPS_META_FUNC(double_up)(const Tensor& self) {
  SOPS_CHECK_ARG(self.dim() == 1, "self", "expected a 1-d tensor but got ", self.dim(), "-d");
  set_output_raw_strided(0, {2, self.size(0)}, {}, self.options());
}
}  // namespace meta

struct structured_double_up_cpu : meta::structured_double_up {
  void impl(const Tensor& self, const Tensor& out);
};
SOPS_IMPL_FUNC(double_up_cpu)(const Tensor& self, const Tensor& out) {
  const int64_t n = self.size(0);
  for (int64_t r = 0; r < 2; ++r) {
    for (int64_t i = 0; i < n; ++i) {
      out.data_ptr<float>()[r * out.stride(0) + i * out.stride(1)] =
          self.data_ptr<float>()[i * self.stride(0)];
    }
  }
}

// Generated-style final classes.
using double_up_functional = sops::testing::FunctionalFinal<structured_double_up_cpu>;
using double_up_out = sops::testing::OutFinal<structured_double_up_cpu>;

struct double_up_meta final : meta::structured_double_up {
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    outputs_[static_cast<std::size_t>(i)] =
        sops::create_out(sizes, strides, options.device(sops::kMeta));
  }
  const Tensor& maybe_get_output(int64_t i) override {
    return outputs_[static_cast<std::size_t>(i)];
  }
  std::array<Tensor, 1> outputs_;
};

Tensor double_up(const Tensor& self) {
  return sops::call_with_operator("double_up", [&] {
    double_up_functional op;
    op.meta(self);
    op.impl(self, op.outputs_[0]);
    return std::move(op.outputs_[0]);
  });
}

const Tensor& double_up_outf(const Tensor& self, const Tensor& out) {
  return sops::call_with_operator("double_up.out", [&]() -> const Tensor& {
    double_up_out op(out);
    op.meta(self);
    op.impl(self, out);
    return out;
  });
}

TEST(MetaBase, FunctionalAllocatesTheOutput) {
  Tensor r = double_up(make<float>({1, 2, 3}, {3}));
  EXPECT_EQ(vec(r.sizes()), (V{2, 3}));
  EXPECT_EQ(values<float>(r), (std::vector<float>{1, 2, 3, 1, 2, 3}));
}

TEST(MetaBase, MetaErrorsNameOperatorAndArgument) {
  try {
    double_up(sops::empty({2, 2}));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "double_up: argument 'self': expected a 1-d tensor but got 2-d");
  }
}

TEST(MetaBase, OutVariantResizesAWrongSizedOut) {
  Tensor out = sops::empty({0});
  const Tensor self = make<float>({4, 5}, {2});
  const Tensor& r = double_up_outf(self, out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(vec(out.sizes()), (V{2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4, 5, 4, 5}));
}

TEST(MetaBase, OutVariantKeepsTheStridesOfARightSizedOut) {
  Tensor storage = sops::empty({2, 2});
  Tensor out = storage.as_strided({2, 2}, {1, 2});  // column-major
  double_up_outf(make<float>({4, 5}, {2}), out);
  EXPECT_EQ(vec(out.strides()), (V{1, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{4, 5, 4, 5}));
}

TEST(MetaBase, OutOfTheWrongDtypeIsAnErrorNamingOut) {
  Tensor out = sops::empty({2, 2}, sops::kLong);
  try {
    double_up_outf(make<float>({4, 5}, {2}), out);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(
        e.what(),
        "double_up.out: argument 'out': Expected out tensor to have dtype float, but got long int "
        "instead");
    EXPECT_EQ(e.argument(), "out");
  }
}

TEST(MetaBase, OutOnTheWrongDeviceIsAnError) {
  Tensor out = sops::empty({2, 2}, sops::TensorOptions().device(sops::kMeta));
  EXPECT_THROW(double_up_outf(make<float>({4, 5}, {2}), out), sops::Error);
}

TEST(MetaBase, MetaVariantComputesShapesOnly) {
  double_up_meta op;
  op.meta(sops::empty({7}, sops::TensorOptions().device(sops::kMeta)));
  const Tensor& r = op.maybe_get_output(0);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(vec(r.sizes()), (V{2, 7}));
  EXPECT_EQ(r.data_ptr(), nullptr);
}

TEST(MetaBase, ResizeOutWithStridesAppliesThemOnlyWhenResizing) {
  Tensor out = sops::empty({1});
  sops::resize_out(out, {2, 3}, {1, 2}, sops::TensorOptions());
  EXPECT_EQ(vec(out.strides()), (V{1, 2}));
  sops::resize_out(out, {2, 3}, {3, 1}, sops::TensorOptions());  // same sizes: kept
  EXPECT_EQ(vec(out.strides()), (V{1, 2}));
}

TEST(MetaBase, CheckInplaceRejectsShapeAndDtypeChanges) {
  Tensor self = sops::empty({2, 3});
  EXPECT_NO_THROW(sops::check_inplace(self, {2, 3}, self.options()));
  try {
    sops::check_inplace(self, {3}, self.options());
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "self");
    EXPECT_STREQ(e.what(),
                 "argument 'self': an in-place operation cannot change the shape: the result "
                 "has shape [3] but the tensor has shape [2, 3]");
  }
  try {
    sops::check_inplace(self, {2, 3}, self.options().dtype(sops::kDouble));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "self");
  }
}

TEST(MetaBase, SetOutputContiguousPassesContiguousStrides) {
  struct Recorder final : sops::MetaBase {
    void set_output_raw_strided(int64_t, IntArrayRef sizes, IntArrayRef strides,
                                TensorOptions) override {
      seen_sizes = sizes.vec();
      seen_strides = strides.vec();
    }
    const Tensor& maybe_get_output(int64_t) override { return none; }
    V seen_sizes, seen_strides;
    Tensor none;
  } r;
  r.set_output_contiguous(0, {2, 3, 4}, sops::TensorOptions());
  EXPECT_EQ(r.seen_strides, (V{12, 4, 1}));
  r.set_output({5}, sops::TensorOptions());
  EXPECT_EQ(r.seen_sizes, (V{5}));
  EXPECT_TRUE(r.seen_strides.empty());
  EXPECT_FALSE(r.maybe_get_output(0).defined());
}

}  // namespace
