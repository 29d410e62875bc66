// TensorIteratorBase's fast path (functional, inputs of one dtype/device/shape, all
// contiguous) must build exactly what the general path builds, and iterators must
// stay valid however they own their operands (borrowed, owned, copied, moved).
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/cpu_loops.h"
#include "runtime/tensor_iterator.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::IntArrayRef;
using sops::Tensor;
using sops::TensorIterator;
using sops::TensorOptions;
using sops::testing::make;
using sops::testing::values;
using sops::testing::vec;
using V = std::vector<int64_t>;

// What a built iterator exposes, to compare two builds.
struct Layout {
  V shape;
  V loop_shape;
  V loop_strides;
  sops::ScalarType common;
  std::vector<sops::ScalarType> dtypes;

  explicit Layout(const sops::TensorIteratorBase& it)
      : shape(vec(it.shape())), loop_shape(vec(it.loop_shape())), common(it.common_dtype()) {
    for (int64_t d = 0; d < it.loop_ndim(); ++d) {
      for (int arg = 0; arg < it.ntensors(); ++arg) loop_strides.push_back(it.loop_stride(arg, d));
    }
    for (int arg = 0; arg < it.ntensors(); ++arg) dtypes.push_back(it.dtype(arg));
  }
  bool operator==(const Layout& o) const {
    return shape == o.shape && loop_shape == o.loop_shape && loop_strides == o.loop_strides &&
           common == o.common && dtypes == o.dtypes;
  }
};

// A given output of the right sizes and dtype takes the general path.
TEST(TensorIteratorFastPath, BuildsWhatTheGeneralPathBuilds) {
  for (const V& sizes : {V{}, V{1}, V{1, 1}, V{5}, V{2, 3}, V{3, 1, 2}, V{1, 4}, V{4, 1}}) {
    SCOPED_TRACE(::testing::PrintToString(sizes));
    const Tensor a = sops::empty(sizes, sops::kFloat);
    const Tensor b = sops::empty(sizes, sops::kFloat);
    const Tensor i = sops::empty(sizes, sops::kInt);
    const TensorIterator fast = TensorIterator::binary_op(Tensor(), a, b);
    const TensorIterator general =
        TensorIterator::binary_op(sops::empty(sizes, sops::kFloat), a, b);
    EXPECT_EQ(Layout(fast), Layout(general));
    const TensorIterator cmp = TensorIterator::comparison_op(Tensor(), a, b);
    EXPECT_EQ(Layout(cmp),
              Layout(TensorIterator::comparison_op(sops::empty(sizes, sops::kBool), a, b)));
    const TensorIterator fl = TensorIterator::unary_float_op(Tensor(), i);
    EXPECT_EQ(fl.common_dtype(), sops::kFloat);
    EXPECT_EQ(Layout(fl),
              Layout(TensorIterator::unary_float_op(sops::empty(sizes, sops::kFloat), i)));
  }
}

TEST(TensorIteratorFastPath, LoopLayoutOfContiguousOperands) {
  const Tensor s = sops::empty({}, sops::kDouble);
  EXPECT_EQ(TensorIterator::binary_op(Tensor(), s, s).loop_ndim(), 0);
  const Tensor one = sops::empty({1, 1}, sops::kFloat);
  const TensorIterator it1 = TensorIterator::binary_op(Tensor(), one, one);
  EXPECT_EQ(vec(it1.loop_shape()), (V{1}));
  EXPECT_EQ(it1.loop_stride(0, 0), 0);  // size-1 dimensions step by 0
  const Tensor f = sops::empty({3, 1, 2}, sops::kFloat);
  const Tensor l = sops::empty({3, 1, 2}, sops::kFloat);
  const TensorIterator it = TensorIterator::comparison_op(Tensor(), f, l);
  EXPECT_EQ(vec(it.loop_shape()), (V{6}));
  EXPECT_EQ(it.loop_stride(0, 0), 1);  // bool output
  EXPECT_EQ(it.loop_stride(1, 0), 4);
}

// Inputs outside the fast path still build (and compute) as before.
TEST(TensorIteratorFastPath, OtherInputsTakeTheGeneralPath) {
  const Tensor a = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor t = a.as_strided({3, 2}, {1, 3});  // transposed: not contiguous
  TensorIterator it = TensorIterator::binary_op(Tensor(), t, t);
  sops::cpu_kernel(it, [](float x, float y) { return x + y; });
  EXPECT_EQ(values<float>(it.output()), (std::vector<float>{2, 8, 4, 10, 6, 12}));
  // Mixed dtypes promote; a wrapped number keeps the tensor's dtype.
  EXPECT_EQ(TensorIterator::binary_op(Tensor(), a, make<double>({1, 1, 1}, {3})).common_dtype(),
            sops::kDouble);
  EXPECT_EQ(TensorIterator::binary_op(Tensor(), a, sops::wrapped_scalar_tensor(2.0)).common_dtype(),
            sops::kFloat);
  // An integral unary op that needs one dtype errors as before.
  EXPECT_THROW(TensorIterator::unary_op(sops::empty({2}, sops::kFloat), make<int64_t>({1, 2}, {2})),
               sops::Error);
}

