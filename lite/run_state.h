// RunState: one caller's reusable execution state for a Program, as ExecuTorch's Method
// or ONNX Runtime's IOBinding: it owns everything a run needs besides the model, so
// that a second run at the same sizes touches no new memory the interpreter makes.
//
//   sops::lite::Program program(model);                  // shared, const, any thread
//   sops::lite::RunState state(program);                 // one per caller (per thread)
//   const std::vector<sops::Tensor>& y = state.run({x});  // y lives in `state`
//   ...                                                  // valid until the next run
//   state.run({x2}, {out});                              // or copied into your tensors
//
// What the state owns (made by its first run, kept for the next ones):
//   - the memory plan's arena (lite/memory_plan.h), with the model's outputs placed in
//     it too, alive to the end of the run: one allocation, or the caller's memory;
//   - for each node the plan covers, the out= tensors bound to the arena (their
//     TensorImpl and Storage made once), and each node's argument stack (its capacity
//     reused);
//   - the value slots, where results that never change between runs stay: the
//     constants, and views of the arena or of constants (a view node whose inputs are
//     such tensors runs once, and its result is kept: its sizes, strides and offset are
//     the same every run);
//   - the outputs' handles.
// So the outputs run() returns are views of the state's memory: the next run() on the
// same state overwrites them (copy what you keep, or pass tensors to run(inputs,
// outputs)). Inputs are the caller's and are read in place.
//
// What still allocates per run, inside the operators rather than here: kernels that
// make scratch of their own (convolution's unfolded input, ...), out= variants that
// `autogen:` writes (the functional kernel, then a copy), operators that wrap a Scalar
// argument in a tensor, list arguments (int[], Tensor[]) copied onto the stack (the
// boxed kernels consume their arguments), views of the inputs, and nodes the plan does
// not cover (no out= variant, after a node whose size follows the data).
// //tests/lite:run_state_allocations_test counts them per node and model.
//
// A model with symbols (dynamic shapes) is planned at the sizes of the state's run: a
// run at other sizes plans again (one Meta run, a new arena) and keeps that plan.
// Memory::Allocating programs run as before, every result allocated. Builds without
// exceptions do not plan (as Program::run). One run at a time per state; Program::run
// keeps a pool of states (one per concurrent caller) and copies the outputs out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "lite/interpreter.h"

namespace sops::lite {

class RunState {
 public:
  // The state allocates its memory at its first run (and again when a dynamic model's
  // sizes change).
  explicit RunState(const Program& program);
  // The state runs in `memory` (64-byte aligned, `size` bytes, owned by the caller and
  // kept for the state's life): a run needing more (Program::state_bytes) is an error.
  RunState(const Program& program, void* memory, std::size_t size);
  ~RunState();
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  const Program& program() const { return *program_; }

  // Runs the model on `inputs` (checked as Program::run checks them) and returns the
  // outputs, in this state's memory until the next run.
  const std::vector<Tensor>& run(const std::vector<Tensor>& inputs,
                                 const NodeObserver& observer = {});
  // The same, then copies each output into `outputs[k]` (a contiguous cpu tensor of the
  // output's dtype and sizes; an error names one that is not).
  void run(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs,
           const NodeObserver& observer = {});

  // The bytes of memory the state runs in (0 before its first run, or when the program
  // does not plan).
  uint64_t memory_bytes() const;
  // For each node, whether its last run wrote its results into the state's memory
  // (through its out= variant), or reused results kept from the run before (a view of
  // fixed memory): what //tests/lite:run_state_allocations_test reports.
  std::vector<bool> planned_nodes() const;
  std::vector<bool> kept_nodes() const;

 private:
  friend class Program;
  struct Impl;
  // Makes the plan for `inputs` (bound to `symbols`), the memory and the objects kept.
  void prepare(const std::vector<Tensor>& inputs, const std::vector<int64_t>& symbols);
  const Program* program_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sops::lite
