// Composites over views and copies (CompositeExplicitAutograd): diagonal and squeeze.dim
// (views), copy, slice_scatter and select_scatter (self copied, then src
// written into the slice or the selected index), index_put (self copied, then
// index_put_) and masked_scatter (self broadcast with mask and copied, then
// masked_scatter_).
#include <optional>

#include "aten/ops/clone.h"
#include "aten/ops/copy.h"
#include "aten/ops/copy_native.h"
#include "aten/ops/diagonal_native.h"
#include "aten/ops/index_put.h"
#include "aten/ops/index_put_native.h"
#include "aten/ops/masked_scatter.h"
#include "aten/ops/masked_scatter_native.h"
#include "aten/ops/select.h"
#include "aten/ops/select_scatter_native.h"
#include "aten/ops/slice.h"
#include "aten/ops/slice_scatter_native.h"
#include "aten/ops/squeeze.h"
#include "aten/ops/squeeze_native.h"
#include "ops/util/op_utils.h"
#include "runtime/broadcast.h"

namespace sops::aten::native {
namespace {

// self copied (its layout kept, as PyTorch's clone), with src written into view(result).
template <typename View>
Tensor scatter_into_copy(const Tensor& self, const Tensor& src, View view) {
  Tensor result = sops::aten::clone(self);
  Tensor slot = view(result);
  SOPS_CHECK_ARG(slot.sizes().equals(src.sizes()), "src",
                 "expected src to have a size equal to the slice of self. src size = ", src.sizes(),
                 ", slice size = ", slot.sizes());
  sops::aten::copy_(slot, src);
  return result;
}

}  // namespace

// The diagonal `offset` above (below, if negative) the main one of dims dim1 and dim2,
// as the last dimension of a view.
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t d1 = ops_util::wrap_dim(dim1, self.dim(), "dim1");
  const int64_t d2 = ops_util::wrap_dim(dim2, self.dim(), "dim2");
  SOPS_CHECK_ARG(d1 != d2, "dim2", "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t start = self.storage_offset();
  int64_t length = 0;
  if (offset >= 0) {
    length = std::max<int64_t>(std::min(self.size(d1), self.size(d2) - offset), 0);
    if (length > 0) start += offset * self.stride(d2);
  } else {
    length = std::max<int64_t>(std::min(self.size(d1) + offset, self.size(d2)), 0);
    if (length > 0) start -= offset * self.stride(d1);
  }
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == d1 || d == d2) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  sizes.push_back(length);
  strides.push_back(self.stride(d1) + self.stride(d2));
  return self.as_strided(sizes, strides, start);
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  return sops::aten::squeeze(self, IntArrayRef{dim});
}

Tensor copy(const Tensor& self, const Tensor& src, bool non_blocking) {
  Tensor result = sops::aten::clone(self);
  return sops::aten::copy_(result, src, non_blocking);
}

Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim,
                     std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  return scatter_into_copy(
      self, src, [&](const Tensor& t) { return sops::aten::slice(t, dim, start, end, step); });
}

Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  return scatter_into_copy(self, src,
                           [&](const Tensor& t) { return sops::aten::select(t, dim, index); });
}

Tensor index_put(const Tensor& self, IOptTensorListRef indices, const Tensor& values,
                 bool accumulate) {
  Tensor result = sops::aten::clone(self);
  return sops::aten::index_put_(result, indices, values, accumulate);
}

// PyTorch's masked_scatter: self and mask broadcast together (the result has that
// shape, contiguous), then masked_scatter_ into the copy.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  const DimVector shape = sops::infer_size(mask.sizes(), self.sizes());
  Tensor result = sops::aten::clone(self.expand(shape), MemoryFormat::Contiguous);
  sops::aten::masked_scatter_(result, mask, source);
  return result;
}

}  // namespace sops::aten::native
