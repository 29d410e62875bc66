// The kernel benchmark: our CPU kernels against libtorch's, in one process, on the
// workloads of bench/workloads.h, at 1 thread and at 2 threads on both sides.
//
//   tools/bazel run -c opt //bench:kernels_bench [-- --rounds=7 --threads=2 --only=mm512]
//                                                 [--no-baseline=1]
//
// For each workload it prints both medians (the sides alternating in blocks) and our
// speed relative to libtorch's (libtorch's time / ours: above 1 is faster). Results are checked
// against libtorch's before any timing. Not a test: timings are never asserted.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/libtorch_baseline.h"
#include "bench/ops_library.h"
#include "bench/timing.h"
#include "bench/workloads.h"
#include "runtime/parallel.h"

#include SOPS_BENCH_HEADER(Functions.h)

namespace {

namespace ops = SOPS_BENCH_OPS_NS;
using sops::Tensor;
using sops_bench::escape;
using sops_bench::Prepared;

Tensor input(int index, sops::IntArrayRef sizes) {
  Tensor t = ops::empty(sizes);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = sops_bench::input_value(index, i);
  return t;
}

Tensor index_input(int64_t n, sops::IntArrayRef sizes) {
  Tensor t = ops::empty(sizes, sops::ScalarType::Long);
  int64_t* p = t.data_ptr<int64_t>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = sops_bench::index_value(i, n);
  return t;
}

double sum_of(const Tensor& t) {
  Tensor c = t;
  if (!t.is_contiguous()) {
    c = ops::empty(t.sizes());
    ops::copy_(c, t);
  }
  double s = 0;
  const float* p = c.data_ptr<float>();
  for (int64_t i = 0; i < c.numel(); ++i) s += p[i];
  return s;
}

template <typename Op>
Prepared returning(Op op) {
  auto result = std::make_shared<Tensor>();
  return {[op, result] {
            *result = op();
            escape(result.get());
          },
          [result] { return sum_of(*result); }};
}

Prepared conv(sops::IntArrayRef in, sops::IntArrayRef weight, int64_t groups) {
  Tensor x = input(0, in);
  Tensor w = input(1, weight);
  Tensor b = input(2, {weight[0]});
  return returning(
      [=] { return ops::convolution(x, w, b, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, groups); });
}

Prepared our_workload(const std::string& name) {
  if (name == "add") {
    Tensor a = input(0, {1 << 20}), b = input(1, {1 << 20});
    return returning([=] { return ops::add(a, b); });
  }
  if (name == "add_broadcast") {
    Tensor a = input(0, {1024, 1024}), b = input(1, {1024});
    return returning([=] { return ops::add(a, b); });
  }
  if (name == "relu") {
    Tensor a = input(0, {1 << 20});
    return returning([=] { return ops::relu(a); });
  }
  if (name == "sum") {
    Tensor a = input(0, {1 << 20});
    return returning([=] { return ops::sum(a, std::nullopt); });
  }
  if (name == "sum_dim1") {
    Tensor a = input(0, {1024, 1024});
    return returning([=] { return ops::sum(a, sops::IntArrayRef{1}); });
  }
  if (name == "softmax" || name == "log_softmax") {
    Tensor a = input(0, {256, 1024});
    if (name == "softmax") return returning([=] { return ops::_softmax(a, 1, false); });
    return returning([=] { return ops::_log_softmax(a, 1, false); });
  }
  if (name == "layer_norm") {
    Tensor x = input(0, {512, 768}), w = input(1, {768}), b = input(2, {768});
    return returning([=] { return std::get<0>(ops::native_layer_norm(x, {768}, w, b, 1e-5)); });
  }
  if (name == "batch_norm") {
    Tensor x = input(0, {8, 64, 56, 56}), w = input(1, {64}), b = input(2, {64});
    Tensor mean = input(3, {64}), var = ops::add(ops::abs(input(4, {64})), 0.5);
    return returning([=] {
      return std::get<0>(ops::_native_batch_norm_legit_no_training(x, w, b, mean, var, 0.1, 1e-5));
    });
  }
  if (name == "conv2d") return conv({8, 64, 56, 56}, {64, 64, 3, 3}, 1);
  if (name == "depthwise") return conv({8, 64, 56, 56}, {64, 1, 3, 3}, 64);
  if (name == "conv2d_small") return conv({1, 16, 32, 32}, {16, 16, 3, 3}, 1);
  if (name == "max_pool2d") {
    Tensor x = input(0, {8, 64, 56, 56});
    return returning([=] {
      return std::get<0>(ops::max_pool2d_with_indices(x, {3, 3}, {2, 2}, {0, 0}, {1, 1}, false));
    });
  }
  if (name == "avg_pool2d") {
    Tensor x = input(0, {8, 64, 56, 56});
    return returning([=] { return ops::avg_pool2d(x, {3, 3}, {2, 2}); });
  }
  if (name == "mm256" || name == "mm512") {
    const int64_t n = name == "mm256" ? 256 : 512;
    Tensor a = input(0, {n, n}), b = input(1, {n, n});
    return returning([=] { return ops::mm(a, b); });
  }
  if (name == "addmm" || name == "addmm_small") {
    const bool small = name == "addmm_small";
    Tensor bias = input(2, {small ? 64 : 512});
    Tensor x = input(0, {small ? 1 : 64, small ? 128 : 512});
    Tensor w = input(1, {small ? 128 : 512, small ? 64 : 512});
    return returning([=] { return ops::addmm(bias, x, w); });
  }
  if (name == "transpose_copy") {
    Tensor a = input(0, {1024, 1024});
    auto out = std::make_shared<Tensor>(ops::empty({1024, 1024}));
    const Tensor at = ops::permute(a, {1, 0});
    return {[at, out] {
              ops::copy_(*out, at);
              escape(out.get());
            },
            [out] { return sum_of(*out); }};
  }
  if (name == "sin") {
    Tensor a = input(0, {1 << 20});
    return returning([=] { return ops::sin(a); });
  }
  if (name == "gather") {
    Tensor a = input(0, {1024, 1024}), idx = index_input(1024, {1024, 256});
    return returning([=] { return ops::gather(a, 1, idx); });
  }
  if (name == "index_select" || name == "index_tensor") {
    Tensor a = input(0, {32000, 256}), idx = index_input(32000, {2048});
    if (name == "index_select") return returning([=] { return ops::index_select(a, 0, idx); });
    return returning([=] {
      const std::optional<Tensor> indices[] = {idx};
      return ops::index(a, indices);
    });
  }
  if (name == "cumsum") {
    Tensor a = input(0, {1024, 1024});
    return returning([=] { return ops::cumsum(a, 1); });
  }
  if (name == "sort") {
    Tensor a = input(0, {256, 1024});
    return returning([=] { return std::get<0>(ops::sort(a, 1)); });
  }
  if (name == "topk") {
    Tensor a = input(0, {256, 1024});
    return returning([=] { return std::get<0>(ops::topk(a, 16, 1)); });
  }
  if (name == "var") {
    Tensor a = input(0, {512, 768});
    return returning([=] {
      const int64_t dims[] = {1};
      return ops::var(a, sops::IntArrayRef(dims), sops::Scalar(int64_t{1}), false);
    });
  }
  if (name == "group_norm") {
    Tensor x = input(0, {8, 64, 56, 56}), w = input(1, {64}), b = input(2, {64});
    return returning(
        [=] { return std::get<0>(ops::native_group_norm(x, w, b, 8, 64, 56 * 56, 32, 1e-5)); });
  }
  if (name == "upsample_bilinear") {
    Tensor x = input(0, {8, 64, 28, 28});
    return returning([=] { return ops::upsample_bilinear2d(x, {56, 56}, false); });
  }
  if (name == "add_small") {
    Tensor a = input(0, {256}), b = input(1, {256});
    return returning([=] { return ops::add(a, b); });
  }
  if (name == "mm_small") {
    Tensor a = input(0, {16, 64}), b = input(1, {64, 64});
    return returning([=] { return ops::mm(a, b); });
  }
  return {};
}

bool wanted(const std::vector<std::string>& only, const char* name) {
  if (only.empty()) return true;
  for (const std::string& o : only) {
    if (o == name) return true;
  }
  return false;
}

// Calls per sample so that one sample takes about 20 ms.
int64_t calls_for(const Prepared& p) {
  const double ns = sops_bench::ns_per_call(1, p.run);
  return std::max<int64_t>(1, static_cast<int64_t>(2e7 / std::max(ns, 1.0)));
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t rounds = sops_bench::flag(argc, argv, "--rounds", 7);
  const int64_t max_threads = sops_bench::flag(argc, argv, "--threads", 2);
  const std::vector<std::string> only = sops_bench::list_flag(argc, argv, "--only");
  if (rounds < 1 || max_threads < 1) {
    std::fprintf(
        stderr, "usage: kernels_bench [--rounds=R] [--threads=T] [--only=a,b] [--no-baseline=1]\n");
    return 2;
  }
  // --no-baseline: ours alone (profiling, or to see what libtorch's threads cost us).
  const bool baseline =
      sops_bench::libtorch_available() && sops_bench::flag(argc, argv, "--no-baseline", 0) == 0;
  sops_bench::prepare_process();
  std::printf("medians of %lld rounds; speed = libtorch time / ours (>1: we are faster)\n",
              static_cast<long long>(rounds));
  int wrong = 0;
  for (int threads = 1; threads <= max_threads; ++threads) {
    sops::set_num_threads(threads);
    sops_bench::libtorch_set_num_threads(threads);
    std::printf("\n%d thread%s (both sides)\n", threads, threads == 1 ? "" : "s");
    std::printf("  %-60s %12s %12s %8s\n", "workload", "libtorch us", "ours us", "speed");
    for (const sops_bench::Workload& w : sops_bench::workloads()) {
      if (!wanted(only, w.name)) continue;
      Prepared ours = our_workload(w.name);
      Prepared theirs = baseline ? sops_bench::libtorch_workload(w.name) : Prepared{};
      if (!ours.run) {
        std::printf("  %-60s not in the library\n", w.what);
        continue;
      }
      ours.run();
      if (theirs.run) {
        theirs.run();
        const double a = ours.checksum(), b = theirs.checksum();
        if (!(std::fabs(a - b) <= 1e-3 * std::max({1.0, std::fabs(a), std::fabs(b)}))) {
          std::printf("  %-60s WRONG: checksum %.6g, libtorch %.6g\n", w.what, a, b);
          ++wrong;
          continue;
        }
      }
      std::vector<sops_bench::Variant> variants;
      if (theirs.run) {
        const int64_t calls = calls_for(theirs);
        variants.push_back(
            {"libtorch",
             [&, calls](int64_t) { return sops_bench::ns_per_call(calls, theirs.run); },
             {}});
      }
      const int64_t calls = calls_for(ours);
      variants.push_back(
          {"ours", [&, calls](int64_t) { return sops_bench::ns_per_call(calls, ours.run); }, {}});
      // The rounds in kBlocks blocks, the sides alternating (libtorch's block, then ours),
      // so that a slow spell of the machine (another process, a thread the scheduler put
      // on a busy core) lands on both sides rather than on one. Within a block a side's
      // samples run back to back: a sample of ours taken right after one of libtorch's ran
      // up to 2x slower than after one of ours (add [1M]: 367 against 190 us), and
      // libtorch's likewise (290 against 260 us). Each block starts, at 2 threads, with a
      // pause (a side's idle threads spin for a while after its last call: libtorch's
      // OpenMP for milliseconds, our pool for 1 ms) and then with calls for kWarmUp: the
      // first calls after a pause at times ran at 1-thread speed for up to 80 ms (with
      // our threads pinned to the two cores too: the second one was busy elsewhere).
      constexpr int64_t kBlocks = 3;
      constexpr auto kWarmUp = std::chrono::milliseconds(100);
      for (int64_t block = 0; block < kBlocks; ++block) {
        const int64_t samples = rounds * (block + 1) / kBlocks - rounds * block / kBlocks;
        for (sops_bench::Variant& v : variants) {
          if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
          const auto warm_until = std::chrono::steady_clock::now() + kWarmUp;
          do v.run(1);  // one sample (about 20 ms) at least
          while (threads > 1 && std::chrono::steady_clock::now() < warm_until);
          for (int64_t r = 0; r < samples; ++r) v.samples.push_back(v.run(1));
        }
      }
      const double mine = sops_bench::median(variants.back().samples) / 1e3;
      if (variants.size() == 2) {
        const double base = sops_bench::median(variants[0].samples) / 1e3;
        std::printf("  %-60s %12.2f %12.2f %7.2fx%s\n", w.what, base, mine, base / mine,
                    w.small ? "  (small)" : "");
      } else {
        std::printf("  %-60s %12s %12.2f\n", w.what, "-", mine);
      }
      std::fflush(stdout);
    }
  }
  if (baseline) {
    std::printf("\nlibtorch %s, same process\n", sops_bench::libtorch_version());
  } else {
    std::printf("\nlibtorch baseline unavailable: %s\n", sops_bench::libtorch_version());
  }
  return wrong == 0 ? 0 : 1;
}
