// The sections and checks that version 2 of lite/FORMAT.md adds (dynamic shapes):
// symbols, the `sym::` operators' nodes and value_info. lite/model_reader.cc calls them
// for version-2 files only.
#include "lite/model_reader_v2.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace sops::lite::reader {

namespace {

// The tags a `sym::` operand of each kind (SymOpInfo::operands) may have: a value slot,
// or a constant of the kind.
bool sym_operand_accepts(char kind, Arg::Tag tag) {
  switch (kind) {
    case 'n':
      return tag == Arg::Tag::Slot || tag == Arg::Tag::Int || tag == Arg::Tag::Double ||
             tag == Arg::Tag::Bool;
    case 'i':
      return tag == Arg::Tag::Slot || tag == Arg::Tag::Int || tag == Arg::Tag::Bool;
    case 'b':
      return tag == Arg::Tag::Slot || tag == Arg::Tag::Bool;
    default:  // 's'
      return tag == Arg::Tag::String;
  }
}

const char* sym_operand_kind(char kind) {
  switch (kind) {
    case 'n':
      return "a number (a value slot, or an int, float or bool constant)";
    case 'i':
      return "an int (a value slot, or an int or bool constant)";
    case 'b':
      return "a bool (a value slot, or a bool constant)";
    default:
      return "a str constant";
  }
}

// Whether `name` is non-empty printable ASCII (a symbol's name, shown in messages).
bool printable_name(const std::string& name) {
  return !name.empty() &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

}  // namespace

// The checks of a node that calls `sym::` operator `info` (a version-2 file): its operand
// count and kinds, and one output (none for sym::assert). `arg_at`: each argument's offset.
void check_sym_node(Cursor& in, const Node& node, const SymOpInfo& info, std::size_t args_at,
                    const std::vector<std::size_t>& arg_at, std::size_t unpack_at,
                    std::size_t outs_at) {
  if (node.args.size() != info.arity()) {
    in.fail_at(args_at, "node '", node.name, "' gives ", info.name, " ", node.args.size(),
               " operand(s); it takes ", info.arity());
  }
  for (std::size_t k = 0; k < node.args.size(); ++k) {
    if (!sym_operand_accepts(info.operands[k], node.args[k].tag)) {
      in.fail_at(arg_at[k], "node '", node.name, "': operand ", k + 1, " of ", info.name,
                 " has argument tag ", int(node.args[k].tag), "; it takes ",
                 sym_operand_kind(info.operands[k]));
    }
  }
  if (node.unpack)
    in.fail_at(unpack_at, "node '", node.name, "' unpacks the result of ", info.name);
  if (node.outs.size() != info.outputs) {
    in.fail_at(outs_at, "node '", node.name, "' has ", node.outs.size(), " output(s), but ",
               info.name, " has ", int(info.outputs));
  }
}

// The symbols section (version 2); `offsets` gets where each symbol starts.
void read_symbols(Cursor& in, Model& model, std::vector<std::size_t>& offsets) {
  const std::size_t count_at = in.pos();
  const uint32_t n = in.count("symbols", 4 + 8 + 8);
  if (n > kMaxSymbols) {
    in.fail_at(count_at, "symbol count ", n, " is more than the ", kMaxSymbols,
               " a model may have");
  }
  model.symbols.reserve(n);
  offsets.reserve(n);
  for (uint32_t k = 0; k < n; ++k) {
    const std::size_t at = in.pos();
    Symbol sym;
    sym.name = in.str("a symbol's name");
    if (!printable_name(sym.name)) {
      in.fail_at(at, "symbol ", k, "'s name \"", sym.name, "\" is not non-empty printable ASCII");
    }
    for (const Symbol& other : model.symbols) {
      if (other.name == sym.name) in.fail_at(at, "symbol '", sym.name, "' is named twice");
    }
    const std::size_t min_at = in.pos();
    sym.min = in.i64("a symbol's lower bound");
    sym.max = in.i64("a symbol's upper bound");
    if (sym.min < 0) {
      in.fail_at(min_at, "symbol '", sym.name, "' has a negative lower bound ", sym.min);
    }
    if (sym.max < sym.min) {
      in.fail_at(min_at + 8, "symbol '", sym.name, "' has an upper bound ", sym.max,
                 " below its lower bound ", sym.min);
    }
    model.symbols.push_back(std::move(sym));
    offsets.push_back(at);
  }
}

// Every symbol is a whole dimension of some input, or no run could bind it.
void check_symbols_bound(const Cursor& in, const Model& model,
                         const std::vector<std::size_t>& offsets) {
  std::vector<bool> used(model.symbols.size(), false);
  for (const Input& input : model.inputs) {
    for (const int64_t s : input.desc.sizes) {
      if (s < 0) used[static_cast<std::size_t>(TensorDesc::symbol_at(s))] = true;
    }
  }
  for (std::size_t k = 0; k < used.size(); ++k) {
    if (!used[k]) {
      in.fail_at(offsets[k], "symbol '", model.symbols[k].name,
                 "' is no input's dimension, so no run can bind it (every symbol must be a "
                 "whole dimension of some input)");
    }
  }
}

// The value_info section (version 2): slots that nodes define, each at most once.
void read_value_info(Cursor& in, Model& model, const std::vector<bool>& defined_by_node) {
  const uint32_t n = in.count("value_info", 4 + 4);
  model.value_info.reserve(capped(n));
  std::vector<bool> described(model.num_values, false);
  for (uint32_t k = 0; k < n; ++k) {
    const std::size_t at = in.pos();
    ValueInfo info;
    info.slot = in.u32("a value_info slot");
    if (info.slot >= model.num_values || !defined_by_node[info.slot]) {
      in.fail_at(at, "value_info names value slot ", info.slot,
                 ", which no node defines (the model has ", model.num_values, " slots)");
    }
    if (described[info.slot]) {
      in.fail_at(at, "value_info describes value slot ", info.slot, " twice");
    }
    described[info.slot] = true;
    info.shape = in.str("a value_info shape");
    model.value_info.push_back(std::move(info));
  }
}

}  // namespace sops::lite::reader
