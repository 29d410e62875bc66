// The lite interpreter: a model (lite/model.h) bound to the boxed kernels of an
// operator registry, run by pushing each node's arguments on a stack.
//
//   auto model = sops::lite::read_model_file("mlp.sopsm");
//   sops::lite::Program program(model);            // resolves every operator, once
//   std::vector<sops::Tensor> out = program.run({x});
//
// Binding (the constructor) does all the work that does not depend on the inputs: it
// looks every operator up in the registry (and reports *every* missing one in one
// MissingOperatorsError), converts every constant argument to a boxed value and checks
// it against the operator's schema, fills in defaults, wraps the constants' bytes as
// tensors without copying, and computes where each value is read for the last time.
// Running then only copies each node's prepared stack, puts the tensors in, calls the
// kernel and frees every intermediate tensor after its last use.
//
// run_meta() runs the same graph on Meta tensors: every kernel's shape computation,
// no data touched.
//
// Dynamic shapes (a version-2 model with symbols, lite/FORMAT.md): each run binds the
// symbols from its inputs' shapes (bind_symbols: a static size must match exactly, a
// symbol's first occurrence binds it within its range, later ones must agree), and the
// errors name the input, the dimension, the symbol, its range and the size seen. Slots
// may then hold scalars (SymInt, SymFloat, SymBool Values) that nodes compute: the
// `sym::` nodes, evaluated here (lite/sym_ops.h), and operators such as
// aten::sym_size.int. A scalar slot given where the schema wants an int, float, bool or
// Scalar, and SymInt[] arguments mixing constants and slots, are filled in per run; a
// tensor where a scalar belongs, or the reverse, is an error naming the node, the
// operator and the argument.
//
// The memory plan (lite/memory_plan.h, lite/planned_run.cc), the default (Memory::Planned):
// the first run of a static model plans its intermediates on Meta once, and runs then
// call each planned node's out= variant (aten::add.out for aten::add.Tensor: the overload
// of the same name whose other arguments match and whose extra ones are written outputs;
// not one whose kernel `autogen:` wrote, which runs the functional kernel and copies:
// there the functional kernel runs) on tensors that view an arena at the planned
// offsets, with the Meta run's sizes and strides. run(inputs) runs through a RunState
// (lite/run_state.h) of a pool the program keeps, one per concurrent caller: the arena,
// the tensors bound to it and the argument stacks are made once, and the outputs are
// copied out of it; a caller that wants neither the copy nor the pool holds a RunState.
// The rest allocate as before: nodes without an out= variant, views of the inputs, nodes
// from the first data-dependent one on, and every node of a dynamic model run through
// Program::run (a RunState plans a dynamic model at its run's sizes). Builds without
// exceptions do not plan (a Meta kernel's error could not be recovered from).
// Memory::Allocating allocates every result, as before the plan.
//
// Resource limits (lite/limits.h): run() refuses a node that would touch, make or hold
// more than the program's Limits allow, before it runs. The inputs' shapes follow from
// the symbols' values (a static model has none), so the first run with given values
// measures every node once on Meta and keeps the figures for them (nothing is measured
// while loading; later runs with the same values compare nothing but a flag; a run with
// other values measures again, and its figures replace the kept ones). A node whose
// result shape depends on data (nonzero, a boolean mask index) is measured on its inputs
// before it runs and on its outputs after; the nodes after it are measured on Meta twins
// of their inputs as they come. Builds without exceptions cannot recover from a Meta
// kernel's error: there an operator without a Meta kernel (none of //ops:aten's) ends
// the run with that error unless the limits are none().
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lite/limits.h"
#include "lite/model.h"
#include "lite/sym_ops.h"
#include "runtime/operator_registry.h"
#include "runtime/tensor.h"
#include "runtime/value.h"

