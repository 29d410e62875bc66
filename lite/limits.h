// Resource limits on running a model: what a host application lets one node take.
//
// A model file is untrusted input, and a well-formed one can still ask for a tensor of
// 2^61 elements, or for a sum over a 2^62-element expanded view that would run for
// years. lite::Program measures every node on Meta tensors (the operators' own shape
// functions; no data touched) before it runs and refuses, with one error naming the
// node, the operator, what exceeds which limit and how to raise it, a node that would
//
//   - touch more than max_node_work elements: the elements of every tensor it reads (an
//     expanded view counts every element it shows, not the few it stores) and of every
//     tensor it makes, plus the multiply-adds of a contraction (mm, bmm, addmm, baddbmm,
//     matmul, linear, convolution, attention, cdist) and the window reads of a pooling;
//     a view (expand, permute, slice, ...) touches nothing;
//   - make a tensor of more than max_tensor_bytes: a new output's storage, or an input
//     that is a broadcast view larger than its storage (a kernel may make it contiguous);
//   - leave more than max_memory_bytes held after it: the storages of the inputs,
//     intermediates and outputs still alive (each once, parameters aside), as
//     `lite_runtime shapes` counts its peak.
//
// 0 means no limit. The defaults let real phone-sized models through (BERT-base or a
// 1B-parameter language model's largest matmul at a few hundred tokens is under 2^32
// multiply-adds) and refuse the hostile shapes at once.
//
//   sops::lite::Limits limits;                       // the defaults
//   limits.max_memory_bytes = 512 << 20;             // this app's budget
//   sops::lite::Program program(model, sops::OperatorRegistry::global(), limits);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/operator_registry.h"
#include "runtime/tensor.h"
#include "runtime/value.h"

namespace sops::lite {

// Calls f on every defined tensor `v` holds: a Tensor, or the elements of a Tensor[] or
// Tensor?[] list (the values a node's slots and stack hold).
template <typename F>
void for_each_tensor(const Value& v, F&& f) {
  if (v.is_tensor()) {
    if (v.to_tensor().defined()) f(v.to_tensor());
  } else if (const auto* list = v.get_if<std::vector<Tensor>>()) {
    for (const Tensor& t : *list) {
      if (t.defined()) f(t);
    }
  } else if (const auto* optionals = v.get_if<std::vector<std::optional<Tensor>>>()) {
    for (const std::optional<Tensor>& t : *optionals) {
      if (t.has_value() && t->defined()) f(*t);
    }
  }
}

struct Limits {
  static constexpr uint64_t kDefaultMaxTensorBytes = uint64_t{1} << 30;  // 1 GiB
  static constexpr uint64_t kDefaultMaxMemoryBytes = uint64_t{1} << 31;  // 2 GiB
  static constexpr uint64_t kDefaultMaxNodeWork = uint64_t{1} << 32;     // elements

  uint64_t max_tensor_bytes = kDefaultMaxTensorBytes;  // lite_runtime --max-tensor-bytes
  uint64_t max_memory_bytes = kDefaultMaxMemoryBytes;  // lite_runtime --max-memory-bytes
  uint64_t max_node_work = kDefaultMaxNodeWork;        // lite_runtime --max-node-work

  // No limit at all (a trusted model; or a build that must not measure, see interpreter.h).
  static constexpr Limits none() { return Limits{0, 0, 0}; }
  bool any() const { return max_tensor_bytes != 0 || max_memory_bytes != 0 || max_node_work != 0; }
};

// The bytes held by a set of values: each storage once, the model's constants (the file's
// bytes, held anyway) aside. Counted in 128 bits, so no sum of crafted sizes wraps;
// total() saturates at UINT64_MAX.
class LiveBytes {
 public:
  // `constants`: the storages of the model's constants, whose views cost nothing.
  explicit LiveBytes(std::vector<const StorageImpl*> constants);

  // A value (a tensor or a list of them; anything else holds no storage) comes alive
  // or dies.
  void add(const Value& v);
  void remove(const Value& v);
  uint64_t total() const;

 private:
  void add(const Tensor& t);
  void remove(const Tensor& t);

  std::vector<const StorageImpl*> constants_;  // sorted
  struct Held {
    uint64_t bytes = 0;
    uint32_t refs = 0;
  };
  std::unordered_map<const StorageImpl*, Held> held_;
  unsigned __int128 total_ = 0;
};

// One tensor argument of a node, as a node measure sees it.
struct NodeInput {
  std::string_view name;  // the schema's argument name ("self")
  Tensor tensor;
  bool constant = false;  // a constant of the model (its bytes are the file's)
};

// What running a node with these inputs would cost, and the first limit it exceeds.
struct NodeMeasure {
  std::string_view op;  // "aten::mm"
  std::vector<NodeInput> inputs;
  // The node's results (tensors or lists of them) on Meta; unknown for an operator whose
  // result shape depends on data (data_dependent()).
  std::vector<Value> outputs;
  bool outputs_known = true;
  // The call's schema and its arguments before it ran: the non-tensor ones (a pooling's
  // kernel_size) enter the work of some operators.
  const FunctionSchema* schema = nullptr;
  const Stack* args = nullptr;

  // Why the node must not run under `limits` ("" if it may): one sentence,
  // "<what> exceeds the <limit> limit of <value> (<how to raise it>)". `live_bytes`: what
  // is held once it has run (with its outputs; before it, when they are unknown).
  std::string exceeded(const Limits& limits, uint64_t live_bytes) const;
  // The limits only a node's outputs can break, checked after a node whose outputs could
  // not be measured before it ran.
  std::string outputs_exceed(const Limits& limits, uint64_t live_bytes) const;

  // Elements touched (saturating).
  uint64_t work() const;
  // The results that are new tensors, not views of an input, with their positions among
  // the tensor results.
  std::vector<std::pair<std::size_t, Tensor>> fresh_outputs() const;
};

// Whether node `op` called with `args` computes its result's shape from data (nonzero,
// item, a boolean mask index), so that Meta tensors cannot give it: such a node is
// measured on its inputs before it runs and on its outputs after.
bool data_dependent(std::string_view op, const Stack& args);

// The elements of a tensor of these sizes, and the bytes its strides span (saturating at
// UINT64_MAX, whatever the sizes: a measure must not overflow where a kernel would).
uint64_t saturating_numel(const Tensor& t);
uint64_t span_bytes(const Tensor& t);

}  // namespace sops::lite
