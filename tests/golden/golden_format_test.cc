// Checks the checked-in PyTorch oracle data (tests/golden/data): every file parses, every
// case is self-consistent, and each family covers what the operator tests rely on (its
// ops, every supported dtype, broadcasting, non-contiguous inputs, sizes 0 and 1, errors).
// What a family holds and must cover is read from its file's header ("family" lines,
// written by tools/golden/make_golden.py from the family's entry in tools/golden/families/,
// the one list of the families). The reader itself is tested in golden_reader_test.cc.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/golden/golden.h"

namespace golden {
namespace {

// The input tensors of a case (Tensor and Tensor[] arguments, without `out`).
std::vector<const GoldenTensor*> inputs(const GoldenCase& c) {
  std::vector<const GoldenTensor*> out;
  for (const auto& a : c.args) {
    if (a.name == "out") continue;
    if (a.kind == ArgKind::kTensor) out.push_back(&a.tensor);
    if (a.kind == ArgKind::kTensors) {
      for (const auto& t : a.tensors) {
        if (!t.absent) out.push_back(&t);
      }
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
bool is_inplace_view(const std::string& op) {
  return op == "squeeze_.dims" || op == "unsqueeze_" || op == "resize_";
}

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

// What a file's header must say of its family: "" when its family lines are there and
// name this file's family, else what is wrong and what to add.
std::string declaration_problem(const std::string& file_name, const GoldenFile& f) {
  if (!f.family.declared())
    return file_name +
           " declares no family: its header lacks the 'family' lines (name, ops, factory, "
           "broadcast, size0). Add the family's FamilyInfo entry (its ops and what its cases "
           "must cover) to tools/golden/families/ and rerun tools/golden/make_golden.py, "
           "which writes them";
  if (f.family.name + ".golden" != file_name)
    return file_name + ": its header says 'family name " + f.family.name + "', the family of " +
           f.family.name + ".golden";
  return "";
}

// The cases of a file against what its header's family lines ask of them, one message per
// problem (none: the family is covered). Every op of `family ops` has a case and every
// case's op is one of them; every supported dtype, sizes 0 and 1 and an error case appear;
// a non-contiguous input unless `family factory 1`, where no case has a tensor input
// besides `out` and the sizes are those of the `size` argument (or of the result, for
// arange); with `family size0 0` no case of size 0 is asked for, and every result has
// one element; `family broadcast any` or `<arg>` needs a case whose tensor input (any but
// `out`, or that argument where the result has more than one element) differs in shape
// from the result.
//
// A file of `family source opinfo` holds the calls PyTorch's own OpInfo samples make
// (tools/golden/opinfo.py): it covers what those samples cover, so only its ops are
// checked (each listed op has a case, each case's op is listed).
std::vector<std::string> coverage_problems(const std::string& file_name, const GoldenFile& f) {
  const GoldenFamily& family = f.family;
  std::vector<std::string> problems;
  if (family.source == "opinfo") {
    const std::set<std::string> family_ops(family.ops.begin(), family.ops.end());
    std::set<std::string> ops;
    for (const auto& c : f.cases) {
      ops.insert(c.op);
      if (!family_ops.count(c.op))
        problems.push_back(c.where() + ": op " + c.op + " is not one of the family's ops");
    }
    for (const auto& op : family.ops) {
      if (!ops.count(op))
        problems.push_back(file_name + ": no " + op + " case (family ops lists it)");
    }
    return problems;
  }
  const std::set<std::string> family_ops(family.ops.begin(), family.ops.end());
  std::set<std::string> dtypes, ops;
  bool noncontig = false, size0 = false, size1 = false, broadcast = false, error = false;
  for (const auto& c : f.cases) {
    ops.insert(c.op);
    if (!family_ops.count(c.op))
      problems.push_back(c.where() + ": op " + c.op + " is not one of the family's ops");
    for (const GoldenTensor* t : inputs(c)) dtypes.insert(t->dtype);
    for (const auto& a : c.args) {
      if (a.kind == ArgKind::kDType) dtypes.insert(a.dtype);
    }
    if (family.factory && !inputs(c).empty())
      problems.push_back(c.where() + ": a tensor input in a factory family (family factory 1)");
    if (c.is_error()) {
      error = true;
      continue;
    }
    if (!family.size0 && c.expect.numel() != 1)
      problems.push_back(c.where() + ": a result of " + std::to_string(c.expect.numel()) +
                         " elements in a family of one-element results (family size0 0)");
    if (family.factory) {
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
    if (family.broadcast == "any") {
      for (const GoldenTensor* t : inputs(c)) broadcast = broadcast || t->sizes != c.expect.sizes;
    } else if (family.broadcast != "none") {
      const GoldenArg* a = c.find_arg(family.broadcast);
      if (a != nullptr && a->kind == ArgKind::kTensor && c.expect.numel() > 1)
        broadcast = broadcast || a->tensor.sizes != c.expect.sizes;
    }
  }
  const std::string in = file_name + ": ";
  for (const auto& op : family.ops) {
    if (!ops.count(op)) problems.push_back(in + "no " + op + " case (family ops lists it)");
  }
  for (const auto& d : supported_dtypes()) {
    const bool excused = std::find(family.unsupported.begin(), family.unsupported.end(), d) !=
                         family.unsupported.end();
    if (!dtypes.count(d) && !excused) problems.push_back(in + "no " + d + " case");
  }
  if (!size0 && family.size0) problems.push_back(in + "no case of size 0");
  if (!size1) problems.push_back(in + "no case of size 1");
  if (!error) problems.push_back(in + "no error case");
  if (!noncontig && !family.factory) problems.push_back(in + "no non-contiguous input");
  if (!broadcast && family.broadcast != "none")
    problems.push_back(in + "no broadcasting case (family broadcast " + family.broadcast + ")");
  return problems;
}

TEST(GoldenData, EveryFileParsesWithItsHeader) {
  EXPECT_GE(golden_file_names().size(), 15u);
  for (const auto& name : golden_file_names()) {
    SCOPED_TRACE(name);
    const Loaded& l = loaded_files().at(name);
    ASSERT_EQ(l.error, "");
    const GoldenFile& f = l.file;
    EXPECT_NE(f.header.find("# made by tools/golden/make_golden.py with torch 2.13.0"),
              std::string::npos)
        << f.header;
    EXPECT_NE(f.header.find("regenerate: "), std::string::npos) << f.header;
    // A table covers its family in at least 10 cases; PyTorch's OpInfo samples of an op
    // may be fewer (one per dtype for a unary op).
    EXPECT_GE(f.cases.size(), f.family.source == "opinfo" ? 1u : 10u);
  }
}

// The families are listed in one place, tools/golden/families/; each file carries its
// family's facts in its header, and the tests below read them from there.
TEST(GoldenData, EveryFileDeclaresItsFamily) {
  for (const auto& name : golden_file_names()) {
    const Loaded& l = loaded_files().at(name);
    if (!l.error.empty()) {
      ADD_FAILURE() << l.error;
      continue;
    }
    const std::string problem = declaration_problem(name, l.file);
    if (!problem.empty()) ADD_FAILURE() << problem;
  }
}

TEST(GoldenData, EveryCaseIsSelfConsistent) {
  for (const auto& name : golden_file_names()) {
    const Loaded& l = loaded_files().at(name);
    if (!l.error.empty()) {
      ADD_FAILURE() << l.error;
      continue;
    }
    const GoldenFile& f = l.file;
    for (const auto& c : f.cases) {
      SCOPED_TRACE(c.where());
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
      if (c.expect.kind == ExpectKind::kScalar) continue;  // a Scalar result: nothing to check
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
          EXPECT_TRUE(c.op.rfind("empty", 0) == 0 || c.op.rfind("resize", 0) == 0)
              << "only empty, empty_like and a growing resize leave values unspecified";
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

TEST(GoldenData, EveryFamilyHasItsOpsAndCoversTheRequiredCaseKinds) {
  for (const auto& name : golden_file_names()) {
    const Loaded& l = loaded_files().at(name);
    if (!l.error.empty()) {
      ADD_FAILURE() << l.error;
      continue;
    }
    if (!l.file.family.declared()) continue;  // EveryFileDeclaresItsFamily fails
    for (const auto& problem : coverage_problems(name, l.file)) ADD_FAILURE() << problem;
  }
}

// The text of a data file.
std::string data_text(const std::string& file) {
  std::ifstream in(golden_data_path(file), std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + golden_data_path(file));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A data file with the header line `from` replaced by `to`, parsed.
GoldenFile edited(const std::string& file, const std::string& from, const std::string& to) {
  std::string text = data_text(file);
  const size_t at = text.find("\n" + from + "\n");
  if (at == std::string::npos) throw std::runtime_error(file + " has no line '" + from + "'");
  text.replace(at + 1, from.size(), to);
  return parse_golden(text, file);
}

// The checks above fail where a file's cases do not show what its header says: a header
// edited the way a stale or hand-made file would be is caught, with the reason.
TEST(GoldenFamilyChecks, FailWhereTheCasesDoNotShowTheHeadersFacts) {
  struct Edit {
    std::string file, from, to;
    std::string problem;  // a substring of one of the problems
  };
  const std::vector<Edit> edits = {
      {"relu.golden", "family ops 2 relu relu_", "family ops 3 relu relu_ relu.out",
       "relu.golden: no relu.out case (family ops lists it)"},
      {"relu.golden", "family ops 2 relu relu_", "family ops 1 relu",
       "op relu_ is not one of the family's ops"},
      {"like.golden", "family factory 0", "family factory 1", "a tensor input in a factory family"},
      {"full.golden", "family factory 1", "family factory 0", "no non-contiguous input"},
      {"relu.golden", "family broadcast none", "family broadcast any",
       "no broadcasting case (family broadcast any)"},
      {"linear.golden", "family broadcast bias", "family broadcast scale",
       "no broadcasting case (family broadcast scale)"},
      {"scalar_tensor.golden", "family size0 0", "family size0 1", "no case of size 0"},
      {"relu.golden", "family size0 1", "family size0 0", "family of one-element results"},
      // An OpInfo file read as a table: PyTorch's samples of sin have no error case.
      {"opinfo_sin.golden", "family source opinfo", "family source table", "no error case"},
      {"opinfo_sin.golden", "family ops 1 sin", "family ops 2 sin sin_",
       "opinfo_sin.golden: no sin_ case (family ops lists it)"},
      {"opinfo_sin.golden", "family ops 1 sin", "family ops 1 cos",
       "op sin is not one of the family's ops"},
  };
  for (const auto& e : edits) {
    SCOPED_TRACE(e.file + ": " + e.from + " -> " + e.to);
    EXPECT_TRUE(coverage_problems(e.file, golden_file(e.file)).empty());  // as checked in
    const GoldenFile f = edited(e.file, e.from, e.to);
    ASSERT_EQ(declaration_problem(e.file, f), "");
    const std::vector<std::string> problems = coverage_problems(e.file, f);
    EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [&](const std::string& p) {
      return p.find(e.problem) != std::string::npos;
    })) << ::testing::PrintToString(problems);
  }
}

TEST(GoldenFamilyChecks, AFileWithoutItsFamilyLinesFailsNamingTheFileAndWhatToAdd) {
  std::istringstream in(data_text("relu.golden"));
  std::string text, line;
  while (std::getline(in, line)) {
    if (line.rfind("family ", 0) != 0) text += line + "\n";
  }
  const GoldenFile f = parse_golden(text, "relu.golden");
  EXPECT_FALSE(f.family.declared());
  EXPECT_EQ(f.cases.size(), golden_file("relu.golden").cases.size());
  const std::string problem = declaration_problem("relu.golden", f);
  EXPECT_EQ(problem.rfind("relu.golden declares no family", 0), 0u) << problem;
  EXPECT_NE(problem.find("'family' lines (name, ops, factory, broadcast, size0)"),
            std::string::npos)
      << problem;
  EXPECT_NE(problem.find("tools/golden/families/"), std::string::npos) << problem;
  // Another file's family lines are not this file's.
  EXPECT_NE(declaration_problem("mul.golden", golden_file("add.golden")).find("family name add"),
            std::string::npos);
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
  for (const auto& name : golden_file_names()) {
    const Loaded& l = loaded_files().at(name);
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
