// The CUDA kernels of //ops:aten on the GPU: element-wise, reductions, softmax, layer
// norm, mm and convolution in float32, each the median of timed rounds (with the fastest
// and slowest round) after warm-up, with the bytes moved (GB/s) or the arithmetic done
// (GFLOP/s). One line per row, `row NAME median_us min_us max_us GB/s|GFLOP/s VALUE`,
// which tools/gpu/compare_torch.py reads to time the same rows with PyTorch's CUDA
// kernels on the same GPU and print the ratios.
//
//   tools/bazel run -c opt --config=cuda //bench:cuda_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "aten/Functions.h"
#include "backends/cuda/runtime/cuda_backend.h"
#include "bench/timing.h"

namespace {

using sops::Tensor;

struct Seconds {
  double median, min, max;
};

// Seconds per call of f: `rounds` rounds of `calls` calls, after warm-up.
Seconds time_calls(const std::function<void()>& f, int rounds, int calls) {
  for (int i = 0; i < 3; ++i) f();
  sops::cuda::synchronize();
  std::vector<double> seconds;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    sops::cuda::synchronize();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    seconds.push_back(took.count() / calls);
  }
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  return {sops_bench::median(seconds), *lo, *hi};
}

Tensor filled(std::vector<int64_t> sizes, double value) {
  Tensor t = sops::aten::empty(sizes, sops::ScalarType::Float, std::nullopt,
                               sops::Device(sops::DeviceType::CUDA));
  sops::aten::fill_(t, value);
  return t;
}

// One row: `amount` bytes (GB/s) or floating-point operations (GFLOP/s) per call.
void row(const char* name, const char* unit, double amount, const std::function<void()>& f,
         int rounds, int calls) {
  const Seconds s = time_calls(f, rounds, calls);
  std::printf("row %-14s %10.1f %10.1f %10.1f %-7s %9.1f\n", name, s.median * 1e6, s.min * 1e6,
              s.max * 1e6, unit, amount / s.median / 1e9);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (!sops::cuda::register_cuda_backend()) {
    std::printf("no CUDA device: nothing to time\n");
    return 0;
  }
  const int rounds = static_cast<int>(sops_bench::flag(argc, argv, "rounds", 11));
  constexpr double kFloat = sizeof(float);
  std::printf("row %-14s %10s %10s %10s %-7s %9s\n", "NAME", "median_us", "min_us", "max_us",
              "unit", "rate");

  // 16M elements (64 MB a tensor): well past the L2 of an H100 or H200 (50-60 MB).
  const int64_t n = 16 << 20;
  const Tensor a = filled({n}, 1.0), b = filled({n}, 2.0);
  Tensor out = filled({n}, 0.0), scalar = filled({}, 0.0);
  row("add_16M", "GB/s", 3 * n * kFloat, [&] { sops::aten::add_out(out, a, b); }, rounds, 20);
  row("relu_16M", "GB/s", 2 * n * kFloat, [&] { sops::aten::relu_out(out, a); }, rounds, 20);
  row(
      "sum_16M", "GB/s", n * kFloat, [&] { sops::aten::sum_out(scalar, a, std::nullopt); }, rounds,
      20);

  const int64_t m = 4096;
  const Tensor x = filled({m, m}, 0.5), y = filled({m, m}, 0.25);
  Tensor z = filled({m, m}, 0.0), rows = filled({m}, 0.0);
  const std::vector<int64_t> last{1};
  row(
      "sum_rows_4096", "GB/s", m * m * kFloat, [&] { sops::aten::sum_out(rows, x, last); }, rounds,
      20);
  row(
      "softmax_4096", "GB/s", 2 * m * m * kFloat, [&] { sops::aten::_softmax_out(z, x, 1, false); },
      rounds, 20);
  const Tensor gamma = filled({m}, 1.0), beta = filled({m}, 0.0);
  Tensor mean = filled({m, 1}, 0.0), rstd = filled({m, 1}, 0.0);
  const std::vector<int64_t> normalized{m};
  row(
      "layer_norm_4096", "GB/s", 2 * m * m * kFloat,
      [&] { sops::aten::native_layer_norm_out(z, mean, rstd, x, normalized, gamma, beta, 1e-5); },
      rounds, 20);
  row("mm_4096", "GFLOP/s", 2.0 * m * m * m, [&] { sops::aten::mm_out(z, x, y); }, rounds, 3);

  // A ResNet-like 3x3 convolution: 8 x 64 x 56 x 56, 64 filters, padding 1.
  const Tensor image = filled({8, 64, 56, 56}, 0.5), weight = filled({64, 64, 3, 3}, 0.01);
  Tensor conv = filled({8, 64, 56, 56}, 0.0);
  const std::vector<int64_t> one{1, 1}, zero{0, 0};
  row(
      "conv3x3_56", "GFLOP/s", 2.0 * 8 * 64 * 56 * 56 * 64 * 9,
      [&] {
        sops::aten::convolution_out(conv, image, weight, std::nullopt, one, one, one, false, zero,
                                    1);
      },
      rounds, 3);
  return 0;
}
