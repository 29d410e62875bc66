// Dynamic shapes through lite::Program: version-2 models written byte by byte here
// (tests/lite/model_bytes.h), run at several sizes within their symbols' ranges, with
// expected values derived by hand (relu of a flattened input, the last row, Python's
// floor division); the binding errors' exact messages; scalar slots of the wrong kind;
// the limits measured again when the sizes change; `shapes` of a dynamic model.
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/op_trace.h"
#include "lite/shapes.h"
#include "tests/lite/model_bytes.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

using namespace sops::lite::testing;  // NOLINT: the byte builders
using sops::testing::error_message;
using sops::testing::make;
using sops::testing::values;

#define EXPECT_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

class DynamicShapesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

std::shared_ptr<const Model> load(const V2Model& m) {
  const std::string bytes = m.bytes();
  return read_model("dyn.sopsm", bytes.data(), bytes.size());
}

// x: float32 [batch, 4], batch in [1, 8]; y = relu(view(x, [sym_size(x, 0) * 4])).
V2Model flatten(int64_t max = 8) { return flatten_model(max); }

// float32 [rows, cols] holding k - 5 at flat index k.
Tensor ramp(int64_t rows, int64_t cols) {
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k) - 5;
  return make<float>(v, {rows, cols});
}

TEST_F(DynamicShapesTest, OneModelServesEverySizeInRange) {
  const Program program(load(flatten()));
  for (const int64_t batch : {1, 3, 8}) {  // both bounds and one between
    const std::vector<Tensor> y = program.run({ramp(batch, 4)});
    ASSERT_EQ(y.size(), 1u);
    EXPECT_EQ(y[0].sizes().vec(), (std::vector<int64_t>{batch * 4}));
    const std::vector<float> got = values<float>(y[0]);
    for (std::size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k], std::max(0.0f, static_cast<float>(k) - 5)) << "batch " << batch;
    }
  }
  // run_meta binds the symbols from Meta inputs as well.
  const Tensor meta = empty({5, 4}, TensorOptions(kFloat).device(kMeta));
  EXPECT_EQ(program.run_meta({meta})[0].sizes().vec(), (std::vector<int64_t>{20}));
}

// tokens: int64 [batch, seq], mask: float32 [batch, seq, 4]; y = relu(mask).
std::shared_ptr<const Model> two_inputs(int64_t seq_max = 64) {
  V2Model m;
  m.symbols = {{"batch", 1, 8}, {"seq", 2, seq_max}};
  m.values = 3;
  m.inputs = {{"tokens", 0, 4, {-1, -2}}, {"mask", 1, 6, {-1, -2, 4}}};
  m.node("relu", "aten::relu", {arg_slot(1)}, {2});
  m.outputs = {{"y", 2}};
  return load(m);
}

Tensor zeros(std::vector<int64_t> sizes, ScalarType dtype = kFloat) {
  Tensor t = empty(sizes, TensorOptions(dtype));
  if (t.nbytes() != 0) std::memset(t.data_ptr(), 0, t.nbytes());
  return t;
}

TEST_F(DynamicShapesTest, BindingChecksRangesAndAgreement) {
  const Program program(two_inputs());
  auto run = [&](std::vector<int64_t> tokens, std::vector<int64_t> mask) {
    return error_message([&] { program.run({zeros(tokens, kLong), zeros(mask)}); });
  };
  EXPECT_EQ(run({3, 17}, {3, 17, 4}), "(no error)");
  EXPECT_EQ(run({1, 2}, {1, 2, 4}), "(no error)");    // the lower bounds
  EXPECT_EQ(run({8, 64}, {8, 64, 4}), "(no error)");  // the upper bounds
  EXPECT_EQ(program.bind_symbols({zeros({3, 17}, kLong), zeros({3, 17, 4})}),
            (std::vector<int64_t>{3, 17}));

  EXPECT_EQ(run({3, 65}, {3, 65, 4}),
            "dyn.sopsm: input 'tokens' dimension 1 is 65: symbol 'seq' must be in [2, 64]; "
            "re-export with a larger max= to serve it");
  EXPECT_EQ(run({3, 1}, {3, 1, 4}),
            "dyn.sopsm: input 'tokens' dimension 1 is 1: symbol 'seq' must be in [2, 64]; "
            "re-export with a smaller min= to serve it");
  EXPECT_EQ(run({0, 17}, {0, 17, 4}),
            "dyn.sopsm: input 'tokens' dimension 0 is 0: symbol 'batch' must be in [1, 8]; "
            "re-export with a smaller min= to serve it");
  EXPECT_EQ(run({3, 17}, {3, 16, 4}),
            "dyn.sopsm: input 'mask' dimension 1 is 16, but symbol 'seq' is 17 (from input "
            "'tokens' dimension 1)");
  EXPECT_EQ(run({3, 17}, {2, 17, 4}),
            "dyn.sopsm: input 'mask' dimension 0 is 2, but symbol 'batch' is 3 (from input "
            "'tokens' dimension 0)");
  EXPECT_EQ(run({3, 17}, {3, 17, 5}),
            "dyn.sopsm: input 'mask' dimension 2 is 5, but the model takes exactly 4 there "
            "(input 1 must be float32 [batch, seq, 4])");
  EXPECT_EQ(run({3, 17}, {3, 17}),
            "dyn.sopsm: input 1 ('mask') must be float32 [batch, seq, 4] but is float32 [3, 17]");
  EXPECT_EQ(error_message([&] { program.run({zeros({3, 17}), zeros({3, 17, 4})}); }),
            "dyn.sopsm: input 0 ('tokens') must be int64 [batch, seq] but is float32 [3, 17]");
  EXPECT_EQ(error_message([&] { program.run({}); }),
            "dyn.sopsm takes 2 inputs (tokens: int64 [batch, seq], mask: float32 [batch, seq, "
            "4]) but 0 were given");

  // Without an upper bound, any size from the lower one on.
  const Program unbounded(two_inputs(kUnbounded));
  EXPECT_EQ(error_message([&] { unbounded.run({zeros({1, 1000}, kLong), zeros({1, 1000, 4})}); }),
            "(no error)");
  EXPECT_EQ(error_message([&] { unbounded.run({zeros({1, 1}, kLong), zeros({1, 1, 4})}); }),
            "dyn.sopsm: input 'tokens' dimension 1 is 1: symbol 'seq' must be in [2, unbounded); "
            "re-export with a smaller min= to serve it");
}

