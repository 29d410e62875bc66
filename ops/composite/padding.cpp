// constant_pad_nd (CompositeExplicitAutograd): pads (or, with negative amounts, crops)
// the last len(pad)/2 dimensions, pad = [left_last, right_last, left_prev, ...]. The
// result is filled with `value` (fill_), then self's kept part is copied into its interior:
// byte-copied on the cpu (rows memcpy'd where both are dense), by copy_ on another device
// (its backend's kernel). PyTorch's rules: all amounts <= 0 give a cropped copy (clone);
// a dimension cropped below zero is an error.
#include "aten/ops/clone.h"
#include "aten/ops/constant_pad_nd_native.h"
#include "aten/ops/copy.h"
#include "aten/ops/empty.h"
#include "aten/ops/fill.h"
#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"
#include "runtime/strided_copy.h"

namespace sops::aten::native {
namespace {

// self's elements [start, start + length) of dimension dim (PyTorch's narrow).
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  SOPS_CHECK_ARG(length >= 0, "pad", "narrow(): length must be non-negative.");
  DimVector sizes(self.sizes());
  sizes[static_cast<std::size_t>(dim)] = length;
  // (an empty self's strides are not bounded by its storage: the offset is checked)
  return self.as_strided(
      sizes, self.strides(),
      checked_add(self.storage_offset(), checked_mul(start, self.stride(dim), "offset", "pad"),
                  "offset", "pad"));
}

}  // namespace

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  SOPS_CHECK_ARG(pad.size() % 2 == 0, "pad", "Length of pad must be even but instead it equals ",
                 pad.size());
  const int64_t ndim = self.dim();
  const int64_t npad = static_cast<int64_t>(pad.size() / 2);
  const int64_t first = ndim - npad;  // the first padded dimension
  SOPS_CHECK_ARG(first >= 0, "pad",
                 "Length of pad should be no more than twice the number of dimensions of the "
                 "input. Pad length is ",
                 pad.size(), "while the input has ", ndim, "dimensions.");
  auto before = [&](int64_t d) { return pad[static_cast<std::size_t>(2 * (ndim - d - 1))]; };
  auto after = [&](int64_t d) { return pad[static_cast<std::size_t>(2 * (ndim - d - 1) + 1)]; };

  // The part of self that is kept (negative amounts crop).
  Tensor input = self;
  bool all_non_positive = true;
  for (int64_t d = first; d < ndim; ++d) {
    if (before(d) < 0) {
      input = narrow(input, d, checked_sub(0, before(d), "negated padding", "pad"),
                     input.size(d) + before(d));
    } else if (before(d) != 0) {
      all_non_positive = false;
    }
    if (after(d) < 0) {
      input = narrow(input, d, 0, input.size(d) + after(d));
    } else if (after(d) != 0) {
      all_non_positive = false;
    }
  }
  if (all_non_positive) return sops::aten::clone(input, std::nullopt);

  DimVector sizes(self.sizes());
  for (int64_t d = first; d < ndim; ++d) {
    const int64_t size = checked_add(checked_add(self.size(d), before(d), "padded size", "pad"),
                                     after(d), "padded size", "pad");
    SOPS_CHECK_ARG(size >= 0, "pad", "The input size ", self.size(d), ", plus negative padding ",
                   before(d), " and ", after(d),
                   " resulted in a negative output size, which is invalid. Check dimension ", d,
                   " of your input.");
    sizes[static_cast<std::size_t>(d)] = size;
  }
  ops_util::check_scalar_fits(value, self.scalar_type(), "value");
  Tensor output = sops::aten::empty(sizes, self.scalar_type(), std::nullopt, self.device(),
                                    std::nullopt, ops_util::suggest_memory_format(self));
  sops::aten::fill_(output, value);
  if (self.is_meta()) return output;

  // The interior of output that receives input.
  Tensor interior = output;
  for (int64_t d = first; d < ndim; ++d) {
    const int64_t lo = before(d) > 0 ? before(d) : 0;
    const int64_t hi = after(d) > 0 ? after(d) : 0;
    interior = narrow(interior, d, lo, interior.size(d) - lo - hi);
  }
  if (self.is_cpu()) {
    sops::cpu::copy_same_dtype(interior, input);
  } else {
    sops::aten::copy_(interior, input);  // another backend's copy_
  }
  return output;
}

}  // namespace sops::aten::native
