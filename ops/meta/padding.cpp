// Meta functions of reflection_pad1d/3d and replication_pad1d/2d/3d (structured, as in
// PyTorch; reflection_pad2d is a kernel of its own there and here): the checks and the
// output shape of ops/util/padding_shape.h, laid out as the input (a channels-last input
// gives a channels-last output).
#include "aten/ops/reflection_pad1d_meta.h"
#include "aten/ops/reflection_pad3d_meta.h"
#include "aten/ops/replication_pad1d_meta.h"
#include "aten/ops/replication_pad2d_meta.h"
#include "aten/ops/replication_pad3d_meta.h"
#include "ops/util/op_utils.h"
#include "ops/util/padding_shape.h"

namespace sops::aten::meta {
namespace {

using ops_util::PadMode;

void pad_meta(MetaBase& op, const Tensor& input, IntArrayRef padding, int64_t n, PadMode mode) {
  const DimVector sizes = ops_util::pad_output_sizes(input, padding, n, mode);
  const DimVector strides = ops_util::strides_for(sizes, ops_util::suggest_memory_format(input));
  op.set_output_raw_strided(0, sizes, strides, input.options());
}

}  // namespace

SOPS_META_FUNC(reflection_pad1d)(const Tensor& self, IntArrayRef padding) {
  pad_meta(*this, self, padding, 1, PadMode::kReflect);
}

SOPS_META_FUNC(reflection_pad3d)(const Tensor& self, IntArrayRef padding) {
  pad_meta(*this, self, padding, 3, PadMode::kReflect);
}

SOPS_META_FUNC(replication_pad1d)(const Tensor& self, IntArrayRef padding) {
  pad_meta(*this, self, padding, 1, PadMode::kReplicate);
}

SOPS_META_FUNC(replication_pad2d)(const Tensor& self, IntArrayRef padding) {
  pad_meta(*this, self, padding, 2, PadMode::kReplicate);
}

SOPS_META_FUNC(replication_pad3d)(const Tensor& self, IntArrayRef padding) {
  pad_meta(*this, self, padding, 3, PadMode::kReplicate);
}

}  // namespace sops::aten::meta
