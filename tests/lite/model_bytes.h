// Model files written byte by byte from lite/FORMAT.md (not with either writer), for the
// reader's and the interpreter's tests: Bytes for single fields, and V2Model for whole
// version-2 files (dynamic shapes) that records where each part starts, so that a test
// can check the byte offset a ModelError names.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace sops::lite::testing {

// Little-endian bytes, as FORMAT.md lays them out.
class Bytes {
 public:
  Bytes& u8(uint8_t v) { return raw(&v, 1); }
  Bytes& u32(uint32_t v) { return raw(&v, 4); }
  Bytes& u64(uint64_t v) { return raw(&v, 8); }
  Bytes& i64(int64_t v) { return raw(&v, 8); }
  Bytes& f64(double v) { return raw(&v, 8); }
  Bytes& str(const std::string& s) {
    return u32(static_cast<uint32_t>(s.size())).raw(s.data(), s.size());
  }
  Bytes& raw(const void* p, std::size_t n) {
    s_.append(static_cast<const char*>(p), n);
    return *this;
  }
  Bytes& raw(const std::string& s) { return raw(s.data(), s.size()); }
  const std::string& bytes() const { return s_; }
  std::size_t size() const { return s_.size(); }

 private:
  std::string s_;
};

// A whole file: header, `sections`, padding to 64, then `data`.
inline std::string model_file(const std::string& sections, const std::string& data = "",
                              uint32_t version = 1) {
  Bytes b;
  b.raw("SOPSLITE", 8).u32(version).u32(0);
  const uint64_t offset = ((32 + sections.size() + 63) / 64) * 64;
  b.u64(offset).u64(data.size()).raw(sections.data(), sections.size());
  std::string out = b.bytes();
  out.resize(offset, '\0');
  return out + data;
}

// One argument, its tag and payload (FORMAT.md's `arg`).
inline std::string arg_none() { return Bytes().u8(0).bytes(); }
inline std::string arg_slot(uint32_t s) { return Bytes().u8(1).u32(s).bytes(); }
inline std::string arg_int(int64_t v) { return Bytes().u8(2).i64(v).bytes(); }
inline std::string arg_float(double v) { return Bytes().u8(3).f64(v).bytes(); }
inline std::string arg_bool(bool v) { return Bytes().u8(4).u8(v ? 1 : 0).bytes(); }
inline std::string arg_str(const std::string& s) { return Bytes().u8(5).str(s).bytes(); }
inline std::string arg_ints(const std::vector<int64_t>& v) {
  Bytes b;
  b.u8(6).u32(static_cast<uint32_t>(v.size()));
  for (const int64_t x : v) b.i64(x);
  return b.bytes();
}
// A SymInt[] element (tag 15): a constant, or a slot.
struct SymElem {
  bool is_slot = false;
  int64_t value = 0;  // the constant, or the slot
};
inline SymElem elem_const(int64_t v) { return {false, v}; }
inline SymElem elem_slot(uint32_t slot) { return {true, slot}; }
inline std::string arg_symints(const std::vector<SymElem>& v) {
  Bytes b;
  b.u8(15).u32(static_cast<uint32_t>(v.size()));
  for (const SymElem& e : v) {
    if (e.is_slot) {
      b.u8(1).u32(static_cast<uint32_t>(e.value));
    } else {
      b.u8(0).i64(e.value);
    }
  }
  return b.bytes();
}

// A model without constants, written as version 2 (or `version`). Sizes < 0 in an input
// name symbols (-1 - k). bytes() records in `at` where each part starts: "symbol K",
// "symbol K min", "input K", "input K size D", "node K", "node K args", "node K arg A",
// "node K unpack", "node K outs", "value_info K", "operator K".
struct V2Model {
  struct Symbol {
    std::string name;
    int64_t min = 0;
    int64_t max = 0;
  };
  struct Input {
    std::string name;
    uint32_t slot = 0;
    uint8_t dtype = 6;  // float32
    std::vector<int64_t> sizes;
  };
  struct Node {
    std::string name;
    uint32_t op = 0;
    std::vector<std::string> args;  // each from arg_*()
    std::vector<uint32_t> outs;
    uint8_t unpack = 0;
  };

