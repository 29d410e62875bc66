// The boxed operator registry (runtime/operator_registry.h), timed:
//
//   1. initialisation: register_<lib>_kernels(registry) of every operator of the
//      library into a fresh sops::OperatorRegistry, total and per operator;
//   2. a boxed 1-element float32 aten::add.Tensor call through the registry
//      (find() once, then call(stack) with the stack refilled each call), against
//      libtorch's boxed call of the same operator (c10::Dispatcher's callBoxed) in the
//      same process; our raw kernel() (no checks) on a line of its own.
//
//   tools/bazel run -c opt //bench:registry_bench [-- --init-reps=N --rounds=R --calls=C]
//
// Initialisation: N repetitions (after a few warm-ups), each into a newly constructed
// registry (constructed and destroyed outside the timed region); median and min.
// Calls: every round times C back-to-back calls of each variant in turn (so drift
// hits all of them alike); medians over R rounds, after one warm-up round. Both
// sides run on one thread. Which library is timed is chosen in bench/BUILD.bazel
// (OPS_LIBRARY).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/libtorch_baseline.h"
#include "bench/ops_library.h"
#include "bench/timing.h"
#include "runtime/operator_registry.h"
#include "runtime/tensor.h"
#include "runtime/value.h"

// SOPS_BENCH_OPS_DIR / SOPS_BENCH_OPS_NS: the library's header folder and namespace.
#define SOPS_BENCH_CAT3_(a, b, c) a##b##c
#define SOPS_BENCH_CAT3(a, b, c) SOPS_BENCH_CAT3_(a, b, c)
#include SOPS_BENCH_HEADER(UnboxingFunctions.h)

namespace {

namespace ops = SOPS_BENCH_OPS_NS;
using sops_bench::escape;
using sops_bench::filled;
using sops_bench::flag;
using sops_bench::ns_per_call;
using sops_bench::Variant;

// register_<lib>_kernels, e.g. sops::aten::register_aten_kernels.
void register_library(sops::OperatorRegistry& registry) {
  ops::SOPS_BENCH_CAT3(register_, SOPS_BENCH_OPS_DIR, _kernels)(registry);
}
const char* const kRegisterName =
    SOPS_BENCH_STR(SOPS_BENCH_OPS_NS) "::register_" SOPS_BENCH_STR(SOPS_BENCH_OPS_DIR) "_kernels";

}  // namespace

int main(int argc, char** argv) {
  const int64_t init_reps = flag(argc, argv, "--init-reps", 200);
  const int64_t rounds = flag(argc, argv, "--rounds", 21);
  const int64_t calls = flag(argc, argv, "--calls", 20000);
  if (init_reps < 1 || rounds < 1 || calls < 1) {
    std::fprintf(stderr,
                 "usage: registry_bench [--init-reps=N] [--rounds=R] [--calls=C] (all >= 1)\n");
    return 2;
  }
#ifndef __OPTIMIZE__
  std::printf("(built without optimization: these numbers mean little; use -c opt)\n");
#endif

  // 1. Initialisation.
  std::vector<double> init_ns;
  std::size_t n_ops = 0;
  const int64_t warmups = 5;
  for (int64_t r = 0; r < warmups + init_reps; ++r) {
    auto registry = std::make_unique<sops::OperatorRegistry>();
    const auto start = std::chrono::steady_clock::now();
    register_library(*registry);
    const auto stop = std::chrono::steady_clock::now();
    n_ops = registry->size();
    if (r >= warmups)
      init_ns.push_back(std::chrono::duration<double, std::nano>(stop - start).count());
    registry.reset();  // destroyed outside the timed region
  }
  const double init_median = sops_bench::median(init_ns);
  const double init_min = *std::min_element(init_ns.begin(), init_ns.end());
  const double per_op = n_ops ? 1.0 / static_cast<double>(n_ops) : 0.0;
  std::printf(
      "registry initialisation: %s(registry) into a fresh OperatorRegistry, "
      "%zu operators, %lld repetitions\n",
      kRegisterName, n_ops, static_cast<long long>(init_reps));
  std::printf("  total          %9.2f us median   (min %.2f us)\n", init_median / 1e3,
              init_min / 1e3);
  std::printf("  per operator   %9.1f ns median   (min %.1f ns)\n", init_median * per_op,
              init_min * per_op);

  // 2. A boxed aten::add.Tensor.
  sops::OperatorRegistry registry;
  register_library(registry);
  const sops::RegisteredOperator* op = registry.find("aten::add.Tensor");
  if (op == nullptr) {
    std::printf("aten::add.Tensor: not in %s; no boxed call timed\n",
                SOPS_BENCH_STR(SOPS_BENCH_OPS_DIR));
    return 0;
  }
  const sops::Tensor a = filled(1.5f);
  const sops::Tensor b = filled(2.25f);
  // A wrong answer makes a fast number meaningless: check both ways once.
  for (const bool raw : {false, true}) {
    sops::Stack stack{a, b, 1};
    if (raw) {
      op->kernel()(stack);
    } else {
      op->call(stack);
    }
    if (stack.size() != 1 || !stack[0].is_tensor() || stack[0].to_tensor().numel() != 1 ||
        stack[0].to_tensor().scalar_type() != sops::ScalarType::Float ||
        *stack[0].to_tensor().data_ptr<float>() != 3.75f) {
      std::fprintf(stderr, "registry_bench: boxed aten::add.Tensor (%s) gave a wrong result\n",
                   raw ? "kernel()" : "call()");
      return 1;
    }
  }

  std::vector<Variant> variants;
  const bool baseline = sops_bench::libtorch_available();
  if (baseline) {
    variants.push_back({"libtorch Dispatcher callBoxed", sops_bench::libtorch_boxed_add_ns, {}});
  }
  // The same work a boxed caller does: refill the stack (two tensors, alpha), call,
  // leave the result on the stack until the next call clears it.
  auto boxed_add = [&](auto invoke) {
    return [&, invoke](int64_t n) {
      sops::Stack stack;
      stack.reserve(4);
      return ns_per_call(n, [&] {
        stack.clear();
        stack.emplace_back(a);
        stack.emplace_back(b);
        stack.emplace_back(1);
        invoke(stack);
        escape(&stack);
      });
    };
  };
  variants.push_back({"ours registry op->call(stack)",
                      boxed_add([op](sops::Stack& stack) { op->call(stack); }),
                      {}});
  variants.push_back({"ours op->kernel()(stack), no checks", boxed_add(op->kernel()), {}});
  sops_bench::run_rounds(variants, rounds, calls);

  std::printf(
      "boxed aten::add.Tensor, 1 element, float32, alpha=1, median of %lld rounds x "
      "%lld calls\n",
      static_cast<long long>(rounds), static_cast<long long>(calls));
  sops_bench::print_medians(variants, baseline, "libtorch boxed", "  (goal <= 0.25x)");
  if (baseline) {
    std::printf("libtorch %s, same process, 1 thread\n", sops_bench::libtorch_version());
  } else {
    std::printf("libtorch baseline unavailable: %s\n", sops_bench::libtorch_version());
  }
  return 0;
}
