// RunState (lite/run_state.h): a Program's run in memory and objects kept between runs,
// and Program::run through a pool of them.
#include "lite/run_state.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "lite/memory_plan.h"
#include "lite/optimize.h"
#include "lite/tensor_copy.h"
#include "runtime/tensor_impl.h"

namespace sops::lite {

namespace {

// `bytes` of the arena from `offset` on, as a storage that keeps the arena alive (a
// tensor an observer or the caller keeps may outlive the state). Made once per state.
Storage arena_part(const Storage& arena, uint64_t offset, uint64_t bytes) {
  auto* keep = new Storage(arena);
  DataPtr data(
      static_cast<std::byte*>(arena.data()) + offset, keep,
      [](void* ctx) { delete static_cast<Storage*>(ctx); }, Device(kCPU));
  return Storage::wrap(std::move(data), bytes);
}

// Whether every result of `schema` is a view of an argument (`Tensor(a)`), so that its
// sizes, strides and offset follow from its inputs' alone.
bool returns_views(const FunctionSchema& schema) {
  if (schema.returns.empty()) return false;
  return std::all_of(schema.returns.begin(), schema.returns.end(), [](const ReturnSchema& r) {
    return !r.alias.empty() && r.alias.back() != '!';
  });
}

}  // namespace

struct RunState::Impl {
  void* memory = nullptr;  // the caller's, or null: the state allocates
  std::size_t memory_size = 0;

  bool prepared = false;
  std::vector<int64_t> symbols;  // the binding the state is prepared for
  std::shared_ptr<const Program::RunPlan> plan;
  Storage arena;
  uint64_t arena_bytes = 0;
  std::vector<Value> slots;
  std::vector<Stack> stacks;              // by node, reused
  std::vector<std::vector<Tensor>> outs;  // by planned node: its out= tensors in the arena
  std::vector<uint8_t> kept;              // by node: its results kept from an earlier run
  std::vector<uint8_t> fixed;             // by slot: the same tensor every run, never freed
  bool discovering = true;                // until a run completes: look for views to keep
  std::vector<Tensor> outputs;
};

RunState::RunState(const Program& program) : program_(&program), impl_(std::make_unique<Impl>()) {}

RunState::RunState(const Program& program, void* memory, std::size_t size) : RunState(program) {
  if (memory == nullptr) {
    raise(Error(detail::str(program.model().source,
                            ": the memory passed to RunState is null; pass memory of "
                            "Program::state_bytes(inputs) bytes, or let the state allocate")));
  }
  impl_->memory = memory;
  impl_->memory_size = size;
}

RunState::~RunState() = default;

uint64_t RunState::memory_bytes() const { return impl_->arena_bytes; }

std::vector<bool> RunState::planned_nodes() const {
  std::vector<bool> planned(program_->nodes_.size(), false);
  if (impl_->plan == nullptr) return planned;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    planned[i] = impl_->plan->nodes[i].has_value() && impl_->kept[i] == 0;
  }
  return planned;
}

std::vector<bool> RunState::kept_nodes() const {
  std::vector<bool> kept(program_->nodes_.size(), false);
  for (std::size_t i = 0; i < kept.size() && i < impl_->kept.size(); ++i) {
    kept[i] = impl_->kept[i] != 0;
  }
  return kept;
}

