#include "lite/shapes.h"

#include <algorithm>
#include <sstream>

namespace sops::lite {

ShapeReport compute_shapes(const Program& program, const std::vector<Tensor>& inputs) {
  const Model& model = program.model();
  ShapeReport report;
  for (const Input& in : model.inputs) report.inputs.push_back({in.name, in.desc});

  std::vector<bool> is_constant(model.num_values, false);
  for (const Constant& c : model.constants) is_constant[c.slot] = true;
  // The constants' storages (one each), sorted once; the live ones of a node, searched
  // in order.
  std::vector<const StorageImpl*> constant_storages;

  auto observe = [&](std::size_t i, const std::vector<Value>& slots) {
    if (i == 0) {
      for (const Constant& c : model.constants) {
        if (slots[c.slot].is_tensor()) {
          constant_storages.push_back(slots[c.slot].to_tensor().storage().impl());
        }
      }
      std::sort(constant_storages.begin(), constant_storages.end());
    }
    const Node& node = model.nodes[i];
    for (std::size_t k = 0; k < node.outs.size(); ++k) {
      const Value& v = slots[node.outs[k]];
      if (!v.is_tensor()) continue;
      const std::string name =
          node.outs.size() == 1 ? node.name : node.name + "." + std::to_string(k);
      report.values.push_back({name, TensorDesc::of(v.to_tensor())});
    }
    // What is alive now: each storage once, parameters and their views aside.
    std::vector<const StorageImpl*> seen;
    auto has = [](const std::vector<const StorageImpl*>& v, const StorageImpl* s) {
      return std::find(v.begin(), v.end(), s) != v.end();
    };
    std::size_t live = 0;
    for (uint32_t s = 0; s < slots.size(); ++s) {
      const Value& v = slots[s];
      if (is_constant[s] || !v.is_tensor() || !v.to_tensor().defined()) continue;
      const StorageImpl* storage = v.to_tensor().storage().impl();
      if (storage == nullptr || has(seen, storage) ||
          std::binary_search(constant_storages.begin(), constant_storages.end(), storage)) {
        continue;
      }
      seen.push_back(storage);
      // Meta storages of hostile shapes hold up to 2^63 - 1 bytes each: their sum is
      // checked, not wrapped around to a small figure.
      int64_t sum = 0;
      SOPS_CHECK(
          !add_overflows(static_cast<int64_t>(live), static_cast<int64_t>(storage->nbytes()), &sum),
          "the activations alive after node '", node.name, "' take more bytes than int64 counts");
      live = static_cast<std::size_t>(sum);
    }
    if (live > report.peak_bytes) {
      report.peak_bytes = live;
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
  os << "# peak activation memory: " << report.peak_bytes << " bytes";
  if (!report.peak_node.empty()) os << " (after node '" << report.peak_node << "')";
  os << "\n";
  return os.str();
}

}  // namespace sops::lite
