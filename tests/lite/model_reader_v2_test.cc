// lite/model.h on version-2 files (dynamic shapes) written byte by byte here from the
// format contract: every new construct read, and every new rule broken refused with a
// ModelError naming the file, the byte where the rule is broken and the rule.
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "tests/lite/model_bytes.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

using namespace sops::lite::testing;  // NOLINT: the byte builders
using sops::testing::error_message;

#define EXPECT_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

V2Model flatten() { return flatten_model(); }

std::string read_error(const V2Model& m) {
  const std::string bytes = m.bytes();
  return error_message([&] { read_model("dyn.sopsm", bytes.data(), bytes.size()); });
}

std::string at(const V2Model& m, const std::string& key, std::size_t plus = 0) {
  m.bytes();
  return "dyn.sopsm: byte " + std::to_string(m.at.at(key) + plus) + ": ";
}

TEST(ModelReaderV2, ReadsEveryNewConstruct) {
  V2Model m = flatten();
  m.symbols.push_back({"seq", 2, kUnbounded});
  m.inputs.push_back({"mask", 5, 11, {-1, -2, 3}});
  m.values = 6;
  m.nodes[2].args[1] = arg_symints({elem_slot(2), elem_const(1), elem_const(-7)});
  const std::string bytes = m.bytes();
  const auto model = read_model("dyn.sopsm", bytes.data(), bytes.size());
  EXPECT_EQ(model->version, 2u);
  ASSERT_EQ(model->symbols.size(), 2u);
  EXPECT_EQ(model->symbols[0].name, "batch");
  EXPECT_EQ(model->symbols[0].range(), "[1, 8]");
  EXPECT_TRUE(model->symbols[0].bounded());
  EXPECT_FALSE(model->symbols[1].bounded());
  EXPECT_EQ(model->symbols[1].range(), "[2, unbounded)");
  EXPECT_TRUE(model->is_dynamic());
  ASSERT_EQ(model->inputs.size(), 2u);
  EXPECT_EQ(model->inputs[0].desc.sizes, (std::vector<int64_t>{-1, 4}));
  EXPECT_FALSE(model->inputs[0].desc.is_static());
  EXPECT_EQ(model->inputs[0].desc.str(model->symbols), "float32 [batch, 4]");
  EXPECT_EQ(model->inputs[1].desc.str(model->symbols), "bool [batch, seq, 3]");
  EXPECT_EQ(model->inputs[0].desc.str(), "float32 [s0, 4]");
  EXPECT_EQ(model->concrete(model->inputs[1].desc, {3, 17}).sizes,
            (std::vector<int64_t>{3, 17, 3}));

  const Arg& list = model->nodes[2].args[1];
  EXPECT_EQ(list.tag, Arg::Tag::SymIntList);
  EXPECT_EQ(list.slots, (std::vector<uint32_t>{2, kNoSlot, kNoSlot}));
  EXPECT_EQ(list.ints, (std::vector<int64_t>{0, 1, -7}));
  EXPECT_EQ(model->operators[model->nodes[1].op], "sym::mul");
  ASSERT_EQ(model->value_info.size(), 1u);
  EXPECT_EQ(model->value_info[0].slot, 3u);
  EXPECT_EQ(model->value_info[0].shape, "[4*batch]");

  // sym::assert: a bool and a str, no output.
  V2Model a = flatten();
  a.node("ge", "sym::ge", {arg_slot(1), arg_int(2)}, {5});
  a.node("check", "sym::assert", {arg_slot(5), arg_str("batch >= 2")}, {});
  a.values = 6;
  EXPECT_EQ(read_error(a), "(no error)");
}

TEST(ModelReaderV2, SymbolsAreChecked) {
  V2Model m = flatten();
  m.symbols[0].name = "";
  EXPECT_HAS(read_error(m),
             at(m, "symbol 0") + "symbol 0's name \"\" is not non-empty printable ASCII");
  m.symbols[0].name = "bat\nch";
  EXPECT_HAS(read_error(m), "is not non-empty printable ASCII");

  m = flatten();
  m.symbols.push_back({"batch", 1, 8});
  m.inputs[0].sizes = {-1, -2};
  EXPECT_HAS(read_error(m), at(m, "symbol 1") + "symbol 'batch' is named twice");

  m = flatten();
  m.symbols[0].min = -1;
  EXPECT_HAS(read_error(m), at(m, "symbol 0 min") + "symbol 'batch' has a negative lower bound -1");
  m.symbols[0] = {"batch", 9, 8};
  EXPECT_HAS(read_error(m), at(m, "symbol 0 min", 8) +
                                "symbol 'batch' has an upper bound 8 below its lower "
                                "bound 9");
  m.symbols[0] = {"batch", 0, 0};  // a range of one size is a range
  EXPECT_EQ(read_error(m), "(no error)");

  // Every symbol is some input's whole dimension.
  m = flatten();
  m.symbols.push_back({"seq", 2, 64});
  EXPECT_HAS(read_error(m),
             at(m, "symbol 1") + "symbol 'seq' is no input's dimension, so no run can bind it");

  // An input size names a symbol the model has.
  m = flatten();
  m.inputs[0].sizes = {-2, 4};
  EXPECT_HAS(read_error(m),
             at(m, "input 0 size 0") + "an input's size -2 names symbol 1 but the model has 1");
  m.inputs[0].sizes = {std::numeric_limits<int64_t>::min(), 4};
  EXPECT_HAS(read_error(m), "names symbol 9223372036854775807 but the model has 1");

  // At most 1024 symbols.
  m = flatten();
  m.symbols.clear();
  m.inputs[0].sizes.clear();
  for (int k = 0; k < 1025; ++k) m.symbols.push_back({"s" + std::to_string(k), 1, 2});
  EXPECT_HAS(read_error(m), "symbol count 1025 is more than the 1024 a model may have");
}

