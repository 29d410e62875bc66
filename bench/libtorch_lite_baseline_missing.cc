// The lite benchmark's libtorch baseline when no libtorch was found
// (@libtorch//:defs.bzl): nothing to load; lite_bench prints our numbers alone.
#include <cstdio>

#include "bench/libtorch_lite_baseline.h"

namespace sops_bench {

std::unique_ptr<TorchScriptModel> load_torchscript(const std::string&,
                                                   const std::vector<HostArray>&) {
  return nullptr;
}
double torchscript_load_ns(const std::string&) { return -1; }
int torchscript_load_and_run_once(const std::string&, const std::vector<HostArray>&, int) {
  std::fprintf(stderr, "libtorch child: this binary was built without libtorch\n");
  return 3;
}

}  // namespace sops_bench
