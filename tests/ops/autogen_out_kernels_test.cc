// The CPU backend's own out= kernels for variants native_functions.yaml leaves to
// `autogen:` (backends/cpu/autogen_kernels.yaml): relu.out, clone.out,
// native_layer_norm.out, embedding.out, native_group_norm.out,
// _native_batch_norm_legit_no_training.out, full_like.out, mul.Scalar_out. Each is checked against
// its functional kernel (which the golden tests check against PyTorch) on every path autogen's
// kernel has: an out of the result's sizes (written in place: same memory, no tensor allocated), an
// empty out (resized), a non-contiguous out, an out that is the input, and an out of
// another dtype (the result converted, as autogen's kernel through the dispatcher and
// PyTorch's do).
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "aten/Functions.h"
#include "runtime/error.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

Tensor filled(std::vector<int64_t> sizes, float scale) {
  Tensor t = empty(sizes, TensorOptions(kFloat));
  for (int64_t k = 0; k < t.numel(); ++k) {
    t.data_ptr<float>()[k] = scale * static_cast<float>((k * 7) % 11 - 5);
  }
  return t;
}

// Same dtype, sizes and values, element by element.
bool same_values(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  const Tensor x = aten::clone(a, MemoryFormat::Contiguous);
  const Tensor y = aten::clone(b, MemoryFormat::Contiguous);
  return std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) == 0;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(AutogenOutKernelsTest, ReluOut) {
  const Tensor x = filled({3, 5}, 0.5f);
  const Tensor expected = aten::relu(x);
  Tensor out = empty({3, 5}, TensorOptions(kFloat));
  void* before = out.data_ptr();
  {
    CountCpuAllocations count;
    EXPECT_TRUE(aten::relu_outf(x, out).is_same(out));
    EXPECT_EQ(count.count(), 0);
  }
  EXPECT_EQ(out.data_ptr(), before);
  EXPECT_TRUE(same_values(out, expected));
  Tensor resized = empty({0}, TensorOptions(kFloat));
  aten::relu_outf(x, resized);
  EXPECT_TRUE(same_values(resized, expected));
  Tensor transposed = empty({5, 3}, TensorOptions(kFloat)).as_strided({3, 5}, {1, 3});
  aten::relu_outf(x, transposed);
  EXPECT_TRUE(same_values(transposed, expected));
  Tensor self = aten::clone(x, std::nullopt);
  aten::relu_outf(self, self);
  EXPECT_TRUE(same_values(self, expected));
  Tensor doubles = empty({3, 5}, TensorOptions(kDouble));
  aten::relu_outf(x, doubles);
  EXPECT_TRUE(same_values(doubles, clone_as(expected, kDouble)));
}

TEST(AutogenOutKernelsTest, CloneOut) {
  const Tensor x = filled({4, 6}, 0.25f).as_strided({6, 4}, {1, 6});  // not contiguous
  const Tensor expected = aten::clone(x, std::nullopt);
  Tensor out = empty({6, 4}, TensorOptions(kFloat));
  {
    CountCpuAllocations count;
    EXPECT_TRUE(aten::clone_outf(x, std::nullopt, out).is_same(out));
    EXPECT_EQ(count.count(), 0);
  }
  EXPECT_TRUE(same_values(out, expected));
  Tensor resized = empty({0}, TensorOptions(kFloat));
  aten::clone_outf(x, MemoryFormat::Contiguous, resized);
  EXPECT_TRUE(same_values(resized, expected));
  Tensor doubles = empty({6, 4}, TensorOptions(kDouble));
  aten::clone_outf(x, std::nullopt, doubles);
  EXPECT_TRUE(same_values(doubles, clone_as(expected, kDouble)));
}

