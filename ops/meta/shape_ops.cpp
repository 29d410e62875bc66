// The view and reshape operators: new sizes, strides and storage offset over self's
// storage (CompositeExplicitAutograd, so one kernel serves cpu and meta tensors; no data
// is touched), and reshape (CompositeImplicitAutograd), a view when strides allow, else
// a contiguous copy. Rules and messages are PyTorch's (TensorShape.cpp).
#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "aten/ops/_unsafe_view_native.h"
#include "aten/ops/alias_native.h"
#include "aten/ops/clone.h"
#include "aten/ops/expand_native.h"
#include "aten/ops/reshape_native.h"
#include "aten/ops/select_native.h"
#include "aten/ops/slice_native.h"
#include "aten/ops/split_native.h"
#include "aten/ops/split_with_sizes_native.h"
#include "aten/ops/squeeze_native.h"
#include "aten/ops/unsqueeze_native.h"
#include "aten/ops/view_native.h"
#include "ops/util/op_utils.h"
#include "ops/util/view_utils.h"

namespace sops::aten::native {
namespace {

// self's elements dim-th from `start`, `length` of them (PyTorch's narrow, already
// checked by the caller).
Tensor narrow_unchecked(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  DimVector sizes(self.sizes());
  sizes[static_cast<std::size_t>(dim)] = length;
  // An empty view's strides are not bounded by its storage: the offset is checked.
  return self.as_strided(
      sizes, self.strides(),
      checked_add(self.storage_offset(), checked_mul(start, self.stride(dim), "offset", "start"),
                  "offset", "start"));
}

}  // namespace

// PyTorch's _unsafe_view is view without autograd's view tracking, which sops has not.
Tensor _unsafe_view(const Tensor& self, IntArrayRef size) { return view(self, size); }

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  const DimVector sizes = ops_util::infer_size(shape, self.numel(), "shape");
  const std::optional<DimVector> strides =
      ops_util::view_strides(self.sizes(), self.strides(), sizes);
  if (strides.has_value()) return self.as_strided(sizes, *strides, self.storage_offset());
  // No strides express the new shape over self's memory: a contiguous copy, viewed.
  const Tensor copy = sops::aten::clone(self, MemoryFormat::Contiguous);
  return copy.as_strided(sizes, contiguous_strides(sizes), 0);
}

Tensor expand(const Tensor& self, IntArrayRef size, bool /*implicit*/) {
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t tensor_dim = self.dim();
  SOPS_CHECK_ARG(ndim >= tensor_dim, "size", "expand(", self.str(), ", size=", size,
                 "): the number of sizes provided (", ndim,
                 ") must be greater or equal to the number of dimensions in the tensor (",
                 tensor_dim, ")");
  DimVector sizes(static_cast<std::size_t>(ndim));
  DimVector strides(static_cast<std::size_t>(ndim));
  if (tensor_dim == 0) {
    // A zero-dim tensor: every dimension is new and reads its one element (stride 0,
    // as PyTorch's inferExpandGeometry gives, size-1 dimensions too).
    for (std::size_t i = 0; i < size.size(); ++i) {
      SOPS_CHECK_ARG(size[i] != -1, "size",
                     "The expanded size of the tensor (-1) isn't "
                     "allowed in a leading, non-existing dimension ",
                     i);
      SOPS_CHECK_ARG(size[i] >= 0, "size", "Trying to create tensor with negative dimension ",
                     size[i], ": ", size);
      sizes[i] = size[i];
      strides[i] = 0;
    }
    return self.as_strided(sizes, strides, self.storage_offset());
  }
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const auto ui = static_cast<std::size_t>(i);
    const int64_t dim = tensor_dim - (ndim - i);
    int64_t s = dim >= 0 ? self.size(dim) : 1;
    int64_t stride =
        dim >= 0
            ? self.stride(dim)
            : (i + 1 < ndim ? checked_mul(sizes[ui + 1], strides[ui + 1], "expanded stride", "size")
                            : 1);
    int64_t target = size[ui];
    if (target == -1) {
      SOPS_CHECK_ARG(dim >= 0, "size", "The expanded size of the tensor (", target,
                     ") isn't allowed in a leading, non-existing dimension ", i);
      target = s;
    }
    if (s != target) {
      SOPS_CHECK_ARG(s == 1, "size", "The expanded size of the tensor (", target,
                     ") must match the existing size (", s, ") at non-singleton dimension ", i,
                     ".  Target sizes: ", size, ".  Tensor sizes: ", self.sizes());
      SOPS_CHECK_ARG(target >= 0, "size", "Trying to create tensor with negative dimension ",
                     target, ": ", size);
      s = target;
      stride = 0;
    }
    sizes[ui] = s;
    strides[ui] = stride;
  }
  return self.as_strided(sizes, strides, self.storage_offset());
}

Tensor alias(const Tensor& self) {
  return self.as_strided(self.sizes(), self.strides(), self.storage_offset());
}

