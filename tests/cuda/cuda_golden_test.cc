// Every golden case of //ops:aten again with its tensors on the GPU: the case's
// tensors are copied to CUDA (copy_ across devices), the operator is called through the
// boxed registry as //tests/ops:golden_runner_test calls it, and its results, copied
// back, are compared with PyTorch's (tests/golden/data: eager PyTorch, the same oracle
// as the CPU kernels'). Values within a float tolerance: a GPU sums and rounds in
// another order than PyTorch's CPU; integers and booleans exactly.
//
// Cases an operator without CUDA kernels cannot run ("no kernel for dispatch key CUDA"),
// or whose dtype its CUDA kernel refuses ("not implemented for 'Long'": PyTorch's CUDA
// kernels cover fewer dtypes than its CPU ones too), are counted, not failed; error cases
// stay with the CPU tests (some checks, like integer division by zero, PyTorch's CUDA
// kernels do not make either). So are conversions of inf or NaN to an integer: undefined
// in C++, and x86 and the GPU give different integers (PyTorch's CPU and CUDA do too).
// Skipped without a GPU.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "aten/Functions.h"
#include "aten/UnboxingFunctions.h"
#include "backends/cuda/runtime/cuda_backend.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

using golden::GoldenCase;
using golden::GoldenExpect;

const OperatorRegistry& registry() {
  static OperatorRegistry* r = [] {
    auto* registry = new OperatorRegistry();
    aten::register_aten_kernels(*registry);
    return registry;
  }();
  return *r;
}

const Device kGpu(DeviceType::CUDA);

Tensor to_device(const Tensor& t, Device device) {
  return aten::_to_copy(t, std::nullopt, std::nullopt, device);
}

// A cpu case's value with its tensors moved to the GPU.
Value to_gpu(const Value& v) {
  if (v.is_tensor()) return Value(to_device(v.to_tensor(), kGpu));
  if (v.tag() == Value::Tag::TensorList) {
    std::vector<Tensor> ts;
    for (const Tensor& t : v.to_tensor_list()) ts.push_back(to_device(t, kGpu));
    return Value(std::move(ts));
  }
  if (v.tag() == Value::Tag::OptionalTensorList) {
    std::vector<std::optional<Tensor>> ts;
    for (const std::optional<Tensor>& t : v.to_optional_tensor_list()) {
      ts.push_back(t.has_value() && t->defined() ? std::optional<Tensor>(to_device(*t, kGpu)) : t);
    }
    return Value(std::move(ts));
  }
  return v;
}

