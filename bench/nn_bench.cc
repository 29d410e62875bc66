// The nn operators of //ops:aten_cpu on the shapes they are compared with libtorch on:
// conv 3x3 pad 1 and depthwise 3x3 on [8, 64, 56, 56], max_pool2d 3x3 stride 2,
// softmax [256, 1024], layer_norm [512, 768] (float32). Prints the median ms of each;
// and libtorch's (bench/libtorch_nn_baseline.cc), both at the same thread count: each
// count of 1 .. get_num_threads(), or the one given.
//
//   tools/bazel run -c opt //bench:nn_bench [-- rounds [threads]]
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "aten_cpu/Functions.h"
#include "bench/libtorch_nn_baseline.h"
#include "bench/timing.h"
#include "runtime/parallel.h"

namespace {

sops::Tensor filled(std::vector<int64_t> sizes) {
  sops::Tensor t = sops::empty(sizes, sops::ScalarType::Float);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>((i * 7919) % 17) / 8.0f - 1.0f;
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
  namespace A = sops::aten;
  const sops::Tensor x = filled({8, 64, 56, 56});
  const sops::Tensor w = filled({64, 64, 3, 3});
  const sops::Tensor wd = filled({64, 1, 3, 3});
  const sops::Tensor b = filled({64});
  const sops::Tensor s = filled({256, 1024});
  const sops::Tensor l = filled({512, 768});
  const sops::Tensor lw = filled({768});
  sops::Tensor var = filled({64});
  for (int64_t i = 0; i < 64; ++i) var.data_ptr<float>()[i] += 2.0f;
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"conv 3x3 pad 1 [8,64,56,56]", [&] { A::convolution(x, w, b, {1}, {1}, {1}, false, {0}, 1); }},
      {"depthwise 3x3 pad 1", [&] { A::convolution(x, wd, b, {1}, {1}, {1}, false, {0}, 64); }},
      {"max_pool2d 3x3 s2 p1", [&] { A::max_pool2d_with_indices(x, {3, 3}, {2, 2}, {1, 1}, {1, 1}, false); }},
      {"softmax [256,1024]", [&] { A::_softmax(s, -1, false); }},
      {"log_softmax [256,1024]", [&] { A::_log_softmax(s, -1, false); }},
      {"softmax dim 0 [256,1024]", [&] { A::_softmax(s, 0, false); }},
      {"layer_norm [512,768]", [&] { A::native_layer_norm(l, {768}, lw, lw, 1e-5); }},
      {"avg_pool2d 3x3 s2 p1", [&] { A::avg_pool2d(x, {3, 3}, {2, 2}, {1, 1}, false, true, std::nullopt); }},
      {"batch_norm eval", [&] { A::_native_batch_norm_legit_no_training(x, b, b, b, var, 0.1, 1e-5); }},
  };
  const int max_threads = sops::get_num_threads();
  const int only = argc > 2 ? std::atoi(argv[2]) : 0;
  for (int threads = only > 0 ? only : 1; threads <= (only > 0 ? only : max_threads); ++threads) {
    sops::set_num_threads(threads);
    std::printf("float32, %d thread(s), median of %d calls: ours / libtorch 2.13\n", threads, rounds);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& [name, f] = cases[i];
      f();
      std::vector<double> ms;
      for (int r = 0; r < rounds; ++r) ms.push_back(sops_bench::ns_per_call(1, f) / 1e6);
      const double ours = sops_bench::median(ms);
      const double theirs = sops_bench::libtorch_nn_ms(static_cast<int>(i), threads, rounds);
      if (theirs > 0) {
        std::printf("  %-30s %9.3f ms  %9.3f ms  %6.2fx\n", name.c_str(), ours, theirs, ours / theirs);
      } else {
        std::printf("  %-30s %9.3f ms  (no libtorch)\n", name.c_str(), ours);
      }
    }
  }
}
