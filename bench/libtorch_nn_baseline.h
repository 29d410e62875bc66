// The libtorch side of //bench:nn_bench: the same nn cases through at:: functions,
// compiled apart from our headers (libtorch_nn_baseline.cc).
#pragma once

namespace sops_bench {

// The cases of nn_bench, in its order.
inline constexpr int kNnCases = 9;

// Median ms of `rounds` calls of case `which` (0 .. kNnCases-1) with libtorch's intra-op
// threads set to `threads`, after one warm-up call; -1 without libtorch.
double libtorch_nn_ms(int which, int threads, int rounds);

}  // namespace sops_bench