TEST_F(DynamicShapesTest, AScalarSlotFeedsAnIntArgument) {
  // x: float32 [n, 3]; y = select(x, 0, sym_size(x, 0) - 1): the last row.
  V2Model m;
  m.symbols = {{"n", 1, 10}};
  m.values = 4;
  m.inputs = {{"x", 0, 6, {-1, 3}}};
  m.node("sym_size_int", "aten::sym_size.int", {arg_slot(0), arg_int(0)}, {1});
  m.node("sub", "sym::sub", {arg_slot(1), arg_int(1)}, {2});
  m.node("select", "aten::select.int", {arg_slot(0), arg_int(0), arg_slot(2)}, {3});
  m.outputs = {{"y", 3}};
  const Program program(load(m));
  for (const int64_t n : {1, 4, 10}) {
    const std::vector<float> row = values<float>(program.run({ramp(n, 3)})[0]);
    const float first = static_cast<float>(3 * (n - 1)) - 5;
    EXPECT_EQ(row, (std::vector<float>{first, first + 1, first + 2})) << "n " << n;
  }

  // A Scalar argument from a slot: scalar_tensor(sym_size(x, 0) * 2).
  V2Model s;
  s.symbols = {{"n", 1, 1000000}};
  s.values = 4;
  s.inputs = {{"x", 0, 6, {-1, 4}}};
  s.node("sym_size_int", "aten::sym_size.int", {arg_slot(0), arg_int(0)}, {1});
  s.node("mul", "sym::mul", {arg_slot(1), arg_int(2)}, {2});
  s.node("scalar_tensor", "aten::scalar_tensor", {arg_slot(2)}, {3});
  s.outputs = {{"y", 3}};
  // sym_size reads no element: 4000 elements under a work limit of 100 are fine.
  Limits limits = Limits::none();
  limits.max_node_work = 100;
  const Program scalar(load(s), OperatorRegistry::global(), limits);
  EXPECT_EQ(values<float>(scalar.run({zeros({1000, 4})})[0]), (std::vector<float>{2000}));
}

