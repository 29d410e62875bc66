// The runtimes //bench:lite_bench times side by side (section 5): ours (lite::Program),
// ExecuTorch (a .pte of portable kernels, or one delegated to XNNPACK) and ONNX Runtime
// (its C++ API), each behind the same small interface so that the benchmark and the
// per-runtime child processes (peer_child.cc) treat them alike.
//
// Each peer lives in a file of its own (peer_executorch.cc, peer_onnxruntime.cc), compiled
// only when Bazel found a local install (third_party/peers/extension.bzl); otherwise its
// *_missing.cc says how to get one and the benchmark skips that column.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/host_array.h"

namespace sops_bench {

// A model loaded by one runtime with its inputs bound, ready to run.
class LoadedModel {
 public:
  virtual ~LoadedModel() = default;
  // One inference; the outputs are kept until the next run.
  virtual void run() = 0;
  // The last run's outputs, in the model's order.
  virtual std::vector<HostArray> outputs() const = 0;
};

// A runtime's version when it was built in, else "" (then how_to_get() says how).
struct PeerAbout {
  std::string version;     // "" when this binary was built without it
  std::string how_to_get;  // one line: the install and the --repo_env that finds it
};

// Ours: lite::Program over a .sopsm, at `threads` intra-op threads (sops::set_num_threads).
std::unique_ptr<LoadedModel> load_ours(const std::string& sopsm,
                                       const std::vector<HostArray>& inputs, int threads);

// ExecuTorch: Program::load + load_method("forward") over a .pte, inputs bound with
// set_input; `threads` sizes the threadpool XNNPACK and the optimized kernels use.
PeerAbout executorch_about();
std::unique_ptr<LoadedModel> load_executorch(const std::string& pte,
                                             const std::vector<HostArray>& inputs, int threads);

// ONNX Runtime: an Ort::Session over a .onnx (all graph optimizations, `threads` intra-op
// threads, one inter-op thread, sequential execution).
PeerAbout onnxruntime_about();
std::unique_ptr<LoadedModel> load_onnxruntime(const std::string& onnx,
                                              const std::vector<HostArray>& inputs, int threads);

}  // namespace sops_bench
