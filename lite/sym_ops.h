// The `sym::` scalar operators of a version-2 model (lite/FORMAT.md, "Scalar operators"):
// the SymInt / SymFloat / SymBool arithmetic torch.export records between shape values
// (operator.add, operator.floordiv, torch.sym_max, math.ceil, ...). They are not in any
// operator registry: the reader checks their names and operand counts, the interpreter
// evaluates them here, with Python's semantics (floor division and modulo round toward
// -inf, an int result that does not fit int64 is an error where Python would grow a
// bignum, division by zero is an error as Python's ZeroDivisionError).
//
//   const SymOpInfo* info = find_sym_op("sym::floordiv");   // nullptr if unknown
//   Value q = eval_sym_op(info->op, operands);               // operands: info->arity values
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/value.h"

namespace sops::lite {

enum class SymOp : uint8_t {
  Add,
  Sub,
  Mul,
  FloorDiv,
  Mod,
  TrueDiv,
  Pow,
  Neg,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Not,
  Max,
  Min,
  Float,
  Int,
  Ceil,
  Floor,
  Sqrt,
  Ite,
  Assert,
};

struct SymOpInfo {
  std::string_view name;  // "sym::add"
  SymOp op;
  // One letter per operand: 'n' a number (int, float or bool, a bool counting as 0 or 1
  // as in Python), 'i' an int (or bool), 'b' a bool, 's' a str constant.
  std::string_view operands;
  uint8_t outputs;  // 1, or 0 for sym::assert
  std::size_t arity() const { return operands.size(); }
};

// The prefix that marks an operator the interpreter evaluates itself.
inline constexpr std::string_view kSymPrefix = "sym::";
inline bool is_sym_op_name(std::string_view name) { return name.substr(0, 5) == kSymPrefix; }

// The operator `name` ("sym::add"), or nullptr for a name that is not one of them.
const SymOpInfo* find_sym_op(std::string_view name);
// Every `sym::` operator's name, comma-separated (for messages).
std::string_view sym_op_names();

// "an int", "a float", "a bool", "a Tensor", "a str", "None": a value's kind in messages.
std::string kind_of(const Value& v);

// The result of `op` on `operands` (info.arity() values: int, double or bool; sym::assert's
// message a string). None for sym::assert. Raises sops::Error on an operand of the wrong
// kind, division by zero, an int result outside int64, a float that has no int value, a
// failed assertion ("assertion failed: <message>"); the caller's scope names the node.
Value eval_sym_op(const SymOpInfo& info, const Value* operands);

}  // namespace sops::lite
