// The nn operators on inputs larger than most golden cases (written when those were kept
// to 60 elements; the limit is now 10,000): convolution, max_pool2d, softmax and
// layer_norm against direct loops in double, so that im2col / col2im, the depthwise loop,
// the vector loops and their tails and the split over threads are exercised at realistic
// sizes and on 2 threads; the output strides of every nn golden case (channels-last
// kept) through the boxed registry; training batch norm's in-place update of the running
// statistics (which the golden runner does not see), and the inputs sops refuses where
// PyTorch's kernels read past their tensors or leave the result unwritten.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aten/Functions.h"
#include "aten/UnboxingFunctions.h"
#include "runtime/operator_registry.h"
#include "runtime/parallel.h"
#include "runtime/value.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

// A contiguous tensor of deterministic values in [-2, 2).
Tensor random_tensor(std::vector<int64_t> sizes, ScalarType dtype, uint64_t seed) {
  Tensor t = sops::empty(sizes, dtype);
  uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (int64_t i = 0; i < t.numel(); ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const double v = static_cast<double>((s >> 11) % 4096) / 1024.0 - 2.0;
    if (dtype == ScalarType::Float)
      t.data_ptr<float>()[i] = static_cast<float>(v);
    else
      t.data_ptr<double>()[i] = v;
  }
  return t;
}

double at(const Tensor& t, std::initializer_list<int64_t> index) {
  int64_t off = 0, d = 0;
  for (const int64_t i : index) off += i * t.stride(d++);
  return t.scalar_type() == ScalarType::Float ? t.data_ptr<float>()[off]
                                              : t.data_ptr<double>()[off];
}

struct ConvCase {
  std::vector<int64_t> input, weight;
  std::vector<int64_t> stride, padding, dilation;
  bool transposed;
  std::vector<int64_t> output_padding;
  int64_t groups;
  bool bias;
};

