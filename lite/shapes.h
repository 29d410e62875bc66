// `lite_runtime shapes`: a whole model's shape computation without kernels. Runs the
// graph on Meta tensors (Program::run_meta) and reports every value's dtype and
// shape and the peak memory its activations need.
//
// A dynamic model (version 2, with symbols) is reported either at given inputs' sizes
// (compute_shapes: the symbols' values, then concrete shapes and peak as for a static
// model) or symbolically (compute_symbolic_shapes: each symbol's range, each value's
// shape as torch.export recorded it, "[batch, seq, 64]", and the peak at every symbol's
// upper bound, which no run within the ranges exceeds for a model whose sizes grow with
// its symbols).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/interpreter.h"

namespace sops::lite {

struct ValueShape {
  std::string name;  // the node's name, or "name.k" for result k of a node with several
  TensorDesc desc;
  uint32_t slot = 0;
  std::string symbolic;  // compute_symbolic_shapes: the value's value_info shape, or ""
};

struct ShapeReport {
  std::vector<ValueShape> inputs;
  std::vector<ValueShape> values;  // every node result that is a tensor, in execution order
  // The most bytes held at once by the model's inputs, intermediates and outputs
  // (parameters and buffers excluded), counting each storage once and freeing each
  // value after its last use, as Program::run does; and the node after which it
  // is reached. UINT64_MAX: that many or more (a crafted model's sizes).
  uint64_t peak_bytes = 0;
  std::string peak_node;

  // A dynamic model's symbols, and their values at the inputs the report ran on.
  std::vector<Symbol> symbols;
  std::vector<int64_t> symbol_values;
  // compute_symbolic_shapes: the inputs' and values' shapes are the symbolic ones, the
  // peak is at the upper bounds; `unbounded` names a symbol without an upper bound, for
  // which no peak is given.
  bool symbolic = false;
  std::string unbounded;
};

ShapeReport compute_shapes(const Program& program, const std::vector<Tensor>& inputs);
// A dynamic model without inputs: run on Meta inputs at every symbol's upper bound (at
// the lower bound for a symbol without one, for the dtypes only).
ShapeReport compute_symbolic_shapes(const Program& program);
// The Meta inputs compute_symbolic_shapes runs on: every symbol at its upper bound (at
// its lower bound if it has none).
std::vector<Tensor> inputs_at_bounds(const Model& model);

// One line per input ("# input x float32 [4, 32]") and per value ("addmm float32 [4, 64]"),
// then the peak ("# peak activation memory: 1536 bytes (after node 'addmm')"). A dynamic
// model's report starts with a line per symbol ("# symbol seq in [2, 64]", or at given
// inputs "# symbol seq = 17 (in [2, 64])"); symbolically, the peak line says it is at the
// upper bounds ("# peak activation memory at the upper bounds (seq=64): ...") or that a
// symbol has none.
std::string format_shapes(const ShapeReport& report);

}  // namespace sops::lite