  uint32_t version = 2;
  std::vector<std::string> operators;
  std::vector<Symbol> symbols;
  uint32_t values = 0;
  std::vector<Input> inputs;
  std::vector<Node> nodes;
  std::vector<std::pair<std::string, uint32_t>> outputs;
  std::vector<std::pair<uint32_t, std::string>> value_info;
  mutable std::map<std::string, std::size_t> at;

  // The index of `op` among the operators (added if new).
  uint32_t op(const std::string& name) {
    for (uint32_t k = 0; k < operators.size(); ++k) {
      if (operators[k] == name) return k;
    }
    operators.push_back(name);
    return static_cast<uint32_t>(operators.size() - 1);
  }
  V2Model& node(std::string name, const std::string& op_name, std::vector<std::string> args,
                std::vector<uint32_t> outs) {
    const uint32_t o = op(op_name);
    nodes.push_back({std::move(name), o, std::move(args), std::move(outs)});
    return *this;
  }

  std::string bytes() const {
    Bytes b;
    auto mark = [&](const std::string& key) { at[key] = 32 + b.size(); };
    b.u32(1).str("producer").str("tests/lite/model_bytes.h");
    b.u32(static_cast<uint32_t>(operators.size()));
    for (std::size_t k = 0; k < operators.size(); ++k) {
      mark("operator " + std::to_string(k));
      b.str(operators[k]);
    }
    if (version >= 2) {
      b.u32(static_cast<uint32_t>(symbols.size()));
      for (std::size_t k = 0; k < symbols.size(); ++k) {
        mark("symbol " + std::to_string(k));
        b.str(symbols[k].name);
        mark("symbol " + std::to_string(k) + " min");
        b.i64(symbols[k].min).i64(symbols[k].max);
      }
    }
    b.u32(values);
    b.u32(0);  // constants
    b.u32(static_cast<uint32_t>(inputs.size()));
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const Input& in = inputs[k];
      mark("input " + std::to_string(k));
      b.str(in.name).u32(in.slot).u8(in.dtype).u8(static_cast<uint8_t>(in.sizes.size()));
      for (std::size_t d = 0; d < in.sizes.size(); ++d) {
        mark("input " + std::to_string(k) + " size " + std::to_string(d));
        b.i64(in.sizes[d]);
      }
    }
    b.u32(static_cast<uint32_t>(nodes.size()));
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const Node& n = nodes[k];
      const std::string key = "node " + std::to_string(k);
      mark(key);
      b.str(n.name).u32(n.op);
      mark(key + " args");
      b.u32(static_cast<uint32_t>(n.args.size()));
      for (std::size_t a = 0; a < n.args.size(); ++a) {
        mark(key + " arg " + std::to_string(a));
        b.raw(n.args[a]);
      }
      mark(key + " unpack");
      b.u8(n.unpack);
      mark(key + " outs");
      b.u32(static_cast<uint32_t>(n.outs.size()));
      for (const uint32_t o : n.outs) b.u32(o);
    }
    b.u32(static_cast<uint32_t>(outputs.size()));
    for (const auto& [name, slot] : outputs) b.str(name).u32(slot);
    if (version >= 2) {
      b.u32(static_cast<uint32_t>(value_info.size()));
      for (std::size_t k = 0; k < value_info.size(); ++k) {
        mark("value_info " + std::to_string(k));
        b.u32(value_info[k].first).str(value_info[k].second);
      }
    }
    return model_file(b.bytes(), "", version);
  }
};

// The small dynamic model the tests share: x: float32 [batch, 4], batch in [1, max];
// n = sym_size.int(x, 0); m = sym::mul(n, 4); v = view(x, [m]); y = relu(v); value_info
// describes v.
inline V2Model flatten_model(int64_t max = 8) {
  V2Model m;
  m.symbols = {{"batch", 1, max}};
  m.values = 5;
  m.inputs = {{"x", 0, 6, {-1, 4}}};
  m.node("sym_size_int", "aten::sym_size.int", {arg_slot(0), arg_int(0)}, {1});
  m.node("mul", "sym::mul", {arg_slot(1), arg_int(4)}, {2});
  m.node("view", "aten::view", {arg_slot(0), arg_symints({elem_slot(2)})}, {3});
  m.node("relu", "aten::relu", {arg_slot(3)}, {4});
  m.outputs = {{"y", 4}};
  m.value_info = {{3, "[4*batch]"}};
  return m;
}

}  // namespace sops::lite::testing
