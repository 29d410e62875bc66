// TensorIteratorBase as a structured kernel base: "add(self, other, alpha)" written
// the way generated code and a kernel author would, checked for broadcasting, type
// promotion, out= casting rules, non-contiguous inputs and inplace.
#include "runtime/tensor_iterator.h"

#include <array>
#include <functional>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/cpu_loops.h"
#include "runtime/visit_dtype.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::IntArrayRef;
using sops::Scalar;
using sops::Tensor;
using sops::TensorOptions;
using sops::testing::make;
using sops::testing::values;
using sops::testing::vec;
using V = std::vector<int64_t>;

namespace meta {
struct structured_add_Tensor : sops::TensorIteratorBase {
  void meta(const Tensor& self, const Tensor& other, const Scalar& alpha);
};
SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
  SOPS_CHECK_ARG(!alpha.is_floating_point() || sops::is_floating_point(common_dtype()), "alpha",
                 "for integral input tensors, alpha must not be a floating point number");
}
}  // namespace meta

struct structured_add_out : meta::structured_add_Tensor {
  void impl(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out);
};
SOPS_IMPL_FUNC(add_out)(const Tensor&, const Tensor&, const Scalar& alpha, const Tensor&) {
  SOPS_DISPATCH_EVERY_TYPE(common_dtype(), "add", [&] {
    const auto a = alpha.to<scalar_t>();
    sops::cpu_kernel(*this, [=](scalar_t x, scalar_t y) -> scalar_t { return x + a * y; });
  });
}

using add_functional = sops::testing::FunctionalFinal<structured_add_out>;
using add_out = sops::testing::OutFinal<structured_add_out>;

struct add_inplace final : structured_add_out {
  explicit add_inplace(const Tensor& self) : outputs_{std::cref(self)} {}
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    sops::check_inplace(outputs_[static_cast<std::size_t>(i)], sizes, options);
    structured_add_out::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override {
    return outputs_[static_cast<std::size_t>(i)];
  }
  std::array<std::reference_wrapper<const Tensor>, 1> outputs_;
};

struct add_meta final : meta::structured_add_Tensor {
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

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  return sops::call_with_operator("add.Tensor", [&] {
    add_functional op;
    op.meta(self, other, alpha);
    op.impl(self, other, alpha, op.outputs_[0]);
    return std::move(op.outputs_[0]);
  });
}

void add_outf(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  sops::call_with_operator("add.out", [&] {
    add_out op(out);
    op.meta(self, other, alpha);
    op.impl(self, other, alpha, out);
  });
}

void add_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  sops::call_with_operator("add_.Tensor", [&] {
    add_inplace op(self);
    op.meta(self, other, alpha);
    op.impl(self, other, alpha, self);
  });
}

TEST(TensorIterator, SameShapeContiguous) {
  Tensor r = add(make<float>({1, 2, 3}, {3}), make<float>({10, 20, 30}, {3}), 2);
  EXPECT_EQ(r.scalar_type(), sops::kFloat);
  EXPECT_EQ(values<float>(r), (std::vector<float>{21, 42, 63}));
}

TEST(TensorIterator, BroadcastsBothWays) {
  Tensor col = make<int64_t>({1, 2}, {2, 1});
  Tensor row = make<int64_t>({10, 20, 30}, {3});
  Tensor r = add(col, row);
  EXPECT_EQ(vec(r.sizes()), (V{2, 3}));
  EXPECT_EQ(values<int64_t>(r), (std::vector<int64_t>{11, 21, 31, 12, 22, 32}));
}

TEST(TensorIterator, BroadcastErrorNamesTheArgument) {
  try {
    add(sops::empty({2, 3}), sops::empty({4}));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add.Tensor");
    EXPECT_EQ(e.argument(), "other");
    EXPECT_NE(std::string(e.what()).find("[2, 3] and [4]"), std::string::npos) << e.what();
  }
}

