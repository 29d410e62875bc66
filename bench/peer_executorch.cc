// The ExecuTorch side of //bench:lite_bench, on the C++ runtime of the PyPI wheel
// (executorch/include, executorch/lib): what ExecuTorch's own executor_runner does.
// FileDataLoader reads the .pte; Program::load verifies it; load_method("forward") gets
// the planned buffers its memory plan asks for (MethodMeta), a malloc-backed method
// allocator and a temp allocator; the inputs are TensorImpls over our copies of the
// arrays, given to set_input before each execute (it copies them into the planned
// buffers).
//
// Kernels: the wheel ships one kernel library, libexecutorch_kernels_optimized.so:
// ExecuTorch's optimized kernels where it has one, its portable kernels for every other
// operator. A .pte lowered to XNNPACK runs its delegated subgraphs in
// libexecutorch_backend_xnnpack.so; both size their threads from the threadpool
// (libexecutorch_threadpool.so), set here to `threads`.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/peer_runtime.h"

// The wheel ships libexecutorch_threadpool.so without its header (threadpool.h); these
// are the two of its functions used here, as that header declares them.
namespace executorch::extension::threadpool {
class ThreadPool {
 public:
  bool _unsafe_reset_threadpool(uint32_t num_threads);
  size_t get_thread_count() const;
};
ThreadPool* get_threadpool();
}  // namespace executorch::extension::threadpool

namespace sops_bench {
namespace {

namespace et = executorch::runtime;
using executorch::aten::ScalarType;
using executorch::aten::TensorImpl;

ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "float32") return ScalarType::Float;
  if (dtype == "float64") return ScalarType::Double;
  if (dtype == "int64") return ScalarType::Long;
  if (dtype == "int32") return ScalarType::Int;
  if (dtype == "bool") return ScalarType::Bool;
  if (dtype == "uint8") return ScalarType::Byte;
  if (dtype == "int8") return ScalarType::Char;
  throw std::runtime_error("ExecuTorch: no input of dtype " + dtype);
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
      throw std::runtime_error("ExecuTorch: an output of scalar type " +
                               std::to_string(static_cast<int>(t)) + " cannot be compared");
  }
}

void check(et::Error e, const std::string& what) {
  if (e != et::Error::Ok) {
    throw std::runtime_error("ExecuTorch: " + what + " failed with error 0x" + [&] {
      char buf[16];
      std::snprintf(buf, sizeof buf, "%x", static_cast<unsigned>(e));
      return std::string(buf);
    }());
  }
}

template <class T>
T take(et::Result<T>&& r, const std::string& what) {
  check(r.error(), what);
  return std::move(r.get());
}

class EtModel : public LoadedModel {
 public:
  EtModel(const std::string& path, const std::vector<HostArray>& inputs) : inputs_(inputs) {
    loader_.emplace(take(executorch::extension::FileDataLoader::from(path.c_str()),
                         "FileDataLoader::from(" + path + ")"));
    program_.emplace(take(et::Program::load(&*loader_), "Program::load(" + path + ")"));
    const et::MethodMeta meta = take(program_->method_meta("forward"), "method_meta(forward)");
    for (std::size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
      const int64_t size = take(meta.memory_planned_buffer_size(i), "memory_planned_buffer_size");
      buffers_.emplace_back(static_cast<std::size_t>(size));
      spans_.emplace_back(buffers_.back().data(), buffers_.back().size());
    }
    planned_ = std::make_unique<et::HierarchicalAllocator>(
        et::Span<et::Span<uint8_t>>(spans_.data(), spans_.size()));
    memory_ =
        std::make_unique<et::MemoryManager>(&method_allocator_, planned_.get(), &temp_allocator_);
    method_.emplace(take(program_->load_method("forward", memory_.get()), "load_method(forward)"));
    if (method_->inputs_size() != inputs_.size()) {
      throw std::runtime_error(path + " takes " + std::to_string(method_->inputs_size()) +
                               " inputs, given " + std::to_string(inputs_.size()));
    }
    // The TensorImpls view our copies (sizes and data); ExecuTorch's sizes are int32.
    impls_.reserve(inputs_.size());
    for (HostArray& a : inputs_) {
      sizes_.emplace_back(a.sizes.begin(), a.sizes.end());
      impls_.emplace_back(scalar_type(a.dtype), static_cast<ssize_t>(a.sizes.size()),
                          sizes_.back().data(), a.bytes.data());
    }
  }

  // The inputs are set before every execute, as ExecuTorch's Module::forward does: the
  // memory plan may place later values over a planned input once it was last read, so
  // a second execute without them would read those values instead.
  void run() override {
    for (std::size_t i = 0; i < impls_.size(); ++i) {
      check(method_->set_input(et::EValue(executorch::aten::Tensor(&impls_[i])), i),
            "set_input(" + std::to_string(i) + ")");
    }
    check(method_->execute(), "execute");
  }

  std::vector<HostArray> outputs() const override {
    std::vector<HostArray> out;
    for (std::size_t i = 0; i < method_->outputs_size(); ++i) {
      const et::EValue& v = method_->get_output(i);
      if (!v.isTensor()) continue;
      const executorch::aten::Tensor t = v.toTensor();
      HostArray a{dtype_of(t.scalar_type()), {}, {}};
      for (ssize_t d = 0; d < t.dim(); ++d) a.sizes.push_back(t.size(d));
      a.bytes.resize(t.nbytes());
      if (!a.bytes.empty()) std::memcpy(a.bytes.data(), t.const_data_ptr(), t.nbytes());
      out.push_back(std::move(a));
    }
    return out;
  }

 private:
  std::vector<HostArray> inputs_;
  std::optional<executorch::extension::FileDataLoader> loader_;
  std::optional<et::Program> program_;
  std::vector<std::vector<uint8_t>> buffers_;
  std::vector<et::Span<uint8_t>> spans_;
  std::unique_ptr<et::HierarchicalAllocator> planned_;
  executorch::extension::MallocMemoryAllocator method_allocator_, temp_allocator_;
  std::unique_ptr<et::MemoryManager> memory_;
  std::optional<et::Method> method_;
  std::vector<std::vector<int32_t>> sizes_;
  std::vector<TensorImpl> impls_;
};

}  // namespace

PeerAbout executorch_about() { return {SOPS_BENCH_EXECUTORCH_VERSION, ""}; }

std::unique_ptr<LoadedModel> load_executorch(const std::string& pte,
                                             const std::vector<HostArray>& inputs, int threads) {
  et::runtime_init();
  auto* pool = executorch::extension::threadpool::get_threadpool();
  if (pool == nullptr || (pool->get_thread_count() != static_cast<size_t>(threads) &&
                          !pool->_unsafe_reset_threadpool(static_cast<uint32_t>(threads)))) {
    throw std::runtime_error("ExecuTorch: cannot set its threadpool to " + std::to_string(threads) +
                             " threads");
  }
  return std::make_unique<EtModel>(pte, inputs);
}

}  // namespace sops_bench
