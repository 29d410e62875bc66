#include "lite/interpreter.h"

#include <algorithm>
#include <exception>
#include <new>
#include <optional>
#include <sstream>
#include <utility>

#include "lite/optimize.h"
#include "lite/run_state.h"  // Program owns a pool of them
#include "lite/tensor_copy.h"
#include "runtime/tensor_impl.h"

namespace sops::lite {

namespace {

constexpr std::size_t kNoCheck = SIZE_MAX;

std::string missing_message(const std::string& source, const std::vector<std::string>& names) {
  std::ostringstream os;
  os << source << " needs " << names.size() << " operator" << (names.size() == 1 ? "" : "s")
     << " that this runtime does not have:\n";
  for (const std::string& n : names) os << "  " << n << "\n";
  os << "Build a runtime that has them: add them to an operator_set in the selected_ops of "
        "your lite_runtime_binary or structured_ops_library (rules/defs.bzl): list them in its "
        "`ops`, name this model in its `models`, or give it the selected_operators.yaml that "
        "`lite_runtime trace` of a full build (//ops:lite_runtime) writes. For an operator no "
        "library declares, declare it in your native_functions.yaml with its PyTorch schema and "
        "write its kernel.";
  return os.str();
}

// The boxed value of a constant argument; tensors are left undefined (filled per run).
Value to_value(const Arg& a) {
  switch (a.tag) {
    case Arg::Tag::None:
      return Value();
    case Arg::Tag::Slot:
      return Value(Tensor());
    case Arg::Tag::Int:
      return Value(a.i);
    case Arg::Tag::Double:
      return Value(a.d);
    case Arg::Tag::Bool:
      return Value(a.i != 0);
    case Arg::Tag::String:
      return Value(a.s);
    case Arg::Tag::IntList:
      return Value(a.ints);
    case Arg::Tag::DoubleList:
      return Value(a.doubles);
    case Arg::Tag::BoolList:
      return Value(std::vector<bool>(a.ints.begin(), a.ints.end()));
    case Arg::Tag::TensorList:
      return Value(std::vector<Tensor>(a.slots.size()));
    case Arg::Tag::OptionalTensorList:
      return Value(std::vector<std::optional<Tensor>>(a.slots.size()));
    case Arg::Tag::ScalarType:
      return Value(static_cast<ScalarType>(a.i));
    case Arg::Tag::Layout:
      return Value(static_cast<Layout>(a.i));
    case Arg::Tag::Device:
      return Value(
          Device(static_cast<DeviceType>(a.i), static_cast<Device::Index>(a.device_index)));
    case Arg::Tag::MemoryFormat:
      return Value(static_cast<MemoryFormat>(a.i));
    case Arg::Tag::SymIntList:  // the slots' elements filled in per run
      return Value(a.ints);
  }
  return Value();
}

// Whether a schema argument of `type` takes a scalar that a version-2 model may give
// as a slot (a SymInt, SymFloat or SymBool computed by a node).
bool takes_scalar(const TypeSchema& type) {
  if (type.list) return false;
  return type.kind == TypeSchema::Kind::Int || type.kind == TypeSchema::Kind::Float ||
         type.kind == TypeSchema::Kind::Bool || type.kind == TypeSchema::Kind::Scalar;
}

// A value of `type`'s kind, standing in for a scalar slot until a run fills it in (so the
// arguments can be checked against the schema while binding).
Value scalar_placeholder(const TypeSchema& type) {
  switch (type.kind) {
    case TypeSchema::Kind::Float:
      return Value(0.0);
    case TypeSchema::Kind::Bool:
      return Value(false);
    default:
      return Value(int64_t{0});
  }
}

// "argument 'size' element 1 is a Tensor (value slot 5), but the schema wants SymInt[]
// there": a slot of the wrong kind, found while running (the loader cannot know a slot's
// kind).
[[noreturn]] void wrong_kind(const ArgumentSchema& a, uint32_t element, const Value& v,
                             uint32_t slot) {
  raise(Error(detail::str("argument '", a.name, "'",
                          element == UINT32_MAX ? std::string() : detail::str(" element ", element),
                          " is ", kind_of(v), " (value slot ", slot, "), but the schema wants ",
                          a.type.text, " there")));
}

// A CPU tensor over a constant's bytes inside the model file, sharing the file's buffer.
Tensor constant_tensor(const Model& model, const Constant& c) {
  auto* keep = new std::shared_ptr<const std::byte>(model.bytes());
  DataPtr data(
      const_cast<std::byte*>(c.data), keep,
      [](void* ctx) { delete static_cast<std::shared_ptr<const std::byte>*>(ctx); }, Device(kCPU));
  Storage storage = Storage::wrap(std::move(data), c.desc.nbytes());
  auto impl = std::make_shared<TensorImpl>(std::move(storage), c.desc.dtype, Device(kCPU));
  impl->set_sizes_contiguous(c.desc.sizes);
  return Tensor(std::move(impl));
}

}  // namespace

MissingOperatorsError::MissingOperatorsError(const std::string& source,
                                             std::vector<std::string> names)
    : Error(missing_message(source, names)), names_(std::move(names)) {}

Program::Program(std::shared_ptr<const Model> model, const OperatorRegistry& registry,
                 const Limits& limits, Memory memory, Optimize optimize)
    : model_(std::move(model)), limits_(limits), memory_(memory), registry_(&registry) {
  const Model& m = *model_;

  // Every operator, looked up once; all the missing ones reported together.
  std::vector<const RegisteredOperator*> ops;
  std::vector<const SymOpInfo*> sym_ops;  // by operator: the `sym::` ones (version 2)
  std::vector<std::string_view> missing;  // (sorted as the registry sorts its names)
  ops.reserve(m.operators.size());
  sym_ops.reserve(m.operators.size());
  for (const std::string& name : m.operators) {
    sym_ops.push_back(m.version >= 2 ? find_sym_op(name) : nullptr);
    if (sym_ops.back() != nullptr) {  // evaluated here, not looked up
      ops.push_back(nullptr);
      continue;
    }
    const RegisteredOperator* op = registry.find(name);
    if (op == nullptr) missing.push_back(name);
    ops.push_back(op);
  }
  if (!missing.empty()) {
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    raise(MissingOperatorsError(m.source, {missing.begin(), missing.end()}));
  }

  // Each node's stack, converted and checked against the schema once.
  std::vector<std::size_t> last_use(m.num_values, 0);
  nodes_.reserve(m.nodes.size());
  auto note_uses = [&](const BoundNode& b, std::size_t i) {
    for (const TensorUse& use : b.tensors) {
      for (uint32_t s : use.slots) {
        if (s == kNoSlot) continue;
        last_use[s] = i;
      }
    }
    for (const ScalarUse& use : b.scalars) last_use[use.slot] = i;
    for (uint32_t s : m.nodes[i].outs) last_use[s] = i;  // a result nobody reads dies at once
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const Node& node = m.nodes[i];
    BoundNode b;
    b.op = ops[node.op];
    b.sym = sym_ops[node.op];
    if (b.sym != nullptr) {  // operands: constants, and slots filled in per run (the
      // reader checked their count and kinds)
      for (std::size_t a = 0; a < node.args.size(); ++a) {
        const Arg& arg = node.args[a];
        b.args.push_back(arg.tag == Arg::Tag::Slot ? Value() : to_value(arg));
        if (arg.tag == Arg::Tag::Slot) {
          b.scalars.push_back({static_cast<uint32_t>(a), ScalarUse::kWhole, arg.slot});
        }
      }
      note_uses(b, i);
      nodes_.push_back(std::move(b));
      continue;
    }
    const FunctionSchema& schema = b.op->schema();
    b.args.reserve(schema.arguments.size());
    for (std::size_t a = 0; a < node.args.size(); ++a) {
      const Arg& arg = node.args[a];
      b.args.push_back(to_value(arg));
      const auto pos = static_cast<uint32_t>(a);
      if (arg.tag == Arg::Tag::Slot && m.version >= 2 && a < schema.arguments.size() &&
          takes_scalar(schema.arguments[a].type)) {
        b.args.back() = scalar_placeholder(schema.arguments[a].type);
        b.scalars.push_back({pos, ScalarUse::kWhole, arg.slot});
      } else if (arg.tag == Arg::Tag::Slot) {
        b.tensors.push_back({pos, {arg.slot}, TensorUse::Kind::One});
      } else if (arg.tag == Arg::Tag::SymIntList) {
        for (std::size_t k = 0; k < arg.slots.size(); ++k) {
          if (arg.slots[k] != kNoSlot) {
            b.scalars.push_back({pos, static_cast<uint32_t>(k), arg.slots[k]});
          }
        }
      } else if (arg.tag == Arg::Tag::TensorList) {
        b.tensors.push_back({pos, arg.slots, TensorUse::Kind::List});
      } else if (arg.tag == Arg::Tag::OptionalTensorList) {
        b.tensors.push_back({pos, arg.slots, TensorUse::Kind::OptionalList});
      }
    }
    const NodeWhere where{m, i};
    const PrefixScope scope(&NodeWhere::describe, &where);
    b.op->check_arguments(b.args);
    // Constants are the file's bytes, shared by every run: no operator may write its
    // arguments (export's functional graphs never do).
    for (const ArgumentSchema& a : schema.arguments) {
      if (a.is_write()) {
        raise(Error(detail::str("the operator writes its argument '", a.name,
                                "' in place, which a lite model cannot do (export with "
                                "torch.export and run_decompositions(): a functional graph)")));
      }
    }
    for (std::size_t a = 0; a < schema.arguments.size(); ++a) {
      if (schema.arguments[a].type.kind == TypeSchema::Kind::Device) {
        b.device_args.push_back(static_cast<uint32_t>(a));
      }
    }
    // The outputs: one per return, or the elements of one Tensor[] return.
    const auto& returns = schema.returns;
    if (node.unpack) {
      if (returns.size() != 1 || !returns[0].type.list ||
          returns[0].type.kind != TypeSchema::Kind::Tensor) {
        raise(
            Error(detail::str("the model unpacks its result as a Tensor[], but the schema returns ",
                              returns.size(), " value(s): ", schema.str())));
      }
    } else if (returns.size() != node.outs.size()) {
      raise(Error(detail::str("the model expects ", node.outs.size(),
                              " result(s), but the schema returns ", returns.size(), ": ",
                              schema.str())));
    }
    note_uses(b, i);
    nodes_.push_back(std::move(b));
  }

  // Every slot but the outputs is freed after its last reader (inputs and constants no
  // node reads: after the first node).
  std::vector<bool> is_output(m.num_values, false);
  for (const Output& o : m.outputs) is_output[o.slot] = true;
  for (uint32_t s = 0; s < m.num_values && !m.nodes.empty(); ++s) {
    if (!is_output[s]) nodes_[last_use[s]].release_after.push_back(s);
  }
  last_use_ = std::move(last_use);

  constants_.reserve(m.constants.size());
  meta_constants_.reserve(m.constants.size());
  is_constant_.assign(m.num_values, false);
  for (const Constant& c : m.constants) {
    constants_.push_back(constant_tensor(m, c));
    meta_constants_.push_back(empty(c.desc.sizes, TensorOptions(c.desc.dtype).device(kMeta)));
    is_constant_[c.slot] = true;
  }

  if (optimize == Optimize::On) {
    std::vector<Tensor> by_slot(m.num_values);
    for (std::size_t k = 0; k < constants_.size(); ++k)
      by_slot[m.constants[k].slot] = constants_[k];
    auto optimization = std::make_shared<GraphOptimization>(optimize_graph(m, by_slot));
    if (!optimization->empty()) optimization_ = std::move(optimization);
  }
}

std::vector<Tensor> Program::run(const std::vector<Tensor>& inputs,
                                 const NodeObserver& observer) const {
  // A planned static model runs through a RunState kept between calls (lite/run_state.h),
  // its outputs copied out; the others allocate every result.
  if (memory_ == Memory::Planned && model_->symbols.empty() && SOPS_EXCEPTIONS) {
    return run_pooled(inputs, observer);
  }
  return run_in(inputs, nullptr, 0, observer);
}

std::vector<Tensor> Program::run(const std::vector<Tensor>& inputs, void* arena,
                                 std::size_t arena_size, const NodeObserver& observer) const {
  if (arena == nullptr) {
    raise(Error(detail::str(model_->source,
                            ": the arena passed to run() is null; pass memory of arena_bytes() "
                            "bytes, or call run() without one")));
  }
  return run_in(inputs, arena, arena_size, observer);
}

std::vector<Tensor> Program::run_in(const std::vector<Tensor>& inputs, void* memory,
                                    std::size_t arena_size, const NodeObserver& observer) const {
  const std::vector<int64_t> symbols = bind_symbols(inputs);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].device().is_cpu()) {
      raise(Error(detail::str(model_->source, ": input ", k, " ('", model_->inputs[k].name,
                              "') must be on cpu, not ", inputs[k].device().str())));
    }
  }
  std::vector<Value> slots(model_->num_values);
  for (std::size_t k = 0; k < constants_.size(); ++k)
    slots[model_->constants[k].slot] = constants_[k];
  for (std::size_t k = 0; k < inputs.size(); ++k) slots[model_->inputs[k].slot] = inputs[k];
  // Every node the inputs' shapes decide was measured once on Meta for these symbol
  // values (limit_plan); a node over a limit is refused before anything runs. The nodes
  // after one whose result shape depends on data are measured as they come.
  std::size_t check_from = kNoCheck;
  if (limits_.any()) {
    const std::shared_ptr<const LimitPlan> plan = limit_plan(symbols);
    if (!plan->refusal.empty()) {
      const NodeWhere where{*model_, plan->planned};
      const PrefixScope scope(&NodeWhere::describe, &where);
      raise(Error(plan->refusal));
    }
    check_from = plan->planned;
  }
  // The arena: the caller's memory, or one allocation per run, for every planned
  // intermediate.
  Arena arena;
  if (const std::shared_ptr<const RunPlan> plan = run_plan(inputs)) {
    arena.plan = plan.get();
    if (memory == nullptr) {
      arena.storage = Storage::allocate(plan->arena_bytes, get_allocator(DeviceType::CPU),
                                        /*resizable=*/false);
    } else {
      arena.storage = caller_arena(memory, arena_size, plan->arena_bytes);
    }
    return execute(std::move(slots), /*meta=*/false, check_from, observer, nullptr, &arena);
  }
  return execute(std::move(slots), /*meta=*/false, check_from, observer);
}

