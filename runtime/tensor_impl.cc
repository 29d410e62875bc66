#include "runtime/tensor_impl.h"

#include "runtime/error.h"

namespace sops {

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t running = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    // PyTorch's check too: a shape with a 0 in front of huge sizes ([0, 2^40, 2^40]) has
    // no element, but its strides still do not fit. (The product past the first
    // dimension is no stride: numel, which callers check.)
    SOPS_CHECK(i == 0 || !__builtin_mul_overflow(running, sizes[i] > 1 ? sizes[i] : 1, &running),
               "the contiguous strides of shape ", sizes, " overflow int64");
  }
  return strides;
}

bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  int64_t expected = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    // A product past int64 means no stride further out can equal it, unless a 0 size
    // there makes the tensor empty (and so contiguous).
    if (__builtin_mul_overflow(expected, sizes[i], &expected)) {
      for (std::size_t j = 0; j < i; ++j) {
        if (sizes[j] == 0) return true;
      }
      return false;
    }
  }
  return true;
}

std::size_t required_storage_nbytes(IntArrayRef sizes, IntArrayRef strides, std::size_t itemsize,
                                    int64_t storage_offset) {
  const int64_t last = checked_max_offset(sizes, strides, storage_offset);
  if (last < storage_offset) return 0;  // no element
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
    // numel may be 0 while the strides overflow ([0, 2^40, 2^40]): PyTorch refuses it.
    SOPS_CHECK(i == 0 || !__builtin_mul_overflow(running, sizes[i] > 1 ? sizes[i] : 1, &running),
               "the contiguous strides of shape ", sizes, " overflow int64");
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
