// Memory planning at load (issue 31, item 1): where every intermediate tensor would
// live in one arena, computed once from a Meta run, so that a later interpreter can
// run each node's out= variant into the arena instead of allocating.
//
//   MemoryPlan plan = plan_memory(program, meta_inputs);  // e.g. the exported shapes
//   plan.arena_bytes;  // one buffer of this size holds every planned intermediate
//
// Each storage a node creates is one buffer: its Meta storage's size rounded up to 64
// bytes, alive from the node that makes it to the last node that reads it or any view
// of it (Program::last_use, the node after which run() frees it). Views (the same
// storage) share their base's buffer, and so does the result of a node the load-time
// optimization fused into the one before it (lite/optimize.h: a folded batch norm, an
// activation applied in place), which an optimized run takes from that node. Not
// planned: the inputs and constants and their views (they have memory of their own),
// the model's outputs and any storage an output views ("returned": they are handed to
// the caller, so allocated), and the first node whose result shape depends on data
// (nonzero, a boolean mask index), which Meta cannot size, with every node after it
// (their sizes may follow from it). Offsets come from the greedy-by-size assignment
// ExecuTorch's and TFLite's planners use: buffers by size, largest first, each at the
// lowest 64-byte-aligned offset where it overlaps no placed buffer whose lifetime
// intersects its own.
//
// A dynamic model is planned at given sizes; plan at the symbols' upper bounds (as
// `shapes` measures the peak) for an arena that serves every size in range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/interpreter.h"

namespace sops::lite {

inline constexpr uint64_t kArenaAlignment = 64;

struct PlannedBuffer {
  std::string name;  // the value that makes the storage ("name.k" for result k of several)
  uint32_t slot = 0;
  uint64_t bytes = 0;     // the storage's size, rounded up to kArenaAlignment
  std::size_t first = 0;  // the node that makes it
  std::size_t last = 0;   // the last node that reads it or a view of it (>= first)
  uint64_t offset = 0;    // in the arena, a multiple of kArenaAlignment
  // The tensor the node makes there, as the Meta run gave it: what a planned run
  // (lite/planned_run.cc) hands the node's out= variant.
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t storage_offset = 0;
  bool overlaps_in_time(const PlannedBuffer& o) const { return first <= o.last && o.first <= last; }
};

struct UnplannedValue {
  std::string name;
  uint32_t slot = 0;
  std::size_t node = 0;  // the node that makes it
  std::string reason;    // "a model output: allocated when returned", ...
};

struct MemoryPlan {
  std::vector<PlannedBuffer> buffers;     // in the order their nodes run
  std::vector<UnplannedValue> unplanned;  // in the order their nodes run
  // The storages the model's outputs are (or view), with their Meta metadata but no
  // offset: what a RunState (lite/run_state.h) places in its own memory, alive to the end.
  std::vector<PlannedBuffer> returned;
  uint64_t arena_bytes = 0;  // the end of the highest buffer (UINT64_MAX: that or more)
  uint64_t sum_bytes = 0;    // every buffer's bytes: what no reuse would take
};

// Runs `program` on Meta tensors of `meta_inputs`' dtypes and shapes (any device) and
// plans its intermediates. Errors are the Meta run's (Program::run_meta).
MemoryPlan plan_memory(const Program& program, const std::vector<Tensor>& meta_inputs);

// The greedy-by-size assignment alone: sets every buffer's offset and returns the arena
// size. Buffers' bytes must be multiples of kArenaAlignment.
uint64_t assign_offsets(std::vector<PlannedBuffer>& buffers);

// The plan's lines for `lite_runtime shapes`, after the peak line: "# memory plan: arena
// A bytes for N intermediates (sum S bytes without reuse; measured peak P bytes)", then
// "# not planned: NAME (REASON)" per value the plan leaves out. `where` (" at the upper
// bounds (seq=64)", or "") says at which sizes.
std::string format_memory_plan(const MemoryPlan& plan, uint64_t peak_bytes,
                               const std::string& where);

}  // namespace sops::lite
