#include "runtime/tensor_impl.h"

#include "runtime/error.h"

namespace sops {

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t running = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    SOPS_CHECK(!__builtin_mul_overflow(running, sizes[i] > 1 ? sizes[i] : 1, &running), "sizes ",
               sizes, " hold more elements than int64 can count");
  }
  return strides;
}

bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  int64_t expected = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

int64_t checked_numel(IntArrayRef sizes) {
  int64_t n = 1;
  for (const int64_t s : sizes) {
    SOPS_CHECK(s >= 0, "negative dimension ", s, " in sizes ", sizes);
    SOPS_CHECK(!__builtin_mul_overflow(n, s, &n), "sizes ", sizes,
               " hold more elements than int64 can count");
  }
  return n;
}

std::size_t required_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, std::size_t itemsize,
                                    int64_t storage_offset) {
  SOPS_CHECK(sizes.size() == strides.size(), "sizes ", sizes, " and strides ", strides,
             " have different lengths");
  int64_t last = storage_offset;  // index of the last element, in elements
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    SOPS_CHECK(sizes[i] >= 0, "negative dimension ", sizes[i], " in sizes ", sizes);
    if (sizes[i] == 0) return 0;
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    int64_t span = 0;
    SOPS_CHECK(!__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) &&
                   !__builtin_add_overflow(last, span, &last),
               "sizes ", sizes, " with strides ", strides, " overflow int64");
  }
  int64_t nbytes = 0;
  SOPS_CHECK(!__builtin_mul_overflow(last + 1, static_cast<int64_t>(itemsize), &nbytes), "sizes ",
             sizes, " with strides ", strides, " need more bytes than int64 counts");
  return static_cast<std::size_t>(nbytes);
}

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : storage_(std::move(storage)), dtype_(dtype), device_(device) {}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                       std::optional<int64_t> storage_offset) {
  SOPS_CHECK(sizes.size() == strides.size(), "sizes ", sizes, " and strides ", strides,
             " have different lengths");
  const int64_t numel = checked_numel(sizes);  // validate before changing anything
  SOPS_CHECK(!storage_offset.has_value() || *storage_offset >= 0, "negative storage offset ",
             *storage_offset);
  sizes_ = sizes;
  strides_ = strides;
  if (storage_offset.has_value()) storage_offset_ = *storage_offset;
  numel_ = numel;
  is_contiguous_ = compute_contiguous(sizes_, strides_);
}

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  set_sizes_contiguous(sizes, checked_numel(sizes));
}

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes, int64_t numel) {
  sizes_ = sizes;
  strides_.resize_for_overwrite(sizes.size());
  int64_t running = 1;  // as contiguous_strides, written in place (every element)
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides_[i] = running;
    running *= sizes[i] > 1 ? sizes[i] : 1;
  }
  numel_ = numel;
  is_contiguous_ = true;
}

}  // namespace sops

namespace sops::detail {

void throw_dim_out_of_range(int64_t dim, int64_t min, int64_t max) {
  raise(Error(detail::str("dimension out of range (expected to be in range of [", min, ", ", max,
                          "], but got ", dim, ")")));
}

}  // namespace sops::detail
