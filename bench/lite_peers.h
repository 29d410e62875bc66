// Section 5 of //bench:lite_bench: our lite runtime side by side with ExecuTorch
// (portable kernels, and the XNNPACK delegate) and ONNX Runtime, where each was built in
// (third_party/peers/extension.bzl), on the example models (models/) and on the models
// bench/peers/export_peer_models.py writes into a folder of the user's (--peer-models).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sops_bench {

struct PeerBenchOptions {
  std::vector<std::string> models;  // names: models/NAME, else PEER_MODELS/NAME
  std::string peer_models;          // the export script's folder; "" when not given
  int threads = 1;
  int64_t rounds = 9;    // interleaved rounds of >= 50 ms per runtime (3 for one over 1 s a call)
  int64_t children = 3;  // fresh processes per runtime and model for load time and memory
  // The per-runtime child binaries (peer_child.cc), by column: ours, executorch, onnxruntime.
  std::string child_ours, child_executorch, child_onnxruntime;
};

// Runs the section; returns the number of models whose peers' outputs differed from ours
// (or ours from eager PyTorch's expected0.npy) by more than the tolerance.
int bench_peers(const PeerBenchOptions& options);

}  // namespace sops_bench
