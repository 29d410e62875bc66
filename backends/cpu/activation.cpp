// relu and relu_ (unstructured, as in PyTorch): max(x, 0) keeping NaN and -0.0.
// Registered for CPU and Meta; on meta tensors only the checks and shapes happen.
#include <type_traits>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {
namespace {

void check_relu_dtype(const Tensor& self) {
  SOPS_CHECK_ARG(self.scalar_type() != ScalarType::Bool, "self",
                 "Boolean inputs not supported for relu");
}

// out undefined: the iterator makes it, in self's memory layout (as PyTorch's relu).
Tensor relu_into(const Tensor& out, const Tensor& self) {
  TensorIterator iter(TensorIteratorConfig().add_output(out, "out").add_input(self, "self"));
  if (self.is_meta()) return iter.output(0);
  SOPS_DISPATCH_ALL_TYPES(self.scalar_type(), "relu", [&] {
    sops::cpu_kernel(iter, [](scalar_t x) -> scalar_t {
      if constexpr (std::is_unsigned_v<scalar_t>) {
        return x;
      } else {
        return x < scalar_t(0) ? scalar_t(0) : x;  // NaN and -0.0 pass through
      }
    });
  });
  return iter.output(0);
}

}  // namespace

Tensor relu(const Tensor& self) {
  check_relu_dtype(self);
  return relu_into(Tensor(), self);
}

Tensor& relu_(Tensor& self) {
  check_relu_dtype(self);
  relu_into(self, self);
  return self;
}

}  // namespace sops::aten::native
