// The libtorch side of the lite runtime benchmark (//bench:lite_bench): a TorchScript
// file (torch.jit.trace of the model) loaded with torch::jit::load and run like eager
// PyTorch. libtorch's headers are compiled in libtorch_lite_baseline.cc only.
//
// "Like eager": the JIT's profiling executor and its graph optimizations are off
// (getProfilingMode() = false, getExecutorMode() = false,
// setGraphExecutorOptimize(false)), so forward() interprets the traced graph's ATen
// operators one by one, with no fusion and no specialization; module.eval(), and each
// forward under torch::NoGradGuard.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/host_array.h"

namespace sops_bench {

// A loaded TorchScript module with its inputs, ready to run.
class TorchScriptModel {
 public:
  virtual ~TorchScriptModel() = default;
  // One forward on the inputs; the outputs are kept until the next run.
  virtual void run() = 0;
  // The last run's outputs (the module's result, or each tensor of its tuple/list).
  virtual std::vector<HostArray> outputs() const = 0;
};

// Loads `path` (torch::jit::load) for `inputs`; nullptr without libtorch. Throws
// std::runtime_error with libtorch's message when it fails.
std::unique_ptr<TorchScriptModel> load_torchscript(const std::string& path,
                                                   const std::vector<HostArray>& inputs);

// ns of one torch::jit::load of `path` (the module freed after the clock stops);
// -1 without libtorch.
double torchscript_load_ns(const std::string& path);

// What a fresh process does to run a model once: set `threads`, torch::jit::load
// `path`, one forward. Returns the process's exit status (0: ran; 1: failed, said on
// stderr; 3: no libtorch).
int torchscript_load_and_run_once(const std::string& path, const std::vector<HostArray>& inputs,
                                  int threads);

}  // namespace sops_bench
