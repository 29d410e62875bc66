// The ONNX Runtime side of //bench:lite_bench, through its C++ API (onnxruntime_cxx_api.h):
// one Ort::Session per model with every graph optimization on, `threads` intra-op
// threads, one inter-op thread and sequential execution: what an application embedding
// ONNX Runtime on a CPU gets by default, pinned to the thread count we run at.
#include <onnxruntime_cxx_api.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/peer_runtime.h"

namespace sops_bench {
namespace {

ONNXTensorElementDataType element_type(const std::string& dtype) {
  if (dtype == "float32") return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
  if (dtype == "float64") return ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE;
  if (dtype == "int64") return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
  if (dtype == "int32") return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
  if (dtype == "bool") return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
  if (dtype == "uint8") return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
  if (dtype == "int8") return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
  throw std::runtime_error("ONNX Runtime: no input of dtype " + dtype);
}

std::string dtype_of(ONNXTensorElementDataType t) {
  switch (t) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
      return "float32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE:
      return "float64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64:
      return "int64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32:
      return "int32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL:
      return "bool";
    default:
      throw std::runtime_error("ONNX Runtime: an output of element type " +
                               std::to_string(static_cast<int>(t)) + " cannot be compared");
  }
}

// One process-wide environment (ONNX Runtime allows one), warnings and errors only.
Ort::Env& env() {
  static Ort::Env e(ORT_LOGGING_LEVEL_WARNING, "lite_bench");
  return e;
}

class OrtModel : public LoadedModel {
 public:
  OrtModel(const std::string& path, const std::vector<HostArray>& inputs, int threads)
      : inputs_(inputs) {
    Ort::SessionOptions options;
    options.SetIntraOpNumThreads(threads);
    options.SetInterOpNumThreads(1);
    options.SetExecutionMode(ExecutionMode::ORT_SEQUENTIAL);
    options.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_ENABLE_ALL);
    session_ = std::make_unique<Ort::Session>(env(), path.c_str(), options);
    const std::size_t n_in = session_->GetInputCount();
    if (n_in != inputs_.size()) {
      throw std::runtime_error(path + " takes " + std::to_string(n_in) + " inputs, given " +
                               std::to_string(inputs_.size()));
    }
    Ort::AllocatorWithDefaultOptions allocator;
    for (std::size_t i = 0; i < n_in; ++i) {
      input_names_.push_back(session_->GetInputNameAllocated(i, allocator).get());
    }
    for (std::size_t i = 0; i < session_->GetOutputCount(); ++i) {
      output_names_.push_back(session_->GetOutputNameAllocated(i, allocator).get());
    }
    const Ort::MemoryInfo cpu = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);
    // The tensors view our copies of the inputs: nothing is copied per run.
    for (HostArray& a : inputs_) {
      values_.push_back(Ort::Value::CreateTensor(cpu, a.bytes.data(), a.bytes.size(),
                                                 a.sizes.data(), a.sizes.size(),
                                                 element_type(a.dtype)));
    }
    for (const std::string& s : input_names_) input_ptrs_.push_back(s.c_str());
    for (const std::string& s : output_names_) output_ptrs_.push_back(s.c_str());
  }

  void run() override {
    outputs_ = session_->Run(Ort::RunOptions{nullptr}, input_ptrs_.data(), values_.data(),
                             values_.size(), output_ptrs_.data(), output_ptrs_.size());
  }

  std::vector<HostArray> outputs() const override {
    std::vector<HostArray> out;
    for (const Ort::Value& v : outputs_) {
      const Ort::TensorTypeAndShapeInfo info = v.GetTensorTypeAndShapeInfo();
      HostArray a{dtype_of(info.GetElementType()), info.GetShape(), {}};
      a.bytes.resize(static_cast<std::size_t>(a.numel()) * host_itemsize(a.dtype));
      if (!a.bytes.empty()) std::memcpy(a.bytes.data(), v.GetTensorRawData(), a.bytes.size());
      out.push_back(std::move(a));
    }
    return out;
  }

 private:
  std::vector<HostArray> inputs_;
  std::unique_ptr<Ort::Session> session_;
  std::vector<std::string> input_names_, output_names_;
  std::vector<const char*> input_ptrs_, output_ptrs_;
  std::vector<Ort::Value> values_, outputs_;
};

}  // namespace

PeerAbout onnxruntime_about() { return {Ort::GetVersionString(), ""}; }

std::unique_ptr<LoadedModel> load_onnxruntime(const std::string& onnx,
                                              const std::vector<HostArray>& inputs, int threads) {
  try {
    return std::make_unique<OrtModel>(onnx, inputs, threads);
  } catch (const Ort::Exception& e) {
    throw std::runtime_error("ONNX Runtime: " + std::string(e.what()));
  }
}

}  // namespace sops_bench