TEST(AutogenOutKernelsTest, NativeLayerNormOut) {
  const Tensor x = filled({2, 3, 8}, 0.3f);
  const Tensor w = filled({8}, 0.1f);
  const Tensor b = filled({8}, 0.05f);
  const std::vector<int64_t> shape = {8};
  const auto [y, mean, rstd] = aten::native_layer_norm(x, shape, w, b, 1e-5);
  Tensor out0 = empty({2, 3, 8}, TensorOptions(kFloat));
  Tensor out1 = empty({2, 3, 1}, TensorOptions(kFloat));
  Tensor out2 = empty({2, 3, 1}, TensorOptions(kFloat));
  {
    CountCpuAllocations count;
    const auto result = aten::native_layer_norm_outf(x, shape, w, b, 1e-5, out0, out1, out2);
    EXPECT_EQ(count.count(), 0);
    EXPECT_TRUE(std::get<0>(result).is_same(out0));
    EXPECT_TRUE(std::get<2>(result).is_same(out2));
  }
  EXPECT_TRUE(same_values(out0, y));
  EXPECT_TRUE(same_values(out1, mean));
  EXPECT_TRUE(same_values(out2, rstd));
  // Empty outs: resized; no weight nor bias.
  const auto [y2, mean2, rstd2] =
      aten::native_layer_norm(x, shape, std::nullopt, std::nullopt, 1e-5);
  Tensor e0 = empty({0}, TensorOptions(kFloat));
  Tensor e1 = empty({0}, TensorOptions(kFloat));
  Tensor e2 = empty({0}, TensorOptions(kFloat));
  aten::native_layer_norm_outf(x, shape, std::nullopt, std::nullopt, 1e-5, e0, e1, e2);
  EXPECT_TRUE(same_values(e0, y2));
  EXPECT_TRUE(same_values(e1, mean2));
  EXPECT_TRUE(same_values(e2, rstd2));
  Tensor doubles = empty({2, 3, 1}, TensorOptions(kDouble));
  aten::native_layer_norm_outf(x, shape, w, b, 1e-5, out0, doubles, out2);
  EXPECT_TRUE(same_values(doubles, clone_as(mean, kDouble)));
  // The functional kernel's checks, with its message.
  const std::vector<int64_t> wrong = {7};
  EXPECT_NE(error_of([&] {
              aten::native_layer_norm_outf(x, wrong, std::nullopt, std::nullopt, 1e-5, out0, out1,
                                           out2);
            }).find("Given normalized_shape=[7]"),
            std::string::npos);
}

TEST(AutogenOutKernelsTest, EmbeddingOut) {
  const Tensor weight = filled({10, 4}, 0.5f);
  Tensor indices = empty({2, 3}, TensorOptions(kLong));
  for (int64_t k = 0; k < 6; ++k) indices.data_ptr<int64_t>()[k] = (k * 3) % 10;
  const Tensor expected = aten::embedding(weight, indices, -1, false, false);
  Tensor out = empty({2, 3, 4}, TensorOptions(kFloat));
  {
    CountCpuAllocations count;
    EXPECT_TRUE(aten::embedding_outf(weight, indices, -1, false, false, out).is_same(out));
    EXPECT_EQ(count.count(), 0);
  }
  EXPECT_TRUE(same_values(out, expected));
  Tensor resized = empty({0}, TensorOptions(kFloat));
  aten::embedding_outf(weight, indices, -1, false, false, resized);
  EXPECT_TRUE(same_values(resized, expected));
  indices.data_ptr<int64_t>()[4] = 10;
  EXPECT_NE(error_of([&] {
              aten::embedding_outf(weight, indices, -1, false, false, out);
            }).find("index out of range in self"),
            std::string::npos);
}

