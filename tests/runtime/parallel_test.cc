// sops::parallel_for and the parallel, vectorized cpu_kernel: every element visited
// once, whatever the thread count, the split points or the operands' layout.
#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/cpu_loops.h"
#include "runtime/error.h"
#include "runtime/parallel.h"
#include "runtime/tensor_iterator.h"
#include "tests/runtime/test_util.h"

namespace sops {
namespace {

// Restores the thread count a test changes.
class Threads : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = get_num_threads(); }
  void TearDown() override { set_num_threads(saved_); }
  int saved_ = 1;
};

using ParallelFor = Threads;
using ParallelCpuKernel = Threads;

TEST_F(ParallelFor, CoversEveryIndexOnce) {
  for (int threads : {1, 2, 3, 8}) {
    set_num_threads(threads);
    std::vector<std::atomic<int>> hits(100003);
    parallel_for(0, static_cast<int64_t>(hits.size()), 1000, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) hits[static_cast<std::size_t>(i)]++;
    });
    for (std::size_t i = 0; i < hits.size(); ++i) {
      ASSERT_EQ(hits[i].load(), 1) << "index " << i << " with " << threads << " threads";
    }
  }
}

TEST_F(ParallelFor, ChunksAreAtLeastTheGrainSize) {
  set_num_threads(4);
  std::atomic<int64_t> smallest{1 << 30};
  parallel_for(0, 10000, 3000, [&](int64_t b, int64_t e) {
    int64_t cur = smallest.load();
    while (e - b < cur && !smallest.compare_exchange_weak(cur, e - b)) {
    }
  });
  // 10000 / 3000: at most 3 chunks, none shorter than the grain.
  EXPECT_GE(smallest.load(), 3000);
}

TEST_F(ParallelFor, SmallRangeRunsOnTheCallingThread) {
  set_num_threads(4);
  const std::thread::id caller = std::this_thread::get_id();
  parallel_for(0, 100, 1000, [&](int64_t b, int64_t e) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 100);
  });
}

TEST_F(ParallelFor, NestedCallsRunInline) {
  set_num_threads(2);
  std::atomic<int> inner_chunks{0};
  parallel_for(0, 4, 1, [&](int64_t, int64_t) {
    EXPECT_TRUE(in_parallel_region());
    parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) {
      EXPECT_EQ(e - b, 1000);
      inner_chunks++;
    });
  });
  EXPECT_FALSE(in_parallel_region());
  EXPECT_GE(inner_chunks.load(), 1);
}

TEST_F(ParallelFor, AnExceptionReachesTheCallerAfterEveryChunk) {
  set_num_threads(3);
  std::atomic<int> finished{0};
  EXPECT_THROW(parallel_for(0, 3, 1,
                            [&](int64_t b, int64_t) {
                              if (b == 1) throw std::runtime_error("chunk 1 failed");
                              finished++;
                            }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
  // The pool still works afterwards.
  std::atomic<int> again{0};
  parallel_for(0, 3, 1, [&](int64_t, int64_t) { again++; });
  EXPECT_EQ(again.load(), 3);
}

TEST_F(ParallelFor, ThreadCountMustBePositive) {
  EXPECT_THROW(set_num_threads(0), Error);
  EXPECT_GE(get_num_threads(), 1);
}

// out = a + b over a transposed a and a broadcast b, large enough to be split: each
// element is checked against the formula that made its inputs.
TEST_F(ParallelCpuKernel, NonContiguousBroadcastAddOverThreads) {
  const int64_t rows = 300, cols = 257;  // numel well above kGrainSize, odd run lengths
  Tensor base = empty({cols, rows});
  float* p = base.data_ptr<float>();
  for (int64_t i = 0; i < base.numel(); ++i) p[i] = static_cast<float>(i % 1000);
  const Tensor a = base.as_strided({rows, cols}, {1, rows});  // a[r][c] = base[c][r]
  const Tensor b = testing::make<float>(std::vector<float>(cols, 0.5f), {cols});
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    Tensor out;
    TensorIterator iter = TensorIterator::binary_op(out, a, b);
    cpu_kernel(iter, [](float x, float y) -> float { return x + y; });
    const Tensor& result = iter.output(0);
    ASSERT_EQ(result.size(0), rows);
    ASSERT_EQ(result.size(1), cols);
    const std::vector<float> got = testing::values<float>(result);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const float want = static_cast<float>((c * rows + r) % 1000) + 0.5f;
        ASSERT_EQ(got[static_cast<std::size_t>(r * cols + c)], want)
            << "[" << r << "][" << c << "] with " << threads << " threads";
      }
    }
  }
}

// serial_for_each and serial_for_each_2d over any [begin, end) visit exactly those
// elements, in the loop order: the output's, innermost dimension fastest.
TEST(SerialForEach, EveryRangeVisitsItsElementsInLoopOrder) {
  const int64_t n0 = 5, n1 = 7, n2 = 3;
  Tensor base = empty({n2, n1, n0});
  float* p = base.data_ptr<float>();
  for (int64_t i = 0; i < base.numel(); ++i) p[i] = static_cast<float>(i);
  // a[i0][i2][i1] = element (i1 * n2 + i2) * n0 + i0 of base: no two dimensions merge,
  // read into a contiguous output.
  const Tensor a = base.as_strided({n0, n2, n1}, {1, n0, n2 * n0});
  Tensor out = empty({n0, n2, n1});
  TensorIterator iter = TensorIterator::unary_op(out, a);
  ASSERT_EQ(iter.loop_ndim(), 3);
  // The loop order is the output's: i1 fastest, then i2, then i0.
  std::vector<float> order;
  for (int64_t i0 = 0; i0 < n0; ++i0) {
    for (int64_t i2 = 0; i2 < n2; ++i2) {
      for (int64_t i1 = 0; i1 < n1; ++i1) {
        order.push_back(static_cast<float>((i1 * n2 + i2) * n0 + i0));
      }
    }
  }
  int64_t most_rows = 0;
  for (int64_t begin = 0; begin <= a.numel(); ++begin) {
    for (int64_t end = begin; end <= a.numel(); ++end) {
      const std::vector<float> want(order.begin() + begin, order.begin() + end);
      std::vector<float> got1, got2;
      iter.serial_for_each(
          [&](char** data, const int64_t* strides, int64_t n) {
            for (int64_t k = 0; k < n; ++k) {
              got1.push_back(*reinterpret_cast<float*>(data[1] + k * strides[1]));
            }
          },
          begin, end);
      iter.serial_for_each_2d(
          [&](char** data, const int64_t* strides, int64_t n, int64_t rows, const int64_t* outer) {
            most_rows = std::max(most_rows, rows);
            for (int64_t r = 0; r < rows; ++r) {
              for (int64_t k = 0; k < n; ++k) {
                got2.push_back(*reinterpret_cast<float*>(data[1] + r * outer[1] + k * strides[1]));
              }
            }
          },
          begin, end);
      ASSERT_EQ(got1, want) << "serial_for_each over [" << begin << ", " << end << ")";
      ASSERT_EQ(got2, want) << "serial_for_each_2d over [" << begin << ", " << end << ")";
    }
  }
  EXPECT_EQ(most_rows, n2);  // whole rows go to the loop together, up to a step of dim 2
}

}  // namespace
}  // namespace sops
