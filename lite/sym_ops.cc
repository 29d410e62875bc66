// The `sym::` operators' table and Python semantics (lite/sym_ops.h).
#include "lite/sym_ops.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "runtime/checked_math.h"
#include "runtime/error.h"

namespace sops::lite {

namespace {

constexpr SymOpInfo kSymOps[] = {
    {"sym::add", SymOp::Add, "nn", 1},    {"sym::sub", SymOp::Sub, "nn", 1},
    {"sym::mul", SymOp::Mul, "nn", 1},    {"sym::floordiv", SymOp::FloorDiv, "ii", 1},
    {"sym::mod", SymOp::Mod, "ii", 1},    {"sym::truediv", SymOp::TrueDiv, "nn", 1},
    {"sym::pow", SymOp::Pow, "nn", 1},    {"sym::neg", SymOp::Neg, "n", 1},
    {"sym::eq", SymOp::Eq, "nn", 1},      {"sym::ne", SymOp::Ne, "nn", 1},
    {"sym::lt", SymOp::Lt, "nn", 1},      {"sym::le", SymOp::Le, "nn", 1},
    {"sym::gt", SymOp::Gt, "nn", 1},      {"sym::ge", SymOp::Ge, "nn", 1},
    {"sym::and", SymOp::And, "bb", 1},    {"sym::or", SymOp::Or, "bb", 1},
    {"sym::not", SymOp::Not, "b", 1},     {"sym::max", SymOp::Max, "nn", 1},
    {"sym::min", SymOp::Min, "nn", 1},    {"sym::float", SymOp::Float, "n", 1},
    {"sym::int", SymOp::Int, "n", 1},     {"sym::ceil", SymOp::Ceil, "n", 1},
    {"sym::floor", SymOp::Floor, "n", 1}, {"sym::sqrt", SymOp::Sqrt, "n", 1},
    {"sym::ite", SymOp::Ite, "bnn", 1},   {"sym::assert", SymOp::Assert, "bs", 0},
};

constexpr double kTwo63 = 9223372036854775808.0;  // 2^63, exact in a double

// A number operand: an int (a bool as 0 or 1, as Python counts it) or a float.
struct Num {
  bool is_int = true;
  int64_t i = 0;
  double d = 0;

