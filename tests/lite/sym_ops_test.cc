// lite/sym_ops.h against Python: every expected value below is what CPython 3 (and
// torch.sym_* for sym_max / sym_min / sym_float / sym_int / sym_ite) gives for the same
// operands, derived by hand from Python's rules: // and % round toward -inf, % takes the
// divisor's sign, int ** negative int is a float, an int compares with a float exactly,
// True counts as 1. Where Python would grow a bignum, the runtime refuses (int64).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/sym_ops.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

using sops::testing::error_message;

#define EXPECT_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Value eval(const std::string& name, std::vector<Value> operands) {
  const SymOpInfo* info = find_sym_op("sym::" + name);
  EXPECT_NE(info, nullptr) << name;
  EXPECT_EQ(info->arity(), operands.size()) << name;
  return eval_sym_op(*info, operands.data());
}

std::string eval_error(const std::string& name, std::vector<Value> operands) {
  return error_message([&] { eval(name, std::move(operands)); });
}

int64_t as_int(const Value& v) {
  EXPECT_TRUE(v.is_int()) << v;
  return v.is_int() ? v.to_int() : -999;
}
double as_float(const Value& v) {
  EXPECT_TRUE(v.is_double()) << v;
  return v.is_double() ? v.to_double() : -999.0;
}
bool as_bool(const Value& v) {
  EXPECT_TRUE(v.is_bool()) << v;
  return v.is_bool() && v.to_bool();
}

TEST(SymOps, TheTableHasTheContractsNamesAndCounts) {
  EXPECT_EQ(find_sym_op("sym::frobnicate"), nullptr);
  EXPECT_EQ(find_sym_op("aten::add.Tensor"), nullptr);
  EXPECT_EQ(find_sym_op("sym::ite")->arity(), 3u);
  EXPECT_EQ(find_sym_op("sym::neg")->arity(), 1u);
  EXPECT_EQ(find_sym_op("sym::assert")->outputs, 0);
  EXPECT_EQ(find_sym_op("sym::add")->outputs, 1);
  for (const char* name :
       {"add", "sub",   "mul", "floordiv", "mod",   "truediv", "pow", "neg",   "eq",
        "ne",  "lt",    "le",  "gt",       "ge",    "and",     "or",  "not",   "max",
        "min", "float", "int", "ceil",     "floor", "sqrt",    "ite", "assert"}) {
    EXPECT_NE(find_sym_op(std::string("sym::") + name), nullptr) << name;
  }
  EXPECT_TRUE(is_sym_op_name("sym::add"));
  EXPECT_FALSE(is_sym_op_name("aten::sym_size.int"));
}

TEST(SymOps, FloorDivisionAndModuloRoundTowardMinusInfinity) {
  EXPECT_EQ(as_int(eval("floordiv", {-7, 2})), -4);
  EXPECT_EQ(as_int(eval("floordiv", {7, -2})), -4);
  EXPECT_EQ(as_int(eval("floordiv", {-7, -2})), 3);
  EXPECT_EQ(as_int(eval("floordiv", {7, 2})), 3);
  EXPECT_EQ(as_int(eval("floordiv", {-8, 2})), -4);
  EXPECT_EQ(as_int(eval("floordiv", {kMin, 1})), kMin);
  EXPECT_EQ(as_int(eval("mod", {-7, 2})), 1);
  EXPECT_EQ(as_int(eval("mod", {7, -2})), -1);
  EXPECT_EQ(as_int(eval("mod", {-7, -2})), -1);
  EXPECT_EQ(as_int(eval("mod", {7, 2})), 1);
  EXPECT_EQ(as_int(eval("mod", {-8, 2})), 0);
  EXPECT_EQ(as_int(eval("mod", {kMin, -1})), 0);  // undefined in C++, 0 in Python
  EXPECT_EQ(as_int(eval("mod", {kMin, kMax})), kMax - 1);
  EXPECT_EQ(as_int(eval("floordiv", {true, 1})), 1);  // True // 1

  EXPECT_EQ(eval_error("floordiv", {7, 0}), "integer division by zero (7 // 0)");
  EXPECT_EQ(eval_error("mod", {7, 0}), "integer modulo by zero (7 % 0)");
  EXPECT_EQ(eval_error("floordiv", {kMin, -1}),
            "the result of -9223372036854775808 // -1 overflows int64");
  EXPECT_EQ(eval_error("floordiv", {7.0, 2}),
            "operand 1 is a float, but the operator takes an int there");
}

TEST(SymOps, IntArithmeticIsCheckedAndMixedArithmeticIsFloat) {
  EXPECT_EQ(as_int(eval("add", {2, 3})), 5);
  EXPECT_EQ(as_int(eval("sub", {2, 3})), -1);
  EXPECT_EQ(as_int(eval("mul", {-4, 3})), -12);
  EXPECT_EQ(as_int(eval("add", {true, 1})), 2);  // True + 1
  EXPECT_EQ(as_float(eval("add", {1, 2.5})), 3.5);
  EXPECT_EQ(as_float(eval("mul", {2.0, 3})), 6.0);
  EXPECT_EQ(as_int(eval("neg", {5})), -5);
  EXPECT_EQ(as_int(eval("neg", {true})), -1);  // -True
  EXPECT_EQ(as_float(eval("neg", {2.5})), -2.5);

  EXPECT_EQ(eval_error("mul", {int64_t{1} << 62, 4}),
            "the result (4611686018427387904 * 4) overflows int64");
  EXPECT_HAS(eval_error("add", {kMax, 1}), "overflows int64");
  EXPECT_HAS(eval_error("sub", {kMin, 1}), "overflows int64");
  EXPECT_HAS(eval_error("neg", {kMin}), "overflows int64");
  EXPECT_EQ(eval_error("add", {Tensor(), 1}),
            "operand 1 is a Tensor, but the operator takes a number (int, float or bool) there");
}

