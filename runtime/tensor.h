// Tensor: a cheap, reference-counted handle to a TensorImpl. Copying a Tensor shares
// the tensor (as in PyTorch); methods that change a tensor (resize_, as_strided_)
// are const because they change the shared impl, not the handle, so that out
// arguments can be `const Tensor&`. A default-constructed Tensor is undefined;
// every accessor but defined() throws sops::Error on it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "runtime/array_ref.h"
#include "runtime/checked_math.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor_impl.h"
#include "runtime/tensor_options.h"
#include "runtime/wrap_dim.h"

namespace sops {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }

  int64_t dim() const { return impl().dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl().numel(); }
  IntArrayRef sizes() const { return impl().sizes(); }
  IntArrayRef strides() const { return impl().strides(); }
  // Size (stride) of dimension d; negative d counts from the end.
  int64_t size(int64_t d) const { return sizes()[maybe_wrap_dim(d, dim(), false)]; }
  int64_t stride(int64_t d) const { return strides()[maybe_wrap_dim(d, dim(), false)]; }
  int64_t storage_offset() const { return impl().storage_offset(); }
  bool is_contiguous() const { return impl().is_contiguous(); }

  ScalarType scalar_type() const { return impl().dtype(); }
  ScalarType dtype() const { return impl().dtype(); }
  std::size_t element_size() const { return sops::element_size(scalar_type()); }
  std::size_t itemsize() const { return element_size(); }
  // numel() * element_size(); an expanded view may count more bytes than int64 holds
  // (2^62 floats), which raises instead of wrapping to a small buffer's size.
  std::size_t nbytes() const {
    return static_cast<std::size_t>(checked_mul(numel(), static_cast<int64_t>(element_size()),
                                                "the byte size numel * element size"));
  }
  Device device() const { return impl().device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_meta() const { return device().is_meta(); }
  TensorOptions options() const { return TensorOptions(scalar_type()).device(device()); }
  const Storage& storage() const { return impl().storage(); }
  bool is_wrapped_number() const { return impl().is_wrapped_number(); }

  // Pointer to the first element (nullptr for meta tensors, which have no data).
  void* data_ptr() const { return impl().data(); }
  const void* const_data_ptr() const { return impl().data(); }
  void* mutable_data_ptr() const { return impl().data(); }
  // Typed pointer; throws sops::Error unless T is the tensor's element type.
  template <typename T>
  T* data_ptr() const {
    check_element_type(scalar_type_of<T>);
    return static_cast<T*>(impl().data());
  }
  template <typename T>
  const T* const_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  T* mutable_data_ptr() const {
    return data_ptr<T>();
  }

  // The single element as a T (converted from the tensor's dtype). Throws unless
  // numel() == 1 and the tensor has data (not meta, not on an accelerator).
  template <typename T>
  T item() const {
    check_item();
    return load_as<T>(impl().data(), scalar_type());
  }
  // The single element as a Scalar of the tensor's category.
  Scalar item() const;

  // A view with other sizes/strides over the same storage. Throws when the view
  // would reach outside the storage or has negative sizes or strides.
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  // As as_strided, changing this tensor in place.
  const Tensor& as_strided_(IntArrayRef sizes, IntArrayRef strides,
                            std::optional<int64_t> storage_offset = std::nullopt) const;
  // Sets sizes and strides (and offset) in place, checked against the storage.
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                             std::optional<int64_t> storage_offset = std::nullopt) const {
    as_strided_(sizes, strides, storage_offset);
  }
  // Resizes in place: new sizes with contiguous strides, growing the storage when
  // it is too small (old elements keep their bytes). Same sizes: nothing changes,
  // strides included.
  const Tensor& resize_(IntArrayRef sizes) const;
  // A broadcast view to `sizes` (stride 0 on expanded dimensions); see broadcast.h.
  Tensor expand(IntArrayRef sizes) const;

  // The same tensor (same impl), as Python's `is`.
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  // Shares storage with other (e.g. one is a view of the other).
  bool is_alias_of(const Tensor& other) const {
    return defined() && other.defined() && storage().is_alias_of(other.storage());
  }
  long use_count() const { return impl_.use_count(); }

  TensorImpl* unsafe_get_impl() const { return impl_.get(); }
  // "Tensor(sizes=[2, 3], dtype=float32, device=cpu)"; "Tensor(undefined)".
  std::string str() const;

 private:
  const TensorImpl& impl() const {
    if (SOPS_UNLIKELY(impl_ == nullptr)) throw_undefined();
    return *impl_;
  }
  TensorImpl& mutable_impl() const {
    if (SOPS_UNLIKELY(impl_ == nullptr)) throw_undefined();
    return *impl_;
  }
  void check_element_type(ScalarType requested) const {
    if (SOPS_UNLIKELY(requested != scalar_type())) throw_element_type(requested);
  }
  void check_item() const;
  [[noreturn]] static void throw_undefined();
  [[noreturn]] void throw_element_type(ScalarType requested) const;

  std::shared_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

// An uninitialized tensor. Meta tensors get no memory; CPU ones 64-byte aligned.
Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
// empty(t.sizes(), t.options()).
Tensor empty_like(const Tensor& t);
// A tensor over memory owned elsewhere (which must outlive it); not resizable.
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
// A 0-dim tensor holding s, of dtype s.type() (bool, int64 or float64).
Tensor scalar_to_tensor(const Scalar& s, Device device = Device(DeviceType::CPU));
// As scalar_to_tensor on cpu, marked as a wrapped number: ops that take a Scalar
// pass it this way to TensorIterator, which promotes it as a number.
Tensor wrapped_scalar_tensor(const Scalar& s);

// Convention for `Tensor?` arguments: `const std::optional<Tensor>&`. An undefined
// Tensor and std::nullopt both mean "absent"; this gives a reference usable either way.
inline const Tensor& value_or_undefined(const std::optional<Tensor>& t) {
  static const Tensor undefined;
  return t.has_value() ? *t : undefined;
}
inline bool is_present(const std::optional<Tensor>& t) { return t.has_value() && t->defined(); }

}  // namespace sops