  double real() const { return is_int ? static_cast<double>(i) : d; }
};

[[noreturn]] void wrong_operand(std::size_t k, const Value& v, const char* wanted) {
  raise(Error(detail::str("operand ", k + 1, " is ", kind_of(v), ", but the operator takes ",
                          wanted, " there")));
}

Num number(const Value* operands, std::size_t k) {
  const Value& v = operands[k];
  if (v.is_int()) return {true, v.to_int(), 0};
  if (v.is_bool()) return {true, v.to_bool() ? 1 : 0, 0};
  if (v.is_double()) return {false, 0, v.to_double()};
  wrong_operand(k, v, "a number (int, float or bool)");
}

int64_t integer(const Value* operands, std::size_t k) {
  const Num n = number(operands, k);
  if (!n.is_int) wrong_operand(k, operands[k], "an int");
  return n.i;
}

bool boolean(const Value* operands, std::size_t k) {
  if (!operands[k].is_bool()) wrong_operand(k, operands[k], "a bool");
  return operands[k].to_bool();
}

// a <=> b for an int and a float that is not NaN, exactly (Python compares an int with a
// float by value, not by converting the int to a float).
int compare_int_double(int64_t a, double b) {
  if (b >= kTwo63) return -1;
  if (b < -kTwo63) return 1;
  const double t = std::trunc(b);  // in [-2^63, 2^63): fits int64
  const auto ti = static_cast<int64_t>(t);
  if (a != ti) return a < ti ? -1 : 1;
  const double fraction = b - t;
  return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0);
}

// a <=> b: -1, 0 or 1; 2 when unordered (a NaN).
int compare(const Num& a, const Num& b) {
  if (a.is_int && b.is_int) return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  if (a.is_int) return std::isnan(b.d) ? 2 : compare_int_double(a.i, b.d);
  if (b.is_int) return std::isnan(a.d) ? 2 : -compare_int_double(b.i, a.d);
  if (std::isnan(a.d) || std::isnan(b.d)) return 2;
  return a.d < b.d ? -1 : (a.d > b.d ? 1 : 0);
}

// The int a float stands for after `round` (trunc, ceil or floor), as Python's int(),
// math.ceil and math.floor give it.
int64_t to_int(double d, double (*round)(double), const char* what) {
  if (std::isnan(d))
    raise(Error(detail::str("cannot convert float NaN to an integer (", what, ")")));
  if (std::isinf(d)) {
    raise(Error(detail::str("cannot convert float infinity to an integer (", what, ")")));
  }
  const double r = round(d);
  if (r >= kTwo63 || r < -kTwo63) {
    raise(Error(detail::str("the result of ", what, "(", d, ") does not fit int64")));
  }
  return static_cast<int64_t>(r);
}

// Python's int ** int for a non-negative exponent, by squaring; an overflow is an error.
// The square is taken only while a higher bit of the exponent is left, whose power the
// result then holds: when the square overflows, so does the result.
int64_t int_pow(int64_t base, int64_t exp) {
  int64_t result = 1;
  int64_t b = base;
  bool overflow = false;
  for (int64_t e = exp; e > 0 && !overflow; e >>= 1) {
    if ((e & 1) != 0) overflow = mul_overflows(result, b, &result);
    if (e > 1 && !overflow) overflow = mul_overflows(b, b, &b);
  }
  if (overflow) raise(Error(detail::str("the result of ", base, " ** ", exp, " overflows int64")));
  return result;
}

Value power(const Num& a, const Num& b) {
  if (a.is_int && b.is_int && b.i >= 0) return Value(int_pow(a.i, b.i));
  const double x = a.real(), y = b.real();
  if (x == 0 && y < 0) {
    raise(Error("zero cannot be raised to a negative power (ZeroDivisionError in Python)"));
  }
  if (x < 0 && std::isfinite(y) && std::trunc(y) != y) {
    raise(Error(detail::str(x, " ** ", y, " is a complex number, not a float")));
  }
  const double r = std::pow(x, y);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) {
    raise(Error(detail::str("the result of ", x, " ** ", y, " is out of a float's range")));
  }
  return Value(r);
}

Value arithmetic(SymOp op, const Num& a, const Num& b) {
  if (a.is_int && b.is_int) {
    switch (op) {
      case SymOp::Add:
        return Value(checked_add(a.i, b.i, "the result"));
      case SymOp::Sub:
        return Value(checked_sub(a.i, b.i, "the result"));
      default:
        return Value(checked_mul(a.i, b.i, "the result"));
    }
  }
  const double x = a.real(), y = b.real();
  return Value(op == SymOp::Add ? x + y : (op == SymOp::Sub ? x - y : x * y));
}

int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) raise(Error(detail::str("integer division by zero (", a, " // 0)")));
  if (a == INT64_MIN && b == -1) {
    raise(Error(detail::str("the result of ", a, " // ", b, " overflows int64")));
  }
  const int64_t q = a / b;  // rounds toward zero; Python rounds toward -inf
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t python_mod(int64_t a, int64_t b) {
  if (b == 0) raise(Error(detail::str("integer modulo by zero (", a, " % 0)")));
  if (b == -1) return 0;    // (INT64_MIN % -1 is undefined in C++)
  const int64_t r = a % b;  // the sign of a; Python's takes the sign of b
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

}  // namespace

std::string kind_of(const Value& v) {
  if (v.is_none()) return "None";
  const std::string_view name = v.type_name();
  const bool vowel =
      !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(name);
}

