// Checks the checked-in PyTorch oracle data (tests/golden/data): every file parses, every
// case is self-consistent, and each family covers what the operator tests rely on (every
// supported dtype, broadcasting, non-contiguous inputs, sizes 0 and 1, errors). The
// reader itself is tested in golden_reader_test.cc.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/golden/golden.h"

namespace golden {
namespace {

// What each family file must contain.
struct FamilySpec {
  std::string file;
  std::vector<std::string> ops;  // every op of the file; each must appear
  bool factory;                  // no tensor inputs: dtype/size come from arguments
  // Broadcasting: "" not applicable; "*" some input tensor (not `out`) differs in shape
  // from the result; otherwise the named argument does.
  std::string broadcast_arg;
  bool size0 = true;  // false where the result is always one element (scalar_tensor)
};

const std::vector<FamilySpec>& families() {
  static const std::vector<FamilySpec> v = {
      {"add.golden", {"add.Tensor", "add.out", "add_.Tensor"}, false, "*"},
      {"mul.golden", {"mul.Tensor", "mul.out", "mul_.Tensor"}, false, "*"},
      {"relu.golden", {"relu", "relu_"}, false, ""},
      {"sum.golden", {"sum.dim_IntList"}, false, ""},
      {"mean.golden", {"mean.dim"}, false, ""},
      {"amax.golden", {"amax"}, false, ""},
      {"amin.golden", {"amin"}, false, ""},
      {"argmax.golden", {"argmax"}, false, ""},
      {"any.golden", {"any.dim"}, false, ""},
      {"mm.golden", {"mm", "mm.out"}, false, ""},
      {"bmm.golden", {"bmm"}, false, ""},
      {"addmm.golden", {"addmm", "addmm.out", "addmm_"}, false, "self"},
      {"upsample_nearest.golden",
       {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest1d.vec",
        "upsample_nearest2d.vec"},
       false,
       ""},
      {"cat.golden", {"cat"}, false, ""},
      {"view.golden", {"view"}, false, ""},
      {"permute.golden", {"permute"}, false, ""},
      {"zeros.golden", {"zeros"}, true, ""},
      {"empty.golden", {"empty.memory_format"}, true, ""},
      {"linear.golden", {"linear"}, false, "bias"},
      {"copy.golden", {"copy_"}, false, "*"},
      {"fill.golden", {"fill_.Scalar", "fill_.Tensor"}, false, "value"},
      {"sub.golden", {"sub.Tensor", "sub.out", "sub_.Tensor"}, false, "*"},
      {"div.golden",
       {"div.Tensor", "div.out", "div_.Tensor", "div.Tensor_mode", "div.out_mode",
        "div_.Tensor_mode"},
       false,
       "*"},
      {"scalar_arith.golden",
       {"add.Scalar", "add_.Scalar", "sub.Scalar", "sub_.Scalar", "mul.Scalar", "mul_.Scalar",
        "div.Scalar", "div_.Scalar", "div.Scalar_mode", "div_.Scalar_mode"},
       false,
       ""},
      {"eq.golden",
       {"eq.Tensor", "eq.Scalar", "eq.Tensor_out", "eq.Scalar_out", "eq_.Tensor", "eq_.Scalar"},
       false,
       "*"},
      {"ne.golden",
       {"ne.Tensor", "ne.Scalar", "ne.Tensor_out", "ne.Scalar_out", "ne_.Tensor", "ne_.Scalar"},
       false,
       "*"},
      {"lt.golden",
       {"lt.Tensor", "lt.Scalar", "lt.Tensor_out", "lt.Scalar_out", "lt_.Tensor", "lt_.Scalar"},
       false,
       "*"},
      {"le.golden",
       {"le.Tensor", "le.Scalar", "le.Tensor_out", "le.Scalar_out", "le_.Tensor", "le_.Scalar"},
       false,
       "*"},
      {"gt.golden",
       {"gt.Tensor", "gt.Scalar", "gt.Tensor_out", "gt.Scalar_out", "gt_.Tensor", "gt_.Scalar"},
       false,
       "*"},
      {"ge.golden",
       {"ge.Tensor", "ge.Scalar", "ge.Tensor_out", "ge.Scalar_out", "ge_.Tensor", "ge_.Scalar"},
       false,
       "*"},
      {"logical.golden",
       {"logical_not", "logical_not.out", "logical_not_", "logical_and", "logical_and.out",
        "logical_and_", "logical_or", "logical_or.out", "logical_or_"},
       false,
       "*"},
      {"where.golden", {"where.self", "where.self_out"}, false, "*"},
      {"neg.golden", {"neg", "neg_", "neg.out"}, false, ""},
      {"abs.golden", {"abs", "abs_", "abs.out"}, false, ""},
      {"exp.golden", {"exp", "exp_", "exp.out"}, false, ""},
      {"log.golden", {"log", "log_", "log.out"}, false, ""},
      {"sqrt.golden", {"sqrt", "sqrt_", "sqrt.out"}, false, ""},
      {"rsqrt.golden", {"rsqrt", "rsqrt_", "rsqrt.out"}, false, ""},
      {"sigmoid.golden", {"sigmoid", "sigmoid_", "sigmoid.out"}, false, ""},
      {"tanh.golden", {"tanh", "tanh_", "tanh.out"}, false, ""},
      {"pow.golden", {"pow.Tensor_Scalar", "pow_.Scalar", "pow.Tensor_Scalar_out"}, false, ""},
      {"gelu.golden", {"gelu", "gelu_", "gelu.out"}, false, ""},
      {"silu.golden", {"silu", "silu_", "silu.out"}, false, ""},
      {"hardsigmoid.golden", {"hardsigmoid", "hardsigmoid_", "hardsigmoid.out"}, false, ""},
      {"hardswish.golden", {"hardswish", "hardswish_", "hardswish.out"}, false, ""},
      {"leaky_relu.golden", {"leaky_relu", "leaky_relu_", "leaky_relu.out"}, false, ""},
      {"hardtanh.golden", {"hardtanh", "hardtanh_", "hardtanh.out"}, false, ""},
      {"clamp.golden", {"clamp", "clamp_", "clamp.out"}, false, ""},
      {"unsafe_view.golden", {"_unsafe_view", "_unsafe_view.out"}, false, ""},
      {"reshape.golden", {"reshape"}, false, ""},
      {"expand.golden", {"expand", "alias"}, false, "*"},
      {"squeeze.golden", {"squeeze.dims", "unsqueeze", "squeeze_.dims", "unsqueeze_"}, false, ""},
      {"slice.golden", {"slice.Tensor", "select.int"}, false, ""},
      {"split.golden", {"split.Tensor", "split_with_sizes"}, false, ""},
      {"clone.golden", {"clone"}, false, ""},
      {"to_copy.golden", {"_to_copy"}, false, ""},
      {"constant_pad_nd.golden", {"constant_pad_nd"}, false, ""},
      {"full.golden", {"full", "full.out", "ones", "ones.out"}, true, ""},
      {"scalar_tensor.golden", {"scalar_tensor", "scalar_tensor.out"}, true, "", false},
      {"like.golden",
       {"full_like", "zeros_like", "ones_like", "empty_like", "empty_like.out"},
       false,
       ""},
      {"arange.golden", {"arange.start_step", "arange.start_out"}, true, ""},
      {"embedding.golden", {"embedding"}, false, ""},
      {"softmax.golden", {"_softmax", "_log_softmax"}, false, ""},
      {"layer_norm.golden", {"native_layer_norm"}, false, "weight"},
      {"batch_norm.golden", {"_native_batch_norm_legit_no_training"}, false, "running_mean"},
      {"max_pool2d.golden", {"max_pool2d_with_indices"}, false, ""},
      {"avg_pool2d.golden", {"avg_pool2d"}, false, ""},
      {"adaptive_avg_pool2d.golden", {"adaptive_avg_pool2d", "_adaptive_avg_pool2d"}, false, ""},
      {"convolution.golden", {"convolution"}, false, "bias"},
  };
  return v;
}

// The input tensors of a case (Tensor and Tensor[] arguments, without `out`).
std::vector<const GoldenTensor*> inputs(const GoldenCase& c) {
  std::vector<const GoldenTensor*> out;
  for (const auto& a : c.args) {
    if (a.name == "out") continue;
    if (a.kind == ArgKind::kTensor) out.push_back(&a.tensor);
    if (a.kind == ArgKind::kTensors) {
      for (const auto& t : a.tensors) out.push_back(&t);
    }
  }
  return out;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t n = 1;
  for (int64_t x : v) n *= x;
  return n;
}

bool is_inplace(const std::string& op) {
  std::string base = op.substr(0, op.find('.'));
  return !base.empty() && base.back() == '_';
}

// Inplace views (PyTorch's inplace_view tag): self itself takes new sizes and strides.
bool is_inplace_view(const std::string& op) { return op == "squeeze_.dims" || op == "unsqueeze_"; }

bool is_out(const std::string& op) {
  return op.size() > 4 && op.compare(op.size() - 4, 4, ".out") == 0;
}

// Every data file, parsed once; a file that does not parse maps to its error message.
struct Loaded {
  GoldenFile file;
  std::string error;
};

const std::map<std::string, Loaded>& loaded_files() {
  static const std::map<std::string, Loaded> files = [] {
    std::map<std::string, Loaded> m;
    for (const auto& name : golden_file_names()) {
      try {
        m[name].file = load_golden_file(golden_data_path(name));
      } catch (const std::exception& e) {
        m[name].error = e.what();
      }
    }
    return m;
  }();
  return files;
}

// The parsed file; a test that calls this fails (with the parse error) if it did not parse.
const GoldenFile& golden_file(const std::string& name) {
  const Loaded& l = loaded_files().at(name);
  if (!l.error.empty()) throw std::runtime_error(l.error);
  return l.file;
}

TEST(GoldenData, EveryFileParsesWithItsHeader) {
  ASSERT_EQ(golden_file_names().size(), families().size());
  for (const auto& spec : families()) {
    SCOPED_TRACE(spec.file);
    ASSERT_EQ(loaded_files().count(spec.file), 1u);
    const Loaded& l = loaded_files().at(spec.file);
    ASSERT_EQ(l.error, "");
    const GoldenFile& f = l.file;
    EXPECT_NE(f.header.find("# made by tools/golden/make_golden.py with torch 2.13.0"),
              std::string::npos)
        << f.header;
    EXPECT_NE(f.header.find("regenerate: "), std::string::npos) << f.header;
    EXPECT_GE(f.cases.size(), 10u);
  }
}

TEST(GoldenData, EveryFileHasAFamilySpec) {
  std::set<std::string> specified;
  for (const auto& spec : families()) specified.insert(spec.file);
  for (const auto& name : golden_file_names()) {
    EXPECT_TRUE(specified.count(name)) << name << " has no FamilySpec in families(): say which "
                                       << "ops it holds and what coverage it must show";
  }
  EXPECT_GE(golden_file_names().size(), 15u);
}

TEST(GoldenData, EveryCaseIsSelfConsistent) {
  for (const auto& spec : families()) {
    const Loaded& l = loaded_files().at(spec.file);
    if (!l.error.empty()) {
      ADD_FAILURE() << l.error;
      continue;
    }
    const GoldenFile& f = l.file;
    std::set<std::string> ops(spec.ops.begin(), spec.ops.end());
    for (const auto& c : f.cases) {
      SCOPED_TRACE(c.where());
      EXPECT_TRUE(ops.count(c.op)) << "op not of this family";
      EXPECT_FALSE(c.args.empty());
      for (const GoldenTensor* t : inputs(c)) {
        EXPECT_TRUE(is_known_dtype(t->dtype));
        EXPECT_EQ(t->sizes.size(), t->strides.size());
        EXPECT_LE(t->storage_extent(), static_cast<int64_t>(t->storage.size()))
            << "storage does not cover sizes/strides/offset";
        EXPECT_LE(t->numel(), 10000);  // golden_format.MAX_ELEMS
        if (!is_floating_dtype(t->dtype)) {
          EXPECT_EQ(t->storage_int.size(), t->storage.size());
        }
        EXPECT_EQ(static_cast<int64_t>(t->logical_values().size()), t->numel());
      }
      if (c.expect.kind == ExpectKind::kError) {
        EXPECT_FALSE(c.expect.error.empty());
        continue;
      }
      // A Tensor[] result or several returns: each tensor is checked as a result of its own.
      std::vector<GoldenExpect> results{c.expect};
      if (c.expect.kind == ExpectKind::kList || c.expect.kind == ExpectKind::kTuple) {
        results = c.expect.elements;
      }
      if (c.expect.kind == ExpectKind::kTuple) {
        EXPECT_GE(c.expect.elements.size(), 2u) << "a tuple of one tensor";
        EXPECT_EQ(c.expect.dtype, c.expect.elements[0].dtype);
        EXPECT_EQ(c.expect.sizes, c.expect.elements[0].sizes);
      }
      for (const GoldenExpect& e : results) {
        SCOPED_TRACE(&e - results.data());
        EXPECT_TRUE(e.kind == ExpectKind::kTensor || e.kind == ExpectKind::kView);
        EXPECT_TRUE(is_known_dtype(e.dtype));
        EXPECT_EQ(e.sizes.size(), e.strides.size());
        if (e.values_checked) {
          EXPECT_EQ(static_cast<int64_t>(e.values.size()), product(e.sizes))
              << "expected numel != product of sizes";
          if (!is_floating_dtype(e.dtype)) {
            EXPECT_EQ(e.values_int.size(), e.values.size());
          }
        } else {
          EXPECT_EQ(c.op.rfind("empty", 0), 0u)
              << "only empty and empty_like leave values unspecified";
        }
        if (is_inplace(c.op) && !is_inplace_view(c.op)) {
          const GoldenTensor& self = c.arg("self").tensor;
          EXPECT_EQ(e.sizes, self.sizes) << "inplace result must keep self's shape";
          EXPECT_EQ(e.strides, self.strides) << "inplace result must keep self's strides";
          EXPECT_EQ(e.dtype, self.dtype);
        }
        if (is_out(c.op)) {
          EXPECT_EQ(e.dtype, c.arg("out").tensor.dtype);
        }
        if (e.kind == ExpectKind::kView) {
          const GoldenTensor& self = c.arg("self").tensor;
          EXPECT_EQ(e.dtype, self.dtype);
          // The view reads the expected values out of self's storage.
          GoldenTensor v = self;
          v.sizes = e.sizes;
          v.strides = e.strides;
          v.offset = e.offset;
          if (v.numel() > 0) ASSERT_LE(v.storage_extent(), static_cast<int64_t>(v.storage.size()));
          std::vector<double> got = v.logical_values();
          ASSERT_EQ(got.size(), e.values.size());
          for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_TRUE(got[i] == e.values[i] || (std::isnan(got[i]) && std::isnan(e.values[i])))
                << "element " << i;
          }
        }
      }
    }
  }
}

TEST(GoldenData, EveryFamilyCoversTheRequiredCaseKinds) {
  for (const auto& spec : families()) {
    SCOPED_TRACE(spec.file);
    const Loaded& l = loaded_files().at(spec.file);
    if (!l.error.empty()) {
      ADD_FAILURE() << l.error;
      continue;
    }
    const GoldenFile& f = l.file;
    std::set<std::string> dtypes, ops;
    bool noncontig = false, size0 = false, size1 = false, broadcast = false, error = false;
    for (const auto& c : f.cases) {
      ops.insert(c.op);
      for (const GoldenTensor* t : inputs(c)) dtypes.insert(t->dtype);
      for (const auto& a : c.args) {
        if (a.kind == ArgKind::kDType) dtypes.insert(a.dtype);
      }
      if (c.is_error()) {
        error = true;
        continue;
      }
      if (spec.factory) {
        // The size argument, or the result's sizes for a factory without one (arange).
        const GoldenArg* size = c.find_arg("size");
        int64_t n = size != nullptr ? product(size->ints) : product(c.expect.sizes);
        size0 = size0 || n == 0;
        size1 = size1 || n == 1;
        continue;
      }
      for (const GoldenTensor* t : inputs(c)) {
        noncontig = noncontig || !t->is_contiguous();
        size0 = size0 || t->numel() == 0;
        size1 = size1 || t->numel() == 1;
      }
      if (spec.broadcast_arg == "*") {
        for (const GoldenTensor* t : inputs(c)) broadcast = broadcast || t->sizes != c.expect.sizes;
      } else if (!spec.broadcast_arg.empty()) {
        const GoldenArg* a = c.find_arg(spec.broadcast_arg);
        if (a != nullptr && a->kind == ArgKind::kTensor && c.expect.numel() > 1)
          broadcast = broadcast || a->tensor.sizes != c.expect.sizes;
      }
    }
    for (const auto& d : supported_dtypes()) EXPECT_TRUE(dtypes.count(d)) << "no " << d << " case";
    for (const auto& op : spec.ops) EXPECT_TRUE(ops.count(op)) << "no " << op << " case";
    EXPECT_TRUE(size0 || !spec.size0) << "no case of size 0";
    EXPECT_TRUE(size1) << "no case of size 1";
    EXPECT_TRUE(error) << "no error case";
    if (!spec.factory) {
      EXPECT_TRUE(noncontig) << "no non-contiguous input";
    }
    if (!spec.broadcast_arg.empty()) {
      EXPECT_TRUE(broadcast) << "no broadcasting case";
    }
  }
}

// Spot checks of values a user would see wrong at once.
TEST(GoldenData, KnownAnswers) {
  auto find = [](const std::string& file, const std::string& op, const std::string& id) {
    for (const auto& c : golden_file(file).cases) {
      if (c.op == op && c.id == id) return c;
    }
    throw std::runtime_error("no case " + op + " " + id + " in " + file);
  };
  GoldenCase wrap = find("add.golden", "add.Tensor", "int8_wraparound");
  EXPECT_EQ(wrap.expect.dtype, "int8");
  EXPECT_EQ(wrap.expect.values_int, (std::vector<int64_t>{-56, -128, 127, 66}));

  GoldenCase promo = find("add.golden", "add.Tensor", "promote_int8_uint8");
  EXPECT_EQ(promo.expect.dtype, "int16");

  GoldenCase sum = find("sum.golden", "sum.dim_IntList", "int8_sums_to_int64_no_overflow");
  EXPECT_EQ(sum.expect.dtype, "int64");
  EXPECT_EQ(sum.expect.values_int, std::vector<int64_t>{300});

  GoldenCase relu = find("relu.golden", "relu", "float32_special_values");
  ASSERT_EQ(relu.expect.values.size(), 7u);
  EXPECT_TRUE(std::isnan(relu.expect.values[0]));
  EXPECT_EQ(relu.expect.values[1], 0.0);
  EXPECT_TRUE(std::isinf(relu.expect.values[2]));

  GoldenCase err = find("add.golden", "add_.Tensor", "int64_self_float32_other_error");
  EXPECT_EQ(err.expect.kind, ExpectKind::kError);
  EXPECT_EQ(err.expect.error, "result type Float can't be cast to the desired output type Long");

  GoldenCase empty = find("empty.golden", "empty.memory_format", "float32_channels_last");
  EXPECT_FALSE(empty.expect.values_checked);
  EXPECT_EQ(empty.expect.strides, (std::vector<int64_t>{12, 1, 6, 3}));
}

// Tolerances appear only where a case's result is floating.
TEST(GoldenData, TolerancesOnlyOnFloatingResults) {
  for (const auto& spec : families()) {
    const Loaded& l = loaded_files().at(spec.file);
    if (!l.error.empty()) continue;
    for (const auto& c : l.file.cases) {
      if (!c.has_tolerance) continue;
      SCOPED_TRACE(c.where());
      EXPECT_FALSE(c.is_error());
      EXPECT_TRUE(is_floating_dtype(c.expect.dtype));
      EXPECT_LE(c.rtol, 1e-3) << "a tolerance this loose hides real differences";
    }
  }
}

}  // namespace
}  // namespace golden
