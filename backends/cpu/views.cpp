// view: the same storage seen with other sizes, when strides exist that make that
// possible without copying (registered for CPU and Meta: it touches no data).
#include <optional>

#include "aten_cpu/NativeFunctions.h"
#include "runtime/small_vector.h"

namespace sops::aten::native {
namespace {

// `shape` with its one -1 replaced so that the element count is `numel` (PyTorch's
// infer_size, with its messages).
DimVector infer_size(IntArrayRef shape, int64_t numel) {
  DimVector result(shape);
  int64_t known = 1;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      SOPS_CHECK_ARG(!inferred.has_value(), "size", "only one dimension can be inferred");
      inferred = i;
    } else {
      SOPS_CHECK_ARG(shape[i] >= 0, "size", "invalid shape dimension ", shape[i], " at index ", i,
                     " of shape ", shape);
      known *= shape[i];
    }
  }
  if (inferred.has_value()) {
    SOPS_CHECK_ARG(known != 0, "size", "cannot reshape tensor of 0 elements into shape ", shape,
                   " because the unspecified dimension size -1 can be any value and is ambiguous");
    SOPS_CHECK_ARG(numel % known == 0, "size", "shape '", shape, "' is invalid for input of size ",
                   numel);
    result[*inferred] = numel / known;
  } else {
    SOPS_CHECK_ARG(numel == known, "size", "shape '", shape, "' is invalid for input of size ",
                   numel);
  }
  return result;
}

// Strides giving `new_sizes` over the memory that (old_sizes, old_strides) describe,
// or nullopt when there are none. The old dimensions are grouped into chunks that are
// contiguous with one another (each dimension's stride is the next one's extent);
// the new dimensions must split each chunk exactly, taking strides from within it.
std::optional<DimVector> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                      IntArrayRef new_sizes) {
  DimVector strides(new_sizes.size(), 1);
  if (old_sizes.empty()) return strides;  // a 0-dim tensor: any shape of one element
  int64_t numel = 1;
  for (const int64_t s : old_sizes) numel *= s;
  if (numel == 0) {
    if (old_sizes.equals(new_sizes)) return DimVector(old_strides);
    // Contiguous strides (size-0 dimensions count as 1).
    int64_t step = 1;
    for (std::size_t i = new_sizes.size(); i-- > 0;) {
      strides[i] = step;
      step *= new_sizes[i] > 1 ? new_sizes[i] : 1;
    }
    return strides;
  }
  int64_t new_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_stride = old_strides.back();  // stride of the chunk's innermost dimension
  int64_t old_numel = 1;                      // elements in the chunk so far
  int64_t new_numel = 1;                      // elements the new dimensions covered so far
  for (int64_t old_d = static_cast<int64_t>(old_sizes.size()) - 1; old_d >= 0; --old_d) {
    old_numel *= old_sizes[static_cast<std::size_t>(old_d)];
    const bool chunk_ends =
        old_d == 0 || (old_sizes[static_cast<std::size_t>(old_d - 1)] != 1 &&
                       old_strides[static_cast<std::size_t>(old_d - 1)] != old_numel * chunk_stride);
    if (!chunk_ends) continue;
    while (new_d >= 0 && (new_numel < old_numel || new_sizes[static_cast<std::size_t>(new_d)] == 1)) {
      strides[static_cast<std::size_t>(new_d)] = new_numel * chunk_stride;
      new_numel *= new_sizes[static_cast<std::size_t>(new_d)];
      --new_d;
    }
    if (new_numel != old_numel) return std::nullopt;
    if (old_d > 0) {
      chunk_stride = old_strides[static_cast<std::size_t>(old_d - 1)];
      old_numel = 1;
      new_numel = 1;
    }
  }
  if (new_d != -1) return std::nullopt;
  return strides;
}

}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) {
  const DimVector sizes = infer_size(size, self.numel());
  const std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), sizes);
  SOPS_CHECK_ARG(strides.has_value(), "self",
                 "view size is not compatible with input tensor's size and stride (at least one "
                 "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return self.as_strided(sizes, *strides, self.storage_offset());
}

}  // namespace sops::aten::native
