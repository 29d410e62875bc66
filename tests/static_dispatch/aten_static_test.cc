// //ops:aten's operators, statically dispatched (//tests/static_dispatch:aten):
// the dispatcher API (Functions.h) computes what PyTorch does (tests/golden) and what
// the static entry points compute, on cpu and meta tensors, through structured,
// unstructured, composite and autogen kernels, with no dispatcher in the binary
// (//tests/static_dispatch:no_dispatcher_linked_test checks its symbols).
#include <string>
#include <tuple>
#include <vector>

#include "aten/CPUFunctions.h"
#include "aten/Functions.h"
#include "aten/MetaFunctions.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;

Scalar alpha_of(const GoldenCase& c) {
  return c.find_arg("alpha") != nullptr ? scalar_arg(c, "alpha") : Scalar(1);
}

Tensor floats(const std::vector<float>& values, std::vector<int64_t> sizes) {
  Tensor t = sops::empty(sizes, kFloat);
  for (std::size_t i = 0; i < values.size(); ++i) t.data_ptr<float>()[i] = values[i];
  return t;
}

std::vector<float> values_of(const Tensor& t) {
  const Tensor c = t.is_contiguous() ? t : clone(t);
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

// add.Tensor and mul.Tensor: functional, out= and inplace variants against PyTorch and
// against the static entry points.
void check_binary(const std::string& name) {
  const bool is_add = name == "add";
  const auto cases = cases_of(name + ".golden", name + ".Tensor");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor other = tensor_arg(c, "other");
    const Scalar alpha = alpha_of(c);
    auto functional = [&] {
      return is_add ? aten::add(self, other, alpha) : aten::mul(self, other);
    };
    if (c.is_error() || expects_unrepresentable(c)) {
      EXPECT_TRUE(
          throws_error(functional, c.is_error() ? c.expect.error : "int16", name + ".Tensor"));
      continue;
    }
    const Tensor result = functional();
    EXPECT_TRUE(matches(result, c));
    EXPECT_TRUE(same_result(
        is_add ? aten::cpu::add(self, other, alpha) : aten::cpu::mul(self, other), result));
    Tensor out = sops::empty({0}, dtype_of(c.expect.dtype));
    Tensor& returned =
        is_add ? aten::add_outf(self, other, alpha, out) : aten::mul_outf(self, other, out);
    EXPECT_TRUE(returned.is_same(out));
    EXPECT_TRUE(matches(out, c));
    if (self.sizes() == IntArrayRef(c.expect.sizes) && self.scalar_type() == result.scalar_type()) {
      Tensor s = clone(self);
      EXPECT_TRUE((is_add ? aten::add_(s, other, alpha) : aten::mul_(s, other)).is_same(s));
      EXPECT_TRUE(matches(s, c));
    }
    const Tensor meta_self = tensor_arg(c, "self", kMeta);
    const Tensor meta_other = tensor_arg(c, "other", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(
        is_add ? aten::add(meta_self, meta_other, alpha) : aten::mul(meta_self, meta_other), c));
  }
}

TEST(StaticDispatchTest, AddMatchesPyTorch) { check_binary("add"); }
TEST(StaticDispatchTest, MulMatchesPyTorch) { check_binary("mul"); }

TEST(StaticDispatchTest, KnownValues) {
  const Tensor a = floats({1, 2, 3, 4}, {2, 2});
  const Tensor b = floats({10, 20, 30, 40}, {2, 2});
  EXPECT_EQ(values_of(aten::add(a, b, 2)), (std::vector<float>{21, 42, 63, 84}));
  EXPECT_EQ(values_of(aten::mul(a, b)), (std::vector<float>{10, 40, 90, 160}));
  EXPECT_EQ(values_of(aten::mm(a, b)), (std::vector<float>{70, 100, 150, 220}));
  const int64_t dim1[] = {1};
  EXPECT_EQ(values_of(aten::sum(a, IntArrayRef(dim1))), (std::vector<float>{3, 7}));
  EXPECT_EQ(values_of(aten::relu(floats({-1, 2}, {2}))), (std::vector<float>{0, 2}));
  // linear(x, w, b) = x @ w^T + b: a CompositeImplicitAutograd kernel.
  EXPECT_EQ(values_of(aten::linear(a, b, floats({1, 2}, {2}))),
            (std::vector<float>{51, 112, 111, 252}));
  EXPECT_EQ(values_of(aten::cat({a, b}, 1)), (std::vector<float>{1, 2, 10, 20, 3, 4, 30, 40}));
  const int64_t dims[] = {1, 0};
  EXPECT_EQ(values_of(aten::permute(a, IntArrayRef(dims))), (std::vector<float>{1, 3, 2, 4}));
  const int64_t flat[] = {4};
  const Tensor v = aten::view(a, IntArrayRef(flat));
  EXPECT_TRUE(v.is_alias_of(a));
  EXPECT_EQ(values_of(v), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(values_of(aten::zeros({3}, kFloat)), (std::vector<float>{0, 0, 0}));
}

TEST(StaticDispatchTest, ReluAndItsAutogenOutMatchPyTorch) {
  const auto cases = cases_of("relu.golden", "relu");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    if (c.is_error()) continue;
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor result = aten::relu(self);
    EXPECT_TRUE(matches(result, c));
    EXPECT_TRUE(same_result(aten::cpu::relu(self), result));
    Tensor s = clone(self);
    EXPECT_TRUE(aten::relu_(s).is_same(s));
    EXPECT_TRUE(matches(s, c));
    // relu.out is autogen'd: relu, copied into out with this library's own copy_.
    Tensor out = sops::empty({0}, self.options());
    EXPECT_TRUE(aten::relu_out(out, self).is_same(out));
    EXPECT_TRUE(matches(out, c));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::relu(meta), c));
  }
}

