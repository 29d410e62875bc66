// The SymInt queries torch.export leaves in a graph with symbolic dimensions: sym_size.int,
// sym_stride.int, sym_numel, sym_storage_offset and sym_is_contiguous. Each reads one
// piece of a tensor's metadata, never its data, so one kernel serves every device and
// Meta (CompositeExplicitAutograd). The lite runtime calls them boxed and keeps the int
// (or bool) result in a value slot that later shape arguments read.
#include "aten/ops/sym_is_contiguous_native.h"
#include "aten/ops/sym_numel_native.h"
#include "aten/ops/sym_size_native.h"
#include "aten/ops/sym_storage_offset_native.h"
#include "aten/ops/sym_stride_native.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {
namespace {

// `dim` made non-negative as PyTorch's size(dim) and stride(dim) do: a 0-dim tensor has
// no dimension to ask about (unlike a reduction's dim, which wraps a scalar's as 1-d).
int64_t query_dim(const Tensor& self, int64_t dim) {
  SOPS_CHECK_ARG(self.dim() > 0, "dim", "Dimension specified as ", dim,
                 " but tensor has no dimensions");
  return ops_util::wrap_dim(dim, self.dim(), "dim");
}

// c10's _compute_channels_last_contiguous_2d / _3d: walking the dimensions from the
// fastest-moving in memory (C, then W, H, (D), then N), each of size > 1 must have the
// stride of a dense channels-last tensor; size-1 dimensions may have any stride. Only
// a 4-d (2d) or 5-d (3d) tensor can be.
bool channels_last_contiguous(const Tensor& self, MemoryFormat format) {
  static constexpr int64_t kOrder2d[] = {1, 3, 2, 0};
  static constexpr int64_t kOrder3d[] = {1, 4, 3, 2, 0};
  const bool is_2d = format == MemoryFormat::ChannelsLast;
  if (self.dim() != (is_2d ? 4 : 5)) return false;
  int64_t expected = 1;
  bool beyond_int64 = false;  // sizes (0, 2**40, 2**40, 1) make an empty tensor whose
                              // partial products overflow; no stride can equal them
  for (int64_t d : is_2d ? ArrayRef<int64_t>(kOrder2d) : ArrayRef<int64_t>(kOrder3d)) {
    const int64_t size = self.sizes()[static_cast<std::size_t>(d)];
    if (size == 1) continue;
    if (beyond_int64 || self.strides()[static_cast<std::size_t>(d)] != expected) return false;
    beyond_int64 = mul_overflows(expected, size, &expected);
  }
  return true;
}

}  // namespace

SymInt sym_size(const Tensor& self, int64_t dim) {
  return self.sizes()[static_cast<std::size_t>(query_dim(self, dim))];
}

SymInt sym_stride(const Tensor& self, int64_t dim) {
  return self.strides()[static_cast<std::size_t>(query_dim(self, dim))];
}

SymInt sym_numel(const Tensor& self) { return self.numel(); }

SymInt sym_storage_offset(const Tensor& self) { return self.storage_offset(); }

// TensorImpl::is_contiguous(memory_format): the channels-last formats ask for their own
// layout; contiguous_format and preserve_format ask for the row-major one, which every
// empty tensor has in PyTorch (c10's _compute_contiguous answers true for numel 0 first).
// Tensor::is_contiguous() says false for an empty tensor whose strides differ before its
// size-0 dimension (a (0, 3, 2, 2) one made channels-last), hence the numel test here.
SymBool sym_is_contiguous(const Tensor& self, MemoryFormat memory_format) {
  if (memory_format == MemoryFormat::ChannelsLast ||
      memory_format == MemoryFormat::ChannelsLast3d) {
    return channels_last_contiguous(self, memory_format);
  }
  return self.numel() == 0 || self.is_contiguous();
}

}  // namespace sops::aten::native
