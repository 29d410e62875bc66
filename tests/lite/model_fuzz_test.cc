// Damaged model files thrown at the loader: truncations, flipped bytes, huge counts and
// sizes. Every one must be read, bound and run to the end or be refused with a
// sops::Error; anything else (another exception, a crash, a sanitizer report) fails.
// Deterministic (a fixed seed). Run it under ASan/UBSan with
//   tools/bazel test --config=asan //tests/lite:model_fuzz_test
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/shapes.h"
#include "tests/lite/model_bytes.h"

namespace sops::lite {
namespace {

std::string read_file(const char* env) {
  const char* path = std::getenv(env);
  if (path == nullptr) {
    ADD_FAILURE() << env << " is not set (run the test through Bazel)";
    return "";
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Outcome {
  int rejected_reading = 0, rejected_binding = 0, rejected_running = 0, ran = 0;
};

// Inputs of the model's declared shapes, each symbol at its lower bound: zeros (valid
// embedding indices too).
std::vector<Tensor> zero_inputs(const Model& m, bool* small) {
  std::vector<Tensor> inputs;
  *small = true;
  std::vector<int64_t> symbols;
  for (const Symbol& s : m.symbols) symbols.push_back(s.min);
  for (const Input& in : m.inputs) {
    const TensorDesc desc = m.concrete(in.desc, symbols);
    int64_t bytes = static_cast<int64_t>(element_size(desc.dtype));
    for (const int64_t size : desc.sizes) {
      if (__builtin_mul_overflow(bytes, size, &bytes)) bytes = INT64_MAX;
    }
    if (bytes > (16 << 20)) {
      *small = false;
      return {};
    }
    Tensor t = empty(desc.sizes, TensorOptions(desc.dtype));
    if (t.nbytes() != 0) std::memset(t.data_ptr(), 0, t.nbytes());
    inputs.push_back(t);
  }
  return inputs;
}

void try_model(const std::string& bytes, Outcome& outcome) {
  std::shared_ptr<const Model> model;
  try {
    model = read_model("fuzzed.sopsm", bytes.data(), bytes.size());
  } catch (const Error&) {
    ++outcome.rejected_reading;
    return;
  }
  std::unique_ptr<Program> program;
  try {
    program = std::make_unique<Program>(model);
  } catch (const Error&) {
    ++outcome.rejected_binding;
    return;
  }
  try {
    bool small = false;
    const std::vector<Tensor> inputs = zero_inputs(*model, &small);
    if (!small) throw Error("inputs too large to fuzz");
    // Shapes first (no memory); run for real only what needs little of it.
    const ShapeReport shapes = compute_shapes(*program, inputs);
    if (shapes.peak_bytes > (64u << 20)) throw Error("too large to run");
    program->run(inputs);
    ++outcome.ran;
  } catch (const Error&) {
    ++outcome.rejected_running;
  }
}

class ModelFuzzTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

// Where the sections end (the data blob begins): damage there matters most.
std::size_t sections_end(const std::string& bytes) {
  uint64_t data_offset = 0;
  std::memcpy(&data_offset, bytes.data() + 16, 8);
  return static_cast<std::size_t>(data_offset);
}

// Damages `good` every way below and tries each result; returns how many files it tried.
int fuzz(const std::string& good, std::mt19937_64& rng, Outcome& outcome) {
  int files = 0;
  const std::size_t end = sections_end(good);
  auto pick = [&](std::size_t limit) { return static_cast<std::size_t>(rng() % limit); };
  const bool has_data = end < good.size();

  // Truncations: every length within the sections, some in the data blob.
  for (std::size_t n = 0; n < end; n += (end > 400 ? end / 400 : 1)) {
    try_model(good.substr(0, n), outcome);
    ++files;
  }
  for (int k = 0; k < 20 && has_data; ++k) {
    try_model(good.substr(0, end + pick(good.size() - end)), outcome);
    ++files;
  }
  // One to four flipped bytes in the header and sections.
  for (int k = 0; k < 250; ++k) {
    std::string bad = good;
    for (int f = 0, n = 1 + static_cast<int>(pick(4)); f < n; ++f) {
      bad[pick(end)] ^= static_cast<char>(1u << pick(8));
    }
    try_model(bad, outcome);
    ++files;
  }
  // Flipped bytes in the data blob: NaN, inf and huge weights go through the kernels.
  for (int k = 0; k < 60 && has_data; ++k) {
    std::string bad = good;
    for (int f = 0; f < 8; ++f) bad[end + pick(good.size() - end)] ^= static_cast<char>(0xFF);
    try_model(bad, outcome);
    ++files;
  }
  // Huge counts and sizes: a 4- or 8-byte field overwritten with an extreme value.
  const uint64_t extremes[] = {
      0xFFFFFFFFull,         0x7FFFFFFFull,         0x80000000ull, 0x10000ull,
      0xFFFFFFFFFFFFFFFFull, 0x7FFFFFFFFFFFFFFFull, 1ull << 40,    0};
  for (int k = 0; k < 220; ++k) {
    std::string bad = good;
    const uint64_t v = extremes[pick(std::size(extremes))];
    const std::size_t width = pick(2) ? 4 : 8;
    const std::size_t at = pick(end - width);
    std::memcpy(bad.data() + at, &v, width);
    try_model(bad, outcome);
    ++files;
  }
  return files;
}

// A version-2 model (dynamic shapes) with every new construct: symbols, symbolic input
// sizes, SymInt queries, sym:: arithmetic and an assertion, SymInt[] and scalar
// arguments from slots, value_info.
std::string dynamic_seed() {
  using namespace testing;  // NOLINT: the byte builders
  V2Model m;
  m.symbols = {{"batch", 1, 8}, {"seq", 2, 16}};
  m.values = 12;
  m.inputs = {{"x", 0, 6, {-1, -2}}, {"mask", 1, 11, {-1, -2, 2}}};
  m.node("sym_size_int", "aten::sym_size.int", {arg_slot(0), arg_int(0)}, {2});
  m.node("sym_size_int_1", "aten::sym_size.int", {arg_slot(0), arg_int(1)}, {3});
  m.node("mul", "sym::mul", {arg_slot(2), arg_slot(3)}, {4});
  m.node("ge", "sym::ge", {arg_slot(3), arg_int(2)}, {5});
  m.node("check", "sym::assert", {arg_slot(5), arg_str("seq is at least 2")}, {});
  m.node("view", "aten::view", {arg_slot(0), arg_symints({elem_slot(4)})}, {6});
  m.node("relu", "aten::relu", {arg_slot(6)}, {7});
  m.node("floordiv", "sym::floordiv", {arg_slot(4), arg_int(2)}, {8});
  m.node("full", "aten::full", {arg_symints({elem_slot(2), elem_const(3)}), arg_slot(8)}, {9});
  m.node("sub", "sym::sub", {arg_slot(3), arg_int(1)}, {10});
  m.node("select", "aten::select.int", {arg_slot(0), arg_int(1), arg_slot(10)}, {11});
  m.outputs = {{"y", 7}, {"z", 9}, {"last", 11}};
  m.value_info = {{6, "[batch*seq]"}, {7, "[batch*seq]"}, {9, "[batch, 3]"}};
  return m.bytes();
}

TEST_F(ModelFuzzTest, DamagedModelsAreRefusedOrRunNeverCrash) {
  std::mt19937_64 rng(20261123);
  Outcome outcome;
  int files = 0;
  for (const char* env : {"MLP_MODEL", "CNN_MODEL", "TRANSFORMER_MODEL"}) {
    const std::string good = read_file(env);
    ASSERT_GT(good.size(), 64u);
    ASSERT_LT(sections_end(good), good.size());
    files += fuzz(good, rng, outcome);
  }
  EXPECT_GE(files, 2000);
  // Most damage is caught by the reader; some files still run (a changed float, a name).
  EXPECT_GT(outcome.rejected_reading, files / 2);
  std::printf(
      "%d damaged models: %d refused by the reader, %d when binding, %d when running, %d ran\n",
      files, outcome.rejected_reading, outcome.rejected_binding, outcome.rejected_running,
      outcome.ran);
}

TEST_F(ModelFuzzTest, DamagedDynamicModelsAreRefusedOrRunNeverCrash) {
  const std::string good = dynamic_seed();
  Outcome seed;
  try_model(good, seed);
  ASSERT_EQ(seed.ran, 1) << "the seed itself must run";
  std::mt19937_64 rng(20261128);
  Outcome outcome;
  int files = 0;
  for (int round = 0; round < 3; ++round) files += fuzz(good, rng, outcome);
  EXPECT_GE(files, 1000);
  EXPECT_GT(outcome.rejected_reading, files / 2);
  EXPECT_GT(outcome.ran, 0);
  std::printf(
      "%d damaged dynamic models: %d refused by the reader, %d when binding, %d when running, "
      "%d ran\n",
      files, outcome.rejected_reading, outcome.rejected_binding, outcome.rejected_running,
      outcome.ran);
}

}  // namespace
}  // namespace sops::lite
