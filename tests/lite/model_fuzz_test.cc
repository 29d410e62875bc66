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

// Inputs of the model's declared shapes: zeros (valid embedding indices too).
std::vector<Tensor> zero_inputs(const Model& m, bool* small) {
  std::vector<Tensor> inputs;
  *small = true;
  for (const Input& in : m.inputs) {
    if (in.desc.nbytes() > (16u << 20)) {
      *small = false;
      return {};
    }
    Tensor t = empty(in.desc.sizes, TensorOptions(in.desc.dtype));
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

TEST_F(ModelFuzzTest, DamagedModelsAreRefusedOrRunNeverCrash) {
  std::mt19937_64 rng(20261123);
  Outcome outcome;
  int files = 0;
  for (const char* env : {"MLP_MODEL", "CNN_MODEL", "TRANSFORMER_MODEL"}) {
    const std::string good = read_file(env);
    ASSERT_GT(good.size(), 64u);
    const std::size_t end = sections_end(good);
    ASSERT_LT(end, good.size());
    auto pick = [&](std::size_t limit) { return static_cast<std::size_t>(rng() % limit); };

    // Truncations: every length within the sections, some in the data blob.
    for (std::size_t n = 0; n < end; n += (end > 400 ? end / 400 : 1)) {
      try_model(good.substr(0, n), outcome);
      ++files;
    }
    for (int k = 0; k < 20; ++k) {
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
    for (int k = 0; k < 60; ++k) {
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
  }
  EXPECT_GE(files, 2000);
  // Most damage is caught by the reader; some files still run (a changed float, a name).
  EXPECT_GT(outcome.rejected_reading, files / 2);
  std::printf(
      "%d damaged models: %d refused by the reader, %d when binding, %d when running, %d ran\n",
      files, outcome.rejected_reading, outcome.rejected_binding, outcome.rejected_running,
      outcome.ran);
}

}  // namespace
}  // namespace sops::lite
