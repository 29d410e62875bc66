// lite/limits.h through lite::Program, as a host application sets them: models built as
// structs here (no file), figures derived by hand from the shapes in the comments.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/limits.h"
#include "lite/model.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

using sops::testing::error_message;

#define EXPECT_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

Arg slot(uint32_t s) {
  Arg a;
  a.tag = Arg::Tag::Slot;
  a.slot = s;
  return a;
}
Arg integer(int64_t v) {
  Arg a;
  a.tag = Arg::Tag::Int;
  a.i = v;
  return a;
}
Arg real(double v) {
  Arg a;
  a.tag = Arg::Tag::Double;
  a.d = v;
  return a;
}
Arg ints(std::vector<int64_t> v) {
  Arg a;
  a.tag = Arg::Tag::IntList;
  a.ints = std::move(v);
  return a;
}
Arg none() { return Arg(); }

// A model of `nodes` (name, operator, arguments, result slots), its last slot the output.
struct Builder {
  std::shared_ptr<Model> m = std::make_shared<Model>();

  explicit Builder(std::string source) { m->source = std::move(source); }
  Builder& input(std::string name, uint32_t s, TensorDesc desc) {
    m->inputs.push_back({std::move(name), s, std::move(desc)});
    return *this;
  }
  Builder& node(std::string name, const std::string& op, std::vector<Arg> args,
                std::vector<uint32_t> outs) {
    uint32_t index = 0;
    while (index < m->operators.size() && m->operators[index] != op) ++index;
    if (index == m->operators.size()) m->operators.push_back(op);
    Node n;
    n.name = std::move(name);
    n.op = index;
    n.args = std::move(args);
    n.outs = std::move(outs);
    for (const uint32_t s : n.outs) m->num_values = std::max(m->num_values, s + 1);
    m->nodes.push_back(std::move(n));
    return *this;
  }
  std::shared_ptr<const Model> output(uint32_t s) {
    m->outputs.push_back({"y", s});
    return m;
  }
};

class ResourceLimitsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

// sum over one float shown as [2^31, 2^31]: 2^62 elements read, 1 written.
std::shared_ptr<const Model> sum_of_expanded() {
  return Builder("sum.sopsm")
      .node("one", "aten::scalar_tensor", {real(1.0)}, {0})
      .node("big", "aten::expand", {slot(0), ints({int64_t{1} << 31, int64_t{1} << 31})}, {1})
      .node("sum", "aten::sum.dim_IntList", {slot(1), none()}, {2})
      .output(2);
}

TEST_F(ResourceLimitsTest, DefaultsAndNone) {
  const Limits d;
  EXPECT_EQ(d.max_tensor_bytes, uint64_t{1} << 30);
  EXPECT_EQ(d.max_memory_bytes, uint64_t{1} << 31);
  EXPECT_EQ(d.max_node_work, uint64_t{1} << 32);
  EXPECT_TRUE(d.any());
  EXPECT_FALSE(Limits::none().any());
  EXPECT_EQ(Program(sum_of_expanded()).limits().max_node_work, d.max_node_work);
}

TEST_F(ResourceLimitsTest, ASumOverAnExpandedViewIsRefusedBeforeAnythingRuns) {
  const Program program(sum_of_expanded());
  const std::string first = error_message([&] { program.run({}); });
  EXPECT_EQ(first,
            "sum.sopsm: node 'sum' (aten::sum.dim_IntList): its work, 4611686018427387905 "
            "elements touched (every element it reads and writes, and the multiply-adds of a "
            "product), exceeds the node work limit of 4294967296 elements (raise it with "
            "lite_runtime --max-node-work N, or Limits::max_node_work; 0 means no limit)");
  // The plan is made once; every run is refused the same way.
  EXPECT_EQ(error_message([&] { program.run({}); }), first);
}

