// What every backend's kernels of upsample_nearest1d/2d share: the dtypes they copy, and
// the input index each output index reads along one dimension (PyTorch's "nearest" mode,
// with its float rounding; host and device functions, which CUDA kernels call too).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

#include "runtime/host_device.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::ops_util {

inline constexpr uint32_t kUpsampleNearestTypes =
    dtypes::kFloatingTypes | dtypes::kReducedFloatingTypes | dtypes::bit(ScalarType::Byte);

// The float step from output to input indices: 1 / scales when given and positive, else
// input_size / output_size.
inline float nearest_scale(int64_t input_size, int64_t output_size, std::optional<double> scales) {
  return scales.has_value() && *scales > 0.0
             ? static_cast<float>(1.0 / *scales)
             : static_cast<float>(input_size) / static_cast<float>(output_size);
}

// The input index output index dst reads: itself for equal sizes, dst / 2 for an exact
// doubling (integer arithmetic), else floor(dst * scale) in float, at most input_size - 1.
SOPS_HOST_DEVICE inline int64_t nearest_source_index(int64_t dst, int64_t input_size,
                                                     int64_t output_size, float scale) {
  if (output_size == input_size) return dst;
  // (an exact doubling, written so that a huge input size cannot overflow 2 * input_size)
  if ((output_size & 1) == 0 && (output_size >> 1) == input_size) return dst >> 1;
  const auto src = static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale));
  return src < input_size - 1 ? src : input_size - 1;
}

}  // namespace sops::aten::ops_util