std::vector<Value> Program::meta_slots(const std::vector<Tensor>& inputs) const {
  check_inputs(inputs);
  std::vector<Value> slots(model_->num_values);
  for (std::size_t k = 0; k < meta_constants_.size(); ++k) {
    slots[model_->constants[k].slot] = meta_constants_[k];
  }
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    slots[model_->inputs[k].slot] = empty(inputs[k].sizes(), inputs[k].options().device(kMeta));
  }
  return slots;
}

std::vector<Tensor> Program::run_meta(const std::vector<Tensor>& inputs,
                                      const NodeObserver& observer) const {
  return execute(meta_slots(inputs), /*meta=*/true, kNoCheck, observer);
}

std::size_t Program::run_meta_until_data(const std::vector<Tensor>& inputs,
                                         const NodeObserver& observer, bool forwards) const {
  std::size_t stopped_at = 0;
  execute(meta_slots(inputs), /*meta=*/true, kNoCheck, observer, &stopped_at, nullptr, forwards);
  return stopped_at;
}

Stack Program::make_stack(const BoundNode& b, const std::vector<Value>& slots, bool meta) const {
  Stack stack;
  fill_stack(b, slots, meta, stack);
  return stack;
}

void Program::fill_stack(const BoundNode& b, const std::vector<Value>& slots, bool meta,
                         Stack& stack) const {
  // Assigned element by element: a RunState's stack keeps its capacity, and the values
  // of the same kind as before (the previous call's results) their payloads.
  stack.assign(b.args.begin(), b.args.end());
  const FunctionSchema& schema = b.op->schema();
  for (const TensorUse& use : b.tensors) {
    Value& v = stack[use.arg];
    switch (use.kind) {
      case TensorUse::Kind::One: {
        const Value& from = slots[use.slots[0]];
        if (!from.is_tensor()) {
          wrong_kind(schema.arguments[use.arg], ScalarUse::kWhole, from, use.slots[0]);
        }
        v = from.to_tensor();
        break;
      }
      case TensorUse::Kind::List: {
        auto& list = *v.get_if<std::vector<Tensor>>();
        for (std::size_t k = 0; k < list.size(); ++k) list[k] = slots[use.slots[k]].to_tensor();
        break;
      }
      case TensorUse::Kind::OptionalList: {
        auto& list = *v.get_if<std::vector<std::optional<Tensor>>>();
        for (std::size_t k = 0; k < list.size(); ++k) {
          if (use.slots[k] != kNoSlot) list[k] = slots[use.slots[k]].to_tensor();
        }
        break;
      }
    }
  }
  // Scalars from slots (version 2): each of the kind its argument takes; a SymInt[]
  // list's elements written into the list copied above (no other allocation).
  for (const ScalarUse& use : b.scalars) {
    const Value& from = slots[use.slot];
    const ArgumentSchema& a = schema.arguments[use.arg];
    if (use.element == ScalarUse::kWhole) {
      if (from.is_tensor() || !a.type.accepts(from)) wrong_kind(a, use.element, from, use.slot);
      stack[use.arg] = from;
    } else {
      if (!from.is_int()) wrong_kind(a, use.element, from, use.slot);
      (*stack[use.arg].get_if<std::vector<int64_t>>())[use.element] = from.to_int();
    }
  }
  if (meta) {
    for (uint32_t d : b.device_args) stack[d] = Value(Device(kMeta));
  }
}

