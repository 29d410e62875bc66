// Meta functions of upsample_nearest1d/2d (the RFC's example) and upsample_bilinear2d,
// and their .vec overloads, composites that turn output_size / scale_factors into the
// base call.
#include "aten/ops/upsample_bilinear2d.h"
#include "aten/ops/upsample_bilinear2d_native.h"
#include "aten/ops/upsample_nearest1d.h"
#include "aten/ops/upsample_nearest1d_native.h"
#include "aten/ops/upsample_nearest2d.h"
#include "aten/ops/upsample_nearest2d_native.h"
#include "ops/util/op_utils.h"

namespace sops::aten::meta {

SOPS_META_FUNC(upsample_nearest1d)
(const Tensor& input, IntArrayRef output_size, std::optional<double> /*scales*/) {
  SOPS_CHECK_ARG(output_size.size() == 1, "output_size",
                 "It is expected output_size equals to 1, but got size ", output_size.size());
  SOPS_CHECK_ARG(input.dim() == 3, "self", "It is expected input_size equals to 3, but got size ",
                 input.dim());
  const int64_t input_width = input.size(2);
  const int64_t output_width = output_size[0];
  SOPS_CHECK(input_width > 0 && output_width > 0,
             "Input and output sizes should be greater than 0, but got input (W: ", input_width,
             ") and output (W: ", output_width, ")");
  // An empty batch is fine, empty channels are not.
  SOPS_CHECK_ARG(input.size(1) != 0, "self",
                 "Non-empty 3D data tensor expected but got a tensor with sizes ", input.sizes());
  set_output_raw_strided(0, {input.size(0), input.size(1), output_width}, {}, input.options());
}

namespace {

// The 2-d upsampling result: [N, C, output_size], laid out as the input (channels-last
// stays channels-last); PyTorch's checks of the sizes.
void upsample_2d_meta(MetaBase& op, const Tensor& input, IntArrayRef output_size) {
  SOPS_CHECK_ARG(output_size.size() == 2, "output_size",
                 "It is expected output_size equals to 2, but got size ", output_size.size());
  SOPS_CHECK_ARG(input.dim() == 4, "self", "It is expected input_size equals to 4, but got size ",
                 input.dim());
  const int64_t input_height = input.size(2);
  const int64_t input_width = input.size(3);
  const int64_t output_height = output_size[0];
  const int64_t output_width = output_size[1];
  SOPS_CHECK(input_height > 0 && input_width > 0 && output_height > 0 && output_width > 0,
             "Input and output sizes should be greater than 0, but got input (H: ", input_height,
             ", W: ", input_width, ") output (H: ", output_height, ", W: ", output_width, ")");
  SOPS_CHECK_ARG(input.size(1) != 0, "self",
                 "Non-empty 4D data tensor expected but got a tensor with sizes ", input.sizes());
  const int64_t sizes[4] = {input.size(0), input.size(1), output_height, output_width};
  // The output keeps a channels-last input's layout.
  const DimVector strides = ops_util::strides_for(sizes, ops_util::suggest_memory_format(input));
  op.set_output_raw_strided(0, sizes, strides, input.options());
}

}  // namespace

SOPS_META_FUNC(upsample_nearest2d)
(const Tensor& input, IntArrayRef output_size, std::optional<double> /*scales_h*/,
 std::optional<double> /*scales_w*/) {
  upsample_2d_meta(*this, input, output_size);
}

SOPS_META_FUNC(upsample_bilinear2d)
(const Tensor& input, IntArrayRef output_size, bool /*align_corners*/,
 std::optional<double> /*scales_h*/, std::optional<double> /*scales_w*/) {
  upsample_2d_meta(*this, input, output_size);
}

}  // namespace sops::aten::meta

namespace sops::aten::native {
namespace {

// The spatial output size from exactly one of output_size and scale_factors (PyTorch's
// upsample compute_output_size): a scale factor s gives floor(input_size * s).
DimVector output_size_from(const Tensor& input, OptionalIntArrayRef output_size,
                           const std::optional<ArrayRef<double>>& scale_factors) {
  SOPS_CHECK(output_size.has_value() != scale_factors.has_value(),
             "Must specify exactly one of output_size and scale_factors");
  const int64_t spatial = input.dim() - 2;
  if (output_size.has_value()) {
    SOPS_CHECK_ARG(static_cast<int64_t>(output_size->size()) == spatial, "output_size", "expected ",
                   spatial, " output sizes for a ", input.dim(), "-D input, but got ",
                   output_size->size());
    return DimVector(*output_size);
  }
  SOPS_CHECK_ARG(static_cast<int64_t>(scale_factors->size()) == spatial, "scale_factors",
                 "expected ", spatial, " scale factors for a ", input.dim(), "-D input, but got ",
                 scale_factors->size());
  DimVector sizes;
  for (int64_t i = 0; i < spatial; ++i) {
    const double scale = (*scale_factors)[static_cast<std::size_t>(i)];
    const double scaled = static_cast<double>(input.size(i + 2)) * scale;
    // A double outside int64's range (or NaN) has no integer value: converting it is
    // undefined behaviour, so a huge or non-finite scale factor is refused here.
    SOPS_CHECK_ARG(scaled > -0x1p63 && scaled < 0x1p63, "scale_factors", "input size ",
                   input.size(i + 2), " times scale factor ", scale,
                   " gives an output size that int64 cannot hold");
    sizes.push_back(static_cast<int64_t>(scaled));
  }
  return sizes;
}

std::optional<double> scale_at(const std::optional<ArrayRef<double>>& scale_factors,
                               std::size_t i) {
  if (!scale_factors.has_value()) return std::nullopt;
  return scale_factors->at(i);
}

}  // namespace

Tensor upsample_nearest1d(const Tensor& input, OptionalIntArrayRef output_size,
                          const std::optional<ArrayRef<double>>& scale_factors) {
  const DimVector osize = output_size_from(input, output_size, scale_factors);
  return sops::aten::upsample_nearest1d(input, IntArrayRef(osize), scale_at(scale_factors, 0));
}

Tensor upsample_nearest2d(const Tensor& input, OptionalIntArrayRef output_size,
                          const std::optional<ArrayRef<double>>& scale_factors) {
  const DimVector osize = output_size_from(input, output_size, scale_factors);
  return sops::aten::upsample_nearest2d(input, IntArrayRef(osize), scale_at(scale_factors, 0),
                                        scale_at(scale_factors, 1));
}

Tensor upsample_bilinear2d(const Tensor& input, OptionalIntArrayRef output_size, bool align_corners,
                           const std::optional<ArrayRef<double>>& scale_factors) {
  const DimVector osize = output_size_from(input, output_size, scale_factors);
  return sops::aten::upsample_bilinear2d(input, IntArrayRef(osize), align_corners,
                                         scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}

}  // namespace sops::aten::native
