// Program's planned run (lite/interpreter.h): the memory plan (lite/memory_plan.h) turned
// into, for each node it covers, the out= variant to call and where in the arena its
// results go; and one such node run.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "lite/interpreter.h"
#include "lite/memory_plan.h"
#include "lite/optimize.h"
#include "runtime/tensor_impl.h"

namespace sops::lite {

namespace {

// Whether two schema types are the same type as written.
bool same_type(const TypeSchema& a, const TypeSchema& b) { return a.text == b.text; }

// The out= overload of `functional` in `registry`: PyTorch's convention (aten::add.out for
// aten::add.Tensor, aten::native_layer_norm.out with three outputs) found by the schema,
// not by the overload's name: the same namespace and name, the functional's arguments
// first (same names and types), then one written Tensor argument (`Tensor(a!) out`) per
// return; not one `autogen:` wrote (FunctionSchema::generated). nullptr if there is none.
const RegisteredOperator* find_out_variant(
    const FunctionSchema& functional,
    const std::unordered_map<std::string_view, std::vector<const RegisteredOperator*>>& by_name) {
  const auto it = by_name.find(functional.name);
  if (it == by_name.end()) return nullptr;
  const std::size_t n_args = functional.arguments.size();
  const std::size_t n_outs = functional.returns.size();
  if (n_outs == 0) return nullptr;
  for (const ReturnSchema& r : functional.returns) {
    if (r.type.kind != TypeSchema::Kind::Tensor || r.type.list || r.type.optional ||
        !r.alias.empty()) {
      return nullptr;  // a view or a list: no out= buffers to give
    }
  }
  for (const RegisteredOperator* candidate : it->second) {
    const FunctionSchema& s = candidate->schema();
    if (s.ns != functional.ns || s.full_name == functional.full_name) continue;
    // autogen's out= kernel calls the functional one and copies: the functional call,
    // allocating its result, is the faster of the two.
    if (s.generated) continue;
    if (s.arguments.size() != n_args + n_outs || s.returns.size() != n_outs) continue;
    bool match = true;
    for (std::size_t a = 0; a < n_args && match; ++a) {
      const ArgumentSchema& x = functional.arguments[a];
      const ArgumentSchema& y = s.arguments[a];
      match = x.name == y.name && same_type(x.type, y.type) && !y.is_out && !y.is_write();
    }
    for (std::size_t k = 0; k < n_outs && match; ++k) {
      const ArgumentSchema& o = s.arguments[n_args + k];
      match = o.is_write() && o.type.kind == TypeSchema::Kind::Tensor && !o.type.list &&
              !o.type.optional;
    }
    if (match) return candidate;
  }
  return nullptr;
}

// The arena's memory from `offset` on, as a storage of `bytes` that does not own it but
// keeps the arena alive (a tensor a NodeObserver keeps outlives the run).
Storage arena_view(const Storage& arena, uint64_t offset, uint64_t bytes) {
  auto* keep = new Storage(arena);
  DataPtr data(
      static_cast<std::byte*>(arena.data()) + offset, keep,
      [](void* ctx) { delete static_cast<Storage*>(ctx); }, Device(kCPU));
  return Storage::wrap(std::move(data), bytes);
}

}  // namespace

Storage Program::caller_arena(void* memory, std::size_t size, uint64_t needed) const {
  if (reinterpret_cast<std::uintptr_t>(memory) % kArenaAlignment != 0) {
    raise(Error(detail::str(model_->source, ": the arena passed to run() is not ", kArenaAlignment,
                            "-byte aligned; allocate it aligned (e.g. with "
                            "std::aligned_alloc(",
                            kArenaAlignment, ", arena_bytes()))")));
  }
  if (size < needed) {
    raise(Error(detail::str(model_->source, ": the arena passed to run() holds ", size,
                            " bytes, but the plan needs ", needed,
                            "; pass one of arena_bytes(inputs) bytes")));
  }
  // Not owned: the caller keeps it for the run (DataPtr without a deleter).
  return Storage::wrap(DataPtr(memory, nullptr, nullptr, Device(kCPU)), size);
}

uint64_t Program::arena_bytes(const std::vector<Tensor>& inputs) const {
  check_inputs(inputs);
  const std::shared_ptr<const RunPlan> plan = run_plan(inputs);
  return plan == nullptr ? 0 : plan->arena_bytes;
}

std::shared_ptr<const Program::RunPlan> Program::run_plan(const std::vector<Tensor>& inputs) const {
#if SOPS_EXCEPTIONS
  if (memory_ != Memory::Planned || !model_->symbols.empty()) return nullptr;
  const std::lock_guard<std::mutex> lock(run_plan_mutex_);
  if (!run_plan_made_) {
    std::tie(run_plan_, state_plan_) = make_run_plans(inputs);
    run_plan_made_ = true;
  }
  return run_plan_;
#else
  (void)inputs;
  return nullptr;
#endif
}

std::shared_ptr<const Program::RunPlan> Program::state_plan(
    const std::vector<Tensor>& inputs) const {
#if SOPS_EXCEPTIONS
  if (memory_ != Memory::Planned) return nullptr;
  if (!model_->symbols.empty()) return make_run_plans(inputs).second;
  run_plan(inputs);
  const std::lock_guard<std::mutex> lock(run_plan_mutex_);
  return state_plan_;
#else
  (void)inputs;
  return nullptr;
#endif
}

uint64_t Program::state_bytes(const std::vector<Tensor>& inputs) const {
  check_inputs(inputs);
  const std::shared_ptr<const RunPlan> plan = state_plan(inputs);
  return plan == nullptr ? 0 : plan->arena_bytes;
}

std::pair<std::shared_ptr<const Program::RunPlan>, std::shared_ptr<const Program::RunPlan>>
Program::make_run_plans(const std::vector<Tensor>& inputs) const {
  MemoryPlan plan;
#if SOPS_EXCEPTIONS
  // A Meta kernel that refuses (an operator without one) leaves the model unplanned: the
  // run itself reports any real error.
  try {
    plan = plan_memory(*this, inputs);
  } catch (const std::exception&) {
    return {};
  }
#endif
  // The registry's operators by base name, to find out= variants (the registry has no
  // grouping; looked up once, for the names the model uses).
  std::unordered_map<std::string_view, std::vector<const RegisteredOperator*>> by_name;
  std::unordered_map<std::string_view, bool> looked_up;
  for (const BoundNode& b : nodes_) {
    if (b.op != nullptr) looked_up.emplace(b.op->schema().name, false);
  }
  if (registry_ != nullptr) {
    for (const std::string_view name : registry_->operator_names()) {
      const RegisteredOperator* op = registry_->find(name);
      if (op != nullptr && looked_up.count(op->schema().name) != 0) {
        by_name[op->schema().name].push_back(op);
      }
    }
  }
  const Model& m = *model_;
  // The nodes whose every result is one of `buffers`, made there, with an out= variant.
  auto make = [&](const std::vector<PlannedBuffer>& buffers,
                  uint64_t arena_bytes) -> std::shared_ptr<const RunPlan> {
    std::unordered_map<uint32_t, const PlannedBuffer*> buffer_of_slot;
    for (const PlannedBuffer& buf : buffers) buffer_of_slot.emplace(buf.slot, &buf);
    RunPlan run;
    run.arena_bytes = arena_bytes;
    run.nodes.resize(nodes_.size());
    bool any = false;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const BoundNode& b = nodes_[i];
      const Node& node = m.nodes[i];
      if (b.op == nullptr || node.unpack || node.outs.empty()) continue;
      // Every result must be a buffer of the plan made by this node (not a view, not an
      // output, not after a data-dependent node).
      PlannedNode p;
      for (const uint32_t slot : node.outs) {
        const auto it = buffer_of_slot.find(slot);
        if (it == buffer_of_slot.end() || it->second->first != i) break;
        const PlannedBuffer& buf = *it->second;
        p.outs.push_back(
            {buf.offset, buf.bytes, buf.dtype, buf.sizes, buf.strides, buf.storage_offset});
      }
      if (p.outs.size() != node.outs.size()) continue;
      p.out_op = find_out_variant(b.op->schema(), by_name);
      if (p.out_op == nullptr) continue;
      run.nodes[i] = std::move(p);
      any = true;
    }
    return any ? std::make_shared<const RunPlan>(std::move(run)) : nullptr;
  };
  // The state's plan: the outputs' storages placed too, alive from the node that makes
  // them to the end (the caller reads them after the run).
  std::vector<PlannedBuffer> with_outputs = plan.buffers;
  for (PlannedBuffer buf : plan.returned) {
    buf.last = nodes_.size();
    with_outputs.push_back(std::move(buf));
  }
  const uint64_t state_arena = assign_offsets(with_outputs);
  return {make(plan.buffers, plan.arena_bytes), make(with_outputs, state_arena)};
}

