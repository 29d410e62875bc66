// A kernel compiled by cuda_library: skipped without a GPU, checked against the CPU with one.
#include <vector>

#include <gtest/gtest.h>

#include "tests/cuda/testdata/saxpy.h"

namespace {

TEST(CudaLibrary, SaxpyMatchesTheCpu) {
  if (sops_cuda_test::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  std::vector<float> x(1000), y(1000), want(1000);
  for (int i = 0; i < 1000; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 3.0f - static_cast<float>(i);
    want[i] = 2.0f * x[i] + y[i];
  }
  ASSERT_EQ(sops_cuda_test::saxpy(2.0f, x, y), "");
  for (int i = 0; i < 1000; ++i) EXPECT_FLOAT_EQ(y[i], want[i]) << i;
}

}  // namespace
