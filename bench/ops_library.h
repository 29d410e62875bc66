// What the benchmarks of our operator library share: the library's generated headers by
// name (SOPS_BENCH_HEADER(Functions.h) is "<SOPS_BENCH_OPS_DIR>/Functions.h"; the BUILD
// file defines SOPS_BENCH_OPS_DIR and SOPS_BENCH_OPS_NS from its table of libraries),
// and one-element inputs.
#pragma once

#include "runtime/tensor.h"

#define SOPS_BENCH_STR2(x) #x
#define SOPS_BENCH_STR(x) SOPS_BENCH_STR2(x)
// clang-format off: the path is stringized, so no spaces around its `/`.
#define SOPS_BENCH_HEADER(name) SOPS_BENCH_STR(SOPS_BENCH_OPS_DIR/name)
// clang-format on

namespace sops_bench {

// A one-element float32 cpu tensor holding `value`.
inline sops::Tensor filled(float value) {
  sops::Tensor t = sops::empty({1}, sops::TensorOptions());
  *t.data_ptr<float>() = value;
  return t;
}

}  // namespace sops_bench
