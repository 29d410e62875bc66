// Advanced indexing (aten::index.Tensor): which dimensions of `self` the index tensors
// select, the shape they broadcast to and the result's shape, as PyTorch's
// make_info/computeShape do. Shared by the meta function (the result's shape) and the
// CPU kernel (the element offsets).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "aten/ops/_to_copy.h"
#include "runtime/array_ref.h"
#include "runtime/broadcast.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops::aten::ops_util {

struct IndexPlan {
  // One entry per dimension of self: the index tensor that selects along it (any
  // integral dtype, broadcast to `index_shape`), or undefined (the whole dimension).
  std::vector<Tensor> indices;
  DimVector index_shape;   // the shape the index tensors broadcast to
  DimVector result_shape;  // before (self's dims), index_shape, after (self's dims)
  int64_t before = 0;      // how many of self's unindexed dims come first in the result
};

// The positions where a bool (or uint8) mask is true, one int64 tensor per mask dim
// (PyTorch's nonzero): a mask's data decides the result's shape, so a meta mask is
// refused. A mask on another device is read through a copy on the host (as PyTorch's
// nonzero waits for the device), and its indices go back to that device.
inline std::vector<Tensor> mask_to_indices(const Tensor& device_mask, const Tensor& self,
                                           int64_t dim) {
  SOPS_CHECK_ARG(!device_mask.is_meta(), "indices",
                 "a boolean mask index gives a data-dependent result shape, which meta tensors "
                 "cannot compute (they hold no values)");
  const Device host(DeviceType::CPU);
  const Tensor mask = device_mask.device() == host
                          ? device_mask
                          : aten::_to_copy(device_mask, std::nullopt, std::nullopt, host);
  const int64_t k = mask.dim();
  SOPS_CHECK_ARG(dim + k <= self.dim(), "indices", "too many indices for tensor of dimension ",
                 self.dim(), " (got ", dim + k, ")");
  for (int64_t j = 0; j < k; ++j) {
    SOPS_CHECK_ARG(mask.size(j) == self.size(dim + j), "indices", "The shape of the mask ",
                   mask.sizes(), " at index ", j,
                   " does not match the shape of the indexed tensor ", self.sizes(), " at index ",
                   dim + j);
  }
  std::vector<std::vector<int64_t>> found(static_cast<std::size_t>(k));
  const int64_t n = mask.numel();
  DimVector pos(static_cast<std::size_t>(k), 0);
  const auto* base = static_cast<const char*>(mask.data_ptr());
  const int64_t elem = static_cast<int64_t>(mask.element_size());
  for (int64_t e = 0; e < n; ++e) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) offset += pos[j] * mask.stride(j);
    if (load_as<int64_t>(base + offset * elem, mask.scalar_type()) != 0) {
      for (int64_t j = 0; j < k; ++j) found[j].push_back(pos[j]);
    }
    for (int64_t j = k - 1; j >= 0; --j) {
      if (++pos[j] < mask.size(j)) break;
      pos[j] = 0;
    }
  }
  std::vector<Tensor> result;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t count = static_cast<int64_t>(found[j].size());
    Tensor t = empty({count}, TensorOptions(ScalarType::Long));
    auto* p = t.data_ptr<int64_t>();
    for (int64_t i = 0; i < count; ++i) p[i] = found[j][i];
    result.push_back(device_mask.device() == host
                         ? t
                         : aten::_to_copy(t, std::nullopt, std::nullopt, device_mask.device()));
  }
  return result;
}

inline bool broadcastable(IntArrayRef a, IntArrayRef b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 1; i <= n; ++i) {
    const int64_t x = a[a.size() - i], y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

inline IndexPlan make_index_plan(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  IndexPlan plan;
  plan.indices.resize(static_cast<std::size_t>(self.dim()));
  int64_t dim = 0;
  bool any = false;
  for (const std::optional<Tensor>& index : indices) {
    if (!index.has_value() || !index->defined()) {
      ++dim;
      continue;
    }
    const ScalarType t = index->scalar_type();
    SOPS_CHECK_ARG(t == ScalarType::Long || t == ScalarType::Int || t == ScalarType::Byte ||
                       t == ScalarType::Bool,
                   "indices", "tensors used as indices must be long, int, byte or bool tensors");
    std::vector<Tensor> selected;
    if (t == ScalarType::Byte || t == ScalarType::Bool) {
      selected = mask_to_indices(*index, self, dim);
    } else {
      selected.push_back(*index);
    }
    for (const Tensor& s : selected) {
      SOPS_CHECK_ARG(dim < self.dim(), "indices", "too many indices for tensor of dimension ",
                     self.dim(), " (got ", indices.size(), ")");
      if (!any) {
        plan.index_shape = DimVector(s.sizes());
      } else {
        SOPS_CHECK_ARG(broadcastable(plan.index_shape, s.sizes()), "indices",
                       "shape mismatch: indexing tensors could not be broadcast together with "
                       "shapes ",
                       plan.index_shape, ", ", s.sizes());
        plan.index_shape = infer_size(plan.index_shape, s.sizes());
      }
      plan.indices[static_cast<std::size_t>(dim)] = s;
      any = true;
      ++dim;
    }
  }
  SOPS_CHECK_ARG(dim <= self.dim() || !any, "indices", "too many indices for tensor of dimension ",
                 self.dim(), " (got ", indices.size(), ")");
  SOPS_CHECK_ARG(any, "indices", "index.Tensor: at least one index must be a tensor");
  // The indexed dims: adjacent ones keep their place in the result, others go first.
  int64_t first = -1, last = -1;
  bool adjacent = true;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!plan.indices[static_cast<std::size_t>(d)].defined()) continue;
    if (first < 0) first = d;
    if (last >= 0 && d != last + 1) adjacent = false;
    last = d;
  }
  for (auto& index : plan.indices) {
    if (index.defined()) index = expand(index, plan.index_shape);
  }
  plan.before = adjacent ? first : 0;
  for (int64_t d = 0; d < plan.before; ++d) plan.result_shape.push_back(self.size(d));
  for (const int64_t s : plan.index_shape) plan.result_shape.push_back(s);
  for (int64_t d = plan.before; d < self.dim(); ++d) {
    if (!plan.indices[static_cast<std::size_t>(d)].defined())
      plan.result_shape.push_back(self.size(d));
  }
  return plan;
}

}  // namespace sops::aten::ops_util
