// The libtorch baseline: compiled against libtorch's headers only.
#include "bench/libtorch_baseline.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/add.h>
#include <ATen/ops/add_cpu_dispatch.h>
#include <ATen/ops/ones.h>

#include "bench/timing.h"

namespace sops_bench {
namespace {

// Made once: the timed loop measures the add alone (and freeing its result).
const at::Tensor& lhs() {
  static const at::Tensor t = at::ones({1}, at::kFloat);
  return t;
}
const at::Tensor& rhs() {
  static const at::Tensor t = at::ones({1}, at::kFloat);
  return t;
}

}  // namespace

bool libtorch_available() { return true; }
const char* libtorch_version() { return SOPS_BENCH_LIBTORCH_VERSION; }

double libtorch_cpu_add_ns(int64_t calls) {
  const at::Tensor& a = lhs();
  const at::Tensor& b = rhs();
  return ns_per_call(calls, [&] {
    at::Tensor c = at::cpu::add(a, b);
    escape(c.unsafeGetTensorImpl());
  });
}

double libtorch_add_ns(int64_t calls) {
  const at::Tensor& a = lhs();
  const at::Tensor& b = rhs();
  return ns_per_call(calls, [&] {
    at::Tensor c = at::add(a, b);
    escape(c.unsafeGetTensorImpl());
  });
}

}  // namespace sops_bench