void RunState::prepare(const std::vector<Tensor>& inputs, const std::vector<int64_t>& symbols) {
  const Program& p = *program_;
  const Model& m = *p.model_;
  Impl& s = *impl_;
  s.prepared = false;
  s.plan = p.state_plan(inputs);
  s.arena = Storage();
  s.arena_bytes = 0;
  if (s.plan != nullptr) {
    s.arena_bytes = s.plan->arena_bytes;
    if (s.memory == nullptr) {
      s.arena = Storage::allocate(s.arena_bytes, get_allocator(DeviceType::CPU),
                                  /*resizable=*/false);
    } else {
      s.arena = p.caller_arena(s.memory, s.memory_size, s.arena_bytes);
    }
  }
  s.slots.assign(m.num_values, Value());
  s.fixed.assign(m.num_values, 0);
  for (std::size_t k = 0; k < p.constants_.size(); ++k) {
    s.slots[m.constants[k].slot] = p.constants_[k];
    s.fixed[m.constants[k].slot] = 1;
  }
  s.stacks.assign(p.nodes_.size(), Stack());
  s.outs.assign(p.nodes_.size(), {});
  for (std::size_t i = 0; i < p.nodes_.size(); ++i) {
    s.stacks[i].reserve(p.nodes_[i].args.size() + m.nodes[i].outs.size());
    if (s.plan == nullptr || !s.plan->nodes[i]) continue;
    for (const Program::PlannedOut& out : s.plan->nodes[i]->outs) {
      auto impl = std::make_shared<TensorImpl>(arena_part(s.arena, out.offset, out.bytes),
                                               out.dtype, Device(kCPU));
      impl->set_sizes_and_strides(out.sizes, out.strides, out.storage_offset);
      s.outs[i].emplace_back(std::move(impl));
    }
    for (const uint32_t slot : m.nodes[i].outs) s.fixed[slot] = 1;
  }
  s.kept.assign(p.nodes_.size(), 0);
  s.discovering = true;
  s.outputs.assign(m.outputs.size(), Tensor());
  s.symbols = symbols;
  s.prepared = true;
}

const std::vector<Tensor>& RunState::run(const std::vector<Tensor>& inputs,
                                         const NodeObserver& observer) {
  const Program& p = *program_;
  const Model& m = *p.model_;
  Impl& s = *impl_;
  const std::vector<int64_t> symbols = p.bind_symbols(inputs);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].device().is_cpu()) {
      raise(Error(detail::str(m.source, ": input ", k, " ('", m.inputs[k].name,
                              "') must be on cpu, not ", inputs[k].device().str())));
    }
  }
  std::size_t check_from = SIZE_MAX;
  if (p.limits_.any()) {
    const std::shared_ptr<const Program::LimitPlan> limit = p.limit_plan(symbols);
    if (!limit->refusal.empty()) {
      const NodeWhere where{m, limit->planned};
      const PrefixScope scope(&NodeWhere::describe, &where);
      raise(Error(limit->refusal));
    }
    check_from = limit->planned;
  }
  if (!s.prepared || symbols != s.symbols) prepare(inputs, symbols);
  for (std::size_t k = 0; k < inputs.size(); ++k) s.slots[m.inputs[k].slot] = inputs[k];

  for (std::size_t i = 0; i < p.nodes_.size(); ++i) {
    const Program::BoundNode& b = p.nodes_[i];
    const Node& node = m.nodes[i];
    if (s.kept[i] == 0) {
      const NodeWhere where{m, i};
      const PrefixScope scope(&NodeWhere::describe, &where);
      raise_standard_exceptions([&] {
        std::optional<NodeMeasure> after;
        if (i >= check_from) after = p.check_limits_before(i, s.slots);
        // The load-time optimization's step (lite/optimize.h), which the plan was made
        // for: a forward takes the result of the node it was fused into; a fused node
        // runs with its replaced arguments, then its epilogues on the result.
        const OptimizedStep* step = p.optimized_step(i);
        if (b.sym != nullptr) {
          p.run_sym_node(b, node, s.slots);
        } else if (step != nullptr && step->kind == OptimizedStep::Kind::Forward) {
          p.forward_result(*step, i, s.slots);
          // The same tensor every run when the one it takes is.
          if (s.discovering) s.fixed[node.outs[0]] = s.fixed[step->from];
        } else {
          Stack& stack = s.stacks[i];
          p.fill_stack(b, s.slots, /*meta=*/false, stack);
          if (step != nullptr) {
            for (const auto& [arg, tensor] : step->replace) stack[arg] = tensor;
          }
          if (s.plan != nullptr && s.plan->nodes[i]) {
            for (const Tensor& out : s.outs[i]) stack.emplace_back(out);
            p.call_and_store(s.plan->nodes[i]->out_op->kernel(), node, stack, s.slots);
          } else {
            p.call_and_store(b.op->kernel(), node, stack, s.slots);
          }
          if (step != nullptr) {
            p.apply_epilogues(*step, i, s.slots);
            // An epilogue that cannot work in place (lite/optimize.h) leaves its own
            // kernel's tensor, not the arena's: not the same tensor every run, so no view
            // of it is kept (a static model takes the same way on every run).
            const Value& result = s.slots[node.outs[0]];
            if (!s.outs[i].empty() &&
                !(result.is_tensor() && result.to_tensor().is_same(s.outs[i][0]))) {
              s.fixed[node.outs[0]] = 0;
            }
          }
        }
        if (after) p.check_limits_after(i, *after, s.slots);
      });
      // A view of tensors that are the same every run is the same every run: kept.
      if (s.discovering && b.op != nullptr && returns_views(b.op->schema())) {
        bool fixed_inputs = !b.tensors.empty() && b.scalars.empty();
        for (const Program::TensorUse& use : b.tensors) {
          for (const uint32_t slot : use.slots) {
            if (slot != kNoSlot && s.fixed[slot] == 0) fixed_inputs = false;
          }
        }
        if (fixed_inputs) {
          s.kept[i] = 1;
          for (const uint32_t slot : node.outs) s.fixed[slot] = 1;
        }
      }
    }
    if (observer) observer(i, s.slots);
    for (const uint32_t slot : b.release_after) {
      if (s.fixed[slot] == 0) s.slots[slot] = Value();
    }
  }
  s.discovering = false;

  for (std::size_t k = 0; k < m.outputs.size(); ++k) {
    const Output& o = m.outputs[k];
    const Value& v = s.slots[o.slot];
    if (!v.is_tensor()) {
      raise(Error(
          detail::str(m.source, ": output '", o.name, "' is a ", v.type_name(), ", not a tensor")));
    }
    const Tensor& t = v.to_tensor();
    // An output that is (a view of) a parameter is handed out as a copy: the parameter
    // lives in the model file's buffer, shared by every run.
    const bool aliases_constant = std::any_of(p.constants_.begin(), p.constants_.end(),
                                              [&](const Tensor& c) { return t.is_alias_of(c); });
    s.outputs[k] = aliases_constant ? contiguous_copy(t) : t;
  }
  return s.outputs;
}