namespace sops::lite {

// A model needs operators the registry does not have. names() lists every one.
class MissingOperatorsError : public Error {
 public:
  MissingOperatorsError(const std::string& source, std::vector<std::string> names);
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// Called after each node has run, with the node's index and every value slot (the
// node's outputs set; values after their last use already freed, except the node's own).
using NodeObserver = std::function<void(std::size_t node, const std::vector<Value>& slots)>;

// Whether run() places intermediates in a planned arena (see above; the default) or
// allocates each.
enum class Memory : uint8_t { Planned, Allocating };

// Whether the Program optimizes the graph once at load (lite/optimize.h: batch norm folded
// into convolutions, activations fused into the product before them; the default), or
// runs every node as the model file has it.
enum class Optimize : uint8_t { On, Off };

struct GraphOptimization;  // lite/optimize.h
struct OptimizedStep;      // lite/optimize.h

class RunState;  // lite/run_state.h

class Program {
 public:
  explicit Program(std::shared_ptr<const Model> model,
                   const OperatorRegistry& registry = OperatorRegistry::global(),
                   const Limits& limits = Limits(), Memory memory = Memory::Planned,
                   Optimize optimize = Optimize::On);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  const Model& model() const { return *model_; }
  const Limits& limits() const { return limits_; }
  // What the load-time optimization changed (lite/optimize.h); null with Optimize::Off.
  const GraphOptimization* optimization() const { return optimization_.get(); }
  // Whether node `i` calls a registered operator (op(i)), not a `sym::` scalar
  // operator the interpreter evaluates itself.
  bool calls_operator(std::size_t node) const { return nodes_[node].op != nullptr; }
  // The registered operator node `i` calls (calls_operator(i) must hold).
  const RegisteredOperator& op(std::size_t node) const { return *nodes_[node].op; }
  // The last node that reads slot `slot` (a value nobody reads: the node that makes
  // it); run() frees the value after that node unless it is a model output.
  std::size_t last_use(uint32_t slot) const { return last_use_[slot]; }
  // Whether node `node` computes its result's shape from data (nonzero, a boolean mask
  // index: lite/limits.h's data_dependent), given `slots` holding its inputs, as a
  // NodeObserver's slots do for the node just run.
  bool shape_from_data(std::size_t node, const std::vector<Value>& slots) const;

  // Runs the model. `inputs` must match the model's inputs in number, dtype and shape,
  // a symbol's dimensions within its range and agreeing (an error names the input, the
  // dimension and what it must be otherwise). Returns the outputs in order. A node over
  // the limits is an error naming it, the limit and how to raise it.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs,
                          const NodeObserver& observer = {}) const;
  // The same with the arena's memory from the caller, so that an application owns it and
  // a run allocates only what the plan leaves out: `arena` must be 64-byte aligned and
  // hold arena_bytes(inputs) bytes, and serves one run at a time (concurrent runs need
  // one each). A run the plan does not cover (arena_bytes(inputs) is 0) leaves it alone.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, void* arena, std::size_t arena_size,
                          const NodeObserver& observer = {}) const;
  // The arena a run on `inputs` needs, in bytes (the plan made now if not yet): 0 when
  // run() does not plan (a dynamic model, Memory::Allocating, nothing to plan).
  uint64_t arena_bytes(const std::vector<Tensor>& inputs) const;

  // The memory a RunState (lite/run_state.h) of this program runs in for `inputs`: the
  // plan's arena with the model's outputs placed in it (0 when it does not plan).
  uint64_t state_bytes(const std::vector<Tensor>& inputs) const;

  // The same on Meta tensors of the inputs' dtypes and shapes: no kernel touches data.
  std::vector<Tensor> run_meta(const std::vector<Tensor>& inputs,
                               const NodeObserver& observer = {}) const;

  // run_meta as far as Meta tensors can go: it stops before the first node whose result
  // shape depends on data (shape_from_data) and returns that node's index, or the
  // number of nodes if it ran them all. The observer sees the nodes that ran.
  // With `forwards`, a node the load-time optimization fused into an earlier one takes
  // that node's result, as an optimized run does (the memory plan's view of the graph).
  std::size_t run_meta_until_data(const std::vector<Tensor>& inputs, const NodeObserver& observer,
                                  bool forwards = false) const;

  // What the memory plan does (made by the first run(); empty before it, and for a
  // model run() does not plan): for each node, whether it runs its out= variant into
  // the arena; and the arena's size in bytes.
  std::vector<bool> planned_nodes() const;
  uint64_t arena_bytes() const;

  // Checks `inputs` against the model's inputs (what run() does first).
  void check_inputs(const std::vector<Tensor>& inputs) const { bind_symbols(inputs); }
  // The same, returning each symbol's value (empty for a static model).
  std::vector<int64_t> bind_symbols(const std::vector<Tensor>& inputs) const;

