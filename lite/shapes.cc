#include "lite/shapes.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace sops::lite {

ShapeReport compute_shapes(const Program& program, const std::vector<Tensor>& inputs) {
  const Model& model = program.model();
  ShapeReport report;
  for (const Input& in : model.inputs) report.inputs.push_back({in.name, in.desc});

  std::vector<bool> is_constant(model.num_values, false);
  for (const Constant& c : model.constants) is_constant[c.slot] = true;
  // The constants' storages, taken while every constant is still alive (after node 0).
  std::vector<const StorageImpl*> constant_storages;

  auto observe = [&](std::size_t i, const std::vector<Value>& slots) {
    if (i == 0) {
      for (const Constant& c : model.constants) {
        if (slots[c.slot].is_tensor()) {
          constant_storages.push_back(slots[c.slot].to_tensor().storage().impl());
        }
      }
    }
    const Node& node = model.nodes[i];
    for (std::size_t k = 0; k < node.outs.size(); ++k) {
      const Value& v = slots[node.outs[k]];
      if (!v.is_tensor()) continue;
      const std::string name =
          node.outs.size() == 1 ? node.name : node.name + "." + std::to_string(k);
      report.values.push_back({name, TensorDesc::of(v.to_tensor())});
    }
    // What is alive now: each storage once, parameters and their views aside; summed in
    // 128 bits (a crafted model's sizes must not make the peak wrap around).
    LiveBytes live(constant_storages);
    for (uint32_t s = 0; s < slots.size(); ++s) {
      if (!is_constant[s]) live.add(slots[s]);
    }
    if (live.total() > report.peak_bytes) {
      report.peak_bytes = live.total();
      report.peak_node = node.name;
    }
  };
  program.run_meta(inputs, observe);
  return report;
}

std::string format_shapes(const ShapeReport& report) {
  std::ostringstream os;
  for (const ValueShape& v : report.inputs)
    os << "# input " << v.name << " " << v.desc.str() << "\n";
  for (const ValueShape& v : report.values) os << v.name << " " << v.desc.str() << "\n";
  os << "# peak activation memory: " << report.peak_bytes
     << (report.peak_bytes == UINT64_MAX ? " or more" : "") << " bytes";
  if (!report.peak_node.empty()) os << " (after node '" << report.peak_node << "')";
  os << "\n";
  return os.str();
}

}  // namespace sops::lite