// PyTorch's values within a tolerance (exactly for integral and bool results). A float64
// result is held to float64's tolerance only when every input tensor is float64: from
// narrower inputs the operator computes in their dtype (log.out of a uint8 into a float64
// computes in float32, where the GPU's logf may differ from glibc's in the last bit).
::testing::AssertionResult close_to(const Tensor& gpu_result, const GoldenExpect& e,
                                    bool inputs_double) {
  if (!gpu_result.is_cuda()) {
    return ::testing::AssertionFailure()
           << "the result is on " << gpu_result.device() << ", not cuda";
  }
  const Tensor host = to_device(gpu_result, Device(DeviceType::CPU));
  if (host.scalar_type() != dtype_of(e.dtype)) {
    return ::testing::AssertionFailure()
           << "dtype " << host.scalar_type() << ", expected " << e.dtype;
  }
  if (host.sizes() != IntArrayRef(e.sizes)) {
    return ::testing::AssertionFailure()
           << "sizes " << host.sizes() << ", expected " << ::testing::PrintToString(e.sizes);
  }
  if (!e.values_checked) return ::testing::AssertionSuccess();
  const Tensor flat = aten::_to_copy(host, ScalarType::Double, std::nullopt, std::nullopt,
                                     std::nullopt, false, MemoryFormat::Contiguous);
  const double* got = flat.data_ptr<double>();
  const bool exact = !is_floating_point(host.scalar_type());
  const double rtol = host.scalar_type() == ScalarType::Double && inputs_double ? 1e-10
                      : is_reduced_floating_point(host.scalar_type())           ? 1e-2
                                                                                : 1e-4;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    const double want = e.values[static_cast<std::size_t>(i)];
    const double have = got[i];
    if (std::isnan(want) && std::isnan(have)) continue;
    const bool ok = exact
                        ? have == want
                        : (have == want || std::abs(have - want) <= rtol * (1.0 + std::abs(want)));
    if (!ok) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << have << ", PyTorch's is " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

// A conversion of a non-finite float to an integral dtype (_to_copy, copy_).
bool converts_non_finite_to_integer(const GoldenCase& c) {
  if (c.op.rfind("_to_copy", 0) != 0 && c.op.rfind("copy", 0) != 0) return false;
  const ScalarType result = dtype_of(c.expect.dtype);
  if (is_floating_point(result) || result == ScalarType::Bool) return false;
  for (const golden::GoldenArg& a : c.args) {
    if (a.kind != golden::ArgKind::kTensor) continue;
    for (double v : a.tensor.storage) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

// Runs c on the GPU; false when its operator (or one it calls) has no CUDA kernel, or no
// CUDA kernel for its dtype.
bool run_on_gpu(const RegisteredOperator& op, const GoldenCase& c) {
  const FunctionSchema& schema = op.schema();
  Stack stack = stack_of(c, schema, Device(DeviceType::CPU));
  for (std::size_t i = 0; i < stack.size(); ++i) {
    // A Device argument (None or cpu in the case) asks for the GPU: factories make their
    // tensor there.
    const TypeSchema& type = schema.arguments[i].type;
    stack[i] = type.kind == TypeSchema::Kind::Device && !type.list ? Value(kGpu) : to_gpu(stack[i]);
  }
  bool inputs_double = true;
  for (const Value& v : stack) {
    if (v.is_tensor() && v.to_tensor().scalar_type() != ScalarType::Double) inputs_double = false;
    if (v.tag() == Value::Tag::TensorList) {
      for (const Tensor& t : v.to_tensor_list()) {
        if (t.scalar_type() != ScalarType::Double) inputs_double = false;
      }
    }
  }
  const int64_t written = written_argument(schema);
  const Tensor target =
      written >= 0 ? stack.at(static_cast<std::size_t>(written)).to_tensor() : Tensor();
  try {
    op.call(stack);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.find("no kernel for dispatch key CUDA") != std::string::npos ||
        what.find("not implemented for '") != std::string::npos) {
      return false;
    }
    ADD_FAILURE() << "raised: " << e.what();
    return true;
  }
  if (target.defined()) {
    EXPECT_TRUE(close_to(target, c.expect.result(0), inputs_double));
    return true;
  }
  EXPECT_EQ(stack.size(), c.expect.result_count());
  for (std::size_t i = 0; i < stack.size() && i < c.expect.result_count(); ++i) {
    // A Tensor[] result: its views stay with the CPU test. So does an int or bool one
    // (sym_stride.int, sym_is_contiguous ...): it describes the input's layout, which the
    // copy to the GPU does not keep (an offset or a stride of 0 becomes a dense tensor).
    if (!stack[i].is_tensor()) continue;
    EXPECT_TRUE(close_to(stack[i].to_tensor(), c.expect.result(i), inputs_double))
        << "return " << i;
  }
  return true;
}

class CudaGoldenTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!cuda::register_cuda_backend()) GTEST_SKIP() << "no CUDA device in this process";
  }
};

TEST_P(CudaGoldenTest, EveryCaseOnTheGpuMatchesPyTorch) {
  std::map<std::string, int> without_cuda;
  int ran = 0;
  for (const GoldenCase& c : golden::load_golden(golden::golden_data_path(GetParam()))) {
    if (c.is_error() || expects_unrepresentable(c) || converts_non_finite_to_integer(c)) {
      continue;
    }
    SCOPED_TRACE(c.where());
    const RegisteredOperator* op = registry().find("aten::" + c.op);
    ASSERT_NE(op, nullptr) << c.op;
    if (run_on_gpu(*op, c)) {
      ++ran;
    } else {
      ++without_cuda[c.op];
    }
  }
  std::string skipped;
  for (const auto& [op, n] : without_cuda) skipped += " " + op + " (" + std::to_string(n) + ")";
  std::printf("%s: %d cases on the GPU; without CUDA kernels:%s\n", GetParam().c_str(), ran,
              skipped.empty() ? " none" : skipped.c_str());
}

INSTANTIATE_TEST_SUITE_P(AllGoldenFiles, CudaGoldenTest,
                         ::testing::ValuesIn(golden::golden_file_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(0, info.param.find('.'));
                         });

}  // namespace
}  // namespace sops::optest