 private:
  friend class RunState;
  // A tensor argument: where on the stack, which slot(s).
  struct TensorUse {
    uint32_t arg;                 // the argument's position
    std::vector<uint32_t> slots;  // one slot (Tensor), or the list's (Tensor[] / Tensor?[])
    enum class Kind : uint8_t { One, List, OptionalList } kind = Kind::One;
  };
  // A scalar from a slot (version 2): an argument the schema wants as an int, float,
  // bool or Scalar, an element of a SymInt[] argument, or a `sym::` operand.
  struct ScalarUse {
    static constexpr uint32_t kWhole = UINT32_MAX;
    uint32_t arg;      // the argument's position
    uint32_t element;  // the list element, or kWhole: the argument itself
    uint32_t slot;
  };
  struct BoundNode {
    const RegisteredOperator* op = nullptr;  // nullptr for a `sym::` node
    const SymOpInfo* sym = nullptr;          // the `sym::` operator, or nullptr
    Stack args;                         // every argument, tensors and scalars left as placeholders
    std::vector<TensorUse> tensors;     // the tensor arguments to fill in
    std::vector<ScalarUse> scalars;     // the scalar arguments to fill in
    std::vector<uint32_t> device_args;  // positions of Device arguments (for run_meta)
    std::vector<uint32_t> release_after;  // slots read here for the last time
  };

  // What the first run at given symbol values learns about the limits, for later runs
  // at the same values.
  struct LimitPlan {
    std::size_t planned = 0;  // nodes [0, planned) were measured on Meta at those values
    std::string refusal;      // non-empty: node `planned` exceeds a limit, and why
  };

  // A tensor a planned node writes: where in the arena, and its Meta metadata.
  struct PlannedOut {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    ScalarType dtype = ScalarType::Float;
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;
    int64_t storage_offset = 0;
  };
  // A node that runs its out= variant, with one PlannedOut per result.
  struct PlannedNode {
    const RegisteredOperator* out_op = nullptr;
    std::vector<PlannedOut> outs;
  };
  // The memory plan as run() uses it (lite/planned_run.cc).
  struct RunPlan {
    uint64_t arena_bytes = 0;
    std::vector<std::optional<PlannedNode>> nodes;  // by node; empty: nothing planned
  };
  // run() with the arena's memory from the caller (arena_size bytes at `memory`), or,
  // when `memory` is null, allocated for this run.
  std::vector<Tensor> run_in(const std::vector<Tensor>& inputs, void* memory,
                             std::size_t arena_size, const NodeObserver& observer) const;
  // One run's arena: its plan and memory (none: every node allocates).
  struct Arena {
    const RunPlan* plan = nullptr;
    Storage storage;
  };