const SymOpInfo* find_sym_op(std::string_view name) {
  for (const SymOpInfo& info : kSymOps) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string_view sym_op_names() {
  static const std::string names = [] {
    std::string s;
    for (const SymOpInfo& info : kSymOps) s += (s.empty() ? "" : ", ") + std::string(info.name);
    return s;
  }();
  return names;
}

Value eval_sym_op(const SymOpInfo& info, const Value* operands) {
  switch (info.op) {
    case SymOp::Add:
    case SymOp::Sub:
    case SymOp::Mul:
      return arithmetic(info.op, number(operands, 0), number(operands, 1));
    case SymOp::FloorDiv:
      return Value(floor_div(integer(operands, 0), integer(operands, 1)));
    case SymOp::Mod:
      return Value(python_mod(integer(operands, 0), integer(operands, 1)));
    case SymOp::TrueDiv: {
      const Num a = number(operands, 0), b = number(operands, 1);
      if (b.real() == 0) raise(Error("division by zero"));
      return Value(a.real() / b.real());
    }
    case SymOp::Pow:
      return power(number(operands, 0), number(operands, 1));
    case SymOp::Neg: {
      const Num a = number(operands, 0);
      return a.is_int ? Value(checked_sub(0, a.i, "the result")) : Value(-a.d);
    }
    case SymOp::Eq:
    case SymOp::Ne:
    case SymOp::Lt:
    case SymOp::Le:
    case SymOp::Gt:
    case SymOp::Ge: {
      const int c = compare(number(operands, 0), number(operands, 1));
      switch (info.op) {
        case SymOp::Eq:
          return Value(c == 0);
        case SymOp::Ne:
          return Value(c != 0);
        case SymOp::Lt:
          return Value(c == -1);
        case SymOp::Le:
          return Value(c == -1 || c == 0);
        case SymOp::Gt:
          return Value(c == 1);
        default:
          return Value(c == 1 || c == 0);
      }
    }
    case SymOp::And:
      return Value(boolean(operands, 0) && boolean(operands, 1));
    case SymOp::Or:
      return Value(boolean(operands, 0) || boolean(operands, 1));
    case SymOp::Not:
      return Value(!boolean(operands, 0));
    case SymOp::Max:
    case SymOp::Min: {
      // Python's max(a, b) keeps a unless b is greater (min: less); the result is an
      // int when both are, else a float, as torch.sym_max / sym_min give it.
      const Num a = number(operands, 0), b = number(operands, 1);
      const int c = compare(b, a);
      const Num& pick = c == (info.op == SymOp::Max ? 1 : -1) ? b : a;
      if (a.is_int && b.is_int) return Value(pick.i);
      return Value(pick.real());
    }
    case SymOp::Float:
      return Value(number(operands, 0).real());
    case SymOp::Int:
    case SymOp::Ceil:
    case SymOp::Floor: {
      const Num a = number(operands, 0);
      if (a.is_int) return Value(a.i);
      if (info.op == SymOp::Int)
        return Value(to_int(a.d, [](double x) { return std::trunc(x); }, "int"));
      if (info.op == SymOp::Ceil)
        return Value(to_int(a.d, [](double x) { return std::ceil(x); }, "ceil"));
      return Value(to_int(a.d, [](double x) { return std::floor(x); }, "floor"));
    }
    case SymOp::Sqrt: {
      const double x = number(operands, 0).real();
      if (x < 0) raise(Error(detail::str("math domain error: the square root of ", x)));
      return Value(std::sqrt(x));
    }
    case SymOp::Ite: {
      const bool cond = boolean(operands, 0);
      number(operands, 1);  // both checked, as the exported graph promises numbers
      number(operands, 2);
      return cond ? operands[1] : operands[2];
    }
    case SymOp::Assert: {
      const bool cond = boolean(operands, 0);
      if (!operands[1].get_if<std::string>()) wrong_operand(1, operands[1], "a str");
      if (!cond) raise(Error("assertion failed: " + operands[1].to_string()));
      return Value();
    }
  }
  return Value();
}

}  // namespace sops::lite
