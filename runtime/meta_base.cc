#include "runtime/meta_base.h"

#include "runtime/error.h"

namespace sops {

void MetaBase::set_output_raw_strided(int64_t /*output_idx*/, IntArrayRef /*sizes*/,
                                      IntArrayRef /*strides_hint*/, TensorOptions /*options*/) {}

void MetaBase::set_output_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                                  TensorOptions options) {
  set_output_raw_strided(output_idx, sizes, strides, options);
}

void MetaBase::set_output_contiguous(int64_t output_idx, IntArrayRef sizes, TensorOptions options) {
  const DimVector strides = contiguous_strides(sizes);
  set_output_strided(output_idx, sizes, strides, options);
}

Tensor create_out(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  if (strides.empty()) return empty(sizes, options);
  return empty_strided(sizes, strides, options);
}

void resize_out(const Tensor& out, IntArrayRef sizes, IntArrayRef strides, TensorOptions options,
                std::string_view argument) {
  SOPS_CHECK_ARG(out.defined(), argument, "expected a tensor but got an undefined one");
  // PyTorch's message (structured kernels' resize_out).
  SOPS_CHECK_ARG(options.dtype() == out.scalar_type(), argument,
                 "Expected out tensor to have dtype ", typemeta_name(options.dtype()), ", but got ",
                 typemeta_name(out.scalar_type()), " instead");
  SOPS_CHECK_ARG(devices_compatible(options.device(), out.device()), argument, "expected device ",
                 options.device(), " but got ", out.device());
  if (out.sizes() == sizes) return;
  if (strides.empty()) {
    out.resize_(sizes);
    return;
  }
  // Grow the storage for the requested strides, then set them.
  const std::size_t needed =
      required_storage_nbytes(sizes, strides, out.element_size(), out.storage_offset());
  if (needed > out.storage().nbytes()) {
    SOPS_CHECK_ARG(out.storage().resizable(), argument, "cannot resize a tensor of sizes ",
                   out.sizes(), " to ", sizes,
                   ": its memory is not resizable (it came from outside sops)");
    out.storage().resize(needed);
  }
  out.as_strided_(sizes, strides);
}

void check_inplace(const Tensor& self, IntArrayRef sizes, TensorOptions options,
                   std::string_view argument) {
  SOPS_CHECK_ARG(self.defined(), argument, "expected a tensor but got an undefined one");
  SOPS_CHECK_ARG(options.dtype() == self.scalar_type(), argument,
                 "an in-place operation cannot change the dtype: the result has dtype ",
                 options.dtype(), " but the tensor has dtype ", self.scalar_type());
  SOPS_CHECK_ARG(devices_compatible(options.device(), self.device()), argument,
                 "an in-place operation cannot change the device: the result is on ",
                 options.device(), " but the tensor is on ", self.device());
  SOPS_CHECK_ARG(self.sizes() == sizes, argument,
                 "an in-place operation cannot change the shape: the result has shape ", sizes,
                 " but the tensor has shape ", self.sizes());
}

}  // namespace sops
