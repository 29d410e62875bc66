// The libtorch baseline: compiled against libtorch's headers only.
#include "bench/libtorch_baseline.h"

#include <cstdio>
#include <cstdlib>

#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
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

double libtorch_boxed_add_ns(int64_t calls) {
  static const c10::OperatorHandle op =
      c10::Dispatcher::singleton().findSchemaOrThrow("aten::add", "Tensor");
  const at::Tensor& a = lhs();
  const at::Tensor& b = rhs();
  torch::jit::Stack stack;
  stack.reserve(4);
  static const bool checked = [&] {
    at::set_num_threads(1);  // a 1-element add runs on one thread anyway; made explicit
    stack.clear();
    stack.emplace_back(a);
    stack.emplace_back(b);
    stack.emplace_back(1);
    op.callBoxed(&stack);
    if (stack.size() != 1 || !stack[0].isTensor() || stack[0].toTensor().numel() != 1 ||
        *stack[0].toTensor().data_ptr<float>() != 2.0f) {
      std::fprintf(stderr, "libtorch_boxed_add_ns: aten::add.Tensor gave a wrong result\n");
      std::exit(1);
    }
    return true;
  }();
  (void)checked;
  return ns_per_call(calls, [&] {
    stack.clear();  // frees the previous call's result, as a boxed caller would
    stack.emplace_back(a);
    stack.emplace_back(b);
    stack.emplace_back(1);
    op.callBoxed(&stack);
    escape(&stack);
  });
}

}  // namespace sops_bench