// out of a 2-d convolution (1-d as height 1) by its definition, in double.
std::vector<double> reference_conv(const ConvCase& k, const Tensor& x, const Tensor& w,
                                   const Tensor& b, const std::vector<int64_t>& out_sizes) {
  const bool one_d = k.input.size() == 3;
  auto sz = [&](const std::vector<int64_t>& v, int i) {
    return one_d ? (i == 2 ? 1 : v[i == 3 ? 2 : i]) : v[i];
  };
  auto par = [&](const std::vector<int64_t>& v, int i) {
    return v.size() == 1 ? v[0] : (one_d ? v[0] : v[i]);
  };
  const int64_t N = sz(k.input, 0), C = sz(k.input, 1), H = sz(k.input, 2), W = sz(k.input, 3);
  const int64_t kH = sz(k.weight, 2), kW = sz(k.weight, 3);
  const int64_t sH = one_d ? 1 : par(k.stride, 0), sW = par(k.stride, 1);
  const int64_t pH = one_d ? 0 : par(k.padding, 0), pW = par(k.padding, 1);
  const int64_t dH = one_d ? 1 : par(k.dilation, 0), dW = par(k.dilation, 1);
  const int64_t OC = out_sizes[1], OH = one_d ? 1 : out_sizes[2], OW = out_sizes.back();
  const int64_t G = k.groups, ICg = C / G, OCg = OC / G;
  auto X = [&](int64_t n, int64_t c, int64_t h, int64_t ww) {
    return one_d ? at(x, {n, c, ww}) : at(x, {n, c, h, ww});
  };
  auto Wt = [&](int64_t a, int64_t c, int64_t h, int64_t ww) {
    return one_d ? at(w, {a, c, ww}) : at(w, {a, c, h, ww});
  };
  std::vector<double> out(static_cast<std::size_t>(N * OC * OH * OW), 0.0);
  auto O = [&](int64_t n, int64_t c, int64_t h, int64_t ww) -> double& {
    return out[static_cast<std::size_t>(((n * OC + c) * OH + h) * OW + ww)];
  };
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < OC; ++c) {
      for (int64_t h = 0; h < OH; ++h) {
        for (int64_t ww = 0; ww < OW; ++ww) O(n, c, h, ww) = k.bias ? at(b, {c}) : 0.0;
      }
    }
    for (int64_t g = 0; g < G; ++g) {
      for (int64_t ic = 0; ic < ICg; ++ic) {
        for (int64_t oc = 0; oc < OCg; ++oc) {
          for (int64_t a = 0; a < kH; ++a) {
            for (int64_t bb = 0; bb < kW; ++bb) {
              if (!k.transposed) {
                const double wv = Wt(g * OCg + oc, ic, a, bb);
                for (int64_t h = 0; h < OH; ++h) {
                  for (int64_t ww = 0; ww < OW; ++ww) {
                    const int64_t ih = h * sH - pH + a * dH, iw = ww * sW - pW + bb * dW;
                    if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                      O(n, g * OCg + oc, h, ww) += wv * X(n, g * ICg + ic, ih, iw);
                  }
                }
              } else {
                const double wv = Wt(g * ICg + ic, oc, a, bb);
                for (int64_t ih = 0; ih < H; ++ih) {
                  for (int64_t iw = 0; iw < W; ++iw) {
                    const int64_t h = ih * sH - pH + a * dH, ww = iw * sW - pW + bb * dW;
                    if (h >= 0 && h < OH && ww >= 0 && ww < OW)
                      O(n, g * OCg + oc, h, ww) += wv * X(n, g * ICg + ic, ih, iw);
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return out;
}

TEST(NnTest, ConvolutionMatchesItsDefinitionAtLargerSizes) {
  const std::vector<ConvCase> cases = {
      {{2, 5, 13, 11}, {7, 5, 3, 3}, {1}, {1}, {1}, false, {0}, 1, true},
      {{2, 8, 16, 16}, {8, 8, 3, 3}, {2}, {1}, {1}, false, {0}, 1, true},
      {{1, 3, 15, 14}, {4, 3, 5, 3}, {2, 3}, {2, 1}, {2, 1}, false, {0}, 1, false},
      {{2, 6, 9, 10}, {4, 3, 3, 3}, {1}, {1}, {1}, false, {0}, 2, true},
      {{2, 6, 17, 19}, {6, 1, 3, 3}, {1}, {1}, {1}, false, {0}, 6, true},
      {{1, 6, 17, 19}, {12, 1, 3, 3}, {2}, {1}, {1}, false, {0}, 6, false},
      {{1, 4, 16, 16}, {4, 1, 3, 3}, {1}, {2}, {2}, false, {0}, 4, true},
      {{2, 6, 9, 9}, {5, 6, 1, 1}, {1}, {0}, {1}, false, {0}, 1, true},
      {{2, 6, 9, 9}, {5, 6, 1, 1}, {2}, {0}, {1}, false, {0}, 1, false},
      {{2, 4, 7, 6}, {4, 3, 3, 3}, {2}, {1}, {1}, true, {1}, 1, true},
      {{1, 4, 5, 7}, {4, 2, 3, 2}, {2, 1}, {1, 0}, {2, 1}, true, {0}, 2, true},
      {{3, 4, 17}, {5, 4, 3}, {2}, {1}, {1}, false, {0}, 1, true},
      {{2, 4, 19}, {4, 1, 5}, {1}, {2}, {1}, false, {0}, 4, true},
      {{2, 3, 9}, {3, 2, 3}, {3}, {1}, {1}, true, {2}, 1, true},
  };
  for (const int threads : {1, 2}) {
    set_num_threads(threads);
    for (const ScalarType dtype : {ScalarType::Double, ScalarType::Float}) {
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const ConvCase& k = cases[i];
        SCOPED_TRACE("case " + std::to_string(i) + " threads " + std::to_string(threads) +
                     (dtype == ScalarType::Float ? " float32" : " float64"));
        const Tensor x = random_tensor(k.input, dtype, 3 * i + 1);
        const Tensor w = random_tensor(k.weight, dtype, 3 * i + 2);
        const int64_t oc = k.transposed ? k.weight[1] * k.groups : k.weight[0];
        const Tensor b = random_tensor({oc}, dtype, 3 * i + 3);
        const Tensor y =
            aten::convolution(x, w, k.bias ? std::optional<Tensor>(b) : std::nullopt, k.stride,
                              k.padding, k.dilation, k.transposed, k.output_padding, k.groups);
        ASSERT_TRUE(y.is_contiguous());
        const std::vector<int64_t> sizes(y.sizes().begin(), y.sizes().end());
        const std::vector<double> want = reference_conv(k, x, w, b, sizes);
        ASSERT_EQ(static_cast<std::size_t>(y.numel()), want.size());
        const double tol = dtype == ScalarType::Float ? 1e-4 : 1e-10;
        for (int64_t j = 0; j < y.numel(); ++j) {
          const double got =
              dtype == ScalarType::Float ? y.data_ptr<float>()[j] : y.data_ptr<double>()[j];
          ASSERT_NEAR(got, want[static_cast<std::size_t>(j)],
                      tol * (1 + std::fabs(want[static_cast<std::size_t>(j)])))
              << "element " << j;
        }
      }
    }
  }
  set_num_threads(2);
}

TEST(NnTest, SoftmaxAndLayerNormOnLongRows) {
  for (const ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const double tol = dtype == ScalarType::Float ? 2e-6 : 1e-13;
    // Rows of 1037 (vector loops and a tail) over the last dim, and dim 1 of [3, 29, 37].
    const Tensor x = random_tensor({5, 1037}, dtype, 7);
    const Tensor y = aten::_softmax(x, 1, false);
    const Tensor ly = aten::_log_softmax(x, -1, false);
    for (int64_t r = 0; r < 5; ++r) {
      double m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < 1037; ++j) m = std::max(m, at(x, {r, j}));
      for (int64_t j = 0; j < 1037; ++j) sum += std::exp(at(x, {r, j}) - m);
      for (int64_t j = 0; j < 1037; ++j) {
        const double want = std::exp(at(x, {r, j}) - m) / sum;
        ASSERT_NEAR(at(y, {r, j}), want, tol * (1 + want));
        const double lwant = at(x, {r, j}) - m - std::log(sum);
        ASSERT_NEAR(at(ly, {r, j}), lwant, tol * (1 + std::fabs(lwant)));
      }
    }
    const Tensor z = random_tensor({3, 29, 37}, dtype, 8);
    const Tensor zy = aten::_softmax(z, 1, false);
    for (int64_t o = 0; o < 3; ++o) {
      for (int64_t i = 0; i < 37; ++i) {
        double m = -INFINITY, sum = 0;
        for (int64_t d = 0; d < 29; ++d) m = std::max(m, at(z, {o, d, i}));
        for (int64_t d = 0; d < 29; ++d) sum += std::exp(at(z, {o, d, i}) - m);
        for (int64_t d = 0; d < 29; ++d) {
          const double want = std::exp(at(z, {o, d, i}) - m) / sum;
          ASSERT_NEAR(at(zy, {o, d, i}), want, tol * (1 + want));
        }
      }
    }
    // dim 0 of [7, 600]: the columns split into blocks (of 256) over the threads.
    const Tensor c0 = random_tensor({7, 600}, dtype, 13);
    const Tensor c0y = aten::_log_softmax(c0, 0, false);
    for (int64_t i = 0; i < 600; ++i) {
      double m = -INFINITY, sum = 0;
      for (int64_t d = 0; d < 7; ++d) m = std::max(m, at(c0, {d, i}));
      for (int64_t d = 0; d < 7; ++d) sum += std::exp(at(c0, {d, i}) - m);
      for (int64_t d = 0; d < 7; ++d) {
        const double want = at(c0, {d, i}) - m - std::log(sum);
        ASSERT_NEAR(at(c0y, {d, i}), want, tol * (1 + std::fabs(want)));
      }
    }
    // layer_norm over rows of 771 with weight and bias.
    const Tensor ln = random_tensor({6, 771}, dtype, 9);
    const Tensor g = random_tensor({771}, dtype, 10);
    const Tensor b = random_tensor({771}, dtype, 11);
    const auto [out, mean, rstd] = aten::native_layer_norm(ln, {771}, g, b, 1e-5);
    for (int64_t r = 0; r < 6; ++r) {
      double m = 0, v = 0;
      for (int64_t j = 0; j < 771; ++j) m += at(ln, {r, j});
      m /= 771;
      for (int64_t j = 0; j < 771; ++j) v += (at(ln, {r, j}) - m) * (at(ln, {r, j}) - m);
      const double rs = 1 / std::sqrt(v / 771 + 1e-5);
      ASSERT_NEAR(at(mean, {r, 0}), m, tol * 10);
      ASSERT_NEAR(at(rstd, {r, 0}), rs, tol * 10 * rs);
      for (int64_t j = 0; j < 771; ++j) {
        const double want = (at(ln, {r, j}) - m) * rs * at(g, {j}) + at(b, {j});
        ASSERT_NEAR(at(out, {r, j}), want, tol * 10 * (1 + std::fabs(want)));
      }
    }
  }
}

TEST(NnTest, MaxPoolMatchesItsDefinitionAtLargerSizes) {
  const Tensor x = random_tensor({2, 5, 23, 19}, ScalarType::Float, 12);
  const auto [y, idx] = aten::max_pool2d_with_indices(x, {3, 3}, {2, 2}, {1, 1}, {1, 1}, false);
  ASSERT_EQ(y.sizes(), IntArrayRef({2, 5, 12, 10}));
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t c = 0; c < 5; ++c) {
      for (int64_t oh = 0; oh < 12; ++oh) {
        for (int64_t ow = 0; ow < 10; ++ow) {
          double best = -INFINITY;
          int64_t where = -1;
          for (int64_t kh = 0; kh < 3; ++kh) {
            for (int64_t kw = 0; kw < 3; ++kw) {
              const int64_t ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;
              if (ih < 0 || ih >= 23 || iw < 0 || iw >= 19) continue;
              if (at(x, {n, c, ih, iw}) > best) {
                best = at(x, {n, c, ih, iw});
                where = ih * 19 + iw;
              }
            }
          }
          ASSERT_EQ(at(y, {n, c, oh, ow}), best);
          ASSERT_EQ(idx.data_ptr<int64_t>()[((n * 5 + c) * 12 + oh) * 10 + ow], where);
        }
      }
    }
  }
}

// Every non-error case of the nn golden files, through the registry: each returned
// tensor has PyTorch's strides (the runner checks values and sizes).
TEST(NnTest, OutputStridesMatchPyTorch) {
  OperatorRegistry registry;
  aten::register_aten_kernels(registry);
  for (const char* file :
       {"softmax.golden", "layer_norm.golden", "batch_norm.golden", "max_pool2d.golden",
        "avg_pool2d.golden", "adaptive_avg_pool2d.golden", "convolution.golden"}) {
    for (const golden::GoldenCase& c : golden::load_golden(golden::golden_data_path(file))) {
      if (c.is_error()) continue;
      SCOPED_TRACE(c.where());
      const RegisteredOperator& op = registry.find_or_throw("aten::" + c.op);
      Stack stack;
      for (const golden::GoldenArg& a : c.args) {
        switch (a.kind) {
          case golden::ArgKind::kTensor:
            stack.emplace_back(to_tensor(a.tensor));
            break;
          case golden::ArgKind::kInt:
            stack.emplace_back(a.int_value);
            break;
          case golden::ArgKind::kInts:
            stack.emplace_back(a.ints);
            break;
          case golden::ArgKind::kFloat:
            stack.emplace_back(a.float_value);
            break;
          case golden::ArgKind::kBool:
            stack.emplace_back(a.bool_value);
            break;
          case golden::ArgKind::kNone:
            stack.emplace_back();
            break;
          default:
            FAIL() << "argument kind " << golden::arg_kind_name(a.kind);
        }
      }
      op.call(stack);
      ASSERT_EQ(stack.size(), c.expect.result_count());
      for (std::size_t i = 0; i < stack.size(); ++i) {
        const Tensor r = stack[i].to_tensor();
        const golden::GoldenExpect& e = c.expect.result(i);
        if (r.numel() > 1) {
          EXPECT_EQ(r.strides(), IntArrayRef(e.strides)) << "return " << i;
        }
      }
    }
  }
}

TEST(NnTest, TrainingBatchNormUpdatesTheRunningStatisticsInPlace) {
  const Tensor x = random_tensor({4, 3, 5}, ScalarType::Double, 7);
  Tensor running_mean = sops::aten::zeros({3}, ScalarType::Double);
  Tensor running_var = sops::aten::ones({3}, ScalarType::Double);
  const auto [out, save_mean, save_invstd] = sops::aten::_native_batch_norm_legit(
      x, std::nullopt, std::nullopt, running_mean, running_var, true, 0.25, 1e-5);
  for (int64_t c = 0; c < 3; ++c) {
    double sum = 0, squares = 0;
    for (int64_t n = 0; n < 4; ++n)
      for (int64_t i = 0; i < 5; ++i) sum += at(x, {n, c, i});
    const double mean = sum / 20;
    for (int64_t n = 0; n < 4; ++n)
      for (int64_t i = 0; i < 5; ++i)
        squares += (at(x, {n, c, i}) - mean) * (at(x, {n, c, i}) - mean);
    EXPECT_NEAR(at(save_mean, {c}), mean, 1e-12);
    EXPECT_NEAR(at(save_invstd, {c}), 1 / std::sqrt(squares / 20 + 1e-5), 1e-12);
    EXPECT_NEAR(at(running_mean, {c}), 0.25 * mean, 1e-12);
    EXPECT_NEAR(at(running_var, {c}), 0.75 + 0.25 * squares / 19, 1e-12);
    EXPECT_NEAR(at(out, {1, c, 2}), (at(x, {1, c, 2}) - mean) * at(save_invstd, {c}), 1e-12);
  }
  // Inference reads the running statistics and leaves them alone.
  const Tensor before = sops::aten::clone(running_mean);
  sops::aten::_native_batch_norm_legit(x, std::nullopt, std::nullopt, running_mean, running_var,
                                       false, 0.25, 1e-5);
  EXPECT_EQ(at(running_mean, {1}), at(before, {1}));
}

TEST(NnTest, RefusesWhatPyTorchsKernelsDoNotCheck) {
  const Tensor x = random_tensor({2, 3, 4}, ScalarType::Float, 3);
  Tensor four = sops::aten::zeros({4}, ScalarType::Float);
  Tensor three = sops::aten::ones({3}, ScalarType::Float);
  EXPECT_TRUE(throws_error(
      [&] {
        sops::aten::_native_batch_norm_legit(x, std::nullopt, std::nullopt, four, three, true, 0.1,
                                             1e-5);
      },
      "running_mean should contain 3 elements not 4"));
  EXPECT_TRUE(throws_error(
      [&] {
        sops::aten::_native_batch_norm_legit(x, std::nullopt, std::nullopt, false, 0.1, 1e-5);
      },
      "running_mean must be defined in evaluation mode"));
  const Tensor image = random_tensor({1, 2, 3, 3}, ScalarType::Float, 4);
  const Tensor grid = random_tensor({1, 2, 2, 2}, ScalarType::Float, 5);
  EXPECT_TRUE(throws_error([&] { sops::aten::grid_sampler_2d(image, grid, 3, 0, false); },
                           "expected interpolation_mode 0 (bilinear)"));
  EXPECT_TRUE(throws_error([&] { sops::aten::grid_sampler_2d(image, grid, 0, -1, false); },
                           "expected padding_mode 0 (zeros)"));
  EXPECT_TRUE(throws_error([&] { sops::aten::_pdist_forward(x, 2); },
                           "pdist only supports 2D tensors, got: 3D"));
  EXPECT_TRUE(throws_error(
      [&] { sops::aten::_pdist_forward(random_tensor({3, 1}, ScalarType::Float, 8), -1); },
      "pdist only supports non-negative p values"));
  const Tensor weight = random_tensor({5, 2}, ScalarType::Float, 6);
  const Tensor indices = sops::aten::zeros({2, 2}, ScalarType::Long);
  const Tensor offsets = sops::aten::zeros({1}, ScalarType::Long);
  EXPECT_TRUE(throws_error(
      [&] {
        sops::aten::_embedding_bag(weight, indices, offsets, false, 0, false, std::nullopt, false,
                                   -1);
      },
      "expected 1-D indices"));
}

}  // namespace
}  // namespace sops::optest
