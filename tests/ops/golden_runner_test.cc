// Every golden case of every operator of //ops:aten, called through the boxed
// registry by name: one generic runner instead of one loop per operator.
//
// For each case of tests/golden/data/*.golden (PyTorch's results, written by
// tools/golden/make_golden.py) the runner
//   - pushes the case's arguments as Values in the operator's schema order, calls
//     `aten::<op>` through sops::OperatorRegistry and compares the result with PyTorch's
//     (for out= and inplace operators: the out / self tensor, which must be returned;
//     for a Tensor[] result, each of its tensors);
//   - runs it again on meta tensors (dtype and sizes only, no cpu memory touched);
//   - for a functional case, derives the out= variant (an empty out of the result's
//     dtype, resized by the op) and the inplace variant (where self already has the
//     result's dtype and shape), found in the registry by their schemas.
// A new operator needs no code here: its yaml entry, meta, kernel and golden table.
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "aten/UnboxingFunctions.h"
#include "runtime/generator.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::ArgKind;
using golden::ExpectKind;
using golden::GoldenArg;
using golden::GoldenCase;

const OperatorRegistry& registry() {
  static OperatorRegistry* r = [] {
    auto* registry = new OperatorRegistry();
    aten::register_aten_kernels(*registry);
    return registry;
  }();
  return *r;
}

std::string full_name(const std::string& op) { return "aten::" + op; }

// The argument a mutating operator writes and returns: its out= argument, or self.
bool expects_error(const GoldenCase& c) { return c.is_error() || expects_unrepresentable(c); }
std::string expected_error(const GoldenCase& c) { return c.is_error() ? c.expect.error : "int16"; }

