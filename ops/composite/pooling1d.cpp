// avg_pool1d and adaptive_avg_pool1d (CompositeImplicitAutograd in PyTorch, core ATen
// all the same): self (C, L) or (N, C, L) gets a height of 1, is pooled by the 2-d
// operator over a 1 x k window, and loses the height again. Their own checks are
// PyTorch's; everything else is the 2-d operator's (its errors name it).
#include "aten/ops/adaptive_avg_pool1d_native.h"
#include "aten/ops/adaptive_avg_pool2d.h"
#include "aten/ops/avg_pool1d_native.h"
#include "aten/ops/avg_pool2d.h"
#include "aten/ops/squeeze.h"
#include "aten/ops/unsqueeze.h"
#include "ops/util/op_utils.h"

namespace sops::aten::native {
namespace {

// PyTorch's checkDimRange(op, self, 2, 4): a 2-d or 3-d input.
void check_2d_or_3d(const Tensor& self, const char* op) {
  SOPS_CHECK_ARG(self.dim() == 2 || self.dim() == 3, "self", "Expected 2 to 3 dimensions, but got ",
                 self.dim(),
                 "-dimensional tensor for argument #1 'self' (while checking arguments for ", op,
                 ")");
}

// PyTorch's check1d: a list argument of exactly one int.
void check_one_int(IntArrayRef v, const char* op, const char* name) {
  SOPS_CHECK_ARG(v.size() == 1, name, op, "() argument '", name, "' should contain one int (got ",
                 v.size(), ")");
}

}  // namespace

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  if (stride.empty()) stride = kernel_size;
  check_2d_or_3d(self, "avg_pool1d");
  check_one_int(kernel_size, "avg_pool1d", "kernel_size");
  check_one_int(stride, "avg_pool1d", "stride");
  check_one_int(padding, "avg_pool1d", "padding");
  const int64_t k[2] = {1, kernel_size[0]};
  const int64_t s[2] = {1, stride[0]};
  const int64_t p[2] = {0, padding[0]};
  const Tensor out = sops::aten::avg_pool2d(sops::aten::unsqueeze(self, int64_t{-2}), k, s, p,
                                            ceil_mode, count_include_pad, std::nullopt);
  return sops::aten::squeeze(out, int64_t{-2});
}

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  check_2d_or_3d(self, "adaptive_avg_pool1d");
  check_one_int(output_size, "adaptive_avg_pool1d", "output_size");
  const int64_t size[2] = {1, output_size[0]};
  const Tensor out =
      sops::aten::adaptive_avg_pool2d(sops::aten::unsqueeze(self, int64_t{-2}), size);
  return sops::aten::squeeze(out, int64_t{-2});
}

}  // namespace sops::aten::native
