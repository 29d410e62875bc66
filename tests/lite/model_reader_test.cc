// lite/model.h and lite/interpreter.h on model files built byte by byte here, from
// lite/FORMAT.md (not with either writer), and on the example models.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
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

using testing::Bytes;

// A whole file: header, `sections`, padding to 64, then `data` (model_bytes.h).
std::string file(const std::string& sections, const std::string& data = "", uint32_t version = 1) {
  return testing::model_file(sections, data, version);
}

// y = relu(x) for x: float32 [2], with the pieces a test may change.
struct Relu {
  uint32_t values = 2, op = 0, arg_slot = 0, out_slot = 1, output_slot = 1;
  uint8_t dtype = 6, ndim = 1;
  int64_t size = 2;

  std::string sections() const {
    Bytes b;
    b.u32(1).str("producer").str("model_reader_test");
    b.u32(1).str("aten::relu");
    b.u32(values);
    b.u32(0);                                     // constants
    b.u32(1).str("x").u32(0).u8(dtype).u8(ndim);  // inputs
    for (int k = 0; k < ndim; ++k) b.i64(size);
    b.u32(1).str("relu").u32(op).u32(1).u8(1).u32(arg_slot).u8(0).u32(1).u32(out_slot);  // nodes
    b.u32(1).str("y").u32(output_slot);                                                  // outputs
    return b.bytes();
  }
};

using sops::testing::error_message;

std::string read_error(const std::string& bytes) {
  return error_message([&] { read_model("bad.sopsm", bytes.data(), bytes.size()); });
}

#define EXPECT_ERROR_HAS(text, needle) EXPECT_NE((text).find(needle), std::string::npos) << (text)

class ModelReaderTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { aten::register_aten_kernels(); }
};

TEST_F(ModelReaderTest, ReadsAndRunsAHandWrittenModel) {
  const std::string bytes = file(Relu().sections());
  const auto model = read_model("relu.sopsm", bytes.data(), bytes.size());
  EXPECT_EQ(model->operators, std::vector<std::string>{"aten::relu"});
  EXPECT_EQ(model->metadata_value("producer"), "model_reader_test");
  ASSERT_EQ(model->inputs.size(), 1u);
  EXPECT_EQ(model->inputs[0].desc.str(), "float32 [2]");

  const Program program(model);
  Tensor x = empty({2}, TensorOptions(kFloat));
  x.data_ptr<float>()[0] = -1.5f;
  x.data_ptr<float>()[1] = 2.5f;
  const std::vector<Tensor> y = program.run({x});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].data_ptr<float>()[0], 0.0f);
  EXPECT_EQ(y[0].data_ptr<float>()[1], 2.5f);
}

TEST_F(ModelReaderTest, NamesTheRuleAndTheByteOfEveryDamage) {
  const std::string good = file(Relu().sections());
  EXPECT_ERROR_HAS(read_error("SOPSLITE"), "bad.sopsm: byte 0: the header needs 32 bytes");
  EXPECT_ERROR_HAS(read_error("{}"), "not a lite model");
  EXPECT_ERROR_HAS(read_error("XOPSLITE" + good.substr(8)), "not a lite model");
  EXPECT_ERROR_HAS(read_error(file(Relu().sections(), "", 3)),
                   "format version 3; this runtime reads versions 1 to 2");
  EXPECT_ERROR_HAS(read_error(file(Relu().sections(), "", 0)), "format version 0");
  EXPECT_ERROR_HAS(read_error(good + "extra"), "does not end the file");
  EXPECT_ERROR_HAS(read_error(good.substr(0, good.size() - 1)), "is the file truncated?");

  Relu r;
  r.values = 1;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "names value slot 1 but the model has 1");
  r = Relu();
  r.arg_slot = 1;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "reads value slot 1 before it is defined");
  r = Relu();
  r.out_slot = 0;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "defines value slot 0 a second time");
  r = Relu();
  r.values = 3;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "value slot 2 of 3 is never defined");
  r = Relu();
  r.op = 1;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "node 'relu' calls operator 1 of 1");
  r = Relu();
  r.dtype = 9;  // complex64
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "unknown dtype code 9");
  r = Relu();
  r.ndim = 17;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "has 17 dimensions (at most 16)");
  r = Relu();
  r.size = -3;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "negative size -3");
  r = Relu();
  r.ndim = 4;
  r.size = int64_t{1} << 20;
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "its size overflows");
  r.ndim = 2;
  r.size = int64_t{1} << 62;  // float32 [2^62, 2^62]
  EXPECT_ERROR_HAS(read_error(file(r.sections())), "its size overflows");

  // A huge count is refused before anything is reserved for it.
  std::string huge = good;
  const uint32_t count = 0xFFFFFFF0u;
  std::memcpy(huge.data() + 32, &count, 4);  // the metadata count
  EXPECT_ERROR_HAS(read_error(huge), "metadata count 4294967280 is more than");
}

