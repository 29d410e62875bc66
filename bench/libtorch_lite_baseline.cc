// The lite benchmark's libtorch baseline: TorchScript through torch::jit::load, run
// like eager PyTorch (see libtorch_lite_baseline.h). Compiled against libtorch's
// headers only.
#include "bench/libtorch_lite_baseline.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/grad_mode.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/csrc/jit/serialization/import.h>

namespace sops_bench {
namespace {

// The JIT set to interpret the traced graph as it is: no profiling executor, no
// optimization passes (fusion, specialization). Process-wide; set before any load.
void use_plain_executor() {
  torch::jit::getProfilingMode() = false;
  torch::jit::getExecutorMode() = false;
  torch::jit::setGraphExecutorOptimize(false);
}

at::ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "float32") return at::kFloat;
  if (dtype == "float64") return at::kDouble;
  if (dtype == "float16") return at::kHalf;
  if (dtype == "int64") return at::kLong;
  if (dtype == "int32") return at::kInt;
  if (dtype == "int8") return at::kChar;
  if (dtype == "uint8") return at::kByte;
  if (dtype == "bool") return at::kBool;
  throw std::runtime_error("libtorch baseline: no dtype " + dtype);
}

std::string dtype_name(at::ScalarType t) {
  switch (t) {
    case at::kFloat:
      return "float32";
    case at::kDouble:
      return "float64";
    case at::kHalf:
      return "float16";
    case at::kLong:
      return "int64";
    case at::kInt:
      return "int32";
    case at::kChar:
      return "int8";
    case at::kByte:
      return "uint8";
    case at::kBool:
      return "bool";
    default:
      return c10::toString(t);
  }
}

std::vector<c10::IValue> to_ivalues(const std::vector<HostArray>& inputs) {
  std::vector<c10::IValue> out;
  for (const HostArray& a : inputs) {
    // from_blob borrows the bytes; clone() gives the tensor its own (aligned) copy.
    auto* data = const_cast<unsigned char*>(a.bytes.data());
    out.emplace_back(at::from_blob(data, a.sizes, at::TensorOptions(scalar_type(a.dtype))).clone());
  }
  return out;
}

HostArray to_host(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  HostArray a;
  a.dtype = dtype_name(c.scalar_type());
  a.sizes = c.sizes().vec();
  a.bytes.resize(c.nbytes());
  if (c.nbytes()) std::memcpy(a.bytes.data(), c.const_data_ptr(), c.nbytes());
  return a;
}

class Model final : public TorchScriptModel {
 public:
  Model(const std::string& path, const std::vector<HostArray>& inputs)
      : module_(torch::jit::load(path)), inputs_(to_ivalues(inputs)) {
    module_.eval();
    forward_.emplace(module_.get_method("forward"));
  }

  void run() override {
    at::NoGradGuard no_grad;  // torch::NoGradGuard is this type
    result_ = (*forward_)(inputs_);
  }

  std::vector<HostArray> outputs() const override {
    std::vector<HostArray> out;
    if (result_.isTensor()) {
      out.push_back(to_host(result_.toTensor()));
    } else if (result_.isTuple()) {
      for (const c10::IValue& v : result_.toTupleRef().elements()) {
        out.push_back(to_host(v.toTensor()));
      }
    } else if (result_.isTensorList()) {
      for (const at::Tensor& t : result_.toTensorVector()) out.push_back(to_host(t));
    }
    return out;
  }

 private:
  torch::jit::Module module_;
  std::optional<torch::jit::Method> forward_;
  std::vector<c10::IValue> inputs_;
  c10::IValue result_;
};

}  // namespace

std::unique_ptr<TorchScriptModel> load_torchscript(const std::string& path,
                                                   const std::vector<HostArray>& inputs) {
  use_plain_executor();
  try {
    return std::make_unique<Model>(path, inputs);
  } catch (const c10::Error& e) {
    throw std::runtime_error(path + ": " + e.what_without_backtrace());
  }
}

double torchscript_load_ns(const std::string& path) {
  use_plain_executor();
  const auto start = std::chrono::steady_clock::now();
  std::optional<torch::jit::Module> m(torch::jit::load(path));
  const auto stop = std::chrono::steady_clock::now();
  m.reset();
  return std::chrono::duration<double, std::nano>(stop - start).count();
}

int torchscript_load_and_run_once(const std::string& path, const std::vector<HostArray>& inputs,
                                  int threads) {
  try {
    at::set_num_threads(threads);
    std::unique_ptr<TorchScriptModel> m = load_torchscript(path, inputs);
    m->run();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "libtorch child: %s\n", e.what());
    return 1;
  }
}

}  // namespace sops_bench