TEST_F(ResourceLimitsTest, AHostsOwnLimitsApplyAndNoneRunsAll) {
  // x [1000] f32; a = x + x; b = x * x; c = a + b. Held: 8000 B after a, 12000 after b
  // (x still counted: it is freed after its last reader has run), 12000 after c.
  auto model = Builder("ew.sopsm")
                   .input("x", 0, TensorDesc{ScalarType::Float, {1000}})
                   .node("a", "aten::add.Tensor", {slot(0), slot(0)}, {1})
                   .node("b", "aten::mul.Tensor", {slot(0), slot(0)}, {2})
                   .node("c", "aten::add.Tensor", {slot(1), slot(2)}, {3})
                   .output(3);
  std::vector<float> values(1000);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k % 5);
  const Tensor x = sops::testing::make<float>(values, {1000});

  Limits tight = Limits::none();
  tight.max_memory_bytes = 11999;
  EXPECT_HAS(error_message([&] { Program(model, OperatorRegistry::global(), tight).run({x}); }),
             "ew.sopsm: node 'b' (aten::mul.Tensor): the memory held once it has run, 12000 "
             "bytes (inputs, outputs and the intermediates still needed), exceeds the memory "
             "limit of 11999 bytes");
  tight.max_memory_bytes = 12000;
  tight.max_tensor_bytes = 4000;
  tight.max_node_work = 3000;  // each node reads 2000 elements and writes 1000
  const std::vector<Tensor> y = Program(model, OperatorRegistry::global(), tight).run({x});
  ASSERT_EQ(y.size(), 1u);
  for (std::size_t k = 0; k < values.size(); ++k) {
    ASSERT_EQ(y[0].data_ptr<float>()[k], 2 * values[k] + values[k] * values[k]);
  }
  tight.max_node_work = 2999;
  EXPECT_HAS(error_message([&] { Program(model, OperatorRegistry::global(), tight).run({x}); }),
             "node 'a' (aten::add.Tensor): its work, 3000 elements touched");
}

TEST_F(ResourceLimitsTest, AModelWithoutInputsRuns) {
  auto model =
      Builder("const.sopsm")
          .node("steps", "aten::arange.start_step", {integer(0), integer(5), integer(1)}, {0})
          .output(0);
  const std::vector<Tensor> y = Program(model).run({});
  ASSERT_EQ(y.size(), 1u);
  ASSERT_EQ(y[0].numel(), 5);
  for (int64_t k = 0; k < 5; ++k) EXPECT_EQ(y[0].data_ptr<int64_t>()[k], k);
}

TEST_F(ResourceLimitsTest, AnArangeIsBoundByTheWorkItWrites) {
  // 1e6 int64 steps: 1e6 elements written, 8e6 bytes.
  auto model =
      Builder("arange.sopsm")
          .node("steps", "aten::arange.start_step", {integer(0), integer(1000000), integer(1)}, {0})
          .output(0);
  Limits limits;
  limits.max_node_work = 999999;
  EXPECT_HAS(error_message([&] { Program(model, OperatorRegistry::global(), limits).run({}); }),
             "its work, 1000000 elements touched");
  limits.max_node_work = 0;
  limits.max_tensor_bytes = 7999999;
  EXPECT_HAS(error_message([&] { Program(model, OperatorRegistry::global(), limits).run({}); }),
             "output 0 (int64 [1000000], 8000000 bytes) exceeds the tensor size limit of 7999999");
  const std::vector<Tensor> y = Program(model, OperatorRegistry::global(), Limits::none()).run({});
  EXPECT_EQ(y[0].data_ptr<int64_t>()[999999], 999999);
}