TEST(TensorIteratorFastPath, StandaloneIteratorsOwnTheirOperands) {
  // The inputs are temporaries: gone once binary_op returns.
  TensorIterator it =
      TensorIterator::binary_op(Tensor(), make<float>({1, 2}, {2}), make<float>({10, 20}, {2}));
  TensorIterator copy = it;
  TensorIterator moved = std::move(it);
  for (TensorIterator* iter : {&copy, &moved}) {
    EXPECT_EQ(iter->input(0).use_count(), 2);  // held by copy and moved, nothing else
    sops::cpu_kernel(*iter, [](float x, float y) { return x + y; });
    EXPECT_EQ(values<float>(iter->output()), (std::vector<float>{11, 22}));
  }
}

// A structured functional op borrows its operands; a copy of it owns them.
struct add_functional final : sops::TensorIteratorBase {
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    outputs_[static_cast<std::size_t>(i)] = sops::create_out(sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t i) override {
    return outputs_[static_cast<std::size_t>(i)];
  }
  std::array<Tensor, 1> outputs_;
};

// The borrowing binary builders skip the config on the fast path: they must build
// what the config-driven build gives (owning TensorIterator, same settings).
TEST(TensorIteratorFastPath, BorrowingBinaryBuildersMatchTheConfigPath) {
  for (const V& sizes : {V{}, V{1}, V{5}, V{2, 3}}) {
    for (const sops::ScalarType dtype : {sops::kFloat, sops::kInt, sops::kBool}) {
      SCOPED_TRACE(::testing::PrintToString(sizes));
      const Tensor a = sops::empty(sizes, dtype);
      const Tensor b = sops::empty(sizes, dtype);
      add_functional bin;
      bin.build_borrowing_binary_op(bin.maybe_get_output(0), a, b);
      EXPECT_EQ(Layout(bin), Layout(TensorIterator::binary_op(Tensor(), a, b)));
      add_functional fl;
      fl.build_borrowing_binary_float_op(fl.maybe_get_output(0), a, b);
      EXPECT_EQ(Layout(fl), Layout(TensorIterator::binary_float_op(Tensor(), a, b)));
      add_functional cmp;
      cmp.build_borrowing_comparison_op(cmp.maybe_get_output(0), a, b);
      EXPECT_EQ(Layout(cmp), Layout(TensorIterator::comparison_op(Tensor(), a, b)));
      EXPECT_EQ(bin.operand(0).name, "out");
      EXPECT_EQ(bin.operand(1).name, "self");
      EXPECT_EQ(bin.operand(2).name, "other");
    }
  }
  // Off the fast path (mixed dtypes, broadcasting, an undefined input) as before.
  const Tensor f = sops::empty({2, 3}, sops::kFloat);
  add_functional mixed;
  mixed.build_borrowing_binary_op(mixed.maybe_get_output(0), f, sops::empty({3}, sops::kDouble));
  EXPECT_EQ(mixed.common_dtype(), sops::kDouble);
  EXPECT_EQ(vec(mixed.shape()), (V{2, 3}));
  add_functional undefined;
  EXPECT_THROW(undefined.build_borrowing_binary_op(undefined.maybe_get_output(0), f, Tensor()),
               sops::Error);
}

TEST(TensorIteratorFastPath, BorrowingLeavesReferenceCountsAloneAndCopiesOwn) {
  const Tensor a = make<float>({1, 2}, {2});
  const Tensor b = make<float>({3, 4}, {2});
  auto op = std::make_unique<add_functional>();
  op->build_borrowing_binary_op(op->maybe_get_output(0), a, b);
  EXPECT_EQ(a.use_count(), 1);
  EXPECT_TRUE(op->input(0).is_same(a));
  EXPECT_TRUE(op->output(0).is_same(op->outputs_[0]));
  add_functional copy(*op);
  op.reset();  // the copy's output lived in *op
  EXPECT_EQ(a.use_count(), 2);
  sops::cpu_kernel(copy, [](float x, float y) { return x * y; });
  EXPECT_EQ(values<float>(copy.output()), (std::vector<float>{3, 8}));
}

}  // namespace