bool Program::shape_from_data(std::size_t node, const std::vector<Value>& slots) const {
  const BoundNode& b = nodes_[node];
  if (b.op == nullptr) return false;  // `sym::` scalar arithmetic
  return lite::data_dependent(model_->operators[model_->nodes[node].op],
                              make_stack(b, slots, /*meta=*/true));
}

void Program::call_and_store(BoxedKernelFunction kernel, const Node& node, Stack& stack,
                             std::vector<Value>& slots) const {
  kernel(stack);
  if (node.unpack) {
    if (stack.size() != 1) {
      raise(
          Error(detail::str("returned ", stack.size(), " values where the model expects a list")));
    }
    std::vector<Tensor> list = stack[0].to_tensor_list();
    if (list.size() != node.outs.size()) {
      raise(Error(detail::str("returned ", list.size(), " tensors where the model expects ",
                              node.outs.size())));
    }
    for (std::size_t k = 0; k < list.size(); ++k) slots[node.outs[k]] = std::move(list[k]);
  } else {
    if (stack.size() != node.outs.size()) {
      raise(Error(detail::str("returned ", stack.size(), " values where the model expects ",
                              node.outs.size())));
    }
    for (std::size_t k = 0; k < stack.size(); ++k) slots[node.outs[k]] = std::move(stack[k]);
  }
}

