// The ExecuTorch side of //bench:lite_bench when Bazel found no ExecuTorch
// (@executorch//:defs.bzl): the benchmark prints how to get one and skips its columns.
#include <stdexcept>

#include "bench/peer_runtime.h"

namespace sops_bench {

PeerAbout executorch_about() {
  return {"",
          "ExecuTorch: not built in; `python3.11 -m venv etvenv && etvenv/bin/pip install "
          "executorch==1.5.1`, then --repo_env=EXECUTORCH_DIR=<that venv> (docs/benchmarks.md)"};
}

std::unique_ptr<LoadedModel> load_executorch(const std::string&, const std::vector<HostArray>&,
                                             int) {
  throw std::runtime_error("this binary was built without ExecuTorch (EXECUTORCH_DIR unset)");
}

}  // namespace sops_bench
