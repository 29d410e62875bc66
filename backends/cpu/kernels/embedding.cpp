// embedding (CompositeExplicitAutograd): rows of a 2-d weight picked by integer
// indices, result sizes indices.sizes() + [weight.size(1)]. Forward only: padding_idx,
// scale_grad_by_freq and sparse change the gradient, not the result. Each row is one
// memcpy when weight's rows are dense (any dtype: bytes are moved, not values).
#include <cstring>

#include "aten/ops/clone.h"
#include "aten/ops/embedding_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/strided_copy.h"

namespace sops::aten::native {
namespace {

template <typename index_t>
void gather_rows(const Tensor& weight, const Tensor& indices, const Tensor& result) {
  const int64_t rows = weight.size(0);
  const int64_t cols = weight.size(1);
  const int64_t n = indices.numel();
  const Tensor idx =
      indices.is_contiguous() ? indices : sops::aten::clone(indices, MemoryFormat::Contiguous);
  const index_t* ids = idx.data_ptr<index_t>();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = static_cast<int64_t>(ids[i]);
    SOPS_CHECK_ARG(r >= 0 && r < rows, "indices", "index out of range in self (index ", r,
                   " for a weight of ", rows, " rows)");
  }
  if (cols == 0) return;
  const std::size_t item = weight.element_size();
  char* out = static_cast<char*>(result.data_ptr());
  const char* base = static_cast<const char*>(weight.data_ptr());
  const int64_t row_stride = weight.stride(0) * static_cast<int64_t>(item);
  if (weight.stride(1) == 1 || cols <= 1) {
    const std::size_t row_bytes = static_cast<std::size_t>(cols) * item;
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(out + static_cast<std::size_t>(i) * row_bytes,
                  base + static_cast<int64_t>(ids[i]) * row_stride, row_bytes);
    }
    return;
  }
  // Rows with a stride: an element loop of the element's size, chosen once.
  const int64_t col_stride = weight.stride(1) * static_cast<int64_t>(item);
  auto gather = [&](auto word) {
    using Word = decltype(word);
    for (int64_t i = 0; i < n; ++i) {
      sops::cpu::detail::copy_elements<Word>(out + i * cols * static_cast<int64_t>(item),
                                             base + static_cast<int64_t>(ids[i]) * row_stride, cols,
                                             static_cast<int64_t>(item), col_stride);
    }
  };
  switch (item) {
    case 1:
      gather(uint8_t{});
      break;
    case 2:
      gather(uint16_t{});
      break;
    case 4:
      gather(uint32_t{});
      break;
    default:
      gather(uint64_t{});
      break;
  }
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t /*padding_idx*/,
                 bool /*scale_grad_by_freq*/, bool /*sparse*/) {
  Tensor result = ops_util::embedding_output(weight, indices);
  if (weight.is_meta() || indices.is_meta() || indices.numel() == 0) return result;
  if (indices.scalar_type() == ScalarType::Long) {
    gather_rows<int64_t>(weight, indices, result);
  } else {
    gather_rows<int32_t>(weight, indices, result);
  }
  return result;
}

// embedding.out, which native_functions.yaml leaves to autogen: the rows gathered into
// `out` directly (backends/cpu/autogen_kernels.yaml).
Tensor& embedding_out(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                      bool scale_grad_by_freq, bool sparse, Tensor& out) {
  const DimVector sizes = ops_util::embedding_sizes(weight, indices);
  if (!cpu_util::can_write_into(out, weight.scalar_type(), sizes, {&weight, &indices})) {
    cpu_util::copy_to_out(out, embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse));
    return out;
  }
  if (indices.numel() == 0) return out;
  if (indices.scalar_type() == ScalarType::Long) {
    gather_rows<int64_t>(weight, indices, out);
  } else {
    gather_rows<int32_t>(weight, indices, out);
  }
  return out;
}

}  // namespace sops::aten::native
