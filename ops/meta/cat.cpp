// Meta function of cat (structured, with precomputed dim and first valid tensor).
#include "aten/ops/cat_meta.h"
#include "ops/util/cat_utils.h"
#include "ops/util/op_utils.h"
#include "runtime/memory_overlap.h"
#include "runtime/type_promotion.h"

namespace sops::aten::meta {
namespace {

void check_same_shape_except(const Tensor& first, const Tensor& t, int64_t dim, std::size_t index) {
  SOPS_CHECK_ARG(first.dim() == t.dim(), "tensors",
                 "Tensors must have same number of dimensions: got ", first.dim(), " and ",
                 t.dim());
  for (int64_t d = 0; d < first.dim(); ++d) {
    if (d == dim) continue;
    SOPS_CHECK_ARG(first.size(d) == t.size(d), "tensors",
                   "Sizes of tensors must match except in dimension ", dim, ". Expected size ",
                   first.size(d), " but got size ", t.size(d), " for tensor number ", index,
                   " in the list.");
  }
}

// Channels-last when every input is, else contiguous.
MemoryFormat output_memory_format(const ITensorListRef& tensors) {
  std::optional<MemoryFormat> format;
  for (const Tensor& t : tensors) {
    const MemoryFormat f = ops_util::suggest_memory_format(t);
    if (f == MemoryFormat::Contiguous || (format.has_value() && *format != f)) {
      return MemoryFormat::Contiguous;
    }
    format = f;
  }
  return format.value_or(MemoryFormat::Contiguous);
}

}  // namespace

SOPS_META_FUNC(cat)(const ITensorListRef& tensors, int64_t dim) {
  SOPS_CHECK_ARG(!tensors.empty(), "tensors", "torch.cat(): expected a non-empty list of Tensors");
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    SOPS_CHECK_ARG(tensors[i].dim() > 0, "tensors", "zero-dimensional tensor (at position ", i,
                   ") cannot be concatenated");
  }
  // The dimension is wrapped against the first tensor that is not skipped.
  int64_t wrapped = dim;
  std::size_t valid = tensors.size();
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (ops_util::cat_skipped(tensors[i])) continue;
    if (valid == tensors.size()) {
      valid = i;
      wrapped = ops_util::wrap_dim(dim, tensors[i].dim());
    }
  }

  // Every input takes part in type promotion, skipped ones included.
  ResultTypeState state;
  for (const Tensor& t : tensors) state = update_result_type_state(t, state);
  ScalarType out_dtype = result_type(state);
  const Tensor& out = maybe_get_output();
  if (out.defined()) {
    SOPS_CHECK_ARG(can_cast(out_dtype, out.scalar_type()), "out",
                   "torch.cat(): input types can't be cast to the desired output type ",
                   ops_util::aten_name(out.scalar_type()));
    out_dtype = out.scalar_type();
  }

  DimVector sizes{0};
  Device device = tensors[0].device();
  if (valid < tensors.size()) {
    const Tensor& first = tensors[valid];
    int64_t size_at_dim = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      if (ops_util::cat_skipped(tensors[i])) continue;
      check_same_shape_except(first, tensors[i], wrapped, i);
      size_at_dim =
          checked_add(size_at_dim, tensors[i].size(wrapped), "cat output size", "tensors");
    }
    sizes = DimVector(first.sizes());
    sizes[static_cast<std::size_t>(wrapped)] = size_at_dim;
    device = first.device();
  }
  const DimVector strides = ops_util::strides_for(sizes, output_memory_format(tensors));
  set_output_raw_strided(0, sizes, strides, TensorOptions(out_dtype).device(device));
  // An out= whose elements share memory (expanded) cannot take the result; PyTorch checks
  // it after the resize, where some input is not skipped.
  if (out.defined() && valid < tensors.size()) check_no_internal_overlap(out, "out");
  precomputed.dim = wrapped;
  precomputed.valid = static_cast<int64_t>(valid);
}

}  // namespace sops::aten::meta
