#include "lite/shapes.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace sops::lite {

ShapeReport compute_shapes(const Program& program, const std::vector<Tensor>& inputs) {
  const Model& model = program.model();
  ShapeReport report;
  if (model.is_dynamic()) {
    report.symbols = model.symbols;
    report.symbol_values = program.bind_symbols(inputs);
    for (std::size_t k = 0; k < model.inputs.size(); ++k) {
      report.inputs.push_back(
          {model.inputs[k].name, TensorDesc::of(inputs[k]), model.inputs[k].slot});
    }
  } else {
    for (const Input& in : model.inputs) report.inputs.push_back({in.name, in.desc, in.slot});
  }

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
      report.values.push_back({name, TensorDesc::of(v.to_tensor()), node.outs[k]});
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

std::vector<Tensor> inputs_at_bounds(const Model& model) {
  std::vector<int64_t> values;
  for (const Symbol& s : model.symbols) values.push_back(s.bounded() ? s.max : s.min);
  std::vector<Tensor> inputs;
  for (const Input& in : model.inputs) {
    inputs.push_back(
        empty(model.concrete(in.desc, values).sizes, TensorOptions(in.desc.dtype).device(kMeta)));
  }
  return inputs;
}

ShapeReport compute_symbolic_shapes(const Program& program) {
  const Model& model = program.model();
  std::vector<int64_t> values;
  std::string unbounded;
  for (const Symbol& s : model.symbols) {
    values.push_back(s.bounded() ? s.max : s.min);
    if (!s.bounded() && unbounded.empty()) unbounded = s.name;
  }
  // An error at these sizes (a shape check, a size past int64) says where it ran.
  std::string where = "at the symbols' ";
  where += unbounded.empty() ? "upper bounds (" : "upper or, without one, lower bounds (";
  for (std::size_t k = 0; k < values.size(); ++k) {
    where += (k ? ", " : "") + model.symbols[k].name + "=" + std::to_string(values[k]);
  }
  where += "): ";
  const PrefixScope scope(
      [](const void* data, std::string& out) { out += *static_cast<const std::string*>(data); },
      &where);
  const std::vector<Tensor> inputs = inputs_at_bounds(model);
  ShapeReport report = compute_shapes(program, inputs);
  report.symbolic = true;
  report.unbounded = unbounded;
  for (std::size_t k = 0; k < model.inputs.size(); ++k)
    report.inputs[k].desc = model.inputs[k].desc;
  for (ValueShape& v : report.values) {
    for (const ValueInfo& info : model.value_info) {
      if (info.slot == v.slot) v.symbolic = info.shape;
    }
  }
  return report;
}

std::string format_shapes(const ShapeReport& report) {
  std::string binding;  // "batch=8, seq=512": the symbols' values the report ran at
  for (std::size_t k = 0; k < report.symbol_values.size(); ++k) {
    binding +=
        (k ? ", " : "") + report.symbols[k].name + "=" + std::to_string(report.symbol_values[k]);
  }
  std::ostringstream os;
  for (std::size_t k = 0; k < report.symbols.size(); ++k) {
    const Symbol& s = report.symbols[k];
    if (report.symbolic) {
      os << "# symbol " << s.name << " in " << s.range() << "\n";
    } else {
      os << "# symbol " << s.name << " = " << report.symbol_values[k] << " (in " << s.range()
         << ")\n";
    }
  }
  for (const ValueShape& v : report.inputs) {
    os << "# input " << v.name << " " << v.desc.str(report.symbols) << "\n";
  }
  for (const ValueShape& v : report.values) {
    if (!report.symbolic) {
      os << v.name << " " << v.desc.str() << "\n";
    } else if (!v.symbolic.empty()) {
      os << v.name << " " << v.desc.dtype << " " << v.symbolic << "\n";
    } else {  // no value_info for it: its shape at the sizes the report ran at
      os << v.name << " " << v.desc.str() << " (at " << binding << ")\n";
    }
  }
  if (report.symbolic && !report.unbounded.empty()) {
    os << "# peak activation memory: cannot be bounded: symbol '" << report.unbounded
       << "' has no upper bound (export with a max= for it, or give --input files to measure "
          "the peak at their sizes)\n";
    return os.str();
  }
  os << "# peak activation memory";
  if (report.symbolic) os << " at the upper bounds (" << binding << ")";
  os << ": " << report.peak_bytes << (report.peak_bytes == UINT64_MAX ? " or more" : "")
     << " bytes";
  if (!report.peak_node.empty()) os << " (after node '" << report.peak_node << "')";
  os << "\n";
  return os.str();
}

}  // namespace sops::lite
