// Dispatch overhead of a structured 1-element add: through the dispatcher, called
// directly, and the output allocation alone (the baseline), in one run.
//   tools/bazel run -c opt //tests/runtime:dispatch_bench
#include <chrono>
#include <cstdio>

#include "runtime/sops.h"

namespace {

using sops::IntArrayRef;
using sops::Scalar;
using sops::Tensor;
using sops::TensorOptions;

struct structured_add_Tensor : sops::TensorIteratorBase {
  void meta(const Tensor& self, const Tensor& other, const Scalar&) {
    build_borrowing_binary_op(maybe_get_output(), self, other);
  }
  void impl(const Tensor&, const Tensor&, const Scalar& alpha, const Tensor&) {
    SOPS_DISPATCH_ALL_TYPES(common_dtype(), "add", [&] {
      const auto a = alpha.to<scalar_t>();
      sops::cpu_kernel(*this, [=](scalar_t x, scalar_t y) -> scalar_t { return x + a * y; });
    });
  }
};

struct add_functional final : structured_add_Tensor {
  void set_output_raw_strided(int64_t i, IntArrayRef sizes, IntArrayRef strides,
                              TensorOptions options) override {
    outputs_[0] = sops::create_out(sizes, strides, options);
    structured_add_Tensor::set_output_raw_strided(i, sizes, strides, options);
  }
  const Tensor& maybe_get_output(int64_t) override { return outputs_[0]; }
  Tensor outputs_[1];
};

Tensor wrapper_CPU_add_Tensor(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  try {
    add_functional op;
    op.meta(self, other, alpha);
    op.impl(self, other, alpha, op.outputs_[0]);
    return std::move(op.outputs_[0]);
  } catch (sops::Error& e) {
    e.with_operator("add.Tensor");
    throw;
  }
}

const sops::RegisterOperator kDef(
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
const sops::RegisterKernel kCpu("add.Tensor", sops::DispatchKey::CPU, &wrapper_CPU_add_Tensor);

template <typename F>
double ns_per_call(int n, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() / n;
}

}  // namespace

int main() {
  const auto add = sops::Dispatcher::singleton()
                       .find("add.Tensor")
                       .typed<Tensor(const Tensor&, const Tensor&, const Scalar&)>();
  const Tensor a = sops::empty({1});
  const Tensor b = sops::empty({1});
  a.data_ptr<float>()[0] = 1;
  b.data_ptr<float>()[0] = 2;
  const int n = 1000000;
  float sink = 0;
  for (int round = 0; round < 3; ++round) {
    const double empty = ns_per_call(n, [&] { sink += sops::empty({1}).numel(); });
    const double direct =
        ns_per_call(n, [&] { sink += wrapper_CPU_add_Tensor(a, b, 1).data_ptr<float>()[0]; });
    const double dispatched =
        ns_per_call(n, [&] { sink += add.call(a, b, 1).data_ptr<float>()[0]; });
    std::printf(
        "empty %.0f ns | direct add %.0f ns (%.2fx empty) | dispatched add %.0f ns "
        "(%.2fx direct)\n",
        empty, direct, direct / empty, dispatched, dispatched / direct);
  }
  return sink == 0 ? 1 : 0;
}
