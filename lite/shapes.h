// `lite_runtime shapes`: a whole model's shape computation without kernels. Runs the
// graph on Meta tensors (Program::run_meta) and reports every value's dtype and
// shape and the peak memory its activations need.
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
};

struct ShapeReport {
  std::vector<ValueShape> inputs;
  std::vector<ValueShape> values;  // every node result, in execution order
  // The most bytes held at once by the model's inputs, intermediates and outputs
  // (parameters and buffers excluded), counting each storage once and freeing each
  // value after its last use, as Program::run does; and the node after which it
  // is reached. UINT64_MAX: that many or more (a crafted model's sizes).
  uint64_t peak_bytes = 0;
  std::string peak_node;
};

ShapeReport compute_shapes(const Program& program, const std::vector<Tensor>& inputs);

// One line per input ("# input x float32 [4, 32]") and per value ("addmm float32 [4, 64]"),
// then the peak ("# peak activation memory: 1536 bytes (after node 'addmm')").
std::string format_shapes(const ShapeReport& report);

}  // namespace sops::lite