  // Nodes from `check_from` on are measured before they run (and some after). With
  // `stopped_at`, a node whose shape depends on data is not run: *stopped_at is set to
  // it and no outputs are returned (else it is set to the number of nodes).
  std::vector<Tensor> execute(std::vector<Value> slots, bool meta, std::size_t check_from,
                              const NodeObserver& observer, std::size_t* stopped_at = nullptr,
                              const Arena* arena = nullptr, bool meta_forwards = false) const;
  // The slots of a Meta run on Meta twins of `inputs` (checked first).
  std::vector<Value> meta_slots(const std::vector<Tensor>& inputs) const;
  // The node's stack: its prepared arguments with the tensors of `slots` put in (and its
  // Device arguments made Meta if `meta`).
  Stack make_stack(const BoundNode& b, const std::vector<Value>& slots, bool meta) const;
  // Calls `kernel` on `stack` and stores its results in `slots`.
  void call_and_store(BoxedKernelFunction kernel, const Node& node, Stack& stack,
                      std::vector<Value>& slots) const;
  void run_node(const BoundNode& b, const Node& node, std::vector<Value>& slots, bool meta) const;
  // lite/planned_run.cc: the plan for run() (made by the first run, kept; null when
  // the model is not planned), how it is made, and one node run into the arena. The
  // state plan (a RunState's) places the outputs in the arena too, alive to the end; a
  // static model's is made with the other and kept, a dynamic model's made per call.
  std::shared_ptr<const RunPlan> run_plan(const std::vector<Tensor>& inputs) const;
  std::shared_ptr<const RunPlan> state_plan(const std::vector<Tensor>& inputs) const;
  // Both plans from one Meta run (null where nothing is planned).
  std::pair<std::shared_ptr<const RunPlan>, std::shared_ptr<const RunPlan>> make_run_plans(
      const std::vector<Tensor>& inputs) const;
  // The node's prepared arguments put in `stack` (its capacity reused) with the tensors
  // and scalars of `slots`, as make_stack returns them.
  void fill_stack(const BoundNode& b, const std::vector<Value>& slots, bool meta,
                  Stack& stack) const;
  // lite/run_state.cc: run() through a state of the pool (one per concurrent caller),
  // the outputs in the state's memory copied out.
  std::vector<Tensor> run_pooled(const std::vector<Tensor>& inputs,
                                 const NodeObserver& observer) const;
  // The caller's arena as a storage, checked: aligned, and `needed` bytes or more.
  Storage caller_arena(void* memory, std::size_t size, uint64_t needed) const;
  // Node `i` into the arena; `step` (or null): its optimized step's replaced arguments
  // and epilogues.
  void run_planned_node(std::size_t i, const PlannedNode& p, const Storage& arena,
                        std::vector<Value>& slots, const OptimizedStep* step) const;
  // lite/fused_run.cc: node `i`'s optimized step (null: it runs as the file has it); a
  // Forward step's result taken from the earlier node it was fused into; a Fused node
  // run with its replaced arguments, then its epilogues (also what a planned run does
  // after the node's out= variant has written the arena).
  const OptimizedStep* optimized_step(std::size_t i) const;
  void forward_result(const OptimizedStep& step, std::size_t i, std::vector<Value>& slots) const;
  void run_fused(const OptimizedStep& step, std::size_t i, std::vector<Value>& slots) const;
  void apply_epilogues(const OptimizedStep& step, std::size_t i, std::vector<Value>& slots) const;
  // A `sym::` node: its operands from `slots`, its result stored there.
  void run_sym_node(const BoundNode& b, const Node& node, std::vector<Value>& slots) const;
  // bind_symbols for a model with symbols (lite/input_binding.cc).
  std::vector<int64_t> bind_dynamic(const std::vector<Tensor>& inputs) const;

  // lite/program_limits.cc: the plan for the symbols' values `symbols` (made by the
  // first run with them, kept until a run with others), and the checks of a node the plan
  // does not cover. check_limits_before raises if node `i` would exceed a limit; it
  // returns the measure to finish after the node has run when Meta could not give its
  // outputs.
  std::shared_ptr<const LimitPlan> limit_plan(const std::vector<int64_t>& symbols) const;
  LimitPlan make_limit_plan(const std::vector<int64_t>& symbols) const;
  std::optional<NodeMeasure> check_limits_before(std::size_t i,
                                                 const std::vector<Value>& slots) const;
  void check_limits_after(std::size_t i, NodeMeasure& measure,
                          const std::vector<Value>& slots) const;
  // The tensors node `b` reads from `stack`, named by their arguments.
  std::vector<NodeInput> node_inputs(const BoundNode& b, const Stack& stack) const;

  std::shared_ptr<const Model> model_;
  Limits limits_;
  std::vector<BoundNode> nodes_;
  std::vector<std::size_t> last_use_;   // by slot (last_use())
  std::vector<Tensor> constants_;       // the constants' data, as tensors
  std::vector<Tensor> meta_constants_;  // the same on Meta
  std::vector<bool> is_constant_;       // by slot
  Memory memory_ = Memory::Planned;
  const OperatorRegistry* registry_ = nullptr;             // where out= variants are looked up
  std::shared_ptr<const GraphOptimization> optimization_;  // null: Optimize::Off

  // The memory plan (run_plan()), made once by the first run.
  mutable std::mutex run_plan_mutex_;
  mutable std::shared_ptr<const RunPlan> run_plan_;
  mutable std::shared_ptr<const RunPlan> state_plan_;
  mutable bool run_plan_made_ = false;
  // Program::run's RunStates not in use (run_pooled).
  mutable std::mutex pool_mutex_;
  mutable std::vector<std::unique_ptr<RunState>> pool_;

  // A model without symbols: its one plan, made by the first run.
  mutable std::once_flag static_limit_plan_once_;
  mutable std::shared_ptr<const LimitPlan> static_limit_plan_;
  // A dynamic model: the last plan made and the symbol values it is for. Runs may be
  // concurrent: the mutex guards both.
  mutable std::mutex limit_plan_mutex_;
  mutable std::shared_ptr<const LimitPlan> limit_plan_;
  mutable std::vector<int64_t> limit_plan_symbols_;
};

}  // namespace sops::lite
