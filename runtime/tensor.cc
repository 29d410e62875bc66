#include "runtime/tensor.h"

#include <sstream>
#include <string>

#include "runtime/allocator.h"
#include "runtime/device_guard.h"

namespace sops {
namespace {

void check_view_fits(const TensorImpl& impl, IntArrayRef sizes, IntArrayRef strides,
                     int64_t offset) {
  SOPS_CHECK(sizes.size() == strides.size(), "as_strided: sizes ", sizes, " and strides ", strides,
             " have different lengths");
  for (const int64_t s : strides) {
    SOPS_CHECK(s >= 0, "as_strided: negative strides are not supported, got ", strides);
  }
  SOPS_CHECK(offset >= 0, "as_strided: negative storage offset ", offset);
  const std::size_t needed =
      required_storage_nbytes(sizes, strides, element_size(impl.dtype()), offset);
  SOPS_CHECK(needed <= impl.storage().nbytes(), "as_strided: sizes ", sizes, ", strides ", strides,
             " and storage offset ", offset, " need ", needed,
             " bytes of storage, but the storage holds ", impl.storage().nbytes());
}

// Undefined and the names-only dtypes (int16, complex) are no tensor's dtype.
void check_tensor_dtype(ScalarType dtype) {
  if (SOPS_LIKELY(is_tensor_dtype(dtype))) return;
  SOPS_CHECK(dtype != ScalarType::Undefined, "cannot make a tensor of undefined dtype");
  std::string held;
  for (int i = 0; i < kNumTensorScalarTypes; ++i) {
    held += i == 0 ? "" : ", ";
    held += to_string(static_cast<ScalarType>(i));
  }
  raise(Error(detail::str("cannot make a tensor of dtype ", to_string(dtype),
                          ": sops tensors hold ", held, " only")));
}

// Memory for a new tensor on options' device. A backend's allocator allocates on its
// current device: the device (cuda:1) is made current for the allocation.
Storage allocate_storage(std::size_t nbytes, TensorOptions options) {
  const DeviceGuard guard(options.device());
  return Storage::allocate(nbytes, get_allocator(options.device_type()));
}

// The device a tensor records: options' device, or, when that has no index (a bare
// cuda), the device its memory is on (cuda:0).
Device device_of_storage(const Storage& storage, TensorOptions options) {
  const bool from_storage =
      !options.device().has_index() && storage.device().type() == options.device_type();
  return from_storage ? storage.device() : options.device();
}

Tensor make_tensor(Storage storage, IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  const Device device = device_of_storage(storage, options);
  auto impl = std::make_shared<TensorImpl>(std::move(storage), options.dtype(), device);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return Tensor(std::move(impl));
}

}  // namespace

void Tensor::throw_undefined() {
  raise(
      Error("this tensor is undefined (a default-constructed Tensor or an absent "
            "optional argument)"));
}

void Tensor::throw_element_type(ScalarType requested) const {
  raise(Error(detail::str("expected scalar type ", to_string(requested), " but found ",
                          to_string(scalar_type()))));
}

void Tensor::check_item() const {
  SOPS_CHECK(numel() == 1, "a tensor with ", numel(),
             " elements cannot be converted to a scalar (item() needs exactly one)");
  SOPS_CHECK(!is_meta(), "cannot read the value of a meta tensor: it has no data");
  SOPS_CHECK(is_cpu(), "item() reads cpu tensors only, this one is on ", device());
}

Scalar Tensor::item() const {
  const ScalarType t = scalar_type();
  if (t == ScalarType::Bool) return Scalar(item<bool>());
  if (is_floating_point(t)) return Scalar(item<double>());
  return Scalar(item<int64_t>());
}

Tensor Tensor::as_strided(IntArrayRef sizes, IntArrayRef strides,
                          std::optional<int64_t> storage_offset) const {
  const TensorImpl& self = impl();
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  check_view_fits(self, sizes, strides, offset);
  auto view = std::make_shared<TensorImpl>(self.storage(), self.dtype(), self.device());
  view->set_sizes_and_strides(sizes, strides, offset);
  return Tensor(std::move(view));
}

const Tensor& Tensor::as_strided_(IntArrayRef sizes, IntArrayRef strides,
                                  std::optional<int64_t> storage_offset) const {
  TensorImpl& self = mutable_impl();
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  check_view_fits(self, sizes, strides, offset);
  self.set_sizes_and_strides(sizes, strides, offset);
  return *this;
}

const Tensor& Tensor::resize_(IntArrayRef sizes) const {
  TensorImpl& self = mutable_impl();
  if (self.sizes() == sizes) return *this;
  const int64_t numel = checked_numel(sizes);
  const std::size_t needed = numel == 0 ? 0
                                        : static_cast<std::size_t>(numel + self.storage_offset()) *
                                              sops::element_size(self.dtype());
  if (needed > self.storage().nbytes()) {
    SOPS_CHECK(self.storage().resizable(), "cannot resize a tensor of sizes ", self.sizes(), " to ",
               sizes, ": its memory is not resizable (it came from outside sops)");
    self.storage().resize(needed);
  }
  self.set_sizes_contiguous(sizes);
  return *this;
}

std::string Tensor::str() const {
  if (!defined()) return "Tensor(undefined)";
  std::ostringstream os;
  os << "Tensor(sizes=" << sizes() << ", dtype=" << scalar_type() << ", device=" << device() << ")";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.str(); }

Tensor empty(IntArrayRef sizes, TensorOptions options) {
  // Contiguous strides follow from the sizes, and so do numel and the byte count
  // (numel * itemsize is what required_storage_nbytes gives for them), so they are
  // computed once here instead of being re-derived and re-checked on the way. Any
  // negative size, overflow or dtype no tensor holds goes the general way, which
  // reports it.
  const std::size_t itemsize = element_size(options.dtype());
  int64_t numel = 1;
  bool valid = is_tensor_dtype(options.dtype());
  for (const int64_t s : sizes)
    valid = valid && s >= 0 && !__builtin_mul_overflow(numel, s, &numel);
  int64_t nbytes = 0;
  valid = valid && !__builtin_mul_overflow(numel, static_cast<int64_t>(itemsize), &nbytes);
  if (SOPS_UNLIKELY(!valid)) {
    // The numel or byte count first (PyTorch: "Storage size calculation overflowed"),
    // then the strides, which overflow on their own for [0, 2^40, 2^40].
    check_tensor_dtype(options.dtype());
    (void)checked_nbytes(sizes, itemsize);
    return empty_strided(sizes, contiguous_strides(sizes), options);
  }
  Storage storage = allocate_storage(static_cast<std::size_t>(nbytes), options);
  const Device device = device_of_storage(storage, options);
  auto impl = std::make_shared<TensorImpl>(std::move(storage), options.dtype(), device);
  impl->set_sizes_contiguous(sizes, numel);
  return Tensor(std::move(impl));
}

Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_tensor_dtype(options.dtype());
  for (const int64_t s : strides) {
    SOPS_CHECK(s >= 0, "empty_strided: negative strides are not supported, got ", strides);
  }
  const std::size_t nbytes =
      required_storage_nbytes(sizes, strides, element_size(options.dtype()), 0);
  return make_tensor(allocate_storage(nbytes, options), sizes, strides, options);
}

