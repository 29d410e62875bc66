// Program's resource limits (lite/limits.h, lite/interpreter.h): the plan a run makes on
// Meta tensors for its symbols' values (once for a static model), and the checks of the
// nodes it cannot cover.
#include <exception>
#include <optional>
#include <utility>

#include "lite/interpreter.h"
#include "runtime/tensor_impl.h"

namespace sops::lite {

namespace {

// Calls f() and says whether it finished. Built with exceptions, an error (a Meta kernel
// that refuses: a data-dependent operator this runtime does not know as one, or a shape
// check the real kernel will repeat with the same message) is swallowed: the node is
// then measured after it runs. Built without, there is nothing to catch (interpreter.h).
template <typename F>
bool finishes(F&& f) {
#if SOPS_EXCEPTIONS
  try {
    f();
  } catch (const std::exception&) {
    return false;
  }
#else
  f();
#endif
  return true;
}

// A Meta tensor of `t`'s dtype, sizes and strides (its storage only as large as they span).
Tensor meta_twin(const Tensor& t) {
  return empty_strided(t.sizes(), t.strides(), TensorOptions(t.scalar_type()).device(kMeta));
}

std::vector<const StorageImpl*> storages_of(const std::vector<Tensor>& tensors) {
  std::vector<const StorageImpl*> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(t.storage().impl());
  return out;
}

}  // namespace

std::vector<NodeInput> Program::node_inputs(const BoundNode& b, const Stack& stack) const {
  const FunctionSchema& schema = b.op->schema();
  std::vector<NodeInput> inputs;
  for (const TensorUse& use : b.tensors) {
    const std::string_view name = schema.arguments[use.arg].name;
    const Value& v = stack[use.arg];
    for (std::size_t k = 0; k < use.slots.size(); ++k) {
      const uint32_t slot = use.slots[k];
      if (slot == kNoSlot) continue;
      Tensor t;
      switch (use.kind) {
        case TensorUse::Kind::One:
          t = v.to_tensor();
          break;
        case TensorUse::Kind::List:
          t = v.to_tensor_list()[k];
          break;
        case TensorUse::Kind::OptionalList:
          t = *v.to_optional_tensor_list()[k];
          break;
      }
      if (t.defined()) inputs.push_back({name, std::move(t), is_constant_[slot]});
    }
  }
  return inputs;
}

std::shared_ptr<const Program::LimitPlan> Program::limit_plan(
    const std::vector<int64_t>& symbols) const {
  // A model without symbols has one plan for every run: made once, then read without a
  // lock (every run takes this path, so it stays off the mutex).
  if (symbols.empty()) {
    std::call_once(static_limit_plan_once_, [&] {
      static_limit_plan_ = std::make_shared<const LimitPlan>(make_limit_plan(symbols));
    });
    return static_limit_plan_;
  }
  // A dynamic model keeps one plan: the last binding's. A server whose sizes change from
  // run to run measures each new one on Meta (every kernel's shape function once, no data
  // touched); runs at one size reuse it. Measuring under the lock makes concurrent first
  // runs of one size measure once.
  const std::lock_guard<std::mutex> lock(limit_plan_mutex_);
  if (limit_plan_ == nullptr || limit_plan_symbols_ != symbols) {
    limit_plan_ = std::make_shared<const LimitPlan>(make_limit_plan(symbols));
    limit_plan_symbols_ = symbols;
  }
  return limit_plan_;
}

Program::LimitPlan Program::make_limit_plan(const std::vector<int64_t>& symbols) const {
  const Model& m = *model_;
  LimitPlan plan;
  std::vector<Value> slots(m.num_values);
  for (std::size_t k = 0; k < meta_constants_.size(); ++k) {
    slots[m.constants[k].slot] = meta_constants_[k];
  }
  LiveBytes live(storages_of(meta_constants_));
  for (const Input& in : m.inputs) {
    const std::vector<int64_t> sizes =
        in.desc.is_static() ? in.desc.sizes : m.concrete(in.desc, symbols).sizes;
    slots[in.slot] = empty(sizes, TensorOptions(in.desc.dtype).device(kMeta));
    live.add(slots[in.slot]);
  }
  for (; plan.planned < nodes_.size(); ++plan.planned) {
    const std::size_t i = plan.planned;
    const BoundNode& b = nodes_[i];
    const Node& node = m.nodes[i];
    const NodeWhere where{m, i};
    const PrefixScope scope(&NodeWhere::describe, &where);
    if (b.sym != nullptr) {  // scalar arithmetic: nothing to measure
      if (!finishes([&] { run_sym_node(b, node, slots); })) break;
      for (const uint32_t s : b.release_after) {
        live.remove(slots[s]);
        slots[s] = Value();
      }
      continue;
    }
    NodeMeasure measure;
    measure.op = m.operators[node.op];
    measure.schema = &b.op->schema();
    Stack args;
    // The rest is measured while it runs: from here on the shapes may follow the data.
    if (!finishes([&] { args = make_stack(b, slots, /*meta=*/true); }) ||
        data_dependent(measure.op, args)) {
      break;
    }
    measure.inputs = node_inputs(b, args);
    measure.args = &args;
    if (!finishes([&] {
          Stack stack = args;
          call_and_store(b.op->kernel(), node, stack, slots);
        })) {
      break;
    }
    for (const uint32_t s : node.outs) {
      measure.outputs.push_back(slots[s]);
      live.add(slots[s]);
    }
    plan.refusal = measure.exceeded(limits_, live.total());
    if (!plan.refusal.empty()) break;
    for (const uint32_t s : b.release_after) {
      live.remove(slots[s]);
      slots[s] = Value();
    }
  }
  return plan;
}

std::optional<NodeMeasure> Program::check_limits_before(std::size_t i,
                                                        const std::vector<Value>& slots) const {
  const BoundNode& b = nodes_[i];
  if (b.sym != nullptr) return std::nullopt;  // scalar arithmetic: nothing to measure
  const Node& node = model_->nodes[i];
  LiveBytes live(storages_of(constants_));
  for (const Value& v : slots) live.add(v);

  const Stack real = make_stack(b, slots, /*meta=*/false);
  NodeMeasure measure;
  measure.op = model_->operators[node.op];
  measure.schema = &b.op->schema();
  measure.args = &real;
  if (!data_dependent(measure.op, real)) {
    // The node on Meta twins of its inputs: its outputs' shapes, no data touched.
    Stack twin = real;
    for (const TensorUse& use : b.tensors) {
      Value& v = twin[use.arg];
      if (v.is_tensor()) {
        v = meta_twin(v.to_tensor());
      } else if (auto* list = v.get_if<std::vector<Tensor>>()) {
        for (Tensor& t : *list) t = meta_twin(t);
      } else if (auto* optionals = v.get_if<std::vector<std::optional<Tensor>>>()) {
        for (std::optional<Tensor>& t : *optionals) {
          if (t.has_value()) t = meta_twin(*t);
        }
      }
    }
    for (const uint32_t d : b.device_args) twin[d] = Value(Device(kMeta));
    std::vector<Value> outs(model_->num_values);  // only the node's own are written
    const bool ran = finishes([&] {
      Stack stack = twin;
      call_and_store(b.op->kernel(), node, stack, outs);
    });
    if (ran) {
      measure.inputs = node_inputs(b, twin);
      measure.args = &twin;
      for (const uint32_t s : node.outs) measure.outputs.push_back(outs[s]);
      // Live once it has run: what is alive now and its new outputs (a view adds nothing).
      for (const auto& [k, t] : measure.fresh_outputs()) live.add(Value(t));
      std::string refusal = measure.exceeded(limits_, live.total());
      if (!refusal.empty()) raise(Error(std::move(refusal)));
      return std::nullopt;
    }
  }
  measure.inputs = node_inputs(b, real);
  measure.outputs_known = false;
  std::string refusal = measure.exceeded(limits_, live.total());
  if (!refusal.empty()) raise(Error(std::move(refusal)));
  measure.args = nullptr;
  return measure;
}

void Program::check_limits_after(std::size_t i, NodeMeasure& measure,
                                 const std::vector<Value>& slots) const {
  LiveBytes live(storages_of(constants_));
  for (const Value& v : slots) live.add(v);
  for (const uint32_t s : model_->nodes[i].outs) measure.outputs.push_back(slots[s]);
  measure.outputs_known = true;
  std::string refusal = measure.outputs_exceed(limits_, live.total());
  if (!refusal.empty()) raise(Error(std::move(refusal)));
}

}  // namespace sops::lite