TEST_F(ResourceLimitsTest, ContractionsCountTheirMultiplyAdds) {
  // mm of [64, 128] by [128, 32] views of one float: 8192 + 4096 read, 2048 written,
  // 2048 * 128 = 262144 multiply-adds.
  auto model = Builder("mm.sopsm")
                   .node("one", "aten::scalar_tensor", {real(0.5)}, {0})
                   .node("a", "aten::expand", {slot(0), ints({64, 128})}, {1})
                   .node("b", "aten::expand", {slot(0), ints({128, 32})}, {2})
                   .node("mm", "aten::mm", {slot(1), slot(2)}, {3})
                   .output(3);
  Limits limits = Limits::none();
  limits.max_node_work = 8192 + 4096 + 2048 + 262144 - 1;
  EXPECT_HAS(error_message([&] { Program(model, OperatorRegistry::global(), limits).run({}); }),
             "node 'mm' (aten::mm): its work, 276480 elements touched");
  limits.max_node_work += 1;
  const std::vector<Tensor> y = Program(model, OperatorRegistry::global(), limits).run({});
  EXPECT_EQ(y[0].data_ptr<float>()[0], 128 * 0.25f);
}

TEST_F(ResourceLimitsTest, LiveBytesCountsEachStorageOnceAndSaturates) {
  const TensorOptions meta = TensorOptions(ScalarType::Float).device(kMeta);
  const Tensor a = empty({10}, meta);  // 40 bytes
  const Tensor param = empty({1000}, meta);
  LiveBytes live({param.storage().impl()});
  live.add(Value(a));
  live.add(Value(a.expand({3, 10})));  // a view: the same storage
  live.add(Value(param));              // a constant: held anyway
  EXPECT_EQ(live.total(), 40u);
  live.remove(Value(a));
  EXPECT_EQ(live.total(), 40u);  // the view still holds it
  live.remove(Value(a.expand({3, 10})));
  EXPECT_EQ(live.total(), 0u);
  // Four storages of 2^62 bytes each: 2^64, saturated (and exact again without one).
  std::vector<Tensor> huge;
  for (int k = 0; k < 4; ++k) {
    huge.push_back(empty({int64_t{1} << 62}, TensorOptions(ScalarType::Byte).device(kMeta)));
    live.add(Value(huge.back()));
  }
  EXPECT_EQ(live.total(), UINT64_MAX);
  live.remove(Value(huge.back()));
  EXPECT_EQ(live.total(), uint64_t{3} << 62);
}

TEST_F(ResourceLimitsTest, ElementsAndSpansOfViews) {
  const TensorOptions meta = TensorOptions(ScalarType::Float).device(kMeta);
  const Tensor one = empty({}, meta);
  EXPECT_EQ(saturating_numel(one), 1u);
  EXPECT_EQ(span_bytes(one), 4u);
  const Tensor wide = one.expand({int64_t{1} << 31, int64_t{1} << 31});
  EXPECT_EQ(saturating_numel(wide), uint64_t{1} << 62);
  EXPECT_EQ(span_bytes(wide), 4u);  // one stored float
  EXPECT_EQ(saturating_numel(empty({0, int64_t{1} << 40}, meta)), 0u);
  EXPECT_EQ(span_bytes(empty({3, 5}, meta).as_strided({5, 3}, {1, 5})), 60u);
}

TEST_F(ResourceLimitsTest, DataDependentOperators) {
  const TensorOptions meta = TensorOptions(ScalarType::Float).device(kMeta);
  const Tensor self = empty({4}, meta);
  const Stack by_mask{Value(self), Value(std::vector<std::optional<Tensor>>{
                                       empty({4}, TensorOptions(ScalarType::Bool).device(kMeta))})};
  const Stack by_index{Value(self), Value(std::vector<std::optional<Tensor>>{empty(
                                        {2}, TensorOptions(ScalarType::Long).device(kMeta))})};
  EXPECT_TRUE(data_dependent("aten::index.Tensor", by_mask));
  EXPECT_FALSE(data_dependent("aten::index.Tensor", by_index));
  EXPECT_TRUE(data_dependent("aten::nonzero", {Value(self)}));
  EXPECT_TRUE(data_dependent("aten::_local_scalar_dense", {Value(self)}));
  EXPECT_FALSE(data_dependent("aten::add.Tensor", {Value(self), Value(self)}));
}

}  // namespace
}  // namespace sops::lite
