// The planned run (lite/interpreter.h, lite/planned_run.cc): each example model run
// through the memory plan's arena gives the same bytes as the allocating path
// (Memory::Allocating, which the other lite tests compare with eager PyTorch), and a
// second run allocates less, no planned node more than the allocating path does there,
// counted by a CPU allocator that wraps the default one. It prints the counts per model,
// the nodes that fall back and the planned nodes that still allocate (kernel scratch,
// and out= variants made by autogen: the functional kernel, then a copy). A small graph
// written byte by byte pins which nodes are planned: those with an out= variant whose
// results are intermediates, not the view, not the output.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/tensor_copy.h"
#include "runtime/allocator.h"
#include "tests/lite/model_bytes.h"

namespace sops::lite {
namespace {

using namespace sops::lite::testing;  // NOLINT: the byte builders

class PlannedRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

// Counts the CPU allocations made while it is installed, and hands them to the default.
class CountingAllocator : public Allocator {
 public:
  explicit CountingAllocator(Allocator* inner) : inner_(inner) {}
  DataPtr allocate(std::size_t nbytes) override {
    ++count_;
    return inner_->allocate(nbytes);
  }
  void copy_data(void* dst, const void* src, std::size_t nbytes) const override {
    inner_->copy_data(dst, src, nbytes);
  }
  int64_t count() const { return count_; }

