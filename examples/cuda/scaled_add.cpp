// scaled_add's meta function (shared by the CPU and CUDA backends) and its CPU impl.
#include <cstdint>

#include "my_ops/NativeFunctions.h"

namespace my::ops::meta {

SOPS_META_FUNC(scaled_add)(const Tensor& self, const Tensor& other, double /*alpha*/) {
  for (const Tensor* t : {&self, &other}) {
    const char* name = t == &self ? "self" : "other";
    SOPS_CHECK_ARG(t->scalar_type() == ::sops::ScalarType::Float, name,
                   "scaled_add: expected a float32 tensor, got ", t->scalar_type());
    SOPS_CHECK_ARG(t->is_contiguous(), name, "scaled_add: expected a contiguous tensor");
  }
  SOPS_CHECK_ARG(other.sizes() == self.sizes(), "other", "scaled_add: expected the size of self ",
                 self.sizes(), ", got ", other.sizes());
  set_output_raw_strided(0, self.sizes(), {}, self.options());
  SOPS_CHECK_ARG(maybe_get_output(0).is_contiguous(), "out",
                 "scaled_add: expected a contiguous out");
}

}  // namespace my::ops::meta

namespace my::ops::native {

SOPS_IMPL_FUNC(scaled_add_out_cpu)
(const Tensor& self, const Tensor& other, double alpha, const Tensor& out) {
  const float* a = self.data_ptr<float>();
  const float* b = other.data_ptr<float>();
  float* r = out.data_ptr<float>();
  const auto scale = static_cast<float>(alpha);
  for (int64_t i = 0; i < out.numel(); ++i) r[i] = a[i] + scale * b[i];
}

}  // namespace my::ops::native