Tensor squeeze(const Tensor& self, IntArrayRef dim) {
  const int64_t ndim = self.dim();
  SOPS_CHECK_ARG(ndim <= 64, "self", "squeeze: at most 64 dimensions are supported, got ", ndim);
  uint64_t mask = 0;
  for (const int64_t d : dim) {
    const int64_t w = ops_util::wrap_dim(d, ndim);
    const uint64_t bit = uint64_t{1} << w;
    SOPS_CHECK_ARG((mask & bit) == 0, "dim", "dim ", w,
                   " appears multiple times in the list of dims");
    mask |= bit;
  }
  DimVector sizes;
  DimVector strides;
  for (int64_t d = 0; d < ndim; ++d) {
    if ((mask >> d & 1) == 0 || self.size(d) != 1) {
      sizes.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
  }
  return self.as_strided(sizes, strides, self.storage_offset());
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  const int64_t d = ops_util::wrap_dim(dim, self.dim() + 1);
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  const int64_t stride =
      d >= self.dim() ? 1 : checked_mul(self.size(d), self.stride(d), "unsqueezed stride", "self");
  sizes.insert(static_cast<std::size_t>(d), 1);
  strides.insert(static_cast<std::size_t>(d), stride);
  return self.as_strided(sizes, strides, self.storage_offset());
}

// The inplace views: self itself takes the view's sizes, strides and offset.
Tensor& squeeze_(Tensor& self, IntArrayRef dim) {
  const Tensor view = squeeze(self, dim);
  self.as_strided_(view.sizes(), view.strides(), view.storage_offset());
  return self;
}

Tensor& unsqueeze_(Tensor& self, int64_t dim) {
  const Tensor view = unsqueeze(self, dim);
  self.as_strided_(view.sizes(), view.strides(), view.storage_offset());
  return self;
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  SOPS_CHECK_ARG(self.dim() > 0, "self", "slice() cannot be applied to a 0-dim tensor.");
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  SOPS_CHECK_ARG(step > 0, "step", "slice step must be positive");
  const int64_t size = self.size(d);
  int64_t start_val = start.value_or(0);
  int64_t end_val = end.value_or(std::numeric_limits<int64_t>::max());
  if (start_val == std::numeric_limits<int64_t>::max()) start_val = 0;
  if (start_val < 0) start_val += size;
  if (end_val < 0) end_val += size;
  start_val = std::clamp<int64_t>(start_val, 0, size);
  if (end_val < start_val) {
    end_val = start_val;
  } else if (end_val >= size) {
    end_val = size;
  }
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  const auto ud = static_cast<std::size_t>(d);
  const int64_t len = end_val - start_val;
  sizes[ud] = len / step + (len % step != 0 ? 1 : 0);  // round up, without overflow
  // A huge step leaves one element, whose stride is never used: PyTorch's product then
  // wraps around, here it keeps the stride it had.
  if (mul_overflows(strides[ud], step, &strides[ud])) {
    SOPS_CHECK_ARG(sizes[ud] <= 1, "step", "slice: stride ", self.stride(d), " times step ", step,
                   " overflows int64");
    strides[ud] = self.stride(d);
  }
  return self.as_strided(
      sizes, strides,
      checked_add(self.storage_offset(),
                  checked_mul(start_val, self.stride(d), "slice offset", "start"), "slice offset",
                  "start"));
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  SOPS_CHECK_ARG(self.dim() > 0, "self", "select() cannot be applied to a 0-dim tensor.");
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t size = self.size(d);
  SOPS_CHECK_ARG(index >= -size && index < size, "index", "select(): index ", index,
                 " out of range for tensor of size ", self.sizes(), " at dimension ", d);
  if (index < 0) index += size;
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  sizes.erase(static_cast<std::size_t>(d));
  strides.erase(static_cast<std::size_t>(d));
  return self.as_strided(
      sizes, strides,
      checked_add(self.storage_offset(), checked_mul(index, self.stride(d), "offset", "index"),
                  "offset", "index"));
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  SOPS_CHECK_ARG(self.dim() != 0, "self", "split expects at least a 1-dimensional tensor");
  SOPS_CHECK_ARG(split_size >= 0, "split_size",
                 "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t dim_size = self.size(d);
  SOPS_CHECK_ARG(split_size > 0 || dim_size == 0, "split_size",
                 "split_size can only be 0 if dimension size is 0, but got dimension size of ",
                 dim_size);
  // One split when split_size is 0 (and the dimension empty) or larger than the dimension.
  // ceil(dim_size / split_size) without forming dim_size + split_size - 1, which a huge
  // split_size overflows; the last split holds what the others leave (at most dim_size).
  const int64_t num_splits =
      split_size == 0
          ? 1
          : std::max<int64_t>(dim_size / split_size + (dim_size % split_size != 0 ? 1 : 0), 1);
  const int64_t last_split_size = split_size == 0 ? 0 : dim_size - (num_splits - 1) * split_size;
  std::vector<Tensor> splits;
  splits.reserve(static_cast<std::size_t>(num_splits));
  for (int64_t i = 0; i < num_splits; ++i) {
    const int64_t length = i < num_splits - 1 ? split_size : last_split_size;
    splits.push_back(narrow_unchecked(self, d, i * split_size, length));
  }
  return splits;
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  SOPS_CHECK_ARG(self.dim() != 0, "self", "split expects at least a 1-dimensional tensor");
  const int64_t d = ops_util::wrap_dim(dim, self.dim());
  const int64_t dim_size = self.size(d);
  int64_t total = 0;
  for (const int64_t length : split_sizes) {
    SOPS_CHECK_ARG(length >= 0, "split_sizes",
                   "split_with_sizes expects split_sizes have only non-negative entries, but got "
                   "split_sizes=",
                   split_sizes);
    total += length;
  }
  SOPS_CHECK_ARG(total == dim_size, "split_sizes",
                 "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
                 " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> splits;
  splits.reserve(split_sizes.size());
  int64_t start = 0;
  for (const int64_t length : split_sizes) {
    splits.push_back(narrow_unchecked(self, d, start, length));
    start += length;
  }
  return splits;
}

}  // namespace sops::aten::native