TEST(TensorIterator, PromotesInputsAndCastsWhileReading) {
  Tensor r = add(make<int32_t>({1, 2}, {2}), make<double>({0.5, 0.25}, {2}));
  EXPECT_EQ(r.scalar_type(), sops::kDouble);
  EXPECT_EQ(values<double>(r), (std::vector<double>{1.5, 2.25}));

  // A zero-dim tensor of a higher category promotes; of the same category it does not.
  Tensor r2 = add(make<int32_t>({1, 2}, {2}), make<int64_t>({7}, {}));
  EXPECT_EQ(r2.scalar_type(), sops::kInt);
  EXPECT_EQ(values<int32_t>(r2), (std::vector<int32_t>{8, 9}));

  // A wrapped number (how add.Scalar passes its Scalar) promotes as a number.
  Tensor r3 = add(make<int32_t>({1, 2}, {2}), sops::wrapped_scalar_tensor(0.5));
  EXPECT_EQ(r3.scalar_type(), sops::kFloat);
  EXPECT_EQ(values<float>(r3), (std::vector<float>{1.5, 2.5}));

  Tensor r4 = add(make<bool>({true, false}, {2}), make<bool>({true, false}, {2}));
  EXPECT_EQ(r4.scalar_type(), sops::kBool);
}

TEST(TensorIterator, HalfComputesThroughFloat) {
  Tensor r = add(make<float>({1.5f, 2.0f}, {2}, sops::kHalf),
                 make<float>({0.25f, 1.0f}, {2}, sops::kHalf));
  EXPECT_EQ(r.scalar_type(), sops::kHalf);
  EXPECT_EQ(values<float>(r), (std::vector<float>{1.75f, 3.0f}));
}

TEST(TensorIterator, NonContiguousInputs) {
  Tensor base = make<float>({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor transposed = base.as_strided({3, 2}, {1, 3});      // [[0,3],[1,4],[2,5]]
  Tensor every_other = base.as_strided({3, 2}, {2, 1}, 0);  // [[0,1],[2,3],[4,5]]
  Tensor r = add(transposed, every_other);
  EXPECT_EQ(values<float>(r), (std::vector<float>{0, 4, 3, 7, 6, 10}));
  // The result takes the first input's layout, as PyTorch's does (torch.add gives
  // strides (1, 3) here, and (2, 1) with the inputs swapped).
  EXPECT_EQ(r.strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(add(every_other, transposed).strides(), IntArrayRef({2, 1}));
}

TEST(TensorIterator, ChannelsLastInputGivesAChannelsLastResult) {
  std::vector<float> v(2 * 3 * 2 * 2);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  const Tensor nhwc = make<float>(v, {2, 2, 2, 3});               // memory order N, H, W, C
  const Tensor x = nhwc.as_strided({2, 3, 2, 2}, {12, 1, 6, 3});  // NCHW sizes, NHWC memory
  const Tensor r = add(x, x);
  EXPECT_EQ(r.strides(), IntArrayRef({12, 1, 6, 3}));  // torch.channels_last
  const std::vector<float> in = values<float>(x);
  const std::vector<float> out = values<float>(r);
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], 2 * in[i]) << i;
}

TEST(TensorIterator, OutKeepsItsDtypeWhenTheResultCastsSafely) {
  Tensor out = sops::empty({2}, sops::kDouble);
  add_outf(make<int64_t>({1, 2}, {2}), make<int64_t>({3, 4}, {2}), 1, out);
  EXPECT_EQ(out.scalar_type(), sops::kDouble);
  EXPECT_EQ(values<double>(out), (std::vector<double>{4, 6}));
}

TEST(TensorIterator, OutThatCannotHoldTheResultIsAnError) {
  Tensor out = sops::empty({2}, sops::kLong);
  try {
    add_outf(make<float>({1, 2}, {2}), make<float>({3, 4}, {2}), 1, out);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "add.out: argument 'out': result type float32 can't be cast to the "
                 "desired output type int64");
  }
}