TEST_F(DynamicShapesTest, ATensorWhereAScalarBelongsOrTheReverseNamesTheArgument) {
  V2Model select = flatten();
  select.nodes = {};
  select.values = 2;
  select.operators.clear();
  select.node("select", "aten::select.int", {arg_slot(0), arg_int(0), arg_slot(0)}, {1});
  select.outputs = {{"y", 1}};
  select.value_info = {};
  EXPECT_EQ(error_message([&] { Program(load(select)).run({ramp(2, 4)}); }),
            "dyn.sopsm: node 'select' (aten::select.int): argument 'index' is a Tensor (value "
            "slot 0), but the schema wants SymInt there");

  V2Model relu = flatten();
  relu.nodes[3].args = {arg_slot(1)};  // relu of the SymInt
  EXPECT_EQ(error_message([&] { Program(load(relu)).run({ramp(2, 4)}); }),
            "dyn.sopsm: node 'relu' (aten::relu): argument 'self' is an int (value slot 1), but "
            "the schema wants Tensor there");

  V2Model view = flatten();
  view.nodes[2].args[1] = arg_symints({elem_const(2), elem_slot(0)});
  EXPECT_EQ(error_message([&] { Program(load(view)).run({ramp(2, 4)}); }),
            "dyn.sopsm: node 'view' (aten::view): argument 'size' element 1 is a Tensor (value "
            "slot 0), but the schema wants SymInt[] there");

  V2Model mul = flatten();
  mul.nodes[1].args = {arg_slot(0), arg_int(4)};
  EXPECT_EQ(error_message([&] { Program(load(mul)).run({ramp(2, 4)}); }),
            "dyn.sopsm: node 'mul' (sym::mul): operand 1 is a Tensor, but the operator takes a "
            "number (int, float or bool) there");

  // A version-1 model has no scalar slots: the schema check at binding refuses it, as
  // it always did.
  V2Model v1 = select;
  v1.version = 1;
  v1.symbols = {};
  v1.inputs[0].sizes = {2, 4};
  EXPECT_HAS(error_message([&] { Program p(load(v1)); }),
             "expected a value of type SymInt (position 3) but got Tensor");
}

// A node of scalar arithmetic: its name, its `sym::` operator, arguments and results.
struct SymNode {
  std::string name;
  std::string op;
  std::vector<std::string> args;
  std::vector<uint32_t> outs;
};

// x: float32 [n]; the SymInt arithmetic of `extra` on n = sym_size(x, 0) (slot 1), then
// y = relu(x). Returns each node's scalar result, by node name.
std::map<std::string, Value> scalars_of(const std::vector<SymNode>& extra, uint32_t values,
                                        int64_t n, std::string* error = nullptr) {
  V2Model m;
  m.symbols = {{"n", 1, 100}};
  m.values = values;
  m.inputs = {{"x", 0, 6, {-1}}};
  m.node("sym_size_int", "aten::sym_size.int", {arg_slot(0), arg_int(0)}, {1});
  for (const SymNode& node : extra) m.node(node.name, node.op, node.args, node.outs);
  m.node("relu", "aten::relu", {arg_slot(0)}, {values - 1});
  m.outputs = {{"y", values - 1}};
  const auto model = load(m);
  const Program program(model);
  std::map<std::string, Value> got;
  const std::string e = error_message([&] {
    program.run({zeros({n})}, [&](std::size_t i, const std::vector<Value>& slots) {
      const Node& node = model->nodes[i];
      if (!node.outs.empty() && !slots[node.outs[0]].is_tensor()) {
        got[node.name] = slots[node.outs[0]];
      }
    });
  });
  if (error != nullptr) *error = e;
  return got;
}

SymNode sym(std::string name, std::string op, std::vector<std::string> args,
            std::vector<uint32_t> outs) {
  return {std::move(name), std::move(op), std::move(args), std::move(outs)};
}

TEST_F(DynamicShapesTest, SymNodesFollowPython) {
  // n = 7: -n = -7; -7 // 2 = -4; -7 % 2 = 1; 7 % -2 = -1; n >= 2 holds.
  const std::vector<SymNode> nodes = {
      sym("neg", "sym::neg", {arg_slot(1)}, {2}),
      sym("floordiv", "sym::floordiv", {arg_slot(2), arg_int(2)}, {3}),
      sym("mod", "sym::mod", {arg_slot(2), arg_int(2)}, {4}),
      sym("mod_1", "sym::mod", {arg_slot(1), arg_int(-2)}, {5}),
      sym("ge", "sym::ge", {arg_slot(1), arg_int(2)}, {6}),
      sym("check", "sym::assert", {arg_slot(6), arg_str("n must be at least 2")}, {}),
      sym("truediv", "sym::truediv", {arg_slot(1), arg_int(2)}, {7}),
  };
  std::string error;
  std::map<std::string, Value> got = scalars_of(nodes, 9, 7, &error);
  EXPECT_EQ(error, "(no error)");
  EXPECT_EQ(got["sym_size_int"].to_int(), 7);
  EXPECT_EQ(got["neg"].to_int(), -7);
  EXPECT_EQ(got["floordiv"].to_int(), -4);
  EXPECT_EQ(got["mod"].to_int(), 1);
  EXPECT_EQ(got["mod_1"].to_int(), -1);
  EXPECT_TRUE(got["ge"].to_bool());
  EXPECT_EQ(got["truediv"].to_double(), 3.5);

  scalars_of(nodes, 9, 1, &error);
  EXPECT_EQ(error, "dyn.sopsm: node 'check' (sym::assert): assertion failed: n must be at least 2");

  scalars_of({sym("div", "sym::floordiv", {arg_slot(1), arg_int(0)}, {2})}, 4, 3, &error);
  EXPECT_EQ(error, "dyn.sopsm: node 'div' (sym::floordiv): integer division by zero (3 // 0)");

  scalars_of({sym("big", "sym::mul", {arg_slot(1), arg_int(int64_t{1} << 62)}, {2})}, 4, 4, &error);
  EXPECT_EQ(error,
            "dyn.sopsm: node 'big' (sym::mul): the result (4 * 4611686018427387904) overflows "
            "int64");
}