TEST_F(ModelReaderTest, ChecksConstantsAgainstTheDataBlob) {
  auto with_constant = [](uint64_t offset, uint64_t nbytes) {
    Bytes b;
    b.u32(0).u32(1).str("aten::relu").u32(2);
    b.u32(1).str("w").u32(0).u8(6).u8(1).i64(4).u64(offset).u64(nbytes);
    b.u32(0);  // no inputs
    b.u32(1).str("relu").u32(0).u32(1).u8(1).u32(0).u8(0).u32(1).u32(1);
    b.u32(1).str("y").u32(1);
    return b.bytes();
  };
  const std::string data(128, '\0');
  EXPECT_EQ(read_error(file(with_constant(64, 16), data)), "(no error)");
  EXPECT_ERROR_HAS(read_error(file(with_constant(8, 16), data)),
                   "constant 'w' starts at byte 8 of the data blob, not a multiple of 64");
  EXPECT_ERROR_HAS(read_error(file(with_constant(64, 80), data)),
                   "constant 'w' (80 bytes from byte 64) does not fit in the 128-byte data blob");
  EXPECT_ERROR_HAS(read_error(file(with_constant(64, 12), data)),
                   "constant 'w' is float32 [4], 16 bytes, but the file gives it 12");
}

// FORMAT.md, `constant`: several constants may name the same bytes (a tied weight stored
// once), or overlapping ones. Here "emb" and "head" are one float32 [4] at offset 0 and
// "first2" its first two elements; the outputs are s = emb + head, p = emb * head and
// d = first2 + first2.
TEST_F(ModelReaderTest, ConstantsMayShareTheirBytes) {
  Bytes b;
  b.u32(0).u32(2).str("aten::add.Tensor").str("aten::mul.Tensor").u32(6);
  b.u32(3);
  b.str("emb").u32(0).u8(6).u8(1).i64(4).u64(0).u64(16);
  b.str("head").u32(1).u8(6).u8(1).i64(4).u64(0).u64(16);
  b.str("first2").u32(2).u8(6).u8(1).i64(2).u64(0).u64(8);
  b.u32(0);  // no inputs
  b.u32(3);
  b.str("s").u32(0).u32(2).u8(1).u32(0).u8(1).u32(1).u8(0).u32(1).u32(3);
  b.str("p").u32(1).u32(2).u8(1).u32(0).u8(1).u32(1).u8(0).u32(1).u32(4);
  b.str("d").u32(0).u32(2).u8(1).u32(2).u8(1).u32(2).u8(0).u32(1).u32(5);
  b.u32(3).str("s").u32(3).str("p").u32(4).str("d").u32(5);
  std::string data(64, '\0');
  const float w[4] = {1, 2, 3, 4};
  std::memcpy(data.data(), w, sizeof w);
  const std::string bytes = file(b.bytes(), data);
  const auto model = read_model("tied.sopsm", bytes.data(), bytes.size());
  ASSERT_EQ(model->constants.size(), 3u);
  EXPECT_EQ(model->constants[0].data, model->constants[1].data);
  EXPECT_EQ(model->constants[0].data, model->constants[2].data);

  const Program program(model);
  // Each constant is a tensor over the file's buffer, not a copy: while node "s" runs,
  // "emb" and "head" (read again by "p") are the same bytes, those of the model.
  std::vector<const void*> seen;
  const std::vector<Tensor> out =
      program.run({}, [&](std::size_t node, const std::vector<Value>& slots) {
        if (node != 0) return;
        for (uint32_t slot : {0u, 1u}) seen.push_back(slots[slot].to_tensor().data_ptr());
      });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], static_cast<const void*>(model->constants[0].data));
  EXPECT_EQ(seen[1], static_cast<const void*>(model->constants[0].data));
  ASSERT_EQ(out.size(), 3u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(out[0].data_ptr<float>()[k], 2 * w[k]);
    EXPECT_EQ(out[1].data_ptr<float>()[k], w[k] * w[k]);
  }
  ASSERT_EQ(out[2].numel(), 2);
  EXPECT_EQ(out[2].data_ptr<float>()[0], 2.0f);
  EXPECT_EQ(out[2].data_ptr<float>()[1], 4.0f);
}

TEST_F(ModelReaderTest, ArgumentsAreCheckedAgainstTheSchemaAtLoadTime) {
  // relu given a float where its schema wants a Tensor.
  Bytes b;
  b.u32(0).u32(1).str("aten::relu").u32(2).u32(0);
  b.u32(1).str("x").u32(0).u8(6).u8(1).i64(2);
  b.u32(1).str("relu").u32(0).u32(1).u8(3).raw("\0\0\0\0\0\0\xf0\x3f", 8).u8(0).u32(1).u32(1);
  b.u32(1).str("y").u32(1);
  const std::string bytes = file(b.bytes());
  const auto model = read_model("bad.sopsm", bytes.data(), bytes.size());
  const std::string e = error_message([&] { Program p(model); });
  EXPECT_ERROR_HAS(e, "bad.sopsm: node 'relu' (aten::relu)");
  EXPECT_ERROR_HAS(e, "expected a value of type Tensor");
}