TEST(TensorIterator, OutIsResizedToTheBroadcastShape) {
  Tensor out = sops::empty({0});
  add_outf(make<float>({1, 2}, {2, 1}), make<float>({10, 20}, {2}), 1, out);
  EXPECT_EQ(vec(out.sizes()), (V{2, 2}));
  EXPECT_EQ(values<float>(out), (std::vector<float>{11, 21, 12, 22}));
}

TEST(TensorIterator, NonContiguousOutIsWrittenThroughItsStrides) {
  Tensor storage = sops::empty({2, 2});
  Tensor out = storage.as_strided({2, 2}, {1, 2});
  add_outf(make<float>({1, 2, 3, 4}, {2, 2}), make<float>({0, 0, 0, 0}, {2, 2}), 1, out);
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(values<float>(storage), (std::vector<float>{1, 3, 2, 4}));
}

TEST(TensorIterator, InplaceWritesIntoSelf) {
  Tensor self = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const void* data = self.data_ptr();
  add_(self, make<float>({10, 20, 30}, {3}));
  EXPECT_EQ(self.data_ptr(), data);
  EXPECT_EQ(values<float>(self), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  add_(self, self);  // self is both inputs and the output
  EXPECT_EQ(values<float>(self), (std::vector<float>{22, 44, 66, 28, 50, 72}));
}

TEST(TensorIterator, InplaceIntoANarrowerDtypeFollowsPyTorch) {
  // float_tensor += int_tensor is allowed; int_tensor += float_tensor is not.
  Tensor f = make<float>({1, 2}, {2});
  add_(f, make<int32_t>({1, 1}, {2}));
  EXPECT_EQ(values<float>(f), (std::vector<float>{2, 3}));
  try {
    add_(make<int32_t>({1, 2}, {2}), make<float>({1, 1}, {2}));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.op(), "add_.Tensor");
    EXPECT_EQ(e.argument(), "self");
  }
  // bool_tensor += uint_tensor is not allowed either.
  EXPECT_THROW(add_(make<bool>({true}, {1}), make<uint8_t>({1}, {1})), sops::Error);
}

TEST(TensorIterator, InplaceCannotBroadcastSelf) {
  try {
    add_(sops::empty({3}), sops::empty({2, 3}));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "add_.Tensor: argument 'self': output with shape [3] doesn't match "
                 "the broadcast shape [2, 3]");
  }
}

TEST(TensorIterator, PartialOverlapBetweenOutputAndInputIsAnError) {
  Tensor base = make<float>({1, 2, 3, 4}, {4});
  Tensor head = base.as_strided({3}, {1}, 0);
  Tensor tail = base.as_strided({3}, {1}, 1);
  EXPECT_THROW(add_outf(tail, tail, 1, head), sops::Error);
  Tensor expanded = sops::empty({1}).expand({3});
  EXPECT_THROW(add_outf(head, head, 1, expanded), sops::Error);
}

TEST(TensorIterator, AlphaCheckInMetaUsesTheCommonDtype) {
  try {
    add(make<int64_t>({1}, {1}), make<int64_t>({1}, {1}), 2.5);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "alpha");
  }
}

TEST(TensorIterator, MetaVariantComputesShapeAndDtypeWithoutData) {
  const TensorOptions meta = TensorOptions().device(sops::kMeta);
  add_meta op;
  op.meta(sops::empty({4, 1}, meta.dtype(sops::kInt)), sops::empty({5}, meta.dtype(sops::kHalf)),
          1);
  const Tensor& r = op.maybe_get_output(0);
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(vec(r.sizes()), (V{4, 5}));
  EXPECT_EQ(r.scalar_type(), sops::kHalf);
  EXPECT_EQ(op.common_dtype(), sops::kHalf);
  EXPECT_EQ(vec(op.shape()), (V{4, 5}));
  EXPECT_EQ(op.numel(), 20);
}

