#include "lite/memory_plan.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>
#include <unordered_set>

namespace sops::lite {

namespace {

constexpr uint64_t kMax = UINT64_MAX;

// Sizes from crafted models saturate at kMax rather than wrap around.
uint64_t aligned(uint64_t bytes) {
  return bytes > kMax - (kArenaAlignment - 1)
             ? kMax
             : (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
}

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > kMax - b ? kMax : a + b; }

// "name", or "name.k" for result k of a node with several (as `shapes` names them).
std::string value_name(const Node& node, std::size_t k) {
  return node.outs.size() == 1 ? node.name : node.name + "." + std::to_string(k);
}

}  // namespace

uint64_t assign_offsets(std::vector<PlannedBuffer>& buffers) {
  // Largest first (ties: the one made earlier, then the one listed first, so that the
  // plan does not depend on the sort).
  std::vector<std::size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (buffers[a].bytes != buffers[b].bytes) return buffers[a].bytes > buffers[b].bytes;
    if (buffers[a].first != buffers[b].first) return buffers[a].first < buffers[b].first;
    return a < b;
  });
  uint64_t arena = 0;
  std::vector<std::size_t> placed;
  for (const std::size_t k : order) {
    PlannedBuffer& buf = buffers[k];
    // The placed buffers alive at the same time, by offset: the first gap between them
    // (from offset 0) wide enough takes this one.
    std::vector<const PlannedBuffer*> live;
    for (const std::size_t p : placed) {
      if (buffers[p].overlaps_in_time(buf)) live.push_back(&buffers[p]);
    }
    std::sort(live.begin(), live.end(),
              [](const PlannedBuffer* a, const PlannedBuffer* b) { return a->offset < b->offset; });
    uint64_t offset = 0;
    for (const PlannedBuffer* other : live) {
      if (other->offset >= saturating_add(offset, buf.bytes)) break;  // fits before `other`
      offset = std::max(offset, saturating_add(other->offset, other->bytes));
    }
    buf.offset = offset;
    arena = std::max(arena, saturating_add(offset, buf.bytes));
    placed.push_back(k);
  }
  return arena;
}

MemoryPlan plan_memory(const Program& program, const std::vector<Tensor>& meta_inputs) {
  const Model& model = program.model();
  MemoryPlan plan;
  // Storages that are not the plan's: the inputs' and constants'. Every storage seen is
  // kept alive (`held`) until the run ends: a new storage must not reuse a dead one's
  // address and pass for a view of it (an input freed after its last reader would
  // otherwise hide the next node's result).
  std::unordered_set<const StorageImpl*> foreign;
  std::map<const StorageImpl*, std::size_t> buffer_of;  // storage -> plan.buffers index
  std::vector<Tensor> held;
  std::unordered_set<const StorageImpl*> returned_storages;  // the outputs' (and their bases')

  auto observe = [&](std::size_t i, const std::vector<Value>& slots) {
    if (i == 0) {
      auto not_ours = [&](const Tensor& t) {
        foreign.insert(t.storage().impl());
        held.push_back(t);
      };
      for (const Input& in : model.inputs) for_each_tensor(slots[in.slot], not_ours);
      for (const Constant& c : model.constants) for_each_tensor(slots[c.slot], not_ours);
    }
    const Node& node = model.nodes[i];
    for (std::size_t k = 0; k < node.outs.size(); ++k) {
      const uint32_t slot = node.outs[k];
      for_each_tensor(slots[slot], [&](const Tensor& t) {
        const StorageImpl* s = t.storage().impl();
        if (s == nullptr || foreign.count(s) != 0) {
          return;  // a view of an input or a constant: their memory, not the arena's
        }
        const auto it = buffer_of.find(s);
        if (it != buffer_of.end()) {  // a view: its base's buffer lives as long as it does
          PlannedBuffer& base = plan.buffers[it->second];
          base.last = std::max(base.last, program.last_use(slot));
          return;
        }
        buffer_of.emplace(s, plan.buffers.size());
        held.push_back(t);
        PlannedBuffer buf;
        buf.name = value_name(node, k);
        buf.slot = slot;
        buf.bytes = aligned(s->nbytes());
        buf.first = i;
        buf.last = std::max(i, program.last_use(slot));
        buf.dtype = t.scalar_type();
        buf.sizes.assign(t.sizes().begin(), t.sizes().end());
        buf.strides.assign(t.strides().begin(), t.strides().end());
        buf.storage_offset = t.storage_offset();
        plan.buffers.push_back(std::move(buf));
      });
    }
    // The outputs made so far (never freed, so still in `slots`).
    for (const Output& o : model.outputs) {
      for_each_tensor(slots[o.slot],
                      [&](const Tensor& t) { returned_storages.insert(t.storage().impl()); });
    }
  };
  // Meta cannot size a result that follows the data (nonzero, a boolean mask index): the
  // run stops before such a node, and it and every node after it allocate as they run.
  const std::size_t stopped = program.run_meta_until_data(meta_inputs, observe, /*forwards=*/true);
  for (std::size_t i = stopped; i < model.nodes.size(); ++i) {
    if (!program.calls_operator(i)) continue;  // scalar arithmetic: no memory
    const Node& node = model.nodes[i];
    for (std::size_t k = 0; k < node.outs.size(); ++k) {
      plan.unplanned.push_back(
          {value_name(node, k), node.outs[k], i,
           i == stopped ? "its size depends on the data (" + model.operators[node.op] +
                              "): allocated when it runs"
                        : "after '" + model.nodes[stopped].name +
                              "', whose size depends on the data: allocated when it runs"});
    }
  }

  // The outputs are handed to the caller: their storages (and every view of them) are
  // allocated when returned, not in the arena.
  std::vector<bool> returned(plan.buffers.size(), false);
  for (const StorageImpl* s : returned_storages) {
    const auto it = buffer_of.find(s);
    if (it != buffer_of.end()) returned[it->second] = true;
  }
  std::vector<PlannedBuffer> kept;
  for (std::size_t k = 0; k < plan.buffers.size(); ++k) {
    PlannedBuffer& buf = plan.buffers[k];
    if (returned[k]) {
      plan.unplanned.push_back(
          {buf.name, buf.slot, buf.first, "a model output: allocated when returned"});
      plan.returned.push_back(std::move(buf));
    } else {
      kept.push_back(std::move(buf));
    }
  }
  plan.buffers = std::move(kept);
  std::stable_sort(
      plan.unplanned.begin(), plan.unplanned.end(),
      [](const UnplannedValue& a, const UnplannedValue& b) { return a.node < b.node; });
  for (const PlannedBuffer& buf : plan.buffers)
    plan.sum_bytes = saturating_add(plan.sum_bytes, buf.bytes);
  plan.arena_bytes = assign_offsets(plan.buffers);
  return plan;
}

std::string format_memory_plan(const MemoryPlan& plan, uint64_t peak_bytes,
                               const std::string& where) {
  auto bytes = [](uint64_t n) {
    return std::to_string(n) + (n == kMax ? " or more" : "") + " bytes";
  };
  std::ostringstream os;
  os << "# memory plan" << where << ": arena " << bytes(plan.arena_bytes) << " for "
     << plan.buffers.size() << " intermediate" << (plan.buffers.size() == 1 ? "" : "s") << " (sum "
     << bytes(plan.sum_bytes) << " without reuse; measured peak " << bytes(peak_bytes) << ")\n";
  for (const UnplannedValue& v : plan.unplanned) {
    os << "# not planned: " << v.name << " (" << v.reason << ")\n";
  }
  return os.str();
}

}  // namespace sops::lite
