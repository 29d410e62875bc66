// The memory plan (lite/memory_plan.h): greedy-by-size offsets checked by hand on
// buffers and on small graphs written byte by byte (disjoint lifetimes share offset 0,
// overlapping ones do not, a view keeps its base alive, outputs and views of inputs are
// not planned), then on every example model (the dynamic ones at their upper bounds):
// no two buffers alive at once overlap in the arena, every offset is 64-byte aligned,
// and the arena is at most 1.1x the peak the Meta run measures (the bar).
#include "lite/memory_plan.h"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/shapes.h"
#include "tests/lite/model_bytes.h"

namespace sops::lite {
namespace {

using namespace sops::lite::testing;  // NOLINT: the byte builders

class MemoryPlanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

std::shared_ptr<const Model> load(const V2Model& m) {
  const std::string bytes = m.bytes();
  return read_model("plan.sopsm", bytes.data(), bytes.size());
}

PlannedBuffer buffer(std::string name, uint64_t bytes, std::size_t first, std::size_t last) {
  PlannedBuffer b;
  b.name = std::move(name);
  b.bytes = bytes;
  b.first = first;
  b.last = last;
  return b;
}

const PlannedBuffer& named(const MemoryPlan& plan, const std::string& name) {
  for (const PlannedBuffer& b : plan.buffers) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "no buffer " << name;
  static const PlannedBuffer none;
  return none;
}

// Every pair alive at once is disjoint in the arena, every buffer inside it and aligned.
void expect_valid(const MemoryPlan& plan, const std::string& what) {
  for (std::size_t a = 0; a < plan.buffers.size(); ++a) {
    const PlannedBuffer& x = plan.buffers[a];
    EXPECT_EQ(x.offset % kArenaAlignment, 0u) << what << " " << x.name;
    EXPECT_EQ(x.bytes % kArenaAlignment, 0u) << what << " " << x.name;
    EXPECT_LE(x.offset + x.bytes, plan.arena_bytes) << what << " " << x.name;
    EXPECT_LE(x.first, x.last) << what << " " << x.name;
    for (std::size_t b = a + 1; b < plan.buffers.size(); ++b) {
      const PlannedBuffer& y = plan.buffers[b];
      if (!x.overlaps_in_time(y)) continue;
      EXPECT_TRUE(x.offset + x.bytes <= y.offset || y.offset + y.bytes <= x.offset)
          << what << ": " << x.name << " [" << x.offset << ", +" << x.bytes << ") nodes " << x.first
          << ".." << x.last << " and " << y.name << " [" << y.offset << ", +" << y.bytes
          << ") nodes " << y.first << ".." << y.last;
    }
  }
}

TEST(AssignOffsets, GreedyBySizeReusesWhatIsDeadAndStacksWhatIsAlive) {
  // a (128 B) nodes 0..1 goes first (largest) at 0; c (64 B, 1..2) meets a: at 128;
  // b (64 B, 2..3) meets c only: at 0, where a was. Sum 256, arena 192.
  std::vector<PlannedBuffer> bufs = {buffer("a", 128, 0, 1), buffer("b", 64, 2, 3),
                                     buffer("c", 64, 1, 2)};
  EXPECT_EQ(assign_offsets(bufs), 192u);
  EXPECT_EQ(bufs[0].offset, 0u);
  EXPECT_EQ(bufs[1].offset, 0u);
  EXPECT_EQ(bufs[2].offset, 128u);
  // A gap between two live buffers: e (128 B, 0..3) at 0, f (128 B, 0..0) at 128, d
  // (64 B, 0..3) meets both: at 256; g (64 B, 1..3) meets e and d but not f: in the
  // 128 bytes f leaves between them, at 128.
  std::vector<PlannedBuffer> gap = {buffer("e", 128, 0, 3), buffer("f", 128, 0, 0),
                                    buffer("d", 64, 0, 3), buffer("g", 64, 1, 3)};
  EXPECT_EQ(assign_offsets(gap), 320u);
  EXPECT_EQ(gap[0].offset, 0u);
  EXPECT_EQ(gap[1].offset, 128u);
  EXPECT_EQ(gap[2].offset, 256u);
  EXPECT_EQ(gap[3].offset, 128u);
  std::vector<PlannedBuffer> none;
  EXPECT_EQ(assign_offsets(none), 0u);
}

TEST_F(MemoryPlanTest, DisjointLifetimesShareOffsetZero) {
  // x [16] f32; a = relu(x); b = relu(a); c = relu(b); y = relu(c), the output.
  // a lives 0..1, b 1..2, c 2..3: a and c share offset 0, b sits at 64 (each 64 B).
  V2Model m;
  m.values = 5;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::relu", {arg_slot(0)}, {1});
  m.node("b", "aten::relu", {arg_slot(1)}, {2});
  m.node("c", "aten::relu", {arg_slot(2)}, {3});
  m.node("y", "aten::relu", {arg_slot(3)}, {4});
  m.outputs = {{"y", 4}};
  const Program program(load(m));
  const MemoryPlan plan = plan_memory(program, {empty({16}, TensorOptions(kFloat).device(kMeta))});
  ASSERT_EQ(plan.buffers.size(), 3u);
  const PlannedBuffer& a = named(plan, "a");
  const PlannedBuffer& b = named(plan, "b");
  const PlannedBuffer& c = named(plan, "c");
  EXPECT_EQ(a.first, 0u);
  EXPECT_EQ(a.last, 1u);
  EXPECT_EQ(c.first, 2u);
  EXPECT_EQ(c.last, 3u);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(c.offset, 0u);
  EXPECT_EQ(b.offset, 64u);
  EXPECT_EQ(plan.arena_bytes, 128u);
  EXPECT_EQ(plan.sum_bytes, 192u);
  ASSERT_EQ(plan.unplanned.size(), 1u);
  EXPECT_EQ(plan.unplanned[0].name, "y");
  EXPECT_EQ(plan.unplanned[0].reason, "a model output: allocated when returned");
  expect_valid(plan, "chain");
  EXPECT_EQ(format_memory_plan(plan, 256, ""),
            "# memory plan: arena 128 bytes for 3 intermediates (sum 192 bytes without reuse; "
            "measured peak 256 bytes)\n"
            "# not planned: y (a model output: allocated when returned)\n");
}

TEST_F(MemoryPlanTest, AViewKeepsItsBaseAliveAndSharesItsBuffer) {
  // x [16] f32 (10 B of relu: 64 B aligned); a = relu(x) 0; v = view(a, [4, 4]) 1;
  // b = relu(x) 2; w = view(b, [4, 4]) 3; y = add(v, w) 4. Without the views a would
  // die at node 1 and b could take offset 0; through v, a lives to node 4, over b.
  V2Model m;
  m.values = 6;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::relu", {arg_slot(0)}, {1});
  m.node("v", "aten::view", {arg_slot(1), arg_ints({4, 4})}, {2});
  m.node("b", "aten::relu", {arg_slot(0)}, {3});
  m.node("w", "aten::view", {arg_slot(3), arg_ints({4, 4})}, {4});
  m.node("y", "aten::add.Tensor", {arg_slot(2), arg_slot(4)}, {5});
  m.outputs = {{"y", 5}};
  const Program program(load(m));
  const MemoryPlan plan = plan_memory(program, {empty({16}, TensorOptions(kFloat).device(kMeta))});
  ASSERT_EQ(plan.buffers.size(), 2u);  // the views are their bases' buffers
  const PlannedBuffer& a = named(plan, "a");
  const PlannedBuffer& b = named(plan, "b");
  EXPECT_EQ(a.last, 4u);
  EXPECT_EQ(b.first, 2u);
  EXPECT_EQ(b.last, 4u);
  EXPECT_NE(a.offset, b.offset);
  EXPECT_EQ(plan.arena_bytes, 128u);
  expect_valid(plan, "views");
}

TEST_F(MemoryPlanTest, OutputsTheirBasesAndViewsOfInputsAreNotPlanned) {
  // x [16]; xv = view(x, [4, 4]) (the input's memory); a = relu(xv); y = view(a, [16])
  // is the output, so a's storage is returned; t = relu(x) is read by nobody: planned,
  // alive at its own node only.
  V2Model m;
  m.values = 5;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("xv", "aten::view", {arg_slot(0), arg_ints({4, 4})}, {1});
  m.node("a", "aten::relu", {arg_slot(1)}, {2});
  m.node("y", "aten::view", {arg_slot(2), arg_ints({16})}, {3});
  m.node("t", "aten::relu", {arg_slot(0)}, {4});
  m.outputs = {{"y", 3}};
  const Program program(load(m));
  const MemoryPlan plan = plan_memory(program, {empty({16}, TensorOptions(kFloat).device(kMeta))});
  ASSERT_EQ(plan.buffers.size(), 1u);
  EXPECT_EQ(plan.buffers[0].name, "t");
  EXPECT_EQ(plan.buffers[0].first, 3u);
  EXPECT_EQ(plan.buffers[0].last, 3u);
  ASSERT_EQ(plan.unplanned.size(), 1u);
  EXPECT_EQ(plan.unplanned[0].name, "a");
  EXPECT_EQ(plan.arena_bytes, 64u);
}

TEST_F(MemoryPlanTest, NodesFromOneSizedByDataOnAreNotPlanned) {
  // x [16]; a = relu(x) (planned, read by nz); nz = nonzero(a) [n, 1], n known only
  // from the data; b = relu(nz) after it; y = relu(b) the output. Meta cannot run nz:
  // the plan stops there, naming nz and the values after it.
  V2Model m;
  m.values = 5;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::relu", {arg_slot(0)}, {1});
  m.node("nz", "aten::nonzero", {arg_slot(1)}, {2});
  m.node("b", "aten::relu", {arg_slot(2)}, {3});
  m.node("y", "aten::relu", {arg_slot(3)}, {4});
  m.outputs = {{"y", 4}};
  const Program program(load(m));
  const MemoryPlan plan = plan_memory(program, {empty({16}, TensorOptions(kFloat).device(kMeta))});
  ASSERT_EQ(plan.buffers.size(), 1u);
  EXPECT_EQ(plan.buffers[0].name, "a");
  EXPECT_EQ(plan.arena_bytes, 64u);
  EXPECT_EQ(format_memory_plan(plan, 128, ""),
            "# memory plan: arena 64 bytes for 1 intermediate (sum 64 bytes without reuse; "
            "measured peak 128 bytes)\n"
            "# not planned: nz (its size depends on the data (aten::nonzero): allocated when "
            "it runs)\n"
            "# not planned: b (after 'nz', whose size depends on the data: allocated when it "
            "runs)\n"
            "# not planned: y (after 'nz', whose size depends on the data: allocated when it "
            "runs)\n");
}

// The example models, as the BUILD file gives them (static ones at their exported
// input shapes, dynamic ones at their symbols' upper bounds, as `shapes` measures).
struct Example {
  const char* env;
  const char* name;
};

TEST_F(MemoryPlanTest, ExampleModelsPlansAreValidAndWithinATenthOfThePeak) {
  const Example examples[] = {
      {"MLP_MODEL", "mlp"},
      {"CNN_MODEL", "cnn"},
      {"TRANSFORMER_MODEL", "transformer"},
      {"BERT_MODEL", "bert"},
      {"LLAMA_MODEL", "llama"},
      {"VIT_SWIN_MODEL", "vit_swin"},
      {"CONVGN_MODEL", "convgn"},
      {"BERT_DYNAMIC_MODEL", "bert_dynamic"},
      {"LLAMA_DYNAMIC_MODEL", "llama_dynamic"},
  };
  std::cout << "| model | arena (bytes) | Meta peak (bytes) | sum of intermediates (bytes) | "
               "arena / peak |\n|---|---|---|---|---|\n";
  for (const Example& e : examples) {
    const char* path = std::getenv(e.env);
    ASSERT_NE(path, nullptr) << e.env << " is not set (the BUILD file sets it)";
    const Program program(read_model_file(path));
    const std::vector<Tensor> inputs = inputs_at_bounds(program.model());
    const ShapeReport shapes = compute_shapes(program, inputs);
    const MemoryPlan plan = plan_memory(program, inputs);
    expect_valid(plan, e.name);
    EXPECT_GT(plan.buffers.size(), 0u) << e.name;
    EXPECT_LE(plan.arena_bytes, plan.sum_bytes) << e.name;
    // The bar: the arena within 1.1x the peak (which also counts the inputs
    // and outputs the arena leaves out).
    EXPECT_LE(static_cast<double>(plan.arena_bytes), 1.1 * static_cast<double>(shapes.peak_bytes))
        << e.name << ": arena " << plan.arena_bytes << ", Meta peak " << shapes.peak_bytes;
    std::cout << "| " << e.name << " | " << plan.arena_bytes << " | " << shapes.peak_bytes << " | "
              << plan.sum_bytes << " | "
              << static_cast<double>(plan.arena_bytes) / static_cast<double>(shapes.peak_bytes)
              << " |\n";
  }
}

}  // namespace
}  // namespace sops::lite
