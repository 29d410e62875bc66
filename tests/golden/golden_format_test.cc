// Checks the checked-in PyTorch oracle data (tests/golden/data) and its reader: every
// file parses, every case is self-consistent, each family covers what the operator tests
// rely on (every supported dtype, broadcasting, non-contiguous inputs, sizes 0 and 1,
// errors), and a malformed file is reported with its line number.
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
      {"mm.golden", {"mm"}, false, ""},
      {"bmm.golden", {"bmm"}, false, ""},
      {"addmm.golden", {"addmm"}, false, "self"},
      {"upsample_nearest.golden",
       {"upsample_nearest1d", "upsample_nearest2d", "upsample_nearest1d.vec",
        "upsample_nearest2d.vec"},
       false, ""},
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
       false, "*"},
      {"scalar_arith.golden",
       {"add.Scalar", "add_.Scalar", "sub.Scalar", "sub_.Scalar", "mul.Scalar", "mul_.Scalar",
        "div.Scalar", "div_.Scalar", "div.Scalar_mode", "div_.Scalar_mode"},
       false, ""},
      {"eq.golden",
       {"eq.Tensor", "eq.Scalar", "eq.Tensor_out", "eq.Scalar_out", "eq_.Tensor", "eq_.Scalar"},
       false, "*"},
      {"ne.golden",
       {"ne.Tensor", "ne.Scalar", "ne.Tensor_out", "ne.Scalar_out", "ne_.Tensor", "ne_.Scalar"},
       false, "*"},
      {"lt.golden",
       {"lt.Tensor", "lt.Scalar", "lt.Tensor_out", "lt.Scalar_out", "lt_.Tensor", "lt_.Scalar"},
       false, "*"},
      {"le.golden",
       {"le.Tensor", "le.Scalar", "le.Tensor_out", "le.Scalar_out", "le_.Tensor", "le_.Scalar"},
       false, "*"},
      {"gt.golden",
       {"gt.Tensor", "gt.Scalar", "gt.Tensor_out", "gt.Scalar_out", "gt_.Tensor", "gt_.Scalar"},
       false, "*"},
      {"ge.golden",
       {"ge.Tensor", "ge.Scalar", "ge.Tensor_out", "ge.Scalar_out", "ge_.Tensor", "ge_.Scalar"},
       false, "*"},
      {"logical.golden",
       {"logical_not", "logical_not.out", "logical_not_", "logical_and", "logical_and.out",
        "logical_and_", "logical_or", "logical_or.out", "logical_or_"},
       false, "*"},
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
      {"like.golden", {"full_like", "zeros_like", "ones_like", "empty_like", "empty_like.out"}, false, ""},
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
          EXPECT_EQ(c.op.rfind("empty", 0), 0u) << "only empty and empty_like leave values unspecified";
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
    EXPECT_TRUE(size0) << "no case of size 0";
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

// ---- the reader itself --------------------------------------------------------------

const char* const kGood =
    "# made by tools/golden/make_golden.py with torch 2.13.0; regenerate: x\n"
    "\n"
    "case add.Tensor t1\n"
    "arg self tensor float32 sizes 2 2 2 strides 2 1 2 offset 1 storage 5 "
    "0.10000000149011612 1.0 2.0 3.0 4.0\n"
    "arg other tensor int64 sizes 0 strides 0 offset 0 storage 1 9223372036854775807\n"
    "arg alpha scalar double -2.5\n"
    "# a comment inside a case\n"
    "expect tensor float32 sizes 2 2 2 strides 2 2 1 values 4 nan inf -inf -0.0\n"
    "end\n"
    "case cat t2\n"
    "arg tensors tensors 2\n"
    "tensor uint8 sizes 1 2 strides 1 1 offset 0 storage 2 0 255\n"
    "tensor bool sizes 1 0 strides 1 1 offset 0 storage 0\n"
    "arg dim int -1\n"
    "expect view uint8 sizes 1 2 strides 1 1 offset 0 values 2 0 255\n"
    "end\n"
    "case empty.memory_format t3\n"
    "arg size ints 2 0 3\n"
    "arg dtype none\n"
    "arg memory_format memory_format channels_last\n"
    "arg scales floats 2 1.5 2.0\n"
    "arg flag bool 1\n"
    "arg s float 0.5\n"
    "arg dt dtype bfloat16\n"
    "arg lay layout strided\n"
    "arg dev device cpu\n"
    "expect tensor float32 sizes 2 0 3 strides 2 3 1 values any\n"
    "end\n"
    "case native_layer_norm t5\n"
    "arg input tensor float64 sizes 1 2 strides 1 1 offset 0 storage 2 1.0 3.0\n"
    "expect tuple 2\n"
    "tensor float64 sizes 1 2 strides 1 1 values 2 -1.0 1.0\n"
    "tensor int64 sizes 0 strides 0 values 1 7\n"
    "end\n"
    "case add.out t4\n"
    "arg self tensor float64 sizes 0 strides 0 offset 0 storage 1 1.0\n"
    "expect error result type Float can't be cast to the desired output type Long  \n"
    "end\n";