void RunState::run(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
                   const NodeObserver& observer) {
  const Model& m = program_->model();
  if (outputs.size() != m.outputs.size()) {
    raise(Error(detail::str(m.source, ": run() was given ", outputs.size(),
                            " output tensor(s), but the model has ", m.outputs.size())));
  }
  const std::vector<Tensor>& results = run(inputs, observer);
  for (std::size_t k = 0; k < results.size(); ++k) {
    const Tensor& to = outputs[k];
    const Tensor& from = results[k];
    if (!to.defined() || !to.is_cpu() || !to.is_contiguous() ||
        to.scalar_type() != from.scalar_type() || to.sizes() != from.sizes()) {
      raise(Error(detail::str(m.source, ": output ", k, " ('", m.outputs[k].name, "') is ",
                              from.str(), ", but the tensor given for it is ", to.str(),
                              "; pass a contiguous cpu tensor of its dtype and sizes")));
    }
    copy_row_major(from, to.data_ptr());
  }
}

std::vector<Tensor> Program::run_pooled(const std::vector<Tensor>& inputs,
                                        const NodeObserver& observer) const {
  std::unique_ptr<RunState> state;
  {
    const std::lock_guard<std::mutex> lock(pool_mutex_);
    if (!pool_.empty()) {
      state = std::move(pool_.back());
      pool_.pop_back();
    }
  }
  if (state == nullptr) state = std::make_unique<RunState>(*this);
  // Back to the pool however the run ends (an error leaves it reusable: the next run
  // sets every slot it reads).
  struct GiveBack {
    const Program* program;
    std::unique_ptr<RunState>& state;
    ~GiveBack() {
      const std::lock_guard<std::mutex> lock(program->pool_mutex_);
      program->pool_.push_back(std::move(state));
    }
  } give_back{this, state};
  const std::vector<Tensor>& results = state->run(inputs, observer);
  // The outputs in the state's memory are copied out: the state's next run overwrites it.
  const Storage& arena = state->impl_->arena;
  const auto* begin = static_cast<const std::byte*>(arena.data());
  const auto* end = begin + state->impl_->arena_bytes;
  std::vector<Tensor> outputs;
  outputs.reserve(results.size());
  for (const Tensor& t : results) {
    const auto* data = static_cast<const std::byte*>(t.storage().data());
    const bool in_arena = begin != nullptr && data >= begin && data < end;
    outputs.push_back(in_arena ? contiguous_copy(t) : t);
  }
  return outputs;
}

Program::~Program() = default;

}  // namespace sops::lite
