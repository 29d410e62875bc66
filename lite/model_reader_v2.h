// Version 2's sections and checks (lite/FORMAT.md, dynamic shapes), for the reader
// (lite/model_reader.cc). Each failure is a ModelError naming the byte and the rule.
#pragma once

#include <cstddef>
#include <vector>

#include "lite/model.h"
#include "lite/reader_cursor.h"
#include "lite/sym_ops.h"

namespace sops::lite::reader {

// The checks of a node that calls `sym::` operator `info`: its operand count and kinds
// (a value slot or a constant of the operand's kind), no unpacking, and one output (none
// for sym::assert). `args_at`: where its argument count is, `arg_at` each argument.
void check_sym_node(Cursor& in, const Node& node, const SymOpInfo& info, std::size_t args_at,
                    const std::vector<std::size_t>& arg_at, std::size_t unpack_at,
                    std::size_t outs_at);

// The symbols section: at most kMaxSymbols, each named (non-empty printable ASCII, unique)
// with 0 <= min <= max. `offsets` gets where each symbol starts.
void read_symbols(Cursor& in, Model& model, std::vector<std::size_t>& offsets);

// Every symbol is a whole dimension of some input (or no run could bind it).
void check_symbols_bound(const Cursor& in, const Model& model,
                         const std::vector<std::size_t>& offsets);

// The value_info section: slots that nodes define (`defined_by_node`), each at most once.
void read_value_info(Cursor& in, Model& model, const std::vector<bool>& defined_by_node);

}  // namespace sops::lite::reader