TEST(GoldenReader, ParsesEveryKind) {
  GoldenFile f = parse_golden(kGood, "good");
  EXPECT_EQ(f.header.rfind("# made by", 0), 0u);
  ASSERT_EQ(f.cases.size(), 5u);

  const GoldenCase& c = f.cases[0];
  EXPECT_EQ(c.op, "add.Tensor");
  EXPECT_EQ(c.id, "t1");
  EXPECT_EQ(c.line, 3);
  const GoldenTensor& self = c.arg("self").tensor;
  EXPECT_EQ(self.sizes, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(self.strides, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(self.offset, 1);
  EXPECT_FALSE(self.is_contiguous());
  EXPECT_EQ(self.storage_extent(), 5);
  // A float32 value written as its exact double gives the exact float bits.
  EXPECT_EQ(static_cast<float>(self.storage[0]), 0.1f);
  EXPECT_EQ(self.logical_values(), (std::vector<double>{1.0, 3.0, 2.0, 4.0}));
  const GoldenTensor& other = c.arg("other").tensor;
  EXPECT_EQ(other.dim(), 0);
  EXPECT_EQ(other.numel(), 1);
  EXPECT_EQ(other.storage_int[0], INT64_MAX);
  EXPECT_EQ(other.logical_values_int(), std::vector<int64_t>{INT64_MAX});
  EXPECT_EQ(c.arg("alpha").scalar.kind, ScalarKind::kDouble);
  EXPECT_EQ(c.arg("alpha").scalar.to_double(), -2.5);
  EXPECT_EQ(c.expect.kind, ExpectKind::kTensor);
  ASSERT_EQ(c.expect.values.size(), 4u);
  EXPECT_TRUE(std::isnan(c.expect.values[0]));
  EXPECT_EQ(c.expect.values[1], INFINITY);
  EXPECT_EQ(c.expect.values[2], -INFINITY);
  EXPECT_TRUE(std::signbit(c.expect.values[3]));
  EXPECT_EQ(c.find_arg("missing"), nullptr);
  EXPECT_THROW(c.arg("missing"), std::out_of_range);

  const GoldenCase& cat = f.cases[1];
  ASSERT_EQ(cat.arg("tensors").kind, ArgKind::kTensors);
  ASSERT_EQ(cat.arg("tensors").tensors.size(), 2u);
  EXPECT_EQ(cat.arg("tensors").tensors[0].storage_int, (std::vector<int64_t>{0, 255}));
  EXPECT_EQ(cat.arg("tensors").tensors[1].numel(), 0);
  EXPECT_EQ(cat.arg("dim").int_value, -1);
  EXPECT_EQ(cat.expect.kind, ExpectKind::kView);
  EXPECT_EQ(cat.expect.values_int, (std::vector<int64_t>{0, 255}));

  const GoldenCase& e = f.cases[2];
  EXPECT_EQ(e.arg("size").ints, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(e.arg("dtype").kind, ArgKind::kNone);
  EXPECT_EQ(e.arg("memory_format").memory_format, "channels_last");
  EXPECT_EQ(e.arg("scales").floats, (std::vector<double>{1.5, 2.0}));
  EXPECT_TRUE(e.arg("flag").bool_value);
  EXPECT_EQ(e.arg("s").float_value, 0.5);
  EXPECT_EQ(e.arg("dt").dtype, "bfloat16");
  EXPECT_EQ(e.arg("lay").kind, ArgKind::kLayout);
  EXPECT_EQ(e.arg("lay").layout, "strided");
  EXPECT_EQ(e.arg("dev").kind, ArgKind::kDevice);
  EXPECT_EQ(e.arg("dev").device, "cpu");
  EXPECT_FALSE(e.expect.values_checked);

  const GoldenCase& tuple = f.cases[3];
  ASSERT_EQ(tuple.expect.kind, ExpectKind::kTuple);
  ASSERT_EQ(tuple.expect.result_count(), 2u);
  EXPECT_EQ(tuple.expect.result(0).values, (std::vector<double>{-1.0, 1.0}));
  EXPECT_EQ(tuple.expect.sizes, (std::vector<int64_t>{2}));  // repeats element 0
  EXPECT_EQ(tuple.expect.result(1).dtype, "int64");
  EXPECT_EQ(tuple.expect.result(1).values_int, std::vector<int64_t>{7});

  EXPECT_EQ(f.cases[4].expect.kind, ExpectKind::kError);
  EXPECT_EQ(f.cases[4].expect.error,
            "result type Float can't be cast to the desired output type Long");
}

TEST(GoldenReader, ParsesStrAndTolerance) {
  GoldenFile f = parse_golden(
      "# header\n"
      "case div.Tensor_mode t\n"
      "arg self tensor float32 sizes 1 1 strides 1 1 offset 0 storage 1 1.0\n"
      "arg rounding_mode str floor\n"
      "tol 1e-06 1e-07\n"
      "expect tensor float32 sizes 1 1 strides 1 1 values 1 1.0\n"
      "end\n"
      "case exp u\n"
      "arg self tensor float32 sizes 0 strides 0 offset 0 storage 1 1.0\n"
      "expect tensor float32 sizes 0 strides 0 values 1 2.0\n"
      "end\n",
      "t.golden");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].arg("rounding_mode").kind, ArgKind::kStr);
  EXPECT_EQ(f.cases[0].arg("rounding_mode").str_value, "floor");
  EXPECT_TRUE(f.cases[0].has_tolerance);
  EXPECT_EQ(f.cases[0].rtol, 1e-6);
  EXPECT_EQ(f.cases[0].atol, 1e-7);
  EXPECT_FALSE(f.cases[1].has_tolerance);
  EXPECT_EQ(f.cases[1].rtol, 0.0);
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

// Parses `text` and returns the error message ("" if it parsed).
std::string parse_error(const std::string& text) {
  try {
    parse_golden(text, "bad.golden");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(GoldenReader, ParsesATensorListResult) {
  const GoldenFile f = parse_golden(
      "# header\ncase split.Tensor t\n"
      "arg self tensor float32 sizes 1 3 strides 1 1 offset 0 storage 3 1.0 2.0 3.0\n"
      "arg split_size int 2\narg dim int 0\n"
      "expect list 2\n"
      "view float32 sizes 1 2 strides 1 1 offset 0 values 2 1.0 2.0\n"
      "tensor float32 sizes 1 1 strides 1 1 values 1 3.0\n"
      "end\ncase split.Tensor empty\n"
      "arg self tensor float32 sizes 1 0 strides 1 1 offset 0 storage 0\n"
      "expect list 0\nend\n",
      "list.golden");
  ASSERT_EQ(f.cases.size(), 2u);
  const GoldenExpect& e = f.cases[0].expect;
  ASSERT_EQ(e.kind, ExpectKind::kList);
  ASSERT_EQ(e.elements.size(), 2u);
  EXPECT_EQ(e.elements[0].kind, ExpectKind::kView);
  EXPECT_EQ(e.elements[0].sizes, (std::vector<int64_t>{2}));
  EXPECT_EQ(e.elements[0].values, (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(e.elements[1].kind, ExpectKind::kTensor);
  EXPECT_EQ(e.elements[1].values, (std::vector<double>{3.0}));
  EXPECT_EQ(f.cases[1].expect.kind, ExpectKind::kList);
  EXPECT_TRUE(f.cases[1].expect.elements.empty());
}

TEST(GoldenReader, MalformedInputNamesTheLine) {
  struct Bad {
    std::string text;
    std::string where;    // "bad.golden:<line>:"
    std::string message;  // a substring of the reason
  };
  const std::string head = "# header\ncase relu x\n";  // lines 1-2
  const std::string self = "arg self tensor float32 sizes 1 2 strides 1 1 offset 0 storage 2 1.0 2.0\n";
  const std::vector<Bad> bad = {
      {head + self + "expect tensor float32 sizes 1 2 strides 1 1 values 3 1.0 2.0 3.0\nend\n",
       "bad.golden:4:", "3 values for sizes of 2 elements"},
      {head + "arg self tensor float32 sizes 1 3 strides 1 1 offset 0 storage 2 1.0 2.0\n",
       "bad.golden:3:", "does not cover the tensor"},
      {head + "arg self tensor float33 sizes 1 2 strides 1 1 offset 0 storage 2 1 2\n",
       "bad.golden:3:", "unknown dtype 'float33'"},
      {head + "arg self tensor int8 sizes 1 1 strides 1 1 offset 0 storage 1 200\n",
       "bad.golden:3:", "out of range for int8"},
      {head + "arg self tensor int32 sizes 1 1 strides 1 1 offset 0 storage 1 1.5\n",
       "bad.golden:3:", "bad integer"},
      {head + "arg self tensor float32 sizes 1 1 strides 1 1 offset 0 storage 1 abc\n",
       "bad.golden:3:", "bad number"},
      {head + "arg self tensor float32 sizes 2 1 1 strides 1 1 offset 0 storage 1 1.0\n",
       "bad.golden:3:", "1 strides for 2 sizes"},
      {head + self + "end\n", "bad.golden:4:", "has no 'expect' line"},
      {head + self + "expect error\nend\n", "bad.golden:4:", "without a message"},
      {head + self + "expect error a\nexpect error b\nend\n", "bad.golden:5:", "second 'expect'"},
      {head + self + "frobnicate\n", "bad.golden:4:", "unknown keyword 'frobnicate'"},
      {head + "arg x widget 3\n", "bad.golden:3:", "unknown argument kind 'widget'"},
      {head + "arg x ints 3 1 2\n", "bad.golden:3:", "count 3 for ints but only 2 tokens follow"},
      {head + "arg x bool 2\n", "bad.golden:3:", "bool must be 0 or 1"},
      {head + "arg x layout sparse_coo\n", "bad.golden:3:", "unknown layout 'sparse_coo'"},
      {head + "arg x device cuda\n", "bad.golden:3:", "unknown device 'cuda'"},
      {head + "arg x int 1 2\n", "bad.golden:3:", "unexpected trailing token '2'"},
      {head + "arg x tensors 2\n" + "tensor float32 sizes 0 strides 0 offset 0 storage 1 1.0\n" +
           "arg y int 1\n",
       "bad.golden:5:", "expected a 'tensor' line of argument 'x'"},
      {head + self + "expect error e\n", "bad.golden:4:",
       "end of file inside case relu x (started at line 2)"},
      {head + self + "expect error e\ncase relu y\n", "bad.golden:5:", "missing 'end'"},
      {"# header\narg self none\n", "bad.golden:2:", "outside a case"},
      {head + self + "expect error e\nend\ncase relu x\n", "bad.golden:6:", "duplicate case relu x"},
      {head + self + self, "bad.golden:4:", "duplicate argument 'self'"},
      {head + self + "expect view float32 sizes 1 2 strides 1 1 values 2 1 2\n", "bad.golden:4:",
       "expected 'offset' but found 'values'"},
      {head + self + "tol 1e-6\n", "bad.golden:4:", "line ends where atol was expected"},
      {head + self + "tol -1 0\n", "bad.golden:4:", "finite, non-negative"},
      {head + self + "tol 1e-6 0\ntol 1e-6 0\n", "bad.golden:5:", "second 'tol'"},
      {head + self + "expect error e\ntol 1e-6 0\n", "bad.golden:5:", "'tol' after 'expect'"},
      {head + self + "tol 1e-6 0\nexpect error e\nend\n", "bad.golden:6:",
       "does not expect a floating result"},
      {head + "arg mode str\n", "bad.golden:3:", "line ends where a string was expected"},
      {head + self + "expect list 2\nview float32 sizes 1 1 strides 1 1 offset 0 values 1 1.0\nend\n",
       "bad.golden:6:", "expected a 'tensor' or 'view' line of the expected list (1 more)"},
      {head + self + "expect list -1\n", "bad.golden:4:", "negative list length"},
      {head + self + "expect list 1\nerror e\n", "bad.golden:5:",
       "expected a 'tensor' or 'view' line of the expected list"},
      {head + self + "expect tuple 2\ntensor float32 sizes 0 strides 0 values 1 1.0\nend\n",
       "bad.golden:6:", "expected a 'tensor' line of the expected tuple (1 more)"},
      {head + self + "expect tuple 2\ntensor float32 sizes 0 strides 0 values 1 1.0\n",
       "bad.golden:5:", "end of file inside case relu x"},
  };
  for (const auto& b : bad) {
    std::string msg = parse_error(b.text);
    SCOPED_TRACE(b.text);
    EXPECT_EQ(msg.rfind(b.where, 0), 0u) << msg;
    EXPECT_NE(msg.find(b.message), std::string::npos) << msg;
  }
}

TEST(GoldenReader, MissingFileIsAnError) {
  try {
    load_golden("/nonexistent/x.golden");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.golden:0: cannot open"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace golden
