// Our side of //bench:lite_bench's side-by-side section: lite::Program over a .sopsm,
// behind the interface the peers share (peer_runtime.h).
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "aten/UnboxingFunctions.h"
#include "bench/peer_runtime.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "runtime/operator_registry.h"
#include "runtime/parallel.h"

namespace sops_bench {
namespace {

using sops::ScalarType;
using sops::Tensor;

ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "float32") return ScalarType::Float;
  if (dtype == "float64") return ScalarType::Double;
  if (dtype == "int64") return ScalarType::Long;
  if (dtype == "int32") return ScalarType::Int;
  if (dtype == "bool") return ScalarType::Bool;
  if (dtype == "uint8") return ScalarType::Byte;
  if (dtype == "int8") return ScalarType::Char;
  throw std::runtime_error("ours: no input of dtype " + dtype);
}

std::string dtype_of(ScalarType t) {
  switch (t) {
    case ScalarType::Float:
      return "float32";
    case ScalarType::Double:
      return "float64";
    case ScalarType::Long:
      return "int64";
    case ScalarType::Int:
      return "int32";
    case ScalarType::Bool:
      return "bool";
    default:
      throw std::runtime_error("ours: an output of this dtype cannot be compared");
  }
}

// `t` (any strides) as a C-order HostArray.
HostArray to_host(const Tensor& t) {
  HostArray a{dtype_of(t.scalar_type()), t.sizes().vec(), {}};
  const std::size_t item = host_itemsize(a.dtype);
  a.bytes.resize(static_cast<std::size_t>(t.numel()) * item);
  const auto* base = static_cast<const unsigned char*>(t.const_data_ptr());
  const int64_t dims = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(dims), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < dims; ++d) offset += index[d] * t.stride(d);
    std::memcpy(a.bytes.data() + n * item, base + offset * static_cast<int64_t>(item), item);
    for (int64_t d = dims - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
  return a;
}

class OursModel : public LoadedModel {
 public:
  OursModel(const std::string& path, const std::vector<HostArray>& inputs)
      : program_(sops::lite::read_model_file(path)) {
    for (const HostArray& a : inputs) {
      Tensor t = sops::empty(a.sizes, sops::TensorOptions(scalar_type(a.dtype)));
      if (!a.bytes.empty()) std::memcpy(t.data_ptr(), a.bytes.data(), a.bytes.size());
      inputs_.push_back(std::move(t));
    }
  }
  void run() override { outputs_ = program_.run(inputs_); }
  std::vector<HostArray> outputs() const override {
    std::vector<HostArray> out;
    for (const Tensor& t : outputs_) out.push_back(to_host(t));
    return out;
  }

 private:
  sops::lite::Program program_;
  std::vector<Tensor> inputs_, outputs_;
};

}  // namespace

std::unique_ptr<LoadedModel> load_ours(const std::string& sopsm,
                                       const std::vector<HostArray>& inputs, int threads) {
  // lite_bench registers the kernels itself; a child process has not.
  static std::once_flag registered;
  std::call_once(registered, [] {
    if (sops::OperatorRegistry::global().find("aten::add.Tensor") == nullptr) {
      sops::aten::register_aten_kernels();
    }
  });
  sops::set_num_threads(threads);
  return std::make_unique<OursModel>(sopsm, inputs);
}

}  // namespace sops_bench
