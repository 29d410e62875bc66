// Program's optimized steps (lite/optimize.h): a fused node run with its folded
// arguments and its activations applied in place, and a node fused into an earlier one
// taking that node's result.
#include <utility>

#include "lite/interpreter.h"
#include "lite/optimize.h"

namespace sops::lite {

const OptimizedStep* Program::optimized_step(std::size_t i) const {
  if (optimization_ == nullptr) return nullptr;
  const OptimizedStep& step = optimization_->steps[i];
  return step.kind == OptimizedStep::Kind::Same ? nullptr : &step;
}

void Program::forward_result(const OptimizedStep& step, std::size_t i,
                             std::vector<Value>& slots) const {
  slots[model_->nodes[i].outs[0]] = slots[step.from];
}

void Program::run_fused(const OptimizedStep& step, std::size_t i, std::vector<Value>& slots) const {
  const BoundNode& b = nodes_[i];
  Stack stack = make_stack(b, slots, /*meta=*/false);
  for (const auto& [arg, tensor] : step.replace) stack[arg] = tensor;
  call_and_store(b.op->kernel(), model_->nodes[i], stack, slots);
  apply_epilogues(step, i, slots);
}

void Program::apply_epilogues(const OptimizedStep& step, std::size_t i,
                              std::vector<Value>& slots) const {
  const Node& node = model_->nodes[i];
  for (const OptimizedStep::Step& e : step.epilogues) {
    const Tensor& t = slots[node.outs[0]].to_tensor();
    if (e.add) {
      const Value& other = slots[e.other];
      if (other.is_tensor() && can_add_in_place(t, other.to_tensor())) {
        add_in_place(t, other.to_tensor());
        continue;
      }
      // Broadcasting, another dtype or layout: the add's own kernel (its stack as the
      // file has it, x and other in their places).
      const BoundNode& add = nodes_[e.node];
      const Node& add_node = model_->nodes[e.node];
      Stack s = add.args;
      for (uint32_t k = 0; k < 2; ++k) s[k] = add_node.args[k].slot == e.other ? other : Value(t);
      add.op->kernel()(s);
      slots[node.outs[0]] = std::move(s[0]);
      continue;
    }
    if (t.is_contiguous() &&
        (t.scalar_type() == ScalarType::Float || t.scalar_type() == ScalarType::Double)) {
      apply_epilogue(e.epilogue, t);
      continue;
    }
    // Not in place: the activation's own kernel, on the result so far (its other
    // arguments are constants, prepared in its stack); for x * sigmoid(x), then the mul.
    const BoundNode& act = nodes_[e.node];
    Stack s = act.args;
    s[0] = t;
    act.op->kernel()(s);
    if (e.mul != OptimizedStep::Step::kNone) {
      const BoundNode& mul = nodes_[e.mul];
      Stack p = mul.args;
      p[1 - e.mul_x] = std::move(s[0]);
      p[e.mul_x] = t;
      mul.op->kernel()(p);
      s[0] = std::move(p[0]);
    }
    slots[node.outs[0]] = std::move(s[0]);
  }
}

}  // namespace sops::lite
