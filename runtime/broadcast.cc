#include "runtime/broadcast.h"

#include <algorithm>

#include "runtime/error.h"

namespace sops {

DimVector infer_size(IntArrayRef a, IntArrayRef b) {
  const std::size_t ndim = std::max(a.size(), b.size());
  DimVector out(ndim);
  for (std::size_t i = 0; i < ndim; ++i) {
    // i counts from the right, out index ndim - 1 - i.
    const int64_t sa = i < a.size() ? a[a.size() - 1 - i] : 1;
    const int64_t sb = i < b.size() ? b[b.size() - 1 - i] : 1;
    SOPS_CHECK(sa == sb || sa == 1 || sb == 1, "shapes ", a, " and ", b,
               " are not broadcastable: the size of tensor a (", sa,
               ") must match the size of tensor b (", sb, ") at non-singleton dimension ",
               ndim - 1 - i);
    out[ndim - 1 - i] = sa == 1 ? sb : sa;
  }
  return out;
}

bool is_expandable_to(IntArrayRef shape, IntArrayRef desired) {
  if (shape.size() > desired.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const int64_t s = shape[shape.size() - 1 - i];
    const int64_t d = desired[desired.size() - 1 - i];
    if (s != d && s != 1) return false;
  }
  return true;
}

Tensor expand(const Tensor& t, IntArrayRef sizes) {
  const std::size_t ndim = sizes.size();
  const std::size_t tdim = static_cast<std::size_t>(t.dim());
  SOPS_CHECK(ndim >= tdim, "expand: the number of sizes provided (", ndim,
             ") must be greater or equal to the number of dimensions in the tensor (", tdim, ")");
  DimVector out_sizes(ndim);
  DimVector out_strides(ndim);
  for (std::size_t i = ndim; i-- > 0;) {
    const std::size_t offset = ndim - 1 - i;  // from the right
    int64_t size = sizes[i];
    if (offset >= tdim) {
      SOPS_CHECK(size >= 0, "expand: -1 is not allowed in a leading, non-existing dimension ", i,
                 " (sizes ", sizes, ")");
      out_sizes[i] = size;
      out_strides[i] = 0;
      continue;
    }
    const std::size_t ti = tdim - 1 - offset;
    const int64_t tsize = t.sizes()[ti];
    if (size == -1) size = tsize;
    if (tsize == size) {
      out_sizes[i] = size;
      out_strides[i] = t.strides()[ti];
    } else {
      SOPS_CHECK(tsize == 1, "expand: the expanded size of the tensor (", size,
                 ") must match the existing size (", tsize, ") at non-singleton dimension ", i,
                 ". Target sizes: ", sizes, ". Tensor sizes: ", t.sizes());
      SOPS_CHECK(size >= 0, "expand: invalid size ", size, " at dimension ", i);
      out_sizes[i] = size;
      out_strides[i] = 0;
    }
  }
  return t.as_strided(out_sizes, out_strides);
}

Tensor Tensor::expand(IntArrayRef sizes) const { return sops::expand(*this, sizes); }

}  // namespace sops