TEST_F(DynamicShapesTest, LimitsAreMeasuredAgainWhenTheSizesChange) {
  // x: float32 [n]; relu reads n elements and writes n: over a work limit of 1000 from
  // n = 501 on.
  V2Model m;
  m.symbols = {{"n", 1, 100000}};
  m.values = 2;
  m.inputs = {{"x", 0, 6, {-1}}};
  m.node("relu", "aten::relu", {arg_slot(0)}, {1});
  m.outputs = {{"y", 1}};
  Limits limits = Limits::none();
  limits.max_node_work = 1000;
  const Program program(load(m), OperatorRegistry::global(), limits);
  const std::string refused =
      "dyn.sopsm: node 'relu' (aten::relu): its work, 2000 elements touched (every element it "
      "reads and writes, and the multiply-adds of a product), exceeds the node work limit of "
      "1000 elements (raise it with lite_runtime --max-node-work N, or Limits::max_node_work; "
      "0 means no limit)";
  EXPECT_EQ(error_message([&] { program.run({zeros({100})}); }), "(no error)");
  EXPECT_EQ(error_message([&] { program.run({zeros({1000})}); }), refused);
  EXPECT_EQ(error_message([&] { program.run({zeros({100})}); }), "(no error)");
  EXPECT_EQ(error_message([&] { program.run({zeros({1000})}); }), refused);
  EXPECT_EQ(error_message([&] { program.run({zeros({500})}); }), "(no error)");  // 1000: at it
  EXPECT_HAS(error_message([&] { program.run({zeros({501})}); }), "its work, 1002 elements");

  // Runs of several sizes at once share the kept plan under its lock.
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 20; ++k) {
        const int64_t n = (k + t) % 2 == 0 ? 100 : 1000;
        const std::string e = error_message([&] { program.run({zeros({n})}); });
        if (e != (n == 100 ? std::string("(no error)") : refused)) ++wrong[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, (std::vector<int>{0, 0, 0, 0}));
}

TEST_F(DynamicShapesTest, ShapesAreSymbolicOrAtTheGivenSizes) {
  const Program program(load(flatten()));
  EXPECT_EQ(format_shapes(compute_symbolic_shapes(program)),
            "# symbol batch in [1, 8]\n"
            "# input x float32 [batch, 4]\n"
            "view float32 [4*batch]\n"
            "relu float32 [32] (at batch=8)\n"
            "# peak activation memory at the upper bounds (batch=8): 256 bytes (after node "
            "'relu')\n");
  const Tensor x = empty({3, 4}, TensorOptions(kFloat).device(kMeta));
  EXPECT_EQ(format_shapes(compute_shapes(program, {x})),
            "# symbol batch = 3 (in [1, 8])\n"
            "# input x float32 [3, 4]\n"
            "view float32 [12]\n"
            "relu float32 [12]\n"
            "# peak activation memory: 96 bytes (after node 'relu')\n");

  const Program unbounded(load(flatten(kUnbounded)));
  EXPECT_EQ(format_shapes(compute_symbolic_shapes(unbounded)),
            "# symbol batch in [1, unbounded)\n"
            "# input x float32 [batch, 4]\n"
            "view float32 [4*batch]\n"
            "relu float32 [4] (at batch=1)\n"
            "# peak activation memory: cannot be bounded: symbol 'batch' has no upper bound "
            "(export with a max= for it, or give --input files to measure the peak at their "
            "sizes)\n");
  // At an upper bound whose sizes no tensor can have, the error says where it ran.
  const Program huge(load(flatten(int64_t{1} << 62)));
  const std::string e = error_message([&] { compute_symbolic_shapes(huge); });
  EXPECT_EQ(e.rfind("at the symbols' upper bounds (batch=4611686018427387904): ", 0), 0u) << e;
  EXPECT_HAS(e, "overflows");
}

TEST_F(DynamicShapesTest, TraceRecordsTheOperatorsNotTheScalarArithmetic) {
  const Program program(load(flatten()));
  const OperatorTrace trace;
  program.run({ramp(2, 4)});
  std::vector<std::string> roots;
  for (const TracedOperator& op : trace.operators(program, OperatorRegistry::global())) {
    if (op.is_root) roots.push_back(op.name);
  }
  EXPECT_EQ(roots, (std::vector<std::string>{"aten::relu", "aten::sym_size.int", "aten::view"}));
}

}  // namespace
}  // namespace sops::lite
