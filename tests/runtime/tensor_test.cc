// Tensor, Storage and allocators: metadata, views, resize, meta tensors.
#include "runtime/tensor.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/allocator.h"
#include "runtime/irange.h"
#include "tests/runtime/test_util.h"

namespace {

using sops::Tensor;
using sops::testing::make;
using sops::testing::values;
using sops::testing::vec;
using V = std::vector<int64_t>;

TEST(Tensor, EmptyHasContiguousMetadata) {
  Tensor t = sops::empty({2, 3, 4}, sops::dtype(sops::kDouble));
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(vec(t.sizes()), (V{2, 3, 4}));
  EXPECT_EQ(vec(t.strides()), (V{12, 4, 1}));
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(-3), 12);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.scalar_type(), sops::kDouble);
  EXPECT_EQ(t.device(), sops::Device(sops::kCPU));
  EXPECT_EQ(t.options(), sops::TensorOptions(sops::kDouble));
  EXPECT_EQ(t.nbytes(), 24u * 8u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % sops::kCpuAlignment, 0u);
}

TEST(Tensor, DimensionsOutOfRangeAreErrors) {
  Tensor t = sops::empty({2, 3});
  try {
    t.size(2);
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(),
                 "dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
  EXPECT_THROW(t.stride(-3), sops::Error);
  EXPECT_EQ(sops::maybe_wrap_dim(-1, 0), 0);  // a 0-dim tensor accepts 0 and -1
  EXPECT_THROW(sops::maybe_wrap_dim(1, 0), sops::Error);
}

TEST(Tensor, UndefinedTensorThrowsInsteadOfCrashing) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_THROW(t.sizes(), sops::Error);
  EXPECT_THROW(t.data_ptr(), sops::Error);
  EXPECT_EQ(t.str(), "Tensor(undefined)");
}

TEST(Tensor, TypedDataPtrChecksTheElementType) {
  Tensor t = sops::empty({2}, sops::kLong);
  EXPECT_NE(t.data_ptr<int64_t>(), nullptr);
  try {
    t.data_ptr<float>();
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_STREQ(e.what(), "expected scalar type float32 but found int64");
  }
}

TEST(Tensor, HandlesShareTheImpl) {
  Tensor a = sops::empty({2});
  Tensor b = a;
  EXPECT_TRUE(a.is_same(b));
  EXPECT_EQ(a.use_count(), 2);
  b.resize_({5});
  EXPECT_EQ(a.numel(), 5);  // the same tensor
  EXPECT_FALSE(a.is_same(sops::empty({5})));
}