TEST(SymOps, TrueDivisionAndPowers) {
  EXPECT_EQ(as_float(eval("truediv", {7, 2})), 3.5);
  EXPECT_EQ(as_float(eval("truediv", {-7, 2})), -3.5);
  EXPECT_EQ(as_float(eval("truediv", {6, 3})), 2.0);  // a float even when exact
  EXPECT_EQ(eval_error("truediv", {1, 0}), "division by zero");
  EXPECT_EQ(eval_error("truediv", {1.0, 0.0}), "division by zero");

  EXPECT_EQ(as_int(eval("pow", {2, 10})), 1024);
  EXPECT_EQ(as_int(eval("pow", {0, 0})), 1);
  EXPECT_EQ(as_int(eval("pow", {-2, 63})), kMin);  // fits, exactly
  EXPECT_EQ(as_int(eval("pow", {-1, kMax})), -1);
  EXPECT_EQ(as_float(eval("pow", {2, -1})), 0.5);
  EXPECT_EQ(as_float(eval("pow", {2.0, 3})), 8.0);
  EXPECT_EQ(eval_error("pow", {2, 63}), "the result of 2 ** 63 overflows int64");
  EXPECT_HAS(eval_error("pow", {0, -1}), "zero cannot be raised to a negative power");
  EXPECT_HAS(eval_error("pow", {-8, 0.5}), "is a complex number");
  EXPECT_HAS(eval_error("pow", {10.0, 400}), "out of a float's range");
}

TEST(SymOps, ComparisonsAreExactBetweenIntsAndFloats) {
  const int64_t big = (int64_t{1} << 53) + 1;  // 9007199254740993: no double holds it
  const double near = 9007199254740992.0;
  EXPECT_FALSE(as_bool(eval("eq", {big, near})));  // float(big) == near, but Python says no
  EXPECT_TRUE(as_bool(eval("gt", {big, near})));
  EXPECT_TRUE(as_bool(eval("lt", {near, big})));
  EXPECT_TRUE(as_bool(eval("eq", {1, true})));  // 1 == True
  EXPECT_TRUE(as_bool(eval("lt", {1, 1.5})));
  EXPECT_TRUE(as_bool(eval("le", {2, 2.0})));
  EXPECT_FALSE(as_bool(eval("ge", {-1, -0.5})));
  EXPECT_TRUE(as_bool(eval("lt", {kMax, 9223372036854775808.0})));   // 2^63
  EXPECT_TRUE(as_bool(eval("gt", {kMin, -9223372036854777856.0})));  // below -2^63
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(as_bool(eval("eq", {nan, nan})));
  EXPECT_TRUE(as_bool(eval("ne", {nan, nan})));
  EXPECT_FALSE(as_bool(eval("lt", {1, nan})));
  EXPECT_FALSE(as_bool(eval("ge", {1, nan})));
  EXPECT_TRUE(as_bool(eval("ne", {3, 4})));
}

TEST(SymOps, BooleansAndChoices) {
  EXPECT_FALSE(as_bool(eval("and", {true, false})));
  EXPECT_TRUE(as_bool(eval("or", {true, false})));
  EXPECT_FALSE(as_bool(eval("not", {true})));
  EXPECT_EQ(eval_error("not", {3}), "operand 1 is an int, but the operator takes a bool there");
  EXPECT_EQ(as_int(eval("ite", {true, 1, 2})), 1);
  EXPECT_EQ(as_int(eval("ite", {false, 1, 2})), 2);
  EXPECT_EQ(as_float(eval("ite", {false, 1.5, 2.5})), 2.5);

  // torch.sym_max(3, 2.5) is 3.0: a float as soon as one operand is.
  EXPECT_EQ(as_float(eval("max", {3, 2.5})), 3.0);
  EXPECT_EQ(as_float(eval("min", {3, 2.5})), 2.5);
  EXPECT_EQ(as_int(eval("max", {2, 5})), 5);
  EXPECT_EQ(as_int(eval("min", {-1, 3})), -1);
}

TEST(SymOps, ConversionsAndRoots) {
  EXPECT_EQ(as_float(eval("float", {3})), 3.0);
  EXPECT_EQ(as_float(eval("float", {true})), 1.0);
  EXPECT_EQ(as_int(eval("int", {-2.7})), -2);  // truncation
  EXPECT_EQ(as_int(eval("int", {7})), 7);
  EXPECT_EQ(as_int(eval("ceil", {2.1})), 3);
  EXPECT_EQ(as_int(eval("ceil", {-0.5})), 0);
  EXPECT_EQ(as_int(eval("floor", {-2.1})), -3);
  EXPECT_EQ(as_int(eval("floor", {5})), 5);
  EXPECT_EQ(as_float(eval("sqrt", {16})), 4.0);
  EXPECT_HAS(eval_error("int", {std::numeric_limits<double>::quiet_NaN()}),
             "cannot convert float NaN to an integer");
  EXPECT_HAS(eval_error("floor", {std::numeric_limits<double>::infinity()}),
             "cannot convert float infinity to an integer");
  EXPECT_HAS(eval_error("ceil", {1e300}), "does not fit int64");
  EXPECT_HAS(eval_error("sqrt", {-1}), "math domain error");
}

TEST(SymOps, AssertRaisesItsMessage) {
  EXPECT_TRUE(eval("assert", {true, "never shown"}).is_none());
  EXPECT_EQ(eval_error("assert", {false, "seq must be even"}),
            "assertion failed: seq must be even");
  EXPECT_EQ(eval_error("assert", {1, "x"}),
            "operand 1 is an int, but the operator takes a bool there");
}

}  // namespace
}  // namespace sops::lite
