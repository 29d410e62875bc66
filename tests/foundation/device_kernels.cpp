// Kernels of testdata/device_ops.yaml. The "CUDA" tensors of the test live in host
// memory, so one host implementation serves both backends.
#include "device_ops/NativeFunctions.h"

namespace device::ops::meta {

SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& /*alpha*/) {
  build_borrowing_binary_op(maybe_get_output(), self, other);
}

}  // namespace device::ops::meta

namespace device::ops::native {

// float32, same shapes: all this test needs (cpu_kernel refuses non-CPU tensors).
SOPS_IMPL_FUNC(add_out)(const Tensor& self, const Tensor& other, const Scalar& alpha,
                        const Tensor& out) {
  const float a = alpha.to<float>();
  for (int64_t i = 0; i < out.numel(); ++i) {
    out.data_ptr<float>()[i] = self.data_ptr<float>()[i] + a * other.data_ptr<float>()[i];
  }
}

Tensor mul(const Tensor& self, const Tensor& other) {
  Tensor result = ::sops::empty(self.sizes(), self.options());
  for (int64_t i = 0; i < self.numel(); ++i) {
    result.data_ptr<float>()[i] = self.data_ptr<float>()[i] * other.data_ptr<float>()[i];
  }
  return result;
}

// The elements' sum, times weight (one element) when given.
Tensor sum_list(TensorList tensors, const std::optional<Tensor>& weight) {
  Tensor result = ::sops::empty(tensors[0].sizes(), tensors[0].options());
  const float w = weight.has_value() ? weight->data_ptr<float>()[0] : 1.0f;
  for (int64_t i = 0; i < result.numel(); ++i) {
    float sum = 0;
    for (const Tensor& t : tensors) sum += t.data_ptr<float>()[i];
    result.data_ptr<float>()[i] = w * sum;
  }
  return result;
}

Tensor ones(int64_t n, std::optional<Device> device) {
  Tensor result =
      ::sops::empty({n}, ::sops::TensorOptions().device(device.value_or(Device(::sops::kCPU))));
  for (int64_t i = 0; i < n; ++i) result.data_ptr<float>()[i] = 1.0f;
  return result;
}

}  // namespace device::ops::native
