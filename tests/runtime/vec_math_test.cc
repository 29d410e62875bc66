// runtime/vec_math.h against the C library (in double), and cpu_kernel_vec's vector and
// scalar paths against a direct loop: contiguous, broadcast, strided and casting runs.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/cpu_loops.h"
#include "runtime/tensor_iterator.h"
#include "runtime/vec_math.h"
#include "tests/runtime/test_util.h"

namespace sops {
namespace {

constexpr int kLanes = Vec32<float>::kLanes;

std::vector<float> map_lanes(vec::Vf (*f)(vec::Vf), const std::vector<float>& xs) {
  std::vector<float> out(xs.size());
  for (std::size_t i = 0; i + kLanes <= xs.size(); i += kLanes) {
    vec::store(out.data() + i, f(vec::load(xs.data() + i)));
  }
  return out;
}

std::vector<float> sweep(float lo, float hi, int n) {
  std::vector<float> xs(static_cast<std::size_t>(n / kLanes * kLanes));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xs[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(xs.size());
  }
  return xs;
}

TEST(VecMath, ExpWithinTwoUlpOverTheNormalRange) {
  const std::vector<float> xs = sweep(-87.0f, 88.7f, 200000);
  const std::vector<float> got = map_lanes([](vec::Vf x) { return vec::exp(x); }, xs);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double want = std::exp(static_cast<double>(xs[i]));
    const double ulp =
        std::nextafter(static_cast<float>(want), INFINITY) - static_cast<float>(want);
    ASSERT_LE(std::fabs(got[i] - want), 2 * ulp) << "exp(" << xs[i] << ")";
  }
}

TEST(VecMath, ExpSpecialValuesAsTheCLibrary) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> xs = {nan, INFINITY, -INFINITY, 0.0f, -0.0f, 88.8f, -104.0f, -120.0f};
  const std::vector<float> got = map_lanes([](vec::Vf x) { return vec::exp(x); }, xs);
  EXPECT_TRUE(std::isnan(got[0]));
  EXPECT_EQ(got[1], INFINITY);
  EXPECT_EQ(got[2], 0.0f);
  EXPECT_EQ(got[3], 1.0f);
  EXPECT_EQ(got[4], 1.0f);
  EXPECT_EQ(got[5], INFINITY);  // past log(FLT_MAX)
  EXPECT_EQ(got[6], 0.0f);
  EXPECT_EQ(got[7], 0.0f);
}

TEST(VecMath, TanhAndSigmoidCloseToTheCLibrary) {
  const std::vector<float> xs = sweep(-12.0f, 12.0f, 48000);
  const std::vector<float> t = map_lanes([](vec::Vf x) { return vec::tanh(x); }, xs);
  const std::vector<float> s = map_lanes([](vec::Vf x) { return vec::sigmoid(x); }, xs);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    EXPECT_NEAR(t[i], std::tanh(x), 4e-7 * std::fabs(std::tanh(x)) + 1e-30) << "tanh(" << x << ")";
    const double sig = 1 / (1 + std::exp(-x));
    EXPECT_NEAR(s[i], sig, 3e-7 * sig) << "sigmoid(" << x << ")";
  }
  const std::vector<float> special = {-0.0f, 0.0f, INFINITY, -INFINITY, 1e-6f, -1e-6f, 0.6f, -0.7f};
  const std::vector<float> ts = map_lanes([](vec::Vf x) { return vec::tanh(x); }, special);
  EXPECT_TRUE(std::signbit(ts[0]));
  EXPECT_EQ(ts[1], 0.0f);
  EXPECT_EQ(ts[2], 1.0f);
  EXPECT_EQ(ts[3], -1.0f);
  EXPECT_FLOAT_EQ(ts[4], 1e-6f);
  EXPECT_FLOAT_EQ(ts[5], -1e-6f);
}

