// TensorImpl: what a Tensor handle points at. Sizes, strides (in elements), a
// storage offset (in elements), the dtype, the device and the shared Storage.
// Kernels use Tensor; TensorImpl is for the runtime and for backends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "runtime/array_ref.h"
#include "runtime/checked_math.h"
#include "runtime/device.h"
#include "runtime/scalar_type.h"
#include "runtime/small_vector.h"
#include "runtime/storage.h"

namespace sops {

// Strides of a contiguous (row-major) tensor of these sizes.
DimVector contiguous_strides(IntArrayRef sizes);
// Whether sizes/strides describe a contiguous layout (dimensions of size 1 may have
// any stride; an empty tensor is contiguous).
bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides);
// Bytes of storage needed to hold these sizes/strides from `storage_offset` on; 0
// for an empty tensor. Throws on overflow.
std::size_t required_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, std::size_t itemsize,
                                    int64_t storage_offset);

class TensorImpl {
 public:
  // A 0-dim tensor (one element) over `storage`.
  TensorImpl(Storage storage, ScalarType dtype, Device device);

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }
  bool is_contiguous() const { return is_contiguous_; }
  const Storage& storage() const { return storage_; }
  // Pointer to the first element; nullptr for meta tensors and empty storage.
  void* data() const {
    char* base = static_cast<char*>(storage_.data());
    return base == nullptr ? nullptr
                           : base + storage_offset_ * static_cast<int64_t>(element_size(dtype_));
  }

  // A tensor made from a Scalar by the runtime (see wrapped_scalar_tensor); it takes
  // part in type promotion as a number, not as a tensor.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool value) { is_wrapped_number_ = value; }

  // Sets the metadata, with no check against the storage (Tensor's methods check).
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                             std::optional<int64_t> storage_offset = std::nullopt);
  void set_sizes_contiguous(IntArrayRef sizes);
  // As set_sizes_contiguous, for a caller that has validated the sizes and computed
  // numel (their product) itself.
  void set_sizes_contiguous(IntArrayRef sizes, int64_t numel);
  void set_storage_offset(int64_t offset) { storage_offset_ = offset; }

 private:
  Storage storage_;
  DimVector sizes_;
  DimVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  ScalarType dtype_;
  Device device_;
  bool is_contiguous_ = true;
  bool is_wrapped_number_ = false;
};

}  // namespace sops