TEST(StaticDispatchTest, AutogenFunctionalCopiesWithTheLibrarysCopy) {
  const Tensor t = floats({1, 2}, {2});
  const Tensor filled = aten::fill(t, 5);  // fill.Scalar: fill_ on a copy of t
  EXPECT_EQ(values_of(filled), (std::vector<float>{5, 5}));
  EXPECT_EQ(values_of(t), (std::vector<float>{1, 2}));
}

TEST(StaticDispatchTest, SumMatchesPyTorch) {
  const auto cases = cases_of("sum.golden", "sum.dim_IntList");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    if (c.is_error()) continue;
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const golden::GoldenArg& d = c.arg("dim");
    const OptionalIntArrayRef dim = d.kind == golden::ArgKind::kNone
                                        ? OptionalIntArrayRef()
                                        : OptionalIntArrayRef(IntArrayRef(d.ints));
    const bool keepdim = c.arg("keepdim").bool_value;
    const std::optional<ScalarType> dtype = optional_dtype_arg(c, "dtype");
    const Tensor result = aten::sum(self, dim, keepdim, dtype);
    EXPECT_TRUE(matches(result, c));
    EXPECT_TRUE(same_result(aten::cpu::sum(self, dim, keepdim, dtype), result));
    const Tensor meta = tensor_arg(c, "self", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::sum(meta, dim, keepdim, dtype), c));
  }
}

TEST(StaticDispatchTest, MmMatchesPyTorch) {
  const auto cases = cases_of("mm.golden", "mm");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor self = tensor_arg(c, "self");
    const Tensor mat2 = tensor_arg(c, "mat2");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::mm(self, mat2); }, c.expect.error, "mm"));
      continue;
    }
    const Tensor result = aten::mm(self, mat2);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::mm(self, mat2), result));
    const Tensor meta_self = tensor_arg(c, "self", kMeta);
    const Tensor meta_mat2 = tensor_arg(c, "mat2", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::mm(meta_self, meta_mat2), c));
    EXPECT_TRUE(matches_meta(aten::meta::mm(meta_self, meta_mat2), c));
  }
}

TEST(StaticDispatchTest, LinearFallsBackToItsCompositeOnCpuAndMeta) {
  const auto cases = cases_of("linear.golden", "linear");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const Tensor input = tensor_arg(c, "input");
    const Tensor weight = tensor_arg(c, "weight");
    const std::optional<Tensor> bias = optional_tensor_arg(c, "bias");
    if (c.is_error()) {
      EXPECT_TRUE(throws_error([&] { aten::linear(input, weight, bias); }, c.expect.error));
      continue;
    }
    EXPECT_TRUE(matches(aten::linear(input, weight, bias), c));
    const Tensor m_input = tensor_arg(c, "input", kMeta);
    const Tensor m_weight = tensor_arg(c, "weight", kMeta);
    const std::optional<Tensor> m_bias = optional_tensor_arg(c, "bias", kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::linear(m_input, m_weight, m_bias), c));
  }
}