TEST(AutogenOutKernelsTest, NativeGroupNormOut) {
  const Tensor x = filled({2, 6, 5}, 0.2f);
  const Tensor w = filled({6}, 0.1f);
  const Tensor b = filled({6}, 0.3f);
  const auto [y, mean, rstd] = aten::native_group_norm(x, w, b, 2, 6, 5, 3, 1e-5);
  Tensor out0 = empty({2, 6, 5}, TensorOptions(kFloat));
  Tensor out1 = empty({2, 3}, TensorOptions(kFloat));
  Tensor out2 = empty({2, 3}, TensorOptions(kFloat));
  {
    CountCpuAllocations count;
    aten::native_group_norm_outf(x, w, b, 2, 6, 5, 3, 1e-5, out0, out1, out2);
    EXPECT_EQ(count.count(), 0);
  }
  EXPECT_TRUE(same_values(out0, y));
  EXPECT_TRUE(same_values(out1, mean));
  EXPECT_TRUE(same_values(out2, rstd));
  Tensor e0 = empty({0}, TensorOptions(kFloat));
  Tensor e1 = empty({0}, TensorOptions(kFloat));
  Tensor e2 = empty({0}, TensorOptions(kFloat));
  aten::native_group_norm_outf(x, w, b, 2, 6, 5, 3, 1e-5, e0, e1, e2);
  EXPECT_TRUE(same_values(e0, y));
  EXPECT_TRUE(same_values(e2, rstd));
  EXPECT_NE(error_of([&] {
              aten::native_group_norm_outf(x, w, b, 2, 6, 5, 4, 1e-5, e0, e1, e2);
            }).find("Expected number of channels in input to be divisible by num_groups"),
            std::string::npos);
}

TEST(AutogenOutKernelsTest, BatchNormNoTrainingOut) {
  const Tensor x = filled({2, 3, 4}, 0.4f);
  const Tensor w = filled({3}, 0.1f);
  const Tensor b = filled({3}, 0.2f);
  const Tensor rm = filled({3}, 0.05f);
  Tensor rv = filled({3}, 0.1f);
  for (int k = 0; k < 3; ++k) rv.data_ptr<float>()[k] = 0.5f + static_cast<float>(k);
  const auto [y, m, v] = aten::_native_batch_norm_legit_no_training(x, w, b, rm, rv, 0.1, 1e-5);
  Tensor out0 = empty({2, 3, 4}, TensorOptions(kFloat));
  Tensor out1 = empty({0}, TensorOptions(kFloat));
  Tensor out2 = empty({0}, TensorOptions(kFloat));
  void* before = out0.data_ptr();
  aten::_native_batch_norm_legit_no_training_outf(x, w, b, rm, rv, 0.1, 1e-5, out0, out1, out2);
  EXPECT_EQ(out0.data_ptr(), before);
  EXPECT_TRUE(same_values(out0, y));
  EXPECT_TRUE(same_values(out1, m));
  EXPECT_TRUE(same_values(out2, v));
  Tensor transposed = empty({4, 3, 2}, TensorOptions(kFloat)).as_strided({2, 3, 4}, {1, 2, 6});
  aten::_native_batch_norm_legit_no_training_outf(x, w, b, rm, rv, 0.1, 1e-5, transposed, out1,
                                                  out2);
  EXPECT_TRUE(same_values(transposed, y));
}

TEST(AutogenOutKernelsTest, FullLikeAndMulScalarOut) {
  const Tensor x = filled({3, 4}, 0.5f);
  Tensor out = empty({3, 4}, TensorOptions(kFloat));
  {
    CountCpuAllocations count;
    aten::full_like_outf(x, 2.5, std::nullopt, out);
    EXPECT_EQ(count.count(), 0);
  }
  EXPECT_TRUE(same_values(out, aten::full_like(x, 2.5)));
  Tensor resized = empty({0}, TensorOptions(kFloat));
  aten::full_like_outf(x, -1, std::nullopt, resized);
  EXPECT_TRUE(same_values(resized, aten::full_like(x, -1)));
  aten::mul_outf(x, x, out);  // anything else in out first
  aten::mul_outf(x, 0.125, out);
  EXPECT_TRUE(same_values(out, aten::mul(x, 0.125)));
  Tensor ints = empty({3, 4}, TensorOptions(kLong));
  aten::mul_outf(x, 3, ints);
  EXPECT_TRUE(same_values(ints, clone_as(aten::mul(x, 3), kLong)));
  aten::full_like_outf(x, 2.5, std::nullopt, ints);
  EXPECT_TRUE(same_values(ints, aten::full_like(x, 2.5, kLong)));
}

}  // namespace
}  // namespace sops::optest
