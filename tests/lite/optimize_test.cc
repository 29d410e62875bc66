// The load-time graph optimization (lite/optimize.h) against eager PyTorch: small models
// made by make_fusion_models.py (conv -> batch norm with non-trivial statistics, eps,
// weights -> each fused activation; a biasless conv, a batch norm without affine, a
// float64 depthwise conv, linear layers through their views; and the graphs that must be
// left alone) and every static example model under models/. Each runs with Optimize::On
// and Off: both within 1e-5 relative of eager's stored output, and within rounding of each
// other; what the optimizer folded and fused is checked against counts derived by hand
// from the models' graphs. The epilogues (lite/epilogue.h) are checked element by element
// against the activations' formulas in float64, NaN, infinities and -0.0 included.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/epilogue.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/npy.h"
#include "lite/optimize.h"
#include "lite/tensor_copy.h"

namespace sops::lite {
namespace {

class OptimizeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

std::string folder_of(const char* env) {
  const char* path = std::getenv(env);
  EXPECT_NE(path, nullptr) << env;
  const std::string p = path == nullptr ? "" : path;
  return p.substr(0, p.rfind('/'));
}

std::vector<double> values(const Tensor& t) {
  const Tensor c = contiguous_copy(t);
  std::vector<double> out(static_cast<std::size_t>(c.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = c.scalar_type() == ScalarType::Double  ? c.data_ptr<double>()[i]
             : c.scalar_type() == ScalarType::Float ? static_cast<double>(c.data_ptr<float>()[i])
                                                    : static_cast<double>(c.data_ptr<int64_t>()[i]);
  }
  return out;
}

// |got - want| <= rtol * (|want| + max |want|) everywhere (tests/lite/lite_cli.py's rule).
void expect_close(const Tensor& got, const Tensor& want, double rtol, const std::string& what) {
  ASSERT_EQ(got.scalar_type(), want.scalar_type()) << what;
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec()) << what;
  const std::vector<double> g = values(got), w = values(want);
  double scale = 0;
  for (double v : w) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < g.size(); ++i) {
    ASSERT_LE(std::abs(g[i] - w[i]), rtol * (std::abs(w[i]) + scale))
        << what << ": element " << i << " is " << g[i] << ", want " << w[i];
  }
}

std::vector<Tensor> inputs_in(const std::string& folder) {
  std::vector<Tensor> inputs;
  for (int k = 0;; ++k) {
    const std::string file = folder + "/input" + std::to_string(k) + ".npy";
    if (!std::ifstream(file).good()) break;
    inputs.push_back(read_npy(file));
  }
  return inputs;
}

struct Expected {
  std::size_t folded;
  std::size_t fused;
  std::size_t adds = 0;
};

// Runs the model in `folder` optimized and not; checks both against eager and each other,
// and what was optimized.
void check_model(const std::string& folder, Expected want) {
  const auto model = read_model_file(folder + "/model.sopsm");
  const Program on(model);
  const Program off(model, OperatorRegistry::global(), Limits(), Memory::Allocating, Optimize::Off);
  EXPECT_EQ(off.optimization(), nullptr);
  const GraphOptimization* g = on.optimization();
  EXPECT_EQ(g == nullptr ? 0 : g->folded_batch_norms, want.folded) << folder;
  EXPECT_EQ(g == nullptr ? 0 : g->fused_activations, want.fused) << folder;
  EXPECT_EQ(g == nullptr ? 0 : g->fused_adds, want.adds) << folder;
  const std::vector<Tensor> inputs = inputs_in(folder);
  // Every node is still seen, in order, by an observer of the optimized run.
  std::size_t seen = 0;
  const std::vector<Tensor> got = on.run(inputs, [&](std::size_t node, const std::vector<Value>&) {
    EXPECT_EQ(node, seen);
    ++seen;
  });
  EXPECT_EQ(seen, model->nodes.size());
  const std::vector<Tensor> plain = off.run(inputs);
  ASSERT_EQ(got.size(), plain.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    const std::string what = folder + " output " + std::to_string(k);
    expect_close(got[k], read_npy(folder + "/expected" + std::to_string(k) + ".npy"), 1e-5,
                 what + " (optimized) against eager");
    expect_close(plain[k], read_npy(folder + "/expected" + std::to_string(k) + ".npy"), 1e-5,
                 what + " (unoptimized) against eager");
    expect_close(got[k], plain[k], 1e-6, what + ": optimized against unoptimized");
  }
  // Meta runs (shapes, the limits, the memory plan) see the file's graph either way.
  const std::vector<Tensor> meta_on = on.run_meta(inputs);
  const std::vector<Tensor> meta_off = off.run_meta(inputs);
  for (std::size_t k = 0; k < meta_on.size(); ++k) {
    EXPECT_EQ(meta_on[k].sizes().vec(), meta_off[k].sizes().vec());
  }
}

TEST_F(OptimizeTest, ConvBatchNormEachActivation) {
  const std::string dir = folder_of("FUSION_MODEL") + "/..";
  for (const char* act : {"relu", "relu6", "hardtanh", "silu", "sigmoid", "gelu", "gelu_tanh"}) {
    SCOPED_TRACE(act);
    check_model(dir + "/conv_bn_" + act, {1, 1});  // silu as x * sigmoid(x)
  }
  // The exporter decomposes hardswish into add, clamp, clamp, mul, div: not fused.
  check_model(dir + "/conv_bn_hardswish", {1, 0});
}

TEST_F(OptimizeTest, BatchNormFoldVariants) {
  const std::string dir = folder_of("FUSION_MODEL") + "/..";
  check_model(dir + "/conv_bn", {1, 0});
  check_model(dir + "/conv_nobias_bn_relu", {1, 1});    // bias None, eps 0.1
  check_model(dir + "/conv_bn_noaffine_relu", {1, 1});  // gamma and beta None
  check_model(dir + "/depthwise_bn_relu6", {1, 1});     // float64, groups == channels
}

TEST_F(OptimizeTest, ResidualAdds) {
  const std::string dir = folder_of("FUSION_MODEL") + "/..";
  check_model(dir + "/residual_block", {2, 2, 1});  // relu, then the add and its relu
  // The add broadcasts a [8, 1, 1] parameter: its own kernel runs in the fused node.
  check_model(dir + "/broadcast_add", {1, 1, 1});
}

TEST_F(OptimizeTest, LeavesSharedResultsAlone) {
  const std::string dir = folder_of("FUSION_MODEL") + "/..";
  check_model(dir + "/shared_conv", {0, 0});  // the conv's result read twice
  check_model(dir + "/conv_output", {0, 0});  // the conv's result a model output
}

TEST_F(OptimizeTest, LinearThroughViews) {
  const std::string dir = folder_of("FUSION_MODEL") + "/..";
  for (const char* act : {"gelu", "silu", "clamp"}) {
    SCOPED_TRACE(act);
    check_model(dir + "/linear_" + act, {0, 2});  // each linear's activation
  }
}

TEST_F(OptimizeTest, ExampleModels) {
  check_model(folder_of("CNN_MODEL"), {1, 2});          // bn + relu, and sigmoid
  check_model(folder_of("TRANSFORMER_MODEL"), {0, 1});  // the feed-forward's gelu
  check_model(folder_of("MLP_MODEL"), {0, 1});          // relu
  check_model(folder_of("CONVGN_MODEL"), {0, 0, 3});    // each block's residual add
  check_model(folder_of("VIT_SWIN_MODEL"), {0, 4});     // each block's MLP gelu
  check_model(folder_of("BERT_MODEL"), {0, 2});         // each layer's gelu
  check_model(folder_of("LLAMA_MODEL"), {0, 2});        // each layer's x * sigmoid(x) gate
}

// Each activation against its formula in float64 on values that cover its branches.
double reference(Activation a, double x, double lo, double hi) {
  switch (a) {
    case Activation::Relu:
      return std::isnan(x) ? x : (x < 0 ? 0.0 : x);
    case Activation::Clamp:
      return std::isnan(x) ? x : std::min(std::max(x, lo), hi);
    case Activation::Hardswish:
      return x * std::min(std::max(x + 3, 0.0), 6.0) / 6;
    case Activation::Silu:
      return x / (1 + std::exp(-x));
    case Activation::Sigmoid:
      return 1 / (1 + std::exp(-x));
    case Activation::Gelu:
      return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    case Activation::GeluTanh:
      return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  return 0;
}

TEST(EpilogueTest, EachActivationMatchesItsFormula) {
  std::vector<double> xs = {-0.0, 0.0, 1e-30, -1e-30, 2.5, -2.5, 3.0, -3.0, 6.0, 7.5, -40, 40};
  for (int i = -300; i <= 300; ++i) xs.push_back(i * 0.0371);  // whole vectors and a tail
  for (Activation a : {Activation::Relu, Activation::Clamp, Activation::Hardswish, Activation::Silu,
                       Activation::Sigmoid, Activation::Gelu, Activation::GeluTanh}) {
    for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
      SCOPED_TRACE(std::string(activation_name(a)) + " " + std::string(to_string(dtype)));
      const Epilogue e{a, -0.5, 0.75};
      Tensor t = empty({static_cast<int64_t>(xs.size())}, TensorOptions(dtype));
      for (std::size_t i = 0; i < xs.size(); ++i) {
        if (dtype == ScalarType::Float) {
          t.data_ptr<float>()[i] = static_cast<float>(xs[i]);
        } else {
          t.data_ptr<double>()[i] = xs[i];
        }
      }
      const std::vector<double> in = values(t);
      apply_epilogue(e, t);
      const std::vector<double> out = values(t);
      const double tol = dtype == ScalarType::Float ? 2e-6 : 1e-12;
      for (std::size_t i = 0; i < in.size(); ++i) {
        const double want = reference(a, in[i], e.lo, e.hi);
        EXPECT_NEAR(out[i], want, tol * (1 + std::abs(want))) << "x = " << in[i];
      }
    }
  }
}

TEST(EpilogueTest, NanStaysNanAndInfinitiesSaturate) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Tensor t = empty({3}, TensorOptions(ScalarType::Float));
  for (Activation a : {Activation::Relu, Activation::Clamp, Activation::Sigmoid}) {
    t.data_ptr<float>()[0] = static_cast<float>(nan);
    t.data_ptr<float>()[1] = static_cast<float>(inf);
    t.data_ptr<float>()[2] = static_cast<float>(-inf);
    apply_epilogue({a, -0.5, 0.75}, t);
    EXPECT_TRUE(std::isnan(t.data_ptr<float>()[0])) << activation_name(a);
    const double hi = a == Activation::Relu ? inf : a == Activation::Clamp ? 0.75 : 1.0;
    const double lo = a == Activation::Relu ? 0.0 : a == Activation::Clamp ? -0.5 : 0.0;
    EXPECT_EQ(t.data_ptr<float>()[1], hi) << activation_name(a);
    EXPECT_EQ(t.data_ptr<float>()[2], lo) << activation_name(a);
  }
}

TEST(EpilogueTest, RefusesWhatItCannotApply) {
  const Tensor ints = empty({4}, TensorOptions(ScalarType::Long));
  try {
    apply_epilogue({Activation::Relu, 0, 0}, ints);
    FAIL() << "an int64 tensor was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("float32 or float64, not int64"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace sops::lite