void Program::run_planned_node(std::size_t i, const PlannedNode& p, const Storage& arena,
                               std::vector<Value>& slots, const OptimizedStep* step) const {
  Stack stack = make_stack(nodes_[i], slots, /*meta=*/false);
  if (step != nullptr) {
    for (const auto& [arg, tensor] : step->replace) stack[arg] = tensor;
  }
  for (const PlannedOut& out : p.outs) {
    auto impl = std::make_shared<TensorImpl>(arena_view(arena, out.offset, out.bytes), out.dtype,
                                             Device(kCPU));
    impl->set_sizes_and_strides(out.sizes, out.strides, out.storage_offset);
    stack.emplace_back(Tensor(std::move(impl)));
  }
  call_and_store(p.out_op->kernel(), model_->nodes[i], stack, slots);
  if (step != nullptr) apply_epilogues(*step, i, slots);
}

std::vector<bool> Program::planned_nodes() const {
  const std::lock_guard<std::mutex> lock(run_plan_mutex_);
  std::vector<bool> planned;
  if (run_plan_ == nullptr) return planned;
  for (const std::optional<PlannedNode>& p : run_plan_->nodes) planned.push_back(p.has_value());
  return planned;
}

uint64_t Program::arena_bytes() const {
  const std::lock_guard<std::mutex> lock(run_plan_mutex_);
  return run_plan_ == nullptr ? 0 : run_plan_->arena_bytes;
}

}  // namespace sops::lite