TEST(ModelReaderV2, SymIntListsAreReadOnlyFromVersion2) {
  V2Model m = flatten();
  m.nodes[2].args[1] = Bytes().u8(15).u32(1).u8(2).i64(0).bytes();
  EXPECT_HAS(read_error(m),
             at(m, "node 2 arg 1", 5) + "a SymInt[] element's kind is 2 (0 a constant, 1 a slot)");
  m.nodes[2].args[1] = arg_symints({elem_slot(4)});
  EXPECT_HAS(read_error(m), "a SymInt[] element reads value slot 4 before it is defined");
  m.nodes[2].args[1] = Bytes().u8(15).u32(1000).bytes();
  EXPECT_HAS(read_error(m), "a SymInt[] argument count 1000 is more than the");

  // Version 1 has no tag 15, no symbols, no value_info: a version-1 file with a
  // negative size is damaged, as it always was.
  V2Model v1 = flatten();
  v1.version = 1;
  v1.inputs[0].sizes = {2, 4};
  EXPECT_HAS(read_error(v1), "unknown argument tag 15");
  v1.inputs[0].sizes = {-1, 4};
  EXPECT_HAS(read_error(v1), "an input has a negative size -1");
}

TEST(ModelReaderV2, SymOperatorsAreKnownAndCalledRight) {
  V2Model m = flatten();
  m.operators[1] = "sym::frobnicate";
  EXPECT_HAS(read_error(m),
             at(m, "operator 1") +
                 "operator \"sym::frobnicate\" is not a scalar operator this runtime knows "
                 "(sym::add, sym::sub");

  m = flatten();
  m.nodes[1].args = {arg_slot(1)};
  EXPECT_HAS(read_error(m), at(m, "node 1 args") +
                                "node 'mul' gives sym::mul 1 operand(s); it "
                                "takes 2");
  m.nodes[1].args = {arg_slot(1), arg_str("4")};
  EXPECT_HAS(read_error(m), at(m, "node 1 arg 1") +
                                "node 'mul': operand 2 of sym::mul has argument tag 5; it takes a "
                                "number (a value slot, or an int, float or bool constant)");
  m.nodes[1].args = {arg_slot(1), arg_float(4)};
  m.operators[1] = "sym::floordiv";
  EXPECT_HAS(read_error(m), "operand 2 of sym::floordiv has argument tag 3; it takes an int");

  m = flatten();
  m.nodes[1].unpack = 1;
  EXPECT_HAS(read_error(m), at(m, "node 1 unpack") + "node 'mul' unpacks the result of sym::mul");

  m = flatten();
  m.node("check", "sym::assert", {arg_bool(true), arg_str("ok")}, {5});
  m.values = 6;
  EXPECT_HAS(read_error(m), at(m, "node 4 outs") +
                                "node 'check' has 1 output(s), but "
                                "sym::assert has 0");
  m.nodes[4].outs = {};
  m.values = 5;
  m.nodes[4].args = {arg_bool(true), arg_int(3)};
  EXPECT_HAS(read_error(m), "operand 2 of sym::assert has argument tag 2; it takes a str constant");

  // In a version-1 file, a sym:: name is an operator like any other: looked up (and
  // missing) when binding.
  V2Model v1;
  v1.version = 1;
  v1.values = 2;
  v1.inputs = {{"x", 0, 6, {2}}};
  v1.node("add", "sym::add", {arg_slot(0), arg_slot(0)}, {1});
  v1.outputs = {{"y", 1}};
  const std::string bytes = v1.bytes();
  const auto model = read_model("v1.sopsm", bytes.data(), bytes.size());
  EXPECT_HAS(error_message([&] { Program p(model); }),
             "needs 1 operator that this runtime does "
             "not have:\n  sym::add\n");
}

TEST(ModelReaderV2, ValueInfoNamesNodeResultsOnce) {
  V2Model m = flatten();
  m.value_info = {{0, "[batch, 4]"}};  // an input
  EXPECT_HAS(read_error(m), at(m, "value_info 0") +
                                "value_info names value slot 0, which no node defines (the "
                                "model has 5 slots)");
  m.value_info = {{99, "[1]"}};
  EXPECT_HAS(read_error(m), "value_info names value slot 99, which no node defines");
  m.value_info = {{3, "[4*batch]"}, {3, "[4*batch]"}};
  EXPECT_HAS(read_error(m), at(m, "value_info 1") + "value_info describes value slot 3 twice");
  m.value_info = {};
  EXPECT_EQ(read_error(m), "(no error)");
}

TEST(ModelReaderV2, EveryTruncationIsRefusedCleanly) {
  const std::string good = flatten().bytes();
  uint64_t data_offset = 0;
  std::memcpy(&data_offset, good.data() + 16, 8);
  // The sections end where the padding starts; cut the file anywhere and fix the header.
  int refused = 0;
  for (std::size_t n = 32; n < data_offset; ++n) {
    std::string cut = good.substr(0, n);
    const std::string bytes = model_file(cut.substr(32), "", 2);
    const std::string e =
        error_message([&] { read_model("cut.sopsm", bytes.data(), bytes.size()); });
    if (e == "(no error)") continue;  // zeros past the cut that read as empty sections
    ++refused;
    EXPECT_EQ(e.rfind("cut.sopsm: byte ", 0), 0u) << e;
  }
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace sops::lite