Tensor empty_like(const Tensor& t) { return empty(t.sizes(), t.options()); }

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options) {
  return from_blob(data, sizes, contiguous_strides(sizes), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_tensor_dtype(options.dtype());
  const std::size_t nbytes =
      required_storage_nbytes(sizes, strides, element_size(options.dtype()), 0);
  Storage storage = Storage::wrap(DataPtr(data, nullptr, nullptr, options.device()), nbytes);
  return make_tensor(std::move(storage), sizes, strides, options);
}

namespace {

// The last cpu tensor scalar_to_tensor made on this thread, per kind of Scalar: handed
// out again when nothing else holds it or its storage (so no caller can see its value
// change), which spares operators that wrap a Scalar argument (mul.Scalar, eq.Scalar,
// ...) two allocations per call.
Tensor reusable_scalar_tensor(const Scalar& s) {
  thread_local Tensor cache[3];
  Tensor& cached = cache[static_cast<std::size_t>(s.kind())];
  if (cached.defined() && cached.use_count() == 1 && cached.storage().use_count() == 1 &&
      cached.dim() == 0 && cached.storage_offset() == 0 && cached.scalar_type() == s.type()) {
    cached.unsafe_get_impl()->set_wrapped_number(false);
    return cached;
  }
  cached = empty({}, TensorOptions(s.type()));
  return cached;
}

}  // namespace

Tensor scalar_to_tensor(const Scalar& s, Device device) {
  SOPS_CHECK(device.is_cpu() || device.is_meta(), "scalar_to_tensor: cannot write a value on ",
             device, " (cpu and meta only)");
  Tensor t = device.is_cpu() ? reusable_scalar_tensor(s)
                             : empty({}, TensorOptions(s.type()).device(device));
  if (device.is_cpu()) {
    switch (s.kind()) {
      case Scalar::Kind::Bool:
        *t.data_ptr<bool>() = s.to_unchecked<bool>();
        break;
      case Scalar::Kind::Integral:
        *t.data_ptr<int64_t>() = s.to_unchecked<int64_t>();
        break;
      case Scalar::Kind::Floating:
        *t.data_ptr<double>() = s.to_unchecked<double>();
        break;
    }
  }
  return t;
}

Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = scalar_to_tensor(s);
  t.unsafe_get_impl()->set_wrapped_number(true);
  return t;
}

}  // namespace sops
