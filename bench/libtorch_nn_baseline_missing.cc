// libtorch's nn timings when no libtorch was found.
#include "bench/libtorch_nn_baseline.h"

namespace sops_bench {

double libtorch_nn_ms(int, int, int) { return -1; }

}  // namespace sops_bench
