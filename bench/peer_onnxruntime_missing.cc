// The ONNX Runtime side of //bench:lite_bench when Bazel found no ONNX Runtime
// (@onnxruntime//:defs.bzl): the benchmark prints how to get one and skips its column.
#include <stdexcept>

#include "bench/peer_runtime.h"

namespace sops_bench {

PeerAbout onnxruntime_about() {
  return {"",
          "ONNX Runtime: not built in; a folder with include/onnxruntime_cxx_api.h and "
          "lib/libonnxruntime.so.1.* (the onnxruntime-linux-x64 release archive), then "
          "--repo_env=ONNXRUNTIME_DIR=<that folder> (docs/benchmarks.md)"};
}

std::unique_ptr<LoadedModel> load_onnxruntime(const std::string&, const std::vector<HostArray>&,
                                              int) {
  throw std::runtime_error("this binary was built without ONNX Runtime (ONNXRUNTIME_DIR unset)");
}

}  // namespace sops_bench