TEST(Tensor, AsStridedViewsShareStorage) {
  Tensor t = make<float>({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor tr = t.as_strided({3, 2}, {1, 3});  // the transpose
  EXPECT_TRUE(tr.is_alias_of(t));
  EXPECT_FALSE(tr.is_same(t));
  EXPECT_FALSE(tr.is_contiguous());
  EXPECT_EQ(values<float>(tr), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  t.data_ptr<float>()[1] = 10;
  EXPECT_EQ(values<float>(tr)[2], 10);
  Tensor row = t.as_strided({3}, {1}, 3);  // second row
  EXPECT_EQ(row.storage_offset(), 3);
  EXPECT_EQ(values<float>(row), (std::vector<float>{3, 4, 5}));
}

TEST(Tensor, AsStridedOutsideTheStorageIsAnError) {
  Tensor t = sops::empty({2, 3});
  EXPECT_THROW(t.as_strided({3, 3}, {3, 1}), sops::Error);
  EXPECT_THROW(t.as_strided({2}, {-1}), sops::Error);
  EXPECT_THROW(t.as_strided({2}, {1}, 5), sops::Error);
  EXPECT_NO_THROW(t.as_strided({2}, {1}, 4));
}

TEST(Tensor, ResizeGrowsStorageKeepsDataAndRestrides) {
  Tensor t = make<int32_t>({1, 2, 3, 4}, {2, 2});
  Tensor view = t.as_strided({2}, {1});
  t.resize_({3, 3});
  EXPECT_EQ(vec(t.sizes()), (V{3, 3}));
  EXPECT_EQ(vec(t.strides()), (V{3, 1}));
  EXPECT_GE(t.storage().nbytes(), 9u * 4u);
  EXPECT_EQ(values<int32_t>(t.as_strided({4}, {1}, 0)), (std::vector<int32_t>{1, 2, 3, 4}));
  EXPECT_TRUE(view.is_alias_of(t));  // the view sees the grown storage
  EXPECT_EQ(values<int32_t>(view), (std::vector<int32_t>{1, 2}));
}

TEST(Tensor, ResizeToTheSameSizesKeepsStrides) {
  Tensor t = sops::empty({2, 3});
  Tensor tr = t.as_strided({3, 2}, {1, 3});
  tr.resize_({3, 2});
  EXPECT_EQ(vec(tr.strides()), (V{1, 3}));
  tr.resize_({6});
  EXPECT_EQ(vec(tr.strides()), (V{1}));
}

TEST(Tensor, MetaTensorsHaveNoData) {
  Tensor m = sops::empty({1000, 1000}, sops::TensorOptions().device(sops::kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.data_ptr(), nullptr);
  EXPECT_EQ(m.data_ptr<float>(), nullptr);
  EXPECT_EQ(m.storage().nbytes(), 4000000u);
  EXPECT_EQ(m.numel(), 1000000);
  m.resize_({2000, 1000});
  EXPECT_EQ(m.data_ptr(), nullptr);
  EXPECT_EQ(m.numel(), 2000000);
  Tensor v = m.as_strided({10}, {2});
  EXPECT_TRUE(v.is_meta());
  EXPECT_THROW(m.as_strided({1}, {1}).item<float>(), sops::Error);
}

TEST(Tensor, ItemReadsOneElement) {
  EXPECT_EQ(make<float>({2.5f}, {}).item<float>(), 2.5f);
  EXPECT_EQ(make<float>({2.5f}, {1, 1}).item<int64_t>(), 2);
  EXPECT_TRUE(make<int64_t>({7}, {}).item().equal(sops::Scalar(7)));
  EXPECT_THROW(sops::empty({2}).item<float>(), sops::Error);
}

TEST(Tensor, ScalarTensors) {
  Tensor s = sops::scalar_to_tensor(2.5);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.scalar_type(), sops::kDouble);
  EXPECT_FALSE(s.is_wrapped_number());
  Tensor w = sops::wrapped_scalar_tensor(3);
  EXPECT_TRUE(w.is_wrapped_number());
  EXPECT_EQ(w.scalar_type(), sops::kLong);
  EXPECT_EQ(w.item<int64_t>(), 3);
}

TEST(Tensor, FromBlobWrapsForeignMemoryWithoutOwningIt) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  Tensor t = sops::from_blob(data.data(), {3, 2});
  EXPECT_EQ(t.data_ptr<float>(), data.data());
  EXPECT_EQ(values<float>(t), data);
  EXPECT_NO_THROW(t.resize_({2, 3}));  // fits
  EXPECT_THROW(t.resize_({4, 3}), sops::Error);
}

TEST(Tensor, EmptyStridedAllocatesWhatTheStridesNeed) {
  Tensor t = sops::empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(t.storage().nbytes(), 6u * 4u);
  EXPECT_FALSE(t.is_contiguous());
  Tensor z = sops::empty({0, 3});
  EXPECT_EQ(z.numel(), 0);
  EXPECT_TRUE(z.is_contiguous());
  EXPECT_THROW(sops::empty({-1}), sops::Error);
}

class CountingAllocator final : public sops::Allocator {
 public:
  sops::DataPtr allocate(std::size_t nbytes) override {
    ++count;
    return sops::cpu_allocator()->allocate(nbytes);
  }
  int count = 0;
};

TEST(Allocator, RegistryIsSettableAndCudaHasNoneByDefault) {
  CountingAllocator counting;
  {
    sops::ScopedAllocator scope(sops::kCPU, &counting);
    sops::empty({4});
    EXPECT_EQ(counting.count, 1);
  }
  sops::empty({4});
  EXPECT_EQ(counting.count, 1);
  EXPECT_THROW(sops::empty({1}, sops::TensorOptions().device(sops::kCUDA)), sops::Error);
  EXPECT_EQ(sops::get_allocator(sops::kCPU), sops::cpu_allocator());
}

// Small cpu_allocator() buffers share the storage's heap block; they behave as any
// other: aligned, writable over every byte, growable through the same allocator.
TEST(Storage, SmallCpuBuffersInTheStorageBlockBehaveAsOthers) {
  for (const std::size_t nbytes : {std::size_t{1}, std::size_t{4}, std::size_t{63}, std::size_t{64},
                                   std::size_t{512}, std::size_t{513}}) {
    SCOPED_TRACE(nbytes);
    const sops::Storage s = sops::Storage::allocate(nbytes, sops::cpu_allocator());
    ASSERT_NE(s.data(), nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.data()) % sops::kCpuAlignment, 0u);
    EXPECT_EQ(s.nbytes(), nbytes);
    EXPECT_EQ(s.allocator(), sops::cpu_allocator());
    EXPECT_TRUE(s.resizable());
    EXPECT_EQ(s.device(), sops::Device(sops::kCPU));
    std::memset(s.data(), 0xab, nbytes);  // every byte is ours (ASan checks)
    s.resize(2 * nbytes + 1);
    EXPECT_EQ(static_cast<unsigned char*>(s.data())[nbytes - 1], 0xab);
    std::memset(s.data(), 0, 2 * nbytes + 1);
  }
  EXPECT_EQ(sops::Storage::allocate(0, sops::cpu_allocator()).data(), nullptr);
  const sops::Tensor t = sops::empty({3}, sops::kFloat);
  t.resize_({1000});  // grows out of the block
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % sops::kCpuAlignment, 0u);
  EXPECT_EQ(sops::empty({2}, sops::TensorOptions().device(sops::kMeta)).data_ptr(), nullptr);
}

TEST(Irange, CountsLikeRange) {
  std::vector<int64_t> seen;
  for (const auto i : sops::irange(int64_t{3})) seen.push_back(i);
  for (const auto i : sops::irange(5, 7)) seen.push_back(i);
  for (const auto i : sops::irange(4, 2)) seen.push_back(i);  // empty
  EXPECT_EQ(seen, (V{0, 1, 2, 5, 6}));
}

}  // namespace
