// 2. A reduction over `dim` with `keepdim`, structured on MetaBase. The meta function
// checks the arguments and declares the output with set_output_raw_strided (its
// strides: empty, contiguous); the generated wrappers allocate it, or resize and check
// a given out=, before the impl runs.
//   my::ops::sum_of_squares(x, {1}, /*keepdim=*/true)
//   my::ops::sum_of_squares_out(out, x, {1})
#include <vector>

#include "elements.h"
#include "my_ops/NativeFunctions.h"
#include "runtime/visit_dtype.h"
#include "runtime/wrap_dim.h"

namespace my::ops {
namespace {

// Which of self's dimensions `dim` names (all of them when it is empty).
std::vector<bool> reduced_dims(const Tensor& self, IntArrayRef dim) {
  std::vector<bool> reduced(static_cast<std::size_t>(self.dim()), dim.empty());
  for (const int64_t d : dim) {
    const int64_t wrapped = sops::maybe_wrap_dim(d, self.dim());
    SOPS_CHECK_ARG(!reduced[wrapped], "dim", "dimension ", wrapped, " appears more than once");
    reduced[wrapped] = true;
  }
  return reduced;
}

}  // namespace

namespace meta {

SOPS_META_FUNC2(sum_of_squares, dim)(const Tensor& self, IntArrayRef dim, bool keepdim) {
  SOPS_CHECK_ARG(sops::is_floating_point(self.scalar_type()), "self",
                 "expected a floating-point tensor, got ", self.scalar_type());
  const std::vector<bool> reduced = reduced_dims(self, dim);
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!reduced[d])
      sizes.push_back(self.size(d));
    else if (keepdim)
      sizes.push_back(1);
  }
  set_output_raw_strided(0, sizes, {}, self.options());
}

}  // namespace meta

namespace native {

SOPS_IMPL_FUNC(sum_of_squares_out)(const Tensor& self, IntArrayRef dim, bool keepdim,
                                   const Tensor& out) {
  // For each of self's dimensions, the stride of out that its index moves (0 when it is
  // reduced: all its elements add into one).
  const std::vector<bool> reduced = reduced_dims(self, dim);
  std::vector<int64_t> out_stride(static_cast<std::size_t>(self.dim()), 0);
  for (int64_t d = 0, o = 0; d < self.dim(); ++d) {
    if (!reduced[d])
      out_stride[d] = out.stride(o++);
    else if (keepdim)
      ++o;
  }
  SOPS_DISPATCH_FLOATING_TYPES(self.scalar_type(), "sum_of_squares", [&] {
    for_each_element<scalar_t>(out, [](const int64_t*, scalar_t& v) { v = 0; });
    scalar_t* const o = out.data_ptr<scalar_t>();
    for_each_element<scalar_t>(self, [&](const int64_t* index, scalar_t& v) {
      int64_t offset = 0;
      for (int64_t d = 0; d < self.dim(); ++d) offset += index[d] * out_stride[d];
      o[offset] += v * v;
    });
  });
}

}  // namespace native
}  // namespace my::ops
