// view and permute against PyTorch: results share self's storage with PyTorch's
// sizes, strides and offset; meta tensors give the same views.
#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

::testing::AssertionResult is_expected_view(const Tensor& v, const Tensor& self,
                                            const GoldenCase& c) {
  if (!v.is_alias_of(self) && self.storage().nbytes() > 0) {
    return ::testing::AssertionFailure() << c.where() << ": not a view of self";
  }
  if (v.strides() != IntArrayRef(c.expect.strides) || v.storage_offset() != c.expect.offset) {
    return ::testing::AssertionFailure()
           << c.where() << ": strides " << v.strides() << " offset " << v.storage_offset()
           << ", expected " << IntArrayRef(c.expect.strides) << " offset " << c.expect.offset;
  }
  return matches(v, c);
}

void check_view_op(const std::string& file, const std::string& op, const std::string& arg,
                   const std::function<Tensor(const Tensor&, IntArrayRef)>& call,
                   const std::function<Tensor(const Tensor&, IntArrayRef)>& static_call) {
  const auto cases = cases_of(file, op);
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const IntArrayRef ints(c.arg(arg).ints);
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { call(self, ints); }, c.expect.error, op));
      continue;
    }
    const Tensor v = call(self, ints);
    EXPECT_TRUE(is_expected_view(v, self, c));
    if (static_call) {
      EXPECT_TRUE(is_expected_view(static_call(self, ints), self, c));
    }
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    const Tensor mv = call(meta, ints);
    EXPECT_TRUE(matches_meta(mv, c));
    EXPECT_EQ(mv.strides().vec(), c.expect.strides);
  }
}

TEST(ViewTest, MatchesPyTorch) {
  check_view_op(
      "view.golden", "view", "size",
      [](const Tensor& t, IntArrayRef s) { return aten::view(t, s); },
      [](const Tensor& t, IntArrayRef s) { return aten::cpu::view(t, s); });
}

TEST(PermuteTest, MatchesPyTorch) {
  check_view_op(
      "permute.golden", "permute", "dims",
      [](const Tensor& t, IntArrayRef d) { return aten::permute(t, d); }, nullptr);
}

TEST(ViewTest, WritesThroughTheViewReachSelf) {
  Tensor base = aten::zeros({2, 3}, kFloat);
  Tensor v = aten::view(base, {3, 2});
  aten::fill_(v, 1.5);
  EXPECT_EQ(base.data_ptr<float>()[5], 1.5f);
}

}  // namespace
}  // namespace sops::optest
