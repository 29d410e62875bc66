// `lite_runtime` (lite/cli.h) on a dynamic model written byte by byte here: run at two
// sizes with --input of any size in range, an out-of-range input's message, shapes with
// and without --input, ops and trace without the sym:: arithmetic.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/cli.h"
#include "lite/npy.h"
#include "tests/lite/model_bytes.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

using namespace sops::lite::testing;  // NOLINT: the byte builders

#define EXPECT_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

// What run_cli registers: the aten kernels (aten::sym_size.int among them), once per process.
void register_kernels(OperatorRegistry& registry) {
  if (registry.find("aten::relu") == nullptr) aten::register_aten_kernels(registry);
}

struct Result {
  int status = 0;
  std::string out, err;
};

Result cli(std::vector<std::string> args) {
  args.insert(args.begin(), "lite_runtime");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  Result r;
  r.status = run_cli(static_cast<int>(argv.size()), argv.data(), &register_kernels);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

// x: float32 [batch, 4], batch in [1, 8]; y = relu(view(x, [sym_size(x, 0) * 4])).
std::string flatten_model_file() {
  const V2Model m = flatten_model();
  const std::string path = temp_path("flat.sopsm");
  std::ofstream(path, std::ios::binary) << m.bytes();
  return path;
}

// A float32 [rows, 4] input holding k - 5 at flat index k, as a .npy file.
std::string input(int64_t rows) {
  std::vector<float> v(static_cast<std::size_t>(rows * 4));
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k) - 5;
  const std::string path = temp_path("x" + std::to_string(rows) + ".npy");
  write_npy(path, sops::testing::make<float>(v, {rows, 4}));
  return path;
}

TEST(DynamicCli, RunTakesAnySizeInRange) {
  const std::string model = flatten_model_file();
  for (const int64_t rows : {1, 5, 8}) {
    const std::string dir = temp_path("out" + std::to_string(rows));
    const Result r = cli({"run", model, "--input", input(rows), "--output-dir", dir});
    ASSERT_EQ(r.status, 0) << r.err;
    const Tensor y = read_npy(dir + "/out0.npy");
    ASSERT_EQ(y.sizes().vec(), (std::vector<int64_t>{rows * 4}));
    const std::vector<float> got = sops::testing::values<float>(y);
    for (std::size_t k = 0; k < got.size(); ++k) {
      ASSERT_EQ(got[k], std::max(0.0f, static_cast<float>(k) - 5));
    }
  }
  const Result over = cli({"run", model, "--input", input(9), "--output-dir", temp_path("o9")});
  EXPECT_EQ(over.status, 1);
  EXPECT_EQ(over.err, "lite_runtime: error: " + model +
                          ": input 'x' dimension 0 is 9: symbol 'batch' must be in [1, 8]; "
                          "re-export with a larger max= to serve it\n");
  const Result none = cli({"run", model, "--output-dir", temp_path("o")});
  EXPECT_EQ(none.status, 1);
  EXPECT_HAS(none.err, "takes 1 input (x: float32 [batch, 4]): give one --input FILE.npy");
}

TEST(DynamicCli, ShapesAreSymbolicWithoutInputsAndConcreteWithThem) {
  const std::string model = flatten_model_file();
  const Result symbolic = cli({"shapes", model});
  ASSERT_EQ(symbolic.status, 0) << symbolic.err;
  EXPECT_EQ(symbolic.out,
            "# symbol batch in [1, 8]\n"
            "# input x float32 [batch, 4]\n"
            "view float32 [4*batch]\n"
            "relu float32 [32] (at batch=8)\n"
            "# peak activation memory at the upper bounds (batch=8): 256 bytes (after node "
            "'relu')\n"
            // view is the input's memory and relu the output: nothing left to plan.
            "# memory plan at the upper bounds (batch=8): arena 0 bytes for 0 intermediates "
            "(sum 0 bytes without reuse; measured peak 256 bytes)\n"
            "# not planned: relu (a model output: allocated when returned)\n");
  const Result concrete = cli({"shapes", model, "--input", input(2)});
  ASSERT_EQ(concrete.status, 0) << concrete.err;
  EXPECT_EQ(concrete.out,
            "# symbol batch = 2 (in [1, 8])\n"
            "# input x float32 [2, 4]\n"
            "view float32 [8]\n"
            "relu float32 [8]\n"
            "# peak activation memory: 64 bytes (after node 'relu')\n"
            "# memory plan: arena 0 bytes for 0 intermediates (sum 0 bytes without reuse; "
            "measured peak 64 bytes)\n"
            "# not planned: relu (a model output: allocated when returned)\n");
}

TEST(DynamicCli, OpsAndTraceLeaveTheScalarArithmeticOut) {
  const std::string model = flatten_model_file();
  const Result ops = cli({"ops", model});
  ASSERT_EQ(ops.status, 0) << ops.err;
  EXPECT_EQ(ops.out, "aten::relu\naten::sym_size.int\naten::view\n");
  const std::string yaml = temp_path("selected.yaml");
  const Result trace = cli({"trace", model, "--input", input(3), "-o", yaml});
  ASSERT_EQ(trace.status, 0) << trace.err;
  std::ifstream in(yaml);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_HAS(text.str(), "aten::view");
  EXPECT_EQ(text.str().find("sym::"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace sops::lite
