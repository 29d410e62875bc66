// Kernels of testdata/two_backend_ops.yaml. The "CUDA" tensors of the test live in host
// memory, so host loops serve both backends; each kernel records its name.
#include "tests/static_dispatch/two_backend_kernels.h"

#include "two_backend_ops/Functions.h"
#include "two_backend_ops/NativeFunctions.h"

namespace two::ops::testing {

std::vector<std::string>& calls() {
  static std::vector<std::string> ran;
  return ran;
}

}  // namespace two::ops::testing

namespace two::ops::meta {

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& /*alpha*/) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

SOPS_META_FUNC2(mul, Tensor)(const Tensor& self, const Tensor& other) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace two::ops::meta

namespace two::ops::native {
namespace {

using testing::calls;

// float32, same shapes: all these tests need.
void add_into(const Tensor& self, const Tensor& other, const Scalar& alpha, const Tensor& out) {
  const float a = alpha.to<float>();
  for (int64_t i = 0; i < out.numel(); ++i) {
    out.data_ptr<float>()[i] = self.data_ptr<float>()[i] + a * other.data_ptr<float>()[i];
  }
}

Tensor scaled(const Tensor& self, double factor) {
  Tensor result = ::sops::empty(self.sizes(), self.options());
  if (self.device().type() == ::sops::DeviceType::Meta) return result;
  for (int64_t i = 0; i < self.numel(); ++i) {
    result.data_ptr<float>()[i] = static_cast<float>(self.data_ptr<float>()[i] * factor);
  }
  return result;
}

Tensor summed(TensorList tensors) {
  Tensor result = ::sops::empty({1}, tensors[0].options());
  float total = 0;
  for (const Tensor& t : tensors) {
    for (int64_t i = 0; i < t.numel(); ++i) total += t.data_ptr<float>()[i];
  }
  result.data_ptr<float>()[0] = total;
  return result;
}

Tensor made(int64_t n, Device device) {
  Tensor result = ::sops::empty({n}, TensorOptions().device(device));
  for (int64_t i = 0; i < n; ++i) result.data_ptr<float>()[i] = static_cast<float>(i);
  return result;
}

}  // namespace

SOPS_IMPL_FUNC(add_out_cpu)(const Tensor& self, const Tensor& other, const Scalar& alpha,
                            const Tensor& out) {
  calls().push_back("add_out_cpu");
  add_into(self, other, alpha, out);
}

SOPS_IMPL_FUNC(add_out_cuda)(const Tensor& self, const Tensor& other, const Scalar& alpha,
                             const Tensor& out) {
  calls().push_back("add_out_cuda");
  add_into(self, other, alpha, out);
}

SOPS_IMPL_FUNC(mul_out)(const Tensor& self, const Tensor& other, const Tensor& out) {
  calls().push_back("mul_out");
  for (int64_t i = 0; i < out.numel(); ++i) {
    out.data_ptr<float>()[i] = self.data_ptr<float>()[i] * other.data_ptr<float>()[i];
  }
}

Tensor neg_cpu(const Tensor& self) {
  calls().push_back("neg_cpu");
  return scaled(self, -1.0);
}

Tensor neg_cuda(const Tensor& self) {
  calls().push_back("neg_cuda");
  return scaled(self, -1.0);
}

Tensor neg_meta(const Tensor& self) {
  calls().push_back("neg_meta");
  return ::sops::empty(self.sizes(), self.options());
}

Tensor copy_from_cpu(const Tensor& self, const Tensor& /*src*/) {
  calls().push_back("copy_from_cpu");
  return self;
}

Tensor copy_from_cuda(const Tensor& self, const Tensor& /*src*/) {
  calls().push_back("copy_from_cuda");
  return self;
}

Tensor double_it(const Tensor& self) {
  calls().push_back("double_it");
  return ::two::ops::add(self, self);  // the dispatcher API: statically dispatched
}

Tensor scale_cpu(const Tensor& self, double factor) {
  calls().push_back("scale_cpu");
  return scaled(self, factor);
}

Tensor scale_generic(const Tensor& self, double factor) {
  calls().push_back("scale_generic");
  return scaled(self, factor);
}

Tensor cpu_only(const Tensor& self) {
  calls().push_back("cpu_only");
  return scaled(self, 1.0);
}

Tensor sum_all_cpu(TensorList tensors) {
  calls().push_back("sum_all_cpu");
  return summed(tensors);
}

Tensor sum_all_cuda(TensorList tensors) {
  calls().push_back("sum_all_cuda");
  return summed(tensors);
}

Tensor make_cpu(int64_t n, std::optional<Device> device) {
  calls().push_back("make_cpu");
  return made(n, device.value_or(Device(::sops::DeviceType::CPU)));
}

Tensor make_cuda(int64_t n, std::optional<Device> device) {
  calls().push_back("make_cuda");
  return made(n, *device);
}

Tensor move_cpu(const Tensor& self, std::optional<Device> /*device*/) {
  calls().push_back("move_cpu");
  return self;
}

Tensor move_cuda(const Tensor& self, std::optional<Device> /*device*/) {
  calls().push_back("move_cuda");
  return self;
}

}  // namespace two::ops::native
