// lite/npy.h against files numpy wrote (the example models' inputs and PyTorch's
// outputs, saved by models/make_models.py with numpy.save).
#include "lite/npy.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "runtime/error.h"
#include "tests/runtime/test_util.h"

namespace sops::lite {
namespace {

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string env_path(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) ADD_FAILURE() << name << " is not set (run the test through Bazel)";
  return v == nullptr ? "" : v;
}

std::string model_dir(const char* name) {
  const std::string mlp = env_path("MLP_MODEL");  // models/mlp/model.sopsm
  return mlp.substr(0, mlp.rfind("/mlp/")) + "/" + name + "/";
}

// tests/lite/testdata/npy/<name>.npy, written by numpy.save (make_npy_testdata.py).
std::string numpy_file(const std::string& name) {
  const std::string any = env_path("NPY_TESTDATA");  // .../testdata/npy/bool_1d.npy
  return any.substr(0, any.rfind('/') + 1) + name + ".npy";
}

using sops::testing::error_message;

TEST(NpyTest, ReadsWhatNumpyWrote) {
  const Tensor x = read_npy(model_dir("mlp") + "input0.npy");
  EXPECT_EQ(x.scalar_type(), kFloat);
  EXPECT_EQ(std::vector<int64_t>(x.sizes().begin(), x.sizes().end()),
            (std::vector<int64_t>{4, 32}));
  const Tensor tokens = read_npy(model_dir("transformer") + "input0.npy");
  EXPECT_EQ(tokens.scalar_type(), kLong);
  EXPECT_EQ(tokens.dim(), 2);
  for (int64_t k = 0; k < tokens.numel(); ++k) {
    const int64_t v = tokens.data_ptr<int64_t>()[k];
    EXPECT_TRUE(v >= 0 && v < 100) << v;  // token ids of a 100-word embedding
  }
}

TEST(NpyTest, WritesTheBytesNumpyWrites) {
  for (const std::string file :
       {model_dir("mlp") + "input0.npy", model_dir("mlp") + "expected0.npy",
        model_dir("cnn") + "input0.npy", model_dir("transformer") + "input0.npy",
        model_dir("transformer") + "expected0.npy"}) {
    const std::string bytes = file_bytes(file);
    EXPECT_EQ(format_npy(parse_npy(file, bytes)), bytes) << file;
  }
}

TEST(NpyTest, ReadsAndWritesNumpysBytesForEveryDtypeAndShape) {
  for (const char* name :
       {"float32_0d", "float64_1d", "float16_2d", "int64_2d", "int32_1d", "int8_1d", "uint8_2d",
        "bool_1d", "float32_empty", "float32_aligned_header"}) {
    const std::string bytes = file_bytes(numpy_file(name));
    ASSERT_FALSE(bytes.empty()) << name;
    EXPECT_EQ(format_npy(parse_npy(name, bytes)), bytes) << name;
  }
  const Tensor i = read_npy(numpy_file("int32_1d"));
  EXPECT_EQ(std::vector<int32_t>(i.data_ptr<int32_t>(), i.data_ptr<int32_t>() + 5),
            (std::vector<int32_t>{7, -8, 9, 2147483647, -2147483647 - 1}));
  const Tensor b = read_npy(numpy_file("bool_1d"));
  EXPECT_EQ(std::vector<bool>(b.data_ptr<bool>(), b.data_ptr<bool>() + 3),
            (std::vector<bool>{true, false, true}));
  const Tensor z = read_npy(numpy_file("float32_0d"));
  EXPECT_EQ(z.dim(), 0);
  EXPECT_EQ(*z.data_ptr<float>(), 1.5f);
  const Tensor h = read_npy(numpy_file("float16_2d"));
  EXPECT_EQ(h.scalar_type(), kHalf);
  EXPECT_EQ(static_cast<float>(h.data_ptr<Half>()[3]), 65504.0f);
}

TEST(NpyTest, RoundTripsEveryDtypeAndShape) {
  for (ScalarType t : {kFloat, kDouble, kHalf, kLong, kInt, kChar, kByte, kBool}) {
    for (const std::vector<int64_t>& sizes :
         {std::vector<int64_t>{}, {0}, {3}, {2, 0, 4}, {2, 3, 1}}) {
      Tensor a = empty(sizes, TensorOptions(t));
      auto* p = static_cast<unsigned char*>(a.data_ptr());
      for (std::size_t k = 0; k < a.nbytes(); ++k)
        p[k] = t == kBool ? (k % 3 == 0) : static_cast<unsigned char>(k * 7);
      const Tensor b = parse_npy("t.npy", format_npy(a));
      ASSERT_EQ(b.scalar_type(), t);
      ASSERT_EQ(std::vector<int64_t>(b.sizes().begin(), b.sizes().end()), sizes);
      EXPECT_EQ(std::string(static_cast<const char*>(b.data_ptr()), b.nbytes()),
                std::string(static_cast<const char*>(a.data_ptr()), a.nbytes()));
    }
  }
}

TEST(NpyTest, WritesStridedTensorsInRowMajorOrder) {
  Tensor a = empty({2, 3}, TensorOptions(kInt));
  for (int k = 0; k < 6; ++k) a.data_ptr<int32_t>()[k] = k;  // [[0 1 2] [3 4 5]]
  const Tensor t = a.as_strided({3, 2}, {1, 3});             // its transpose
  const Tensor b = parse_npy("t.npy", format_npy(t));
  const std::vector<int32_t> got(b.data_ptr<int32_t>(), b.data_ptr<int32_t>() + 6);
  EXPECT_EQ(got, (std::vector<int32_t>{0, 3, 1, 4, 2, 5}));
}

TEST(NpyTest, RefusesWhatItCannotRead) {
  const std::string good = file_bytes(model_dir("mlp") + "input0.npy");
  auto with_header = [&](const std::string& from, const std::string& to) {
    std::string b = good;
    const std::size_t at = b.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    b.replace(at, from.size(), to);
    return b;
  };
  EXPECT_NE(error_message([&] { parse_npy("x.npy", "hello"); }).find("x.npy: not a .npy file"),
            std::string::npos);
  EXPECT_NE(
      error_message([&] { parse_npy("x.npy", good.substr(0, good.size() - 1)); }).find("truncated"),
      std::string::npos);
  EXPECT_NE(error_message([&] {
              parse_npy("x.npy", good.substr(0, 40));
            }).find("truncated in its header"),
            std::string::npos);
  EXPECT_NE(error_message([&] {
              parse_npy("x.npy", with_header("False", "True "));
            }).find("Fortran order"),
            std::string::npos);
  EXPECT_NE(
      error_message([&] { parse_npy("x.npy", with_header("<f4", ">f4")); }).find("big-endian"),
      std::string::npos);
  EXPECT_NE(error_message([&] {
              parse_npy("x.npy", with_header("<f4", "<c8"));
            }).find("dtype <c8 is not supported"),
            std::string::npos);
  std::string bad_bool = format_npy(empty({2}, TensorOptions(kBool)));
  bad_bool[bad_bool.size() - 1] = 7;
  EXPECT_NE(error_message([&] { parse_npy("x.npy", bad_bool); }).find("neither 0 nor 1"),
            std::string::npos);
  EXPECT_NE(error_message([&] { read_npy("/nonexistent/x.npy"); }).find("cannot open"),
            std::string::npos);
}

// Shapes whose strides overflow even with no element: the rule of a model's
// tensor_desc (sizes of 0 counted as 1), not only the element count.
TEST(NpyTest, RefusesShapesTooLargeForStrides) {
  const std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 1099511627776, "
      "1099511627776), }";
  std::string npy = "\x93NUMPY\x01";
  npy.push_back('\0');
  npy.push_back(static_cast<char>(header.size()));
  npy.push_back('\0');
  npy += header;
  EXPECT_NE(error_message([&] { parse_npy("x.npy", npy); }).find("x.npy: the .npy array's shape"),
            std::string::npos);
  EXPECT_NE(error_message([&] { parse_npy("x.npy", npy); }).find("is too large"),
            std::string::npos);
}

// An expanded view of 2**62 float elements: 2**64 bytes, which Tensor::nbytes() wraps
// to 0; writing it must be an error, not a write past a buffer of the wrapped size.
TEST(NpyTest, RefusesToWriteMoreThan2To63Bytes) {
  const Tensor one = empty({1}, TensorOptions(kFloat));
  const Tensor huge = one.as_strided({int64_t{1} << 62}, {0});
  EXPECT_NE(
      error_message([&] { format_npy(huge); }).find("write_npy: 4611686018427387904 elements"),
      std::string::npos);
}

}  // namespace
}  // namespace sops::lite
