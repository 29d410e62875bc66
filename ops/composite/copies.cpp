// clone and _to_copy (CompositeExplicitAutograd): a new tensor laid out by
// memory_format (preserve, the default, keeps self's dense strides; see empty_like),
// filled by a byte copy when the dtype stays (one memcpy for contiguous tensors) or by a
// converting copy. On meta tensors only the result's metadata is made. A tensor of
// another device, or a copy to one (_to_copy's device), is filled by copy_, which
// dispatches to that device's kernel.
#include "aten/ops/_to_copy_native.h"
#include "aten/ops/clone_native.h"
#include "aten/ops/copy.h"
#include "aten/ops/empty_like.h"
#include "runtime/strided_copy.h"

namespace sops::aten::native {

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor result = sops::aten::empty_like(self, std::nullopt, std::nullopt, std::nullopt,
                                         std::nullopt, memory_format);
  if (self.is_cpu()) {
    sops::cpu::copy_same_dtype(result, self);
  } else if (!self.is_meta()) {
    sops::aten::copy_(result, self);  // another backend's copy_
  }
  return result;
}

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool /*non_blocking*/,
                std::optional<MemoryFormat> memory_format) {
  SOPS_CHECK_ARG(layout.value_or(Layout::Strided) == Layout::Strided, "layout",
                 "to(options) doesn't support converting to a different layout, but got "
                 "self.layout being Strided and options.layout set as ",
                 *layout);
  Tensor result =
      sops::aten::empty_like(self, dtype, std::nullopt, device, pin_memory, memory_format);
  if (self.is_meta()) return result;
  if (!self.is_cpu() || !result.is_cpu()) {
    sops::aten::copy_(result, self);  // across devices, or another backend's copy_
    return result;
  }
  if (result.scalar_type() == self.scalar_type()) {
    sops::cpu::copy_same_dtype(result, self);
  } else {
    sops::aten::copy_(result, self);  // the CPU's converting copy
  }
  return result;
}

}  // namespace sops::aten::native