// y = w, w a float32 [4] constant: no node at all.
std::string identity_of_constant(const std::string& data, uint8_t dtype = 6) {
  Bytes b;
  b.u32(0).u32(0).u32(1);
  b.u32(1).str("w").u32(0).u8(dtype).u8(1).i64(4).u64(0).u64(dtype == 6 ? 16 : 4);
  b.u32(0).u32(0);
  b.u32(1).str("y").u32(0);
  return file(b.bytes(), data);
}

TEST_F(ModelReaderTest, BoolConstantsHoldOnlyZerosAndOnes) {
  std::string data(64, '\0');
  data[1] = 1;
  EXPECT_EQ(read_error(identity_of_constant(data, 11)), "(no error)");
  data[2] = 2;
  EXPECT_ERROR_HAS(read_error(identity_of_constant(data, 11)),
                   "constant 'w' is bool but its byte 2 is 2");
}

TEST_F(ModelReaderTest, AnOutputThatIsAParameterIsACopy) {
  std::string data(64, '\0');
  const float w[4] = {1, 2, 3, 4};
  std::memcpy(data.data(), w, sizeof w);
  const std::string bytes = identity_of_constant(data);
  const Program program(read_model("w.sopsm", bytes.data(), bytes.size()));
  Tensor y = program.run({})[0];
  y.data_ptr<float>()[0] = 42;  // the caller owns what it gets
  EXPECT_EQ(program.run({})[0].data_ptr<float>()[0], 1.0f);
}

TEST_F(ModelReaderTest, InPlaceOperatorsAreRefusedWhenBinding) {
  Bytes b;
  b.u32(0).u32(1).str("aten::relu_").u32(2).u32(0);
  b.u32(1).str("x").u32(0).u8(6).u8(1).i64(2);
  b.u32(1).str("relu_").u32(0).u32(1).u8(1).u32(0).u8(0).u32(1).u32(1);
  b.u32(1).str("y").u32(1);
  const std::string bytes = file(b.bytes());
  const auto model = read_model("inplace.sopsm", bytes.data(), bytes.size());
  EXPECT_ERROR_HAS(error_message([&] { Program p(model); }),
                   "node 'relu_' (aten::relu_): the operator writes its argument 'self' in place");
}

TEST_F(ModelReaderTest, ReadsTheExampleModels) {
  const char* path = std::getenv("MLP_MODEL");
  ASSERT_NE(path, nullptr) << "MLP_MODEL is not set (run the test through Bazel)";
  const auto model = read_model_file(path);
  EXPECT_EQ(model->operators.size(), 4u);  // addmm, permute, relu, _log_softmax
  ASSERT_EQ(model->inputs.size(), 1u);
  EXPECT_EQ(model->inputs[0].desc.str(), "float32 [4, 32]");
  EXPECT_EQ(model->constants.size(), 4u);  // two Linear layers' weights and biases
  EXPECT_ERROR_HAS(error_message([] { read_model_file("/nonexistent/m.sopsm"); }),
                   "/nonexistent/m.sopsm: cannot open the model file");
}

// lite/FORMAT.md's table of dtype codes is the one list of them: the reader takes exactly
// its codes, each as the dtype it names (tests/lite/python holds the Python writer to it).
TEST(FormatDoc, TheReaderTakesExactlyTheDtypeCodesOfFormatMd) {
  const char* path = std::getenv("FORMAT_MD");
  ASSERT_NE(path, nullptr) << "FORMAT_MD is not set (run the test through Bazel)";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  // The table's rows: "| 0 | uint8 | | 5 | float16 |", two (code, dtype) pairs a row.
  std::string line;
  bool in_table = false;
  std::vector<std::string> names(256);
  int listed = 0;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_table = line == "## dtype codes";
    if (!in_table || line.rfind("| ", 0) != 0 || line.find("code") != std::string::npos) continue;
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, '|');) {
      const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    for (std::size_t i = 1; i + 1 < cells.size(); i += 3) {
      if (cells[i].empty()) continue;
      const int code = std::stoi(cells[i]);
      ASSERT_TRUE(code >= 0 && code < 256) << line;
      names[code] = cells[i + 1];
      ++listed;
    }
  }
  EXPECT_GE(listed, 9) << "no dtype table found under '## dtype codes' in " << path;
  for (int code = 0; code < 256; ++code) {
    ScalarType dtype = ScalarType::Undefined;
    const bool known = dtype_from_code(static_cast<uint8_t>(code), &dtype);
    EXPECT_EQ(known, !names[code].empty()) << "dtype code " << code;
    if (known) EXPECT_EQ(to_string(dtype), names[code]) << "dtype code " << code;
  }
}

}  // namespace
}  // namespace sops::lite
