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
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lite/model.h"
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

class Program {
 public:
  explicit Program(std::shared_ptr<const Model> model,
                   const OperatorRegistry& registry = OperatorRegistry::global());

  const Model& model() const { return *model_; }
  // The registered operator node `i` calls.
  const RegisteredOperator& op(std::size_t node) const { return *nodes_[node].op; }

  // Runs the model. `inputs` must match the model's inputs in number, dtype and shape
  // (an error names the input and both shapes otherwise). Returns the outputs in order.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs,
                          const NodeObserver& observer = {}) const;
  // The same on Meta tensors of the inputs' dtypes and shapes: no kernel touches data.
  std::vector<Tensor> run_meta(const std::vector<Tensor>& inputs,
                               const NodeObserver& observer = {}) const;

  // Checks `inputs` against the model's inputs (what run() does first).
  void check_inputs(const std::vector<Tensor>& inputs) const;

 private:
  // A tensor argument: where on the stack, which slot(s).
  struct TensorUse {
    uint32_t arg;                 // the argument's position
    std::vector<uint32_t> slots;  // one slot (Tensor), or the list's (Tensor[] / Tensor?[])
    enum class Kind : uint8_t { One, List, OptionalList } kind = Kind::One;
  };
  struct BoundNode {
    const RegisteredOperator* op = nullptr;
    Stack args;                           // every argument, tensors left undefined
    std::vector<TensorUse> tensors;       // the tensor arguments to fill in
    std::vector<uint32_t> device_args;    // positions of Device arguments (for run_meta)
    std::vector<uint32_t> release_after;  // slots read here for the last time
  };

  std::vector<Tensor> execute(std::vector<Value> slots, bool meta,
                              const NodeObserver& observer) const;
  // Fills the node's stack from `slots`, calls its kernel, stores its results in `slots`.
  void run_node(const BoundNode& b, const Node& node, std::vector<Value>& slots, bool meta) const;

  std::shared_ptr<const Model> model_;
  std::vector<BoundNode> nodes_;
  std::vector<Tensor> constants_;       // the constants' data, as tensors
  std::vector<Tensor> meta_constants_;  // the same on Meta
};

}  // namespace sops::lite