TEST(TensorIterator, MixedDevicesAreAnError) {
  const TensorOptions meta = TensorOptions().device(sops::kMeta);
  EXPECT_THROW(add(sops::empty({2}), sops::empty({2}, meta)), sops::Error);
  // A cpu number joins tensors on any device.
  add_meta op;
  EXPECT_NO_THROW(op.meta(sops::empty({2}, meta), sops::wrapped_scalar_tensor(2), 1));
}

TEST(TensorIterator, EmptyAndZeroDimShapes) {
  Tensor r = add(sops::empty({0, 3}), sops::empty({3}));
  EXPECT_EQ(vec(r.sizes()), (V{0, 3}));
  Tensor s = add(make<float>({2}, {}), make<float>({3}, {}));
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.item<float>(), 5);
}

TEST(TensorIterator, PlainTensorIteratorAllocatesAndCoalesces) {
  Tensor a = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  sops::TensorIterator iter = sops::TensorIterator::binary_op(Tensor(), a, a);
  EXPECT_EQ(iter.ntensors(), 3);
  EXPECT_TRUE(iter.is_contiguous());
  EXPECT_EQ(iter.loop_ndim(), 1);  // [2, 3] contiguous coalesces to one loop of 6
  sops::cpu_kernel(iter, [](float x, float y) { return x * y; });
  EXPECT_EQ(values<float>(iter.output()), (std::vector<float>{1, 4, 9, 16, 25, 36}));
}

TEST(TensorIterator, ComparisonProducesBoolOrCastsIntoAGivenOut) {
  Tensor a = make<int32_t>({1, 5}, {2});
  Tensor b = make<double>({2.0, 2.0}, {2});
  sops::TensorIterator iter = sops::TensorIterator::comparison_op(Tensor(), a, b);
  EXPECT_EQ(iter.common_dtype(), sops::kDouble);
  EXPECT_EQ(iter.dtype(0), sops::kBool);
  sops::cpu_kernel(iter, [](double x, double y) -> bool { return x < y; });
  EXPECT_EQ(values<bool>(iter.output()), (std::vector<bool>{true, false}));

  Tensor out = sops::empty({2}, sops::kFloat);
  sops::TensorIterator iter2 = sops::TensorIterator::comparison_op(out, a, b);
  sops::cpu_kernel(iter2, [](double x, double y) -> bool { return x < y; });
  EXPECT_EQ(values<float>(out), (std::vector<float>{1, 0}));
}

TEST(TensorIterator, UnaryOpRequiresMatchingOutDtypeAndFloatOpPromotes) {
  Tensor a = make<int64_t>({1, 4}, {2});
  EXPECT_THROW(sops::TensorIterator::unary_op(sops::empty({2}, sops::kFloat), a), sops::Error);
  sops::TensorIterator iter = sops::TensorIterator::unary_float_op(Tensor(), a);
  EXPECT_EQ(iter.common_dtype(), sops::kFloat);
  sops::cpu_kernel(iter, [](float x) { return x / 2; });
  EXPECT_EQ(values<float>(iter.output()), (std::vector<float>{0.5f, 2.0f}));
}

TEST(TensorIterator, ForEachVisitsEveryElementOnce) {
  Tensor base = sops::empty({4, 5}, sops::kLong);
  Tensor view = base.as_strided({3, 2, 2}, {1, 10, 5});
  sops::TensorIteratorConfig config;
  config.add_output(view);
  sops::TensorIterator iter(config);
  int64_t counter = 0;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<int64_t*>(data[0] + i * strides[0]) = counter++;
    }
  });
  EXPECT_EQ(counter, 12);
  // Every element once, in the output's memory order (PyTorch's loop order): storage
  // offsets i + 10 j + 5 k, visited in increasing order.
  std::vector<int64_t> by_offset;
  const int64_t* storage = base.data_ptr<int64_t>();
  for (int64_t offset = 0; offset < 20; ++offset) {
    if (offset % 5 < 3) by_offset.push_back(storage[offset]);
  }
  EXPECT_EQ(by_offset, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

}  // namespace