// PyTorch's error, raised by the operator (or, for a composite such as linear, by the
// registered operator it failed in). On meta tensors an operator may also succeed: checks
// of values, memory overlap and dtype support live in the kernels, which meta skips.
::testing::AssertionResult throws_named_error(const RegisteredOperator& op, Stack stack,
                                              const GoldenCase& c, bool meta = false) {
  try {
    op.call(stack);
    if (meta) return ::testing::AssertionSuccess();
  } catch (const Error& e) {
    if (!error_matches(e.what(), expected_error(c))) {
      return ::testing::AssertionFailure()
             << "error \"" << e.what() << "\" does not contain \"" << expected_error(c) << "\"";
    }
    const std::string& named = e.op();
    const bool inner =
        registry().find(named.find("::") == std::string::npos ? full_name(named) : named);
    if (named != c.op && named != full_name(c.op) && !inner) {
      return ::testing::AssertionFailure() << "error \"" << e.what() << "\" names operator '"
                                           << named << "', expected '" << c.op << "'";
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "did not throw (expected \"" << expected_error(c) << "\")";
}

// Calls op, after seeding the default generator for a case of a random operator (its
// `seed` line: PyTorch's result came after torch.manual_seed(seed)).
void call(const RegisteredOperator& op, Stack& stack, const GoldenCase& c) {
  if (c.seed.has_value()) default_cpu_generator().manual_seed(*c.seed);
  op.call(stack);
}

// The case with its expectation replaced by element i of its Tensor[] expectation.
GoldenCase element_case(const GoldenCase& c, std::size_t i) {
  GoldenCase e = c;
  e.expect = c.expect.elements.at(i);
  return e;
}

// A functional result against c's (tensor or view) expectation, PyTorch's memory layout
// included (strides of size-1 dimensions aside): a view shares self's storage with
// PyTorch's strides and offset, a new tensor does not.
void check_result(const Tensor& result, const GoldenCase& c, const Tensor& self) {
  EXPECT_TRUE(matches(result, c, /*check_strides=*/true));
  if (c.expect.kind == ExpectKind::kView) {
    EXPECT_TRUE(result.is_alias_of(self)) << c.where() << ": expected a view of self";
    EXPECT_EQ(result.strides(), IntArrayRef(c.expect.strides));
    EXPECT_EQ(result.storage_offset(), c.expect.offset);
  } else if (self.defined()) {
    EXPECT_FALSE(result.is_alias_of(self)) << c.where() << ": a functional result aliases self";
  }
}

// The case as given, on cpu. Where PyTorch computes in a dtype sops lacks (int16, the
// common dtype of int8 and uint8), sops may refuse with an error naming it or, when the
// operator does not promote (copy_), give PyTorch's result.
void run_as_given(const RegisteredOperator& op, const GoldenCase& c) {
  const FunctionSchema& schema = op.schema();
  Stack stack = stack_of(c, schema, kCPU);
  if (c.is_error()) {
    EXPECT_TRUE(throws_named_error(op, stack, c));
    return;
  }
  if (expects_unrepresentable(c)) {
    try {
      Stack attempt = stack_of(c, schema, kCPU);
      op.call(attempt);
    } catch (const Error&) {
      EXPECT_TRUE(throws_named_error(op, stack, c));
      return;
    }
  }
  const int64_t written = written_argument(schema);
  const Tensor target = written >= 0 ? stack[written].to_tensor() : Tensor();
  const Tensor self = c.find_arg("self") != nullptr && c.arg("self").kind == ArgKind::kTensor
                          ? stack[0].to_tensor()
                          : Tensor();
  call(op, stack, c);
  ASSERT_EQ(stack.size(), schema.returns.size());
  if (c.expect.kind == ExpectKind::kScalar) {
    EXPECT_TRUE(matches_returned(stack[0], c.expect.scalar));
    return;
  }
  if (written >= 0) {
    // out= and inplace: the written tensor holds PyTorch's result and is the one returned.
    EXPECT_TRUE(matches(target, c, /*check_strides=*/true));
    if (!stack.empty()) EXPECT_TRUE(stack[0].to_tensor().is_same(target));
    return;
  }
  if (c.expect.kind == ExpectKind::kList) {  // Tensor[]: each tensor against its line
    const std::vector<Tensor>& results = stack[0].to_tensor_list();
    ASSERT_EQ(results.size(), c.expect.elements.size()) << c.where();
    for (std::size_t i = 0; i < results.size(); ++i) {
      SCOPED_TRACE("result " + std::to_string(i));
      check_result(results[i], element_case(c, i), self);
    }
    return;
  }
  ASSERT_EQ(stack.size(), c.expect.result_count());
  for (std::size_t i = 1; i < stack.size(); ++i) {  // the further returns of a tuple
    EXPECT_TRUE(matches(stack[i].to_tensor(), c, c.expect.result(i))) << "return " << i;
  }
  check_result(stack[0].to_tensor(), c, self);
}

// The case on meta tensors: the same dtype and sizes (or the same error), no cpu memory.
void run_on_meta(const RegisteredOperator& op, const GoldenCase& c) {
  const FunctionSchema& schema = op.schema();
  Stack stack = stack_of(c, schema, kMeta);
  NoCpuAllocations no_cpu;
  if (expects_error(c)) {
    EXPECT_TRUE(throws_named_error(op, stack, c, /*meta=*/true)) << "(on meta tensors)";
    return;
  }
  const int64_t written = written_argument(schema);
  const Tensor target = written >= 0 ? stack[written].to_tensor() : Tensor();
  try {
    op.call(stack);
  } catch (const Error& e) {
    // A result whose shape depends on the input's values (index.Tensor with a boolean
    // mask) cannot be made on meta tensors: PyTorch's meta kernels refuse it too.
    if (std::string_view(e.what()).find("data-dependent") != std::string_view::npos) return;
    throw;
  }
  if (c.expect.kind == ExpectKind::kScalar) {  // metadata queries answer on meta tensors too
    EXPECT_TRUE(matches_returned(stack[0], c.expect.scalar)) << "(on meta tensors)";
    return;
  }
  if (c.expect.kind == ExpectKind::kList) {
    const std::vector<Tensor>& results = stack[0].to_tensor_list();
    ASSERT_EQ(results.size(), c.expect.elements.size()) << c.where();
    for (std::size_t i = 0; i < results.size(); ++i) {
      EXPECT_TRUE(matches_meta(results[i], element_case(c, i))) << "result " << i;
    }
    return;
  }
  EXPECT_TRUE(matches_meta(written >= 0 ? target : stack[0].to_tensor(), c));
  if (written < 0) {
    ASSERT_EQ(stack.size(), c.expect.result_count());
    for (std::size_t i = 1; i < stack.size(); ++i) {
      EXPECT_TRUE(matches_meta(stack[i].to_tensor(), c, c.expect.result(i))) << "return " << i;
    }
  }
}

// Whether `variant` takes `functional`'s arguments (the TensorOptions of a factory, which
// an out= tensor carries, excepted) and then one out= argument per returned tensor.
bool is_out_variant_of(const FunctionSchema& variant, const FunctionSchema& functional) {
  const std::size_t n = variant.arguments.size();
  const std::size_t k = functional.returns.size();
  if (k == 0 || n < k || variant.returns.size() != k) return false;
  for (std::size_t i = n - k; i < n; ++i) {
    if (!variant.arguments[i].is_out) return false;
  }
  std::size_t j = 0;
  for (std::size_t i = 0; i + k < n; ++i) {
    const ArgumentSchema& a = variant.arguments[i];
    while (j < functional.arguments.size() && functional.arguments[j].name != a.name) {
      const std::string_view skipped = functional.arguments[j].name;
      if (skipped != "dtype" && skipped != "layout" && skipped != "device" &&
          skipped != "pin_memory") {
        return false;
      }
      ++j;
    }
    if (j == functional.arguments.size() || functional.arguments[j].type.text != a.type.text)
      return false;
    ++j;
  }
  // Every argument of the functional schema is taken (div.out is not div.Tensor_mode's).
  for (; j < functional.arguments.size(); ++j) {
    const std::string_view left = functional.arguments[j].name;
    if (left != "dtype" && left != "layout" && left != "device" && left != "pin_memory")
      return false;
  }
  return true;
}

const RegisteredOperator* out_variant(const FunctionSchema& functional) {
  for (std::string_view candidate : registry().operator_names()) {
    const RegisteredOperator* op = registry().find(candidate);
    const FunctionSchema& s = op->schema();
    if (s.ns == functional.ns && s.name == functional.name && is_out_variant_of(s, functional)) {
      return op;
    }
  }
  return nullptr;
}

// `name_.overload` (for a functional schema) or `name.overload` (for an inplace one)
// with the same arguments (pow.Scalar takes a Scalar self, pow_.Scalar a Tensor one).
const RegisteredOperator* sibling(const FunctionSchema& schema, std::string_view name) {
  std::string full = std::string(schema.ns) + "::" + std::string(name);
  if (!schema.overload.empty()) full += "." + std::string(schema.overload);
  const RegisteredOperator* op = registry().find(full);
  if (op == nullptr || op->schema().arguments.size() != schema.arguments.size()) return nullptr;
  for (std::size_t i = 0; i < schema.arguments.size(); ++i) {
    const ArgumentSchema& a = op->schema().arguments[i];
    const ArgumentSchema& b = schema.arguments[i];
    if (a.name != b.name || a.type.text != b.type.text) return nullptr;
  }
  return op;
}

const RegisteredOperator* inplace_variant(const FunctionSchema& functional) {
  return sibling(functional, std::string(functional.name) + "_");
}

const RegisteredOperator* functional_variant(const FunctionSchema& inplace) {
  const std::string_view name = inplace.name;
  if (name.empty() || name.back() != '_') return nullptr;
  return sibling(inplace, name.substr(0, name.size() - 1));
}

// The variants a case also checks: for a functional case, out= (an empty out of the
// result's dtype) and inplace (where self already has the result's dtype and shape); for
// an inplace case, the functional variant and its out=.
bool checks_variants(const RegisteredOperator& op, const GoldenCase& c) {
  return !expects_error(c) &&
         (c.expect.kind == ExpectKind::kTensor || c.expect.kind == ExpectKind::kTuple) &&
         c.expect.values_checked && op.schema().returns.size() == c.expect.result_count();
}

// Whether every tensor argument has the result's dtype (no promotion to tell apart).
bool same_dtypes(const GoldenCase& c) {
  for (const GoldenArg& a : c.args) {
    if (a.kind == ArgKind::kTensor && a.tensor.dtype != c.expect.dtype) return false;
  }
  return true;
}

// The functional sibling of an inplace case's op. Not for an inplace op that gives self new
// sizes (resize_): its functional sibling resizes a copy, whose storage holds only what
// self's view saw, while resize_ reads the storage beyond it.
const RegisteredOperator* derived_functional(const RegisteredOperator& op, const GoldenCase& c) {
  const int64_t written = written_argument(op.schema());
  if (!checks_variants(op, c) || written != 0 || op.schema().arguments[0].is_out ||
      !same_dtypes(c) ||
      c.arg(std::string(op.schema().arguments[0].name)).tensor.sizes != c.expect.sizes) {
    return nullptr;
  }
  return functional_variant(op.schema());
}

const RegisteredOperator* derived_out(const RegisteredOperator& functional, const GoldenCase& c) {
  if (!checks_variants(functional, c) || written_argument(functional.schema()) >= 0) return nullptr;
  return out_variant(functional.schema());
}

const RegisteredOperator* derived_inplace(const RegisteredOperator& functional,
                                          const GoldenCase& c) {
  const GoldenArg* self = c.find_arg("self");
  if (!checks_variants(functional, c) || written_argument(functional.schema()) >= 0 ||
      self == nullptr || self->kind != ArgKind::kTensor || self->tensor.sizes != c.expect.sizes ||
      self->tensor.dtype != c.expect.dtype) {
    return nullptr;
  }
  return inplace_variant(functional.schema());
}

// Every operator a case checks: its own and the derived variants.
std::vector<const RegisteredOperator*> derived_variants(const RegisteredOperator& op,
                                                        const GoldenCase& c) {
  std::vector<const RegisteredOperator*> ops;
  const RegisteredOperator* functional = derived_functional(op, c);
  if (functional != nullptr) ops.push_back(functional);
  const RegisteredOperator& base = functional != nullptr ? *functional : op;
  if (const RegisteredOperator* out = derived_out(base, c)) ops.push_back(out);
  if (functional == nullptr) {
    if (const RegisteredOperator* inplace = derived_inplace(op, c)) ops.push_back(inplace);
  }
  return ops;
}

void run_variant(const RegisteredOperator& variant, const GoldenCase& c) {
  SCOPED_TRACE("derived " + std::string(variant.name()));
  const FunctionSchema& schema = variant.schema();
  Stack stack = stack_of(c, schema, kCPU);
  const int64_t written = written_argument(schema);
  Tensor target;
  if (written < 0) {  // functional: self is left alone
    const Tensor self = stack[0].to_tensor();
    const Tensor before = clone(self);
    call(variant, stack, c);
    ASSERT_EQ(stack.size(), c.expect.result_count());
    for (std::size_t i = 0; i < stack.size(); ++i) {
      // Derived from an inplace case: the inplace op writes the functional result
      // converted to self's dtype (a comparison's bool result becomes 1/0 in a float self).
      Tensor result = stack[i].to_tensor();
      const ScalarType want = dtype_of(c.expect.result(i).dtype);
      if (result.defined() && result.scalar_type() != want) result = clone_as(result, want);
      EXPECT_TRUE(matches(result, c, c.expect.result(i))) << "return " << i;
    }
    EXPECT_TRUE(same_result(self, before)) << "the functional variant changed self";
    return;
  }
  if (schema.arguments[written].is_out) {
    // One empty out per returned tensor, of its dtype, resized by the op.
    std::vector<Tensor> outs;
    for (std::size_t i = 0; i < c.expect.result_count(); ++i) {
      outs.push_back(sops::empty({0}, dtype_of(c.expect.result(i).dtype)));
      stack.emplace_back(outs.back());
    }
    call(variant, stack, c);
    ASSERT_EQ(stack.size(), outs.size());
    for (std::size_t i = 0; i < outs.size(); ++i) {
      EXPECT_TRUE(matches(outs[i], c, c.expect.result(i))) << "out " << i;
      EXPECT_TRUE(stack[i].to_tensor().is_same(outs[i])) << "out " << i << " is not returned";
    }
    return;
  } else {
    target = clone(stack[0].to_tensor());  // contiguous: an expanded self cannot be written
    stack[0] = Value(target);
  }
  call(variant, stack, c);
  EXPECT_TRUE(matches(target, c));
  EXPECT_TRUE(stack.at(0).to_tensor().is_same(target));
}

class GoldenRunnerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenRunnerTest, EveryCaseThroughTheBoxedRegistry) {
  const std::vector<GoldenCase> cases = golden::load_golden(golden::golden_data_path(GetParam()));
  ASSERT_FALSE(cases.empty());
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.where());
    const RegisteredOperator* op = registry().find(full_name(c.op));
    ASSERT_NE(op, nullptr) << "the golden data has operator " << c.op
                           << ", which //ops:aten does not register";
    run_as_given(*op, c);
    run_on_meta(*op, c);
    for (const RegisteredOperator* variant : derived_variants(*op, c)) run_variant(*variant, c);
  }
}

INSTANTIATE_TEST_SUITE_P(AllGoldenFiles, GoldenRunnerTest,
                         ::testing::ValuesIn(golden::golden_file_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

TEST(GoldenRunnerCoverage, EveryOperatorOfTheLibraryHasGoldenCases) {
  std::set<std::string> covered;
  for (const std::string& file : golden::golden_file_names()) {
    for (const GoldenCase& c : golden::load_golden(golden::golden_data_path(file))) {
      const RegisteredOperator* op = registry().find(full_name(c.op));
      if (op == nullptr) continue;  // reported by the runner
      covered.insert(std::string(op->name()));
      for (const RegisteredOperator* variant : derived_variants(*op, c)) {
        covered.insert(std::string(variant->name()));
      }
    }
  }
  std::vector<std::string> missing;
  for (std::string_view name : registry().operator_names()) {
    if (covered.count(std::string(name)) == 0) missing.emplace_back(name);
  }
  EXPECT_TRUE(missing.empty()) << "operators without golden cases (add them to a table of "
                                  "tools/golden/families/): "
                               << ::testing::PrintToString(missing);
}

}  // namespace
}  // namespace sops::optest
