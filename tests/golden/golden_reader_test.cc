// The golden-file reader (tests/golden/golden.h): every kind of argument and expectation
// parses, and a malformed file is reported with its line number and what was expected.
#include <cmath>
#include <stdexcept>
#include <string>

#include "gtest/gtest.h"
#include "tests/golden/golden.h"

namespace golden {
namespace {

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
  EXPECT_FALSE(f.family.declared());  // a header of comments only
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

// The random operators' cases: a `seed` line, a seeded generator argument; and a Scalar
// result (_local_scalar_dense).
TEST(GoldenReader, ParsesSeedGeneratorAndScalarResult) {
  GoldenFile f = parse_golden(
      "# header\n"
      "case rand.generator r\n"
      "arg size ints 1 3\n"
      "arg generator generator 42\n"
      "seed 7\n"
      "expect tensor float32 sizes 1 3 strides 1 1 values 3 0.5 0.25 0.75\n"
      "end\n"
      "case _local_scalar_dense s\n"
      "arg self tensor int64 sizes 0 strides 0 offset 0 storage 1 5\n"
      "expect scalar int 5\n"
      "end\n",
      "t.golden");
  ASSERT_EQ(f.cases.size(), 2u);
  EXPECT_EQ(f.cases[0].arg("generator").kind, ArgKind::kGenerator);
  EXPECT_EQ(f.cases[0].arg("generator").seed, 42u);
  ASSERT_TRUE(f.cases[0].seed.has_value());
  EXPECT_EQ(*f.cases[0].seed, 7u);
  EXPECT_FALSE(f.cases[1].seed.has_value());
  EXPECT_EQ(f.cases[1].expect.kind, ExpectKind::kScalar);
  EXPECT_EQ(f.cases[1].expect.scalar.kind, ScalarKind::kInt);
  EXPECT_EQ(f.cases[1].expect.scalar.i, 5);
}

TEST(GoldenReader, ParsesTheFamilyLinesOfTheHeader) {
  const GoldenFile f = parse_golden(
      "# made by tools/golden/make_golden.py with torch 2.13.0; regenerate: x\n"
      "# relu.golden: 1 cases; format: tests/golden/README.md\n"
      "family name relu\n"
      "family ops 2 relu relu_\n"
      "family factory 0\n"
      "family broadcast none\n"
      "family size0 1\n"
      "\n"
      "case relu t\n"
      "arg self tensor float32 sizes 0 strides 0 offset 0 storage 1 1.0\n"
      "expect tensor float32 sizes 0 strides 0 values 1 1.0\n"
      "end\n",
      "relu.golden");
  EXPECT_EQ(f.header.rfind("# made by", 0), 0u);
  ASSERT_TRUE(f.family.declared());
  EXPECT_EQ(f.family.name, "relu");
  EXPECT_EQ(f.family.ops, (std::vector<std::string>{"relu", "relu_"}));
  EXPECT_FALSE(f.family.factory);
  EXPECT_EQ(f.family.broadcast, "none");
  EXPECT_TRUE(f.family.size0);
  EXPECT_EQ(f.cases.size(), 1u);

  const GoldenFile g = parse_golden(
      "family size0 0\nfamily broadcast self\nfamily factory 1\nfamily ops 1 zeros\n"
      "family name zeros\n",
      "zeros.golden");
  EXPECT_EQ(g.family.name, "zeros");
  EXPECT_TRUE(g.family.factory);
  EXPECT_EQ(g.family.broadcast, "self");
  EXPECT_FALSE(g.family.size0);
  EXPECT_EQ(g.family.source, "table");  // the default, without a source line
  EXPECT_TRUE(g.cases.empty());

  const GoldenFile h = parse_golden(
      "family name opinfo_relu\nfamily ops 1 relu\nfamily factory 0\nfamily broadcast none\n"
      "family size0 1\nfamily source opinfo\n",
      "opinfo_relu.golden");
  EXPECT_EQ(h.family.source, "opinfo");
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
  const std::string self =
      "arg self tensor float32 sizes 1 2 strides 1 1 offset 0 storage 2 1.0 2.0\n";
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
      {head + self + "seed -1\n", "bad.golden:4:", "negative seed"},
      {head + self + "seed 1\nseed 2\n", "bad.golden:5:", "second 'seed'"},
      {head + "arg g generator x\n", "bad.golden:3:", "a generator seed"},
      {head + self + "expect scalar float 1\n", "bad.golden:4:", "scalar kind must be"},
      {head + "arg x tensors 2\n" + "tensor float32 sizes 0 strides 0 offset 0 storage 1 1.0\n" +
           "arg y int 1\n",
       "bad.golden:5:", "expected a 'tensor' or 'none' line of argument 'x'"},
      {head + self + "expect error e\n",
       "bad.golden:4:", "end of file inside case relu x (started at line 2)"},
      {head + self + "expect error e\ncase relu y\n", "bad.golden:5:", "missing 'end'"},
      {"# header\narg self none\n", "bad.golden:2:", "outside a case"},
      {head + self + "expect error e\nend\ncase relu x\n",
       "bad.golden:6:", "duplicate case relu x"},
      {head + self + self, "bad.golden:4:", "duplicate argument 'self'"},
      {head + self + "expect view float32 sizes 1 2 strides 1 1 values 2 1 2\n",
       "bad.golden:4:", "expected 'offset' but found 'values'"},
      {head + self + "tol 1e-6\n", "bad.golden:4:", "line ends where atol was expected"},
      {head + self + "tol -1 0\n", "bad.golden:4:", "finite, non-negative"},
      {head + self + "tol 1e-6 0\ntol 1e-6 0\n", "bad.golden:5:", "second 'tol'"},
      {head + self + "expect error e\ntol 1e-6 0\n", "bad.golden:5:", "'tol' after 'expect'"},
      {head + self + "tol 1e-6 0\nexpect error e\nend\n",
       "bad.golden:6:", "does not expect a floating result"},
      {head + "arg mode str\n", "bad.golden:3:", "line ends where a string was expected"},
      {head + self +
           "expect list 2\nview float32 sizes 1 1 strides 1 1 offset 0 values 1 1.0\nend\n",
       "bad.golden:6:", "expected a 'tensor' or 'view' line of the expected list (1 more)"},
      {head + self + "expect list -1\n", "bad.golden:4:", "negative list length"},
      {head + self + "expect list 1\nerror e\n",
       "bad.golden:5:", "expected a 'tensor' or 'view' line of the expected list"},
      {head + self + "expect tuple 2\ntensor float32 sizes 0 strides 0 values 1 1.0\nend\n",
       "bad.golden:6:", "expected a 'tensor' line of the expected tuple (1 more)"},
      {head + self + "expect tuple 2\ntensor float32 sizes 0 strides 0 values 1 1.0\n",
       "bad.golden:5:", "end of file inside case relu x"},
      {"# header\nfamily name relu\nfamily size0 1\n" + head.substr(9),
       "bad.golden:4:", "lack 'family ops, factory, broadcast'"},
      {"# header\nfamily name relu\n", "bad.golden:2:", "lack 'family ops, factory, broadcast"},
      {"family colour red\n", "bad.golden:1:", "unknown family fact 'colour'"},
      {"family source pytorch\n", "bad.golden:1:", "family source must be table or opinfo"},
      {"family source opinfo\nfamily source opinfo\n",
       "bad.golden:2:", "second 'family source' line"},
      {"family name a\nfamily name b\n", "bad.golden:2:", "second 'family name' line"},
      {"family ops 0\n", "bad.golden:1:", "a family has at least one op"},
      {"family ops 2 relu relu\n", "bad.golden:1:", "op relu twice in the family's ops"},
      {"family ops 3 relu relu_\n", "bad.golden:1:", "count 3 for ops but only 2 tokens"},
      {"family factory 2\n", "bad.golden:1:", "factory must be 0 or 1"},
      {"family size0 yes\n", "bad.golden:1:", "bad integer for size0"},
      {"family broadcast\n", "bad.golden:1:", "none, any or an argument name"},
      {"family name relu extra\n", "bad.golden:1:", "unexpected trailing token 'extra'"},
      {head + "family name relu\n", "bad.golden:3:", "'family' after the first case"},
      {head + self + "expect error e\nend\nfamily name relu\n",
       "bad.golden:6:", "'family' after the first case"},
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
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.golden:0: cannot open"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace golden
