// The libtorch baseline when no libtorch was found (@libtorch//:defs.bzl).
#include "bench/libtorch_baseline.h"

namespace sops_bench {

bool libtorch_available() { return false; }
const char* libtorch_version() {
  return "not found: make a venv with `pip install torch==2.13.0 --index-url "
         "https://download.pytorch.org/whl/cpu` and build with "
         "--repo_env=LIBTORCH_DIR=/path/to/that/venv (see third_party/libtorch/extension.bzl)";
}
double libtorch_cpu_add_ns(int64_t) { return -1; }
double libtorch_add_ns(int64_t) { return -1; }
double libtorch_boxed_add_ns(int64_t) { return -1; }
Prepared libtorch_workload(const std::string&) { return {}; }
void libtorch_set_num_threads(int) {}

}  // namespace sops_bench