TEST(StaticDispatchTest, CatMatchesPyTorch) {
  const auto cases = cases_of("cat.golden", "cat");
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const std::vector<Tensor> tensors = to_tensors(c.arg("tensors").tensors);
    const int64_t dim = c.arg("dim").int_value;
    if (c.is_error() || expects_unrepresentable(c)) {
      EXPECT_TRUE(throws_error([&] { aten::cat(tensors, dim); },
                               c.is_error() ? c.expect.error : "int16", "cat"));
      continue;
    }
    const Tensor result = aten::cat(tensors, dim);
    EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
    EXPECT_TRUE(same_result(aten::cpu::cat(tensors, dim), result));
    const std::vector<Tensor> meta = to_tensors(c.arg("tensors").tensors, kMeta);
    NoCpuAllocations no_cpu;
    EXPECT_TRUE(matches_meta(aten::cat(meta, dim), c));
  }
}

TEST(StaticDispatchTest, ViewsMatchPyTorch) {
  for (const auto& [file, op, arg] :
       {std::tuple<std::string, std::string, std::string>{"view.golden", "view", "size"},
        {"permute.golden", "permute", "dims"}}) {
    const auto cases = cases_of(file, op);
    ASSERT_FALSE(cases.empty()) << file;
    for (const GoldenCase& c : cases) {
      SCOPED_TRACE(c.where());
      const Tensor self = tensor_arg(c, "self");
      const IntArrayRef ints(c.arg(arg).ints);
      auto call = [&](const Tensor& t) {
        return op == "view" ? aten::view(t, ints) : aten::permute(t, ints);
      };
      if (c.is_error()) {
        EXPECT_TRUE(throws_error([&] { call(self); }, c.expect.error, op));
        continue;
      }
      const Tensor v = call(self);
      EXPECT_TRUE(v.is_alias_of(self) || self.storage().nbytes() == 0);
      EXPECT_EQ(v.strides().vec(), c.expect.strides);
      EXPECT_TRUE(matches(v, c));
      const Tensor meta = tensor_arg(c, "self", kMeta);
      NoCpuAllocations no_cpu;
      EXPECT_TRUE(matches_meta(call(meta), c));
    }
  }
}

TEST(StaticDispatchTest, ACudaTensorFindsNoKernel) {
  ScopedAllocator allocator(DeviceType::CUDA, cpu_allocator());
  const Tensor g = sops::empty({2}, TensorOptions(kFloat).device(Device(DeviceType::CUDA)));
  // view has CPU and Meta kernels only.
  EXPECT_TRUE(throws_error([&] { aten::view(g, {2}); },
                           "no kernel for dispatch key CUDA; registered: CPU, Meta", "view"));
  // A statically dispatched CPU library has no Common kernels (nothing of another backend
  // can reach them): add.Tensor itself says it has no CUDA kernel.
  EXPECT_TRUE(throws_error([&] { aten::add(g, g); },
                           "no kernel for dispatch key CUDA; registered: CPU, Meta", "add.Tensor"));
}

TEST(StaticDispatchTest, TensorsOnTwoDevicesAreRejectedNamingBoth) {
  const Tensor c = floats({1, 2}, {2});
  const Tensor m = sops::empty({2}, TensorOptions(kFloat).device(kMeta));
  EXPECT_TRUE(throws_error(
      [&] { aten::cat({c, m}); },
      "expected all tensors to be on the same device, but found tensors on cpu and meta", "cat"));
  // add has device_check: NoCheck (a cpu scalar may join another device's tensors), so
  // the meta kernel runs, and its iterator names the argument and both devices.
  EXPECT_TRUE(
      throws_error([&] { aten::add(c, m); },
                   "argument 'other': expected all tensors to be on the same device, but found "
                   "at least two devices, cpu and meta",
                   "add.Tensor"));
}

TEST(StaticDispatchTest, WhereTakesZeroDimCpuTensorsBesideAnotherDevice) {
  // As PyTorch's where (its kernel moves them to the common device); a cpu tensor with
  // dimensions stays an error naming both devices.
  const Tensor cond = sops::empty({2}, TensorOptions(ScalarType::Bool).device(kMeta));
  const Tensor m = sops::empty({2}, TensorOptions(kFloat).device(kMeta));
  const Tensor r = aten::where(cond, floats({1}, {}), m);
  EXPECT_EQ(r.device(), Device(kMeta));
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{2}));
  Tensor cpu_cond = sops::empty({}, TensorOptions(ScalarType::Bool));
  *cpu_cond.data_ptr<bool>() = true;
  EXPECT_EQ(aten::where(cpu_cond, m, m).device(), Device(kMeta));
  EXPECT_TRUE(throws_error([&] { aten::where(cond, floats({1, 2}, {2}), m); },
                           "argument 'self': expected all tensors to be on the same device, but "
                           "found at least two devices, meta and cpu",
                           "where.self"));
}

}  // namespace
}  // namespace sops::optest
