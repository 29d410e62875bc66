// ns per call of a 1-element float32 functional add, through our dispatcher API and
// our static entry point, against libtorch's at::cpu::add measured in the same run.
//
//   tools/bazel run -c opt //bench:add_bench [-- --rounds=R --calls=N]
//
// Every round times N back-to-back calls of each variant in turn (so drift hits all
// of them alike); the figures are medians over R rounds, after one warm-up round.
// Which operator library is timed is chosen in bench/BUILD.bazel (OPS_LIBRARY).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench/libtorch_baseline.h"
#include "bench/ops_library.h"
#include "bench/timing.h"

// SOPS_BENCH_OPS_DIR / SOPS_BENCH_OPS_NS: the library's header folder and namespace.
#include SOPS_BENCH_HEADER(CPUFunctions.h)
#include SOPS_BENCH_HEADER(Functions.h)

namespace {

namespace ops = SOPS_BENCH_OPS_NS;
using sops_bench::escape;
using sops_bench::filled;
using sops_bench::flag;
using sops_bench::ns_per_call;
using sops_bench::Variant;

}  // namespace

int main(int argc, char** argv) {
  const int64_t rounds = flag(argc, argv, "--rounds", 21);
  const int64_t calls = flag(argc, argv, "--calls", 20000);
  if (rounds < 1 || calls < 1) {
    std::fprintf(stderr, "usage: add_bench [--rounds=R] [--calls=N] (both >= 1)\n");
    return 2;
  }

  const sops::Tensor a = filled(1.5f);
  const sops::Tensor b = filled(2.25f);
  // A wrong answer makes a fast number meaningless: check each entry point once.
  for (const sops::Tensor& c : {ops::cpu::add(a, b), ops::add(a, b)}) {
    if (c.numel() != 1 || c.scalar_type() != sops::ScalarType::Float ||
        *c.data_ptr<float>() != 3.75f) {
      std::fprintf(stderr, "add_bench: %s::add gave a wrong result\n",
                   SOPS_BENCH_STR(SOPS_BENCH_OPS_NS));
      return 1;
    }
  }

  const std::string ns = SOPS_BENCH_STR(SOPS_BENCH_OPS_NS);
  std::vector<Variant> variants;
  const bool baseline = sops_bench::libtorch_available();
  if (baseline) {
    variants.push_back({"libtorch at::cpu::add", sops_bench::libtorch_cpu_add_ns, {}});
    variants.push_back({"libtorch at::add", sops_bench::libtorch_add_ns, {}});
  }
  variants.push_back({ns + "::cpu::add (static)",
                      [&](int64_t n) {
                        return ns_per_call(n, [&] {
                          sops::Tensor c = ops::cpu::add(a, b);
                          escape(&c);
                        });
                      },
                      {}});
  variants.push_back({ns + "::add (dispatcher)",
                      [&](int64_t n) {
                        return ns_per_call(n, [&] {
                          sops::Tensor c = ops::add(a, b);
                          escape(&c);
                        });
                      },
                      {}});

  sops_bench::run_rounds(variants, rounds, calls);

  std::printf("add, 1 element, float32, median of %lld rounds x %lld calls\n",
              static_cast<long long>(rounds), static_cast<long long>(calls));
#ifndef __OPTIMIZE__
  std::printf("  (built without optimization: these numbers mean little; use -c opt)\n");
#endif
  sops_bench::print_medians(variants, baseline, "at::cpu::add");
  if (baseline) {
    std::printf("libtorch %s, same process\n", sops_bench::libtorch_version());
  } else {
    std::printf("libtorch baseline unavailable: %s\n", sops_bench::libtorch_version());
  }
  return 0;
}
