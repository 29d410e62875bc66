// libtorch's timings of the nn_bench cases (the same shapes and values as ours).
#include "bench/libtorch_nn_baseline.h"

#include <functional>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "bench/timing.h"

namespace sops_bench {
namespace {

at::Tensor filled(std::vector<int64_t> sizes) {
  at::Tensor t = at::empty(sizes, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>((i * 7919) % 17) / 8.0f - 1.0f;
  return t;
}

}  // namespace

double libtorch_nn_ms(int which, int threads, int rounds) {
  at::set_num_threads(threads);
  static const at::Tensor x = filled({8, 64, 56, 56});
  static const at::Tensor w = filled({64, 64, 3, 3});
  static const at::Tensor wd = filled({64, 1, 3, 3});
  static const at::Tensor b = filled({64});
  static const at::Tensor s = filled({256, 1024});
  static const at::Tensor l = filled({512, 768});
  static const at::Tensor lw = filled({768});
  static const at::Tensor var = filled({64}) + 2.0f;
  const std::vector<std::function<void()>> cases = {
      [&] { at::convolution(x, w, b, {1}, {1}, {1}, false, {0}, 1); },
      [&] { at::convolution(x, wd, b, {1}, {1}, {1}, false, {0}, 64); },
      [&] { at::max_pool2d_with_indices(x, {3, 3}, {2, 2}, {1, 1}, {1, 1}, false); },
      [&] { at::_softmax(s, -1, false); },
      [&] { at::_log_softmax(s, -1, false); },
      [&] { at::_softmax(s, 0, false); },
      [&] { at::native_layer_norm(l, {768}, lw, lw, 1e-5); },
      [&] { at::avg_pool2d(x, {3, 3}, {2, 2}, {1, 1}, false, true, std::nullopt); },
      [&] { at::_native_batch_norm_legit_no_training(x, b, b, b, var, 0.1, 1e-5); },
  };
  const auto& f = cases.at(static_cast<std::size_t>(which));
  f();
  std::vector<double> ms;
  for (int r = 0; r < rounds; ++r) ms.push_back(ns_per_call(1, f) / 1e6);
  return median(ms);
}

}  // namespace sops_bench
