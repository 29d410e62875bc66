// The CUDA kernels of //ops:aten_cpu against the GPU's limits: a 16M-element float add
// (GB/s moved: two reads and one write) and a 4096 x 4096 float mm (GFLOP/s: 2 n^3),
// each the median of timed rounds after warm-up, printed next to an H100's peaks (about
// 3.35 TB/s of HBM bandwidth and ~60 TFLOP/s of FP32 without tensor cores; a PCIe H100
// is lower). No libtorch baseline: the machine's PyTorch wheel is CPU-only.
//
//   tools/bazel run -c opt --config=cuda //bench:cuda_bench
#include <chrono>
#include <cstdio>
#include <vector>

#include "aten_cpu/Functions.h"
#include "backends/cuda/cuda_backend.h"
#include "bench/timing.h"

namespace {

using sops::Tensor;

// Median seconds of one call of f over `rounds` rounds of `calls` calls, after warm-up.
template <class F>
double median_seconds(F f, int rounds, int calls) {
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
  return sops_bench::median(seconds);
}

Tensor filled(std::vector<int64_t> sizes, double value) {
  Tensor t = sops::aten::empty(sizes, sops::ScalarType::Float, std::nullopt,
                               sops::Device(sops::DeviceType::CUDA));
  sops::aten::fill_(t, value);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (!sops::cuda::register_cuda_backend()) {
    std::printf("no CUDA device: nothing to time\n");
    return 0;
  }
  const int rounds = static_cast<int>(sops_bench::flag(argc, argv, "rounds", 11));

  const int64_t n = 16 << 20;
  const Tensor a = filled({n}, 1.0), b = filled({n}, 2.0);
  Tensor out = filled({n}, 0.0);
  const double add_s = median_seconds([&] { sops::aten::add_out(out, a, b); }, rounds, 20);
  const double add_gbs = 3.0 * n * sizeof(float) / add_s / 1e9;
  std::printf("add   16M float32   %8.1f us   %7.1f GB/s   (H100 HBM ~3350 GB/s: %.0f%%)\n",
              add_s * 1e6, add_gbs, 100.0 * add_gbs / 3350.0);

  const int64_t m = 4096;
  const Tensor x = filled({m, m}, 0.5), y = filled({m, m}, 0.25);
  Tensor z = filled({m, m}, 0.0);
  const double mm_s = median_seconds([&] { sops::aten::mm_out(z, x, y); }, rounds, 3);
  const double gflops = 2.0 * m * m * m / mm_s / 1e9;
  std::printf("mm    4096^2 float32 %8.2f ms   %7.0f GFLOP/s (H100 FP32 ~60000 GFLOP/s: %.0f%%)\n",
              mm_s * 1e3, gflops, 100.0 * gflops / 60000.0);
  return 0;
}
