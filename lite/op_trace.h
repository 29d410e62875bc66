// Which operators a model runs: the nodes' operators (the roots) and every operator
// their kernels call in turn, as PyTorch's tracing-based selective build records them.
//
//   sops::lite::OperatorTrace trace;          // starts recording (one trace at a time)
//   program.run(inputs);
//   std::string yaml = trace.selected_operators_yaml(program, "mlp.sopsm");
//
// Recording observes operator calls (runtime/call_observer.h), through the dispatcher
// or statically dispatched, so it sees every call a kernel makes through the operator
// API, at any depth.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lite/interpreter.h"
#include "runtime/operator_registry.h"

namespace sops::lite {

struct TracedOperator {
  std::string name;      // "aten::add.Tensor"
  bool is_root = false;  // called by the model itself (a node of the graph)
};

class OperatorTrace {
 public:
  OperatorTrace();
  ~OperatorTrace();
  OperatorTrace(const OperatorTrace&) = delete;
  OperatorTrace& operator=(const OperatorTrace&) = delete;

  // Every operator recorded so far plus the program's own operators (roots), once
  // each, sorted by full name. Names the dispatcher reports without a namespace are
  // qualified through `registry`.
  std::vector<TracedOperator> operators(
      const Program& program, const OperatorRegistry& registry = OperatorRegistry::global()) const;

  // PyTorch's selected_operators.yaml (torchgen's SelectiveBuilder format) of
  // operators(); `debug_info` names the model.
  std::string selected_operators_yaml(
      const Program& program, std::string_view debug_info,
      const OperatorRegistry& registry = OperatorRegistry::global()) const;
};

}  // namespace sops::lite