 private:
  Allocator* inner_;
  std::atomic<int64_t> count_{0};
};

// Inputs of the model's dtypes and shapes, filled with fixed values: floats spread over
// [-1, 1], integers small (valid token ids and positions for the example models), bools
// alternating.
std::vector<Tensor> example_inputs(const Model& model) {
  std::vector<Tensor> inputs;
  for (const Input& in : model.inputs) {
    Tensor t = empty(in.desc.sizes, TensorOptions(in.desc.dtype));
    const int64_t n = t.numel();
    for (int64_t k = 0; k < n; ++k) {
      switch (in.desc.dtype) {
        case ScalarType::Float:
          t.data_ptr<float>()[k] = static_cast<float>(std::sin(0.37 * static_cast<double>(k)));
          break;
        case ScalarType::Long:
          t.data_ptr<int64_t>()[k] = k % 7;
          break;
        case ScalarType::Int:
          t.data_ptr<int32_t>()[k] = static_cast<int32_t>(k % 7);
          break;
        case ScalarType::Bool:
          t.data_ptr<bool>()[k] = k % 2 == 0;
          break;
        default:
          ADD_FAILURE() << "input '" << in.name << "' has a dtype this test does not fill";
          return inputs;
      }
    }
    inputs.push_back(t);
  }
  return inputs;
}

// Whether a and b have the same dtype, sizes and bytes (row-major).
bool same_bytes(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  const Tensor x = contiguous_copy(a);
  const Tensor y = contiguous_copy(b);
  return std::memcmp(x.data_ptr(), y.data_ptr(), row_major_nbytes(x, "output")) == 0;
}

std::shared_ptr<const Model> load(const V2Model& m) {
  const std::string bytes = m.bytes();
  return read_model("planned.sopsm", bytes.data(), bytes.size());
}

TEST_F(PlannedRunTest, OutVariantsIntoTheArenaForIntermediatesOnly) {
  // x [16]; a = exp(x) (exp.out, planned); b = tanh(a) (tanh.out, planned);
  // v = view(b, [4, 4]) (a view: aliases b, allocates nothing); c = sigmoid(v)
  // (sigmoid.out, planned); y = add(c, c) the output (allocated when returned).
  V2Model m;
  m.values = 6;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::exp", {arg_slot(0)}, {1});
  m.node("b", "aten::tanh", {arg_slot(1)}, {2});
  m.node("v", "aten::view", {arg_slot(2), arg_ints({4, 4})}, {3});
  m.node("c", "aten::sigmoid", {arg_slot(3)}, {4});
  m.node("y", "aten::add.Tensor", {arg_slot(4), arg_slot(4)}, {5});
  m.outputs = {{"y", 5}};
  const Program program(load(m), OperatorRegistry::global(), Limits(), Memory::Planned);
  EXPECT_TRUE(program.planned_nodes().empty());  // nothing planned before the first run
  Tensor x = empty({16}, TensorOptions(kFloat));
  for (int k = 0; k < 16; ++k) x.data_ptr<float>()[k] = 0.25f * static_cast<float>(k - 8);
  const std::vector<Tensor> y = program.run({x});
  EXPECT_EQ(program.planned_nodes(), (std::vector<bool>{true, true, false, true, false}));
  // a (nodes 0-1) meets b (1-3, through v), b meets c (3-4): a and c share offset 0.
  EXPECT_EQ(program.arena_bytes(), 128u);
  ASSERT_EQ(y.size(), 1u);
  // The oracle: the same formula by hand, in float as the kernels compute it.
  for (int k = 0; k < 16; ++k) {
    const float xv = 0.25f * static_cast<float>(k - 8);
    const float c = 1.0f / (1.0f + std::exp(-std::tanh(std::exp(xv))));
    EXPECT_NEAR(y[0].data_ptr<float>()[k], 2.0f * c, 1e-6f) << k;
  }
}

TEST_F(PlannedRunTest, AnOutVariantAutogenWroteIsNotCalled) {
  // x [16]; a = exp(x) (planned); b = _to_copy(a): _to_copy.out is autogen's (_to_copy's
  // kernel, then a copy into out), so b runs the functional kernel and allocates as the
  // allocating path does; y = sigmoid(b), the output. relu.out is autogen's too in the
  // yaml, but the CPU backend gives its own (backends/cpu/autogen_kernels.yaml).
  V2Model m;
  m.values = 4;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::exp", {arg_slot(0)}, {1});
  m.node("b", "aten::_to_copy", {arg_slot(1)}, {2});
  m.node("y", "aten::sigmoid", {arg_slot(2)}, {3});
  m.outputs = {{"y", 3}};
  const OperatorRegistry& registry = OperatorRegistry::global();
  EXPECT_TRUE(registry.find_or_throw("aten::_to_copy.out").schema().generated);
  EXPECT_FALSE(registry.find_or_throw("aten::relu.out").schema().generated);
  EXPECT_FALSE(registry.find_or_throw("aten::exp.out").schema().generated);
  const Program program(load(m), registry, Limits(), Memory::Planned);
  Tensor x = empty({16}, TensorOptions(kFloat));
  for (int k = 0; k < 16; ++k) x.data_ptr<float>()[k] = 0.25f * static_cast<float>(k - 8);
  const std::vector<Tensor> y = program.run({x});
  EXPECT_EQ(program.planned_nodes(), (std::vector<bool>{true, false, false}));
  for (int k = 0; k < 16; ++k) {
    const float xv = 0.25f * static_cast<float>(k - 8);
    EXPECT_NEAR(y[0].data_ptr<float>()[k], 1.0f / (1.0f + std::exp(-std::exp(xv))), 1e-6f) << k;
  }
}

TEST_F(PlannedRunTest, ConcurrentRunsEachHaveTheirOwnArena) {
  // x [64]; a = exp(x); b = sigmoid(a); y = add(b, a): a and b planned. Runs on four
  // threads at once, on inputs of their own, each equal to a run alone.
  V2Model m;
  m.values = 4;
  m.inputs = {{"x", 0, 6, {64}}};
  m.node("a", "aten::exp", {arg_slot(0)}, {1});
  m.node("b", "aten::sigmoid", {arg_slot(1)}, {2});
  m.node("y", "aten::add.Tensor", {arg_slot(2), arg_slot(1)}, {3});
  m.outputs = {{"y", 3}};
  const Program program(load(m), OperatorRegistry::global(), Limits(), Memory::Planned);
  std::vector<Tensor> xs;
  std::vector<Tensor> alone;
  for (int t = 0; t < 4; ++t) {
    Tensor x = empty({64}, TensorOptions(kFloat));
    for (int k = 0; k < 64; ++k) x.data_ptr<float>()[k] = 0.01f * static_cast<float>(k * (t + 1));
    xs.push_back(x);
    alone.push_back(program.run({x})[0]);
  }
  std::vector<Tensor> together(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < 50; ++r) together[t] = program.run({xs[t]})[0];
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_TRUE(same_bytes(together[t], alone[t])) << t;
}

TEST_F(PlannedRunTest, ACallersArenaMustBeAlignedAndLargeEnough) {
  V2Model m;
  m.values = 3;
  m.inputs = {{"x", 0, 6, {16}}};
  m.node("a", "aten::exp", {arg_slot(0)}, {1});
  m.node("y", "aten::sigmoid", {arg_slot(1)}, {2});
  m.outputs = {{"y", 2}};
  const Program program(load(m), OperatorRegistry::global(), Limits(), Memory::Planned);
  const Tensor x = empty({16}, TensorOptions(kFloat));
  ASSERT_EQ(program.arena_bytes({x}), 64u);
  alignas(64) std::byte memory[128];
  auto message = [&](void* arena, std::size_t size) {
    try {
      program.run({x}, arena, size);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(memory + 1, 64).find("is not 64-byte aligned"), std::string::npos);
  EXPECT_NE(message(memory, 32).find("holds 32 bytes, but the plan needs 64"), std::string::npos);
  EXPECT_NE(message(nullptr, 64).find("is null"), std::string::npos);
  EXPECT_EQ(message(memory, 64), "no error");
  // A program that does not plan leaves the arena alone.
  const Program allocating(load(m), OperatorRegistry::global(), Limits(), Memory::Allocating);
  EXPECT_EQ(allocating.arena_bytes({x}), 0u);
  EXPECT_EQ(allocating.run({x}, memory + 1, 0).size(), 1u);
}

struct Example {
  const char* env;
  const char* name;
};

// Runs `program` on `inputs` with `counter` installed; returns the outputs and sets
// `by_node` to the allocations each node made and `total` to all of them (with the
// outputs' copies out of a RunState's memory).
std::vector<Tensor> counted_run(const Program& program, const std::vector<Tensor>& inputs,
                                CountingAllocator& counter, std::vector<int64_t>& by_node,
                                int64_t& total) {
  const ScopedAllocator scope(DeviceType::CPU, &counter);
  const int64_t start = counter.count();
  int64_t seen = start;
  by_node.assign(program.model().nodes.size(), 0);
  std::vector<Tensor> out = program.run(inputs, [&](std::size_t i, const std::vector<Value>&) {
    by_node[i] = counter.count() - seen;
    seen = counter.count();
  });
  total = counter.count() - start;
  return out;
}

TEST_F(PlannedRunTest, ExampleModelsGiveTheSameBytesAndAllocateLess) {
  const Example examples[] = {
      {"MLP_MODEL", "mlp"},       {"CNN_MODEL", "cnn"},     {"TRANSFORMER_MODEL", "transformer"},
      {"BERT_MODEL", "bert"},     {"LLAMA_MODEL", "llama"}, {"VIT_SWIN_MODEL", "vit_swin"},
      {"CONVGN_MODEL", "convgn"},
  };
  std::cout << "| model | nodes | planned | arena (bytes) | allocations per run: allocating | "
               "planned | the arena passed in | at planned nodes (arena excluded) |\n"
               "|---|---|---|---|---|---|---|---|\n";
  for (const Example& e : examples) {
    const char* path = std::getenv(e.env);
    ASSERT_NE(path, nullptr) << e.env << " is not set (the BUILD file sets it)";
    const std::shared_ptr<const Model> model = read_model_file(path);
    const Program planned(model, OperatorRegistry::global(), Limits(), Memory::Planned);
    // The file's graph, node for node, as the planned run has it (lite/optimize.h's
    // folded and fused steps are for runs without an arena).
    const Program allocating(model, OperatorRegistry::global(), Limits(), Memory::Allocating);
    const std::vector<Tensor> inputs = example_inputs(*model);

    const std::vector<Tensor> expected = allocating.run(inputs);
    const std::vector<Tensor> first = planned.run(inputs);  // makes the plan
    CountingAllocator counter(get_allocator(DeviceType::CPU));
    std::vector<int64_t> planned_by_node;
    std::vector<int64_t> allocating_by_node;
    int64_t planned_count = 0;
    int64_t allocating_count = 0;
    const std::vector<Tensor> second =
        counted_run(planned, inputs, counter, planned_by_node, planned_count);
    counted_run(allocating, inputs, counter, allocating_by_node, allocating_count);
    // The arena from the caller: the run allocates one thing less.
    const std::size_t arena_size = planned.arena_bytes(inputs);
    ASSERT_GT(arena_size, 0u) << e.name;
    void* memory = std::aligned_alloc(64, (arena_size + 63) / 64 * 64);
    ASSERT_NE(memory, nullptr);
    std::vector<Tensor> third;
    int64_t caller_count = 0;
    {
      const ScopedAllocator scope(DeviceType::CPU, &counter);
      const int64_t start = counter.count();
      third = planned.run(inputs, memory, arena_size);
      caller_count = counter.count() - start;
    }
    ASSERT_EQ(third.size(), expected.size()) << e.name;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_TRUE(same_bytes(third[k], expected[k])) << e.name << " output " << k;
    }
    std::free(memory);
    // run() goes through a RunState of the program's pool (lite/run_state.h): its arena
    // is kept between calls, so it allocates no more than a run in the caller's arena
    // but for the outputs' copies out of the state's memory (one each, at most).
    EXPECT_LE(planned_count, caller_count + static_cast<int64_t>(expected.size())) << e.name;
    ASSERT_EQ(first.size(), expected.size()) << e.name;
    ASSERT_EQ(second.size(), expected.size()) << e.name;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_TRUE(same_bytes(first[k], expected[k])) << e.name << " output " << k;
      EXPECT_TRUE(same_bytes(second[k], expected[k])) << e.name << " output " << k;
    }

    const std::vector<bool> nodes = planned.planned_nodes();
    ASSERT_EQ(nodes.size(), model->nodes.size()) << e.name << ": nothing planned";
    std::size_t n_planned = 0;
    int64_t at_planned = 0;
    std::string fallbacks;  // operator nodes the plan does not cover
    std::string allocates;  // planned nodes that still allocate
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string what =
          model->nodes[i].name + "(" + model->operators[model->nodes[i].op] + ")";
      if (!nodes[i]) {
        if (planned.calls_operator(i)) fallbacks += " " + what;
        continue;
      }
      ++n_planned;
      at_planned += planned_by_node[i];
      // The out= variant never allocates more than the functional one; an autogen'd
      // out= (the functional kernel, then a copy) allocates as much, a kernel's own
      // scratch (convolution's unfolded input) remains.
      EXPECT_LE(planned_by_node[i], allocating_by_node[i]) << e.name << " " << what;
      if (planned_by_node[i] != 0) {
        allocates += " " + what + ":" + std::to_string(planned_by_node[i]);
      }
    }
    EXPECT_GT(n_planned, 0u) << e.name;
    EXPECT_LT(planned_count, allocating_count) << e.name;
    std::cout << "| " << e.name << " | " << nodes.size() << " | " << n_planned << " | "
              << planned.arena_bytes() << " | " << allocating_count << " | " << planned_count
              << " | " << caller_count << " | " << at_planned << " |\n";
    std::cout << "  " << e.name << " falls back at:" << (fallbacks.empty() ? " none" : fallbacks)
              << "\n  " << e.name
              << " planned nodes that still allocate:" << (allocates.empty() ? " none" : allocates)
              << "\n";
  }
}

}  // namespace
}  // namespace sops::lite
