// _local_scalar_dense (what Tensor.item() calls): the value of a tensor's first element as
// a Scalar of its kind (bool, integral or floating); item() checks for one element,
// _local_scalar_dense does not, as in PyTorch. Registered for Meta too, where it is refused: a
// meta tensor has no value, so anything computed from one is data-dependent.
#include "aten/ops/_local_scalar_dense_native.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {

Scalar _local_scalar_dense(const Tensor& self) {
  SOPS_CHECK_ARG(self.numel() > 0, "self", "_local_scalar_dense: Empty tensor not supported");
  SOPS_CHECK_ARG(!self.is_meta(), "self",
                 "Tensor.item() cannot be called on meta tensors: its value is data-dependent");
  return SOPS_DISPATCH_EVERY_TYPE(self.scalar_type(), "_local_scalar_dense",
                                  [&] { return Scalar(*self.data_ptr<scalar_t>()); });
}

}  // namespace sops::aten::native
