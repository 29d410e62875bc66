// The kernels of testdata/boxed_ops.yaml, for //tests/foundation:boxed_registry_test.
// They compute nothing of interest: each returns what it was called with (as the
// elements of a double tensor), so a boxed call shows which values reached the kernel.
#include <initializer_list>
#include <string_view>
#include <tuple>

#include "boxed_ops/NativeFunctions.h"

namespace boxed::ops::native {
namespace {

Tensor doubles(std::initializer_list<double> values) {
  Tensor t = ::sops::empty({static_cast<int64_t>(values.size())},
                           ::sops::TensorOptions(::sops::ScalarType::Double));
  double* data = t.data_ptr<double>();
  for (double v : values) *data++ = v;
  return t;
}

void fill(const Tensor& self, const Scalar& scale, const Tensor& first, const Tensor& second) {
  const float* x = self.data_ptr<float>();
  const float s = scale.to<float>();
  for (int64_t i = 0; i < self.numel(); ++i) {
    first.data_ptr<float>()[i] = x[i] * s;
    second.data_ptr<float>()[i] = x[i] + s;
  }
}

}  // namespace

// Not aten's relu: a constant 42 of self's shape (so a test can tell the two apart).
Tensor boxed_relu(const Tensor& self) {
  Tensor result = ::sops::empty(self.sizes(), self.options());
  for (int64_t i = 0; i < result.numel(); ++i) result.data_ptr<float>()[i] = 42;
  return result;
}

// [kernel_size..., stride.size(), stride..., padding..., ceil_mode]
Tensor window_cpu(const Tensor& /*self*/, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode) {
  const double s0 = stride.size() > 0 ? static_cast<double>(stride[0]) : -1;
  const double s1 = stride.size() > 1 ? static_cast<double>(stride[1]) : -1;
  return doubles({static_cast<double>(kernel_size[0]), static_cast<double>(kernel_size[1]),
                  static_cast<double>(stride.size()), s0, s1, static_cast<double>(padding[0]),
                  static_cast<double>(padding[1]), ceil_mode ? 1.0 : 0.0});
}

// [mode == "mean" ? 1 : mode == "sum" ? 2 : 0, eps, dim, dtype or -1, mask...]
Tensor describe_cpu(const Tensor& /*self*/, std::string_view mode, double eps, int64_t dim,
                    std::optional<ScalarType> dtype, std::array<bool, 3> mask) {
  const double m = mode == "mean" ? 1 : mode == "sum" ? 2 : 0;
  const double d = dtype.has_value() ? static_cast<double>(static_cast<int>(*dtype)) : -1;
  return doubles({m, eps, static_cast<double>(dim), d, mask[0] ? 1.0 : 0.0, mask[1] ? 1.0 : 0.0,
                  mask[2] ? 1.0 : 0.0});
}

// (self * scale, self + scale), float tensors.
std::tuple<Tensor, Tensor> pair_cpu(const Tensor& self, const Scalar& scale) {
  Tensor first = ::sops::empty(self.sizes(), self.options());
  Tensor second = ::sops::empty(self.sizes(), self.options());
  fill(self, scale, first, second);
  return {first, second};
}

std::tuple<Tensor&, Tensor&> pair_out_cpu(const Tensor& self, const Scalar& scale, Tensor& first,
                                          Tensor& second) {
  first.resize_(self.sizes());
  second.resize_(self.sizes());
  fill(self, scale, first, second);
  return {first, second};
}

}  // namespace boxed::ops::native