// Against sin and cos in double: within 2 ulp of the result plus 2 ulp of the argument's
// reduction (near a zero of sin or cos the result is small and the argument large).
TEST(VecMath, SinAndCosCloseToTheCLibrary) {
  const std::vector<float> xs = sweep(-100.0f, 100.0f, 40000);
  const std::vector<float> s = map_lanes([](vec::Vf x) { return vec::sin(x); }, xs);
  const std::vector<float> c = map_lanes([](vec::Vf x) { return vec::cos(x); }, xs);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double tol_s = 2.4e-7 * std::fabs(std::sin(x)) + 1.2e-7 * std::fabs(x) * 1e-6 + 1e-7;
    const double tol_c = 2.4e-7 * std::fabs(std::cos(x)) + 1.2e-7 * std::fabs(x) * 1e-6 + 1e-7;
    EXPECT_NEAR(s[i], std::sin(x), tol_s) << "sin(" << x << ")";
    EXPECT_NEAR(c[i], std::cos(x), tol_c) << "cos(" << x << ")";
  }
  // Beyond the three-part reduction, and the special values, as the C library.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> special = {1e6f, -3e7f, inf, -inf, std::nanf(""), 0.0f, -0.0f, 8192.0f};
  special.resize(static_cast<std::size_t>((special.size() + kLanes - 1) / kLanes * kLanes), 1.0f);
  const std::vector<float> ss = map_lanes([](vec::Vf x) { return vec::sin(x); }, special);
  const std::vector<float> cs = map_lanes([](vec::Vf x) { return vec::cos(x); }, special);
  for (std::size_t i = 0; i < special.size(); ++i) {
    const float x = special[i];
    if (std::isnan(std::sin(x))) {
      EXPECT_TRUE(std::isnan(ss[i]) && std::isnan(cs[i])) << x;
      continue;
    }
    EXPECT_NEAR(ss[i], std::sin(x), 1e-6) << "sin(" << x << ")";
    EXPECT_NEAR(cs[i], std::cos(x), 1e-6) << "cos(" << x << ")";
  }
  EXPECT_TRUE(std::signbit(ss[6])) << "sin(-0.0) is -0.0";
}

TEST(VecMath, ErfWithinTheFormulasErrorOfTheCLibrary) {
  const std::vector<float> xs = sweep(-6.0f, 6.0f, 48000);
  const std::vector<float> e = map_lanes([](vec::Vf x) { return vec::erf(x); }, xs);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(e[i], std::erf(static_cast<double>(xs[i])), 6e-7) << "erf(" << xs[i] << ")";
  }
  const std::vector<float> special = {INFINITY, -INFINITY, NAN, 10.0f, -10.0f, 0.5f, -0.5f, 1.0f};
  const std::vector<float> es = map_lanes([](vec::Vf x) { return vec::erf(x); }, special);
  EXPECT_EQ(es[0], 1.0f);
  EXPECT_EQ(es[1], -1.0f);
  EXPECT_TRUE(std::isnan(es[2]));
  EXPECT_EQ(es[3], 1.0f);
  EXPECT_EQ(es[4], -1.0f);
  EXPECT_EQ(es[5], -es[6]);  // odd
}

// sigmoid through cpu_kernel_vec, checked element by element against the scalar formula.
void expect_sigmoid(const Tensor& in) {
  Tensor out;
  TensorIterator iter = TensorIterator::unary_float_op(out, in);
  cpu_kernel_vec(
      iter, [](float x) -> float { return 1.0f / (1.0f + std::exp(-x)); },
      [](vec::Vf x) SOPS_VEC_LAMBDA -> vec::Vf { return vec::sigmoid(x); });
  const std::vector<double> x = testing::values<double>(in);
  const std::vector<float> y = testing::values<float>(iter.output(0));
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double want = 1 / (1 + std::exp(-x[i]));
    ASSERT_NEAR(y[i], want, 3e-7 * want) << "element " << i;
  }
}

TEST(CpuKernelVec, ContiguousRunWithATail) {
  std::vector<float> v(8 * 5 + 3);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.25f - 5.0f;
  expect_sigmoid(testing::make<float>(v, {static_cast<int64_t>(v.size())}));
}

TEST(CpuKernelVec, StridedRunTakesTheScalarPath) {
  std::vector<float> v(40);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 10.0f;
  const Tensor base = testing::make<float>(v, {40});
  expect_sigmoid(base.as_strided({13}, {3}, 1));
}

TEST(CpuKernelVec, IntegralInputTakesTheCastingPath) {
  expect_sigmoid(testing::make<int64_t>({-3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7}, {11}));
}

TEST(CpuKernelVec, BroadcastInputIsSplatted) {
  // a + b with b broadcast along the run (stride 0): every output is a[i] + b[0].
  std::vector<float> a(8 * 4 + 1);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  const Tensor ta = testing::make<float>(a, {static_cast<int64_t>(a.size())});
  const Tensor tb = testing::make<float>({0.5f}, {1});
  Tensor out;
  TensorIterator iter = TensorIterator::binary_op(out, ta, tb);
  cpu_kernel_vec(
      iter, [](float x, float y) -> float { return x + y; },
      [](vec::Vf x, vec::Vf y) SOPS_VEC_LAMBDA -> vec::Vf { return x + y; });
  const std::vector<float> y = testing::values<float>(iter.output(0));
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(y[i], a[i] + 0.5f) << i;
}

}  // namespace
}  // namespace sops
