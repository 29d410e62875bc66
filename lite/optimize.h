// Load-time graph optimization, as ONNX Runtime and XNNPACK do it, made once when a
// Program is built (lite/interpreter.h, Optimize::On, the default):
//
//   - Batch norm folded into the convolution before it: an eval-mode
//     aten::_native_batch_norm_legit_no_training whose input is a convolution's result
//     that nothing else reads becomes part of that convolution's weight and bias
//     (w' = w * gamma / sqrt(var + eps) per output channel, b' = (b - mean) * that +
//     beta, computed in float64 from the model's constants).
//   - Element-wise activations fused: relu, hardtanh, clamp, hardswish, sigmoid, gelu, and
//     silu (also as x * sigmoid(x), the way the exporter's decomposition writes it), that
//     read a convolution's, addmm's or mm's result (directly, through its folded batch
//     norm, or through one view/reshape of it) that nothing else reads are applied in
//     place to that result (lite/epilogue.h), with no tensor of their own. (The exporter
//     decomposes hardswish into add, clamp, mul and div: that form is not fused.)
//   - Residual adds fused the same way: an aten::add.Tensor (alpha 1) of the chain's value
//     (not through a view) and a tensor computed before the convolution runs (ResNet's
//     identity branch), added in place; the activation after it fuses too.
//
// The graph itself is left as it is: every node keeps its index and operator, so
// `lite_runtime shapes`, `trace` and the selective build see the model's own operators,
// and a NodeObserver sees every node. A node fused into another one runs as a forward:
// its result slot takes the fused tensor. Every run on data takes the optimized steps,
// allocating or planned (a fused node's out= variant writes the arena, its epilogues
// follow); run_meta() (shapes, the limits) runs the nodes as the file has them, except
// the memory plan's Meta run, where a forward shares its source's buffer. Where a fused
// activation cannot be applied in place (a result neither float32/float64 nor
// contiguous) the activation's own kernel runs on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lite/epilogue.h"
#include "lite/model.h"
#include "runtime/tensor.h"

namespace sops::lite {

// What node `i` does in an optimized run.
struct OptimizedStep {
  enum class Kind : uint8_t {
    Same,     // runs as the file has it
    Fused,    // runs its kernel with `replace`d arguments, then `epilogues` on its result
    Forward,  // does not run: its first result is slot `from`'s value (fused before)
  };
  // One activation applied to a Fused node's result, and the node it stands for (whose
  // own kernel runs instead where it cannot be applied in place). SiLU as the exporter
  // writes it, x * sigmoid(x), stands for two: `node` the sigmoid, `mul` the
  // aten::mul.Tensor, which reads x as its argument `mul_x` (0 or 1).
  struct Step {
    static constexpr std::size_t kNone = SIZE_MAX;
    Epilogue epilogue;
    std::size_t node = 0;
    std::size_t mul = kNone;
    uint32_t mul_x = 0;
    // A residual add instead of an activation: `node` is the aten::add.Tensor (alpha 1),
    // which adds slot `other` (made before the fused node runs); the result is added to
    // in place when `other` has its shape and dtype, else the add's own kernel runs.
    bool add = false;
    uint32_t other = 0;
  };
  Kind kind = Kind::Same;
  std::vector<std::pair<uint32_t, Tensor>> replace;  // (argument position, tensor)
  std::vector<Step> epilogues;
  uint32_t from = 0;
};

struct GraphOptimization {
  std::vector<OptimizedStep> steps;  // by node
  std::size_t folded_batch_norms = 0;
  std::size_t fused_activations = 0;
  std::size_t fused_adds = 0;

  bool empty() const {
    return folded_batch_norms == 0 && fused_activations == 0 && fused_adds == 0;
  }
  // "2 batch norms folded, 3 activations fused, 1 add fused".
  std::string summary() const;
};

// The optimization of `model` whose constants, by slot, are `constants` (undefined for a
// slot that is not a constant). Changes nothing it cannot prove equal: a batch norm whose
// statistics are not constants, a convolution whose result something else reads or that
// is a model output, a transposed convolution, an activation with an argument from a slot.
GraphOptimization optimize_graph(const Model& model, const std::vector<Tensor>& constants);

}  // namespace sops::lite