void Program::run_node(const BoundNode& b, const Node& node, std::vector<Value>& slots,
                       bool meta) const {
  if (b.sym != nullptr) {  // the same on Meta: scalars are never Meta
    run_sym_node(b, node, slots);
    return;
  }
  Stack stack = make_stack(b, slots, meta);
  call_and_store(b.op->kernel(), node, stack, slots);
}

void Program::run_sym_node(const BoundNode& b, const Node& node, std::vector<Value>& slots) const {
  Value operands[3];  // the most a `sym::` operator takes (sym::ite)
  for (std::size_t k = 0; k < b.args.size() && k < 3; ++k) operands[k] = b.args[k];
  for (const ScalarUse& use : b.scalars) operands[use.arg] = slots[use.slot];
  Value result = eval_sym_op(*b.sym, operands);
  if (!node.outs.empty()) slots[node.outs[0]] = std::move(result);
}

std::vector<Tensor> Program::execute(std::vector<Value> slots, bool meta, std::size_t check_from,
                                     const NodeObserver& observer, std::size_t* stopped_at,
                                     const Arena* arena, bool meta_forwards) const {
  const Model& m = *model_;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    {
      const NodeWhere where{m, i};
      const PrefixScope scope(&NodeWhere::describe, &where);
      bool stop = false;
      raise_standard_exceptions([&] {
        stop = stopped_at != nullptr && shape_from_data(i, slots);
        if (stop) return;
        std::optional<NodeMeasure> after;  // a node measured only once it has run
        if (i >= check_from) after = check_limits_before(i, slots);
        // The optimized steps (lite/optimize.h) on data; on Meta only the forwards, for
        // the memory plan (a fused node's result has the file's node's shape).
        const OptimizedStep* step = optimized_step(i);
        if (meta &&
            (!meta_forwards || (step != nullptr && step->kind != OptimizedStep::Kind::Forward))) {
          step = nullptr;
        }
        if (step != nullptr && step->kind == OptimizedStep::Kind::Forward) {
          forward_result(*step, i, slots);
        } else if (arena != nullptr && arena->plan->nodes[i]) {
          run_planned_node(i, *arena->plan->nodes[i], arena->storage, slots, step);
        } else if (step != nullptr) {
          run_fused(*step, i, slots);
        } else {
          run_node(nodes_[i], m.nodes[i], slots, meta);
        }
        if (after) check_limits_after(i, *after, slots);
      });
      if (stop) {
        *stopped_at = i;
        return {};
      }
    }
    if (observer) observer(i, slots);
    for (uint32_t s : nodes_[i].release_after) slots[s] = Value();
  }

  if (stopped_at != nullptr) *stopped_at = nodes_.size();
  std::vector<Tensor> outputs;
  outputs.reserve(m.outputs.size());
  for (const Output& o : m.outputs) {
    if (!slots[o.slot].is_tensor()) {
      raise(Error(detail::str(m.source, ": output '", o.name, "' is a ", slots[o.slot].type_name(),
                              ", not a tensor")));
    }
    const Tensor& t = slots[o.slot].to_tensor();
    // An output that is (a view of) a parameter is handed out as a copy: the parameter
    // lives in the model file's buffer, shared by every run.
    const bool aliases_constant =
        !meta && std::any_of(constants_.begin(), constants_.end(),
                             [&](const Tensor& c) { return t.is_alias_of(c); });
    outputs.push_back(aliases_constant ? contiguous_copy(t) : t);
  }
  return outputs;
}

}  // namespace sops::lite
