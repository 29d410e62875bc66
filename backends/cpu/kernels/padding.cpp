// CPU kernels of reflection_pad{1,2,3}d and replication_pad{1,2,3}d: one walk over the
// output, reading each element through an index map per padded dimension (the input
// position each output position takes): reflect mirrors at the edge without repeating
// it, replicate clamps to the edge; negative amounts crop. Elements move as bytes of
// their size, so every dtype but bool (which PyTorch refuses) takes the same loop.
// reflection_pad2d is not structured (as in PyTorch): its kernels check and size the
// output themselves, and on meta tensors stop there.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "aten/ops/reflection_pad1d_native.h"
#include "aten/ops/reflection_pad2d_native.h"
#include "aten/ops/reflection_pad3d_native.h"
#include "aten/ops/replication_pad1d_native.h"
#include "aten/ops/replication_pad2d_native.h"
#include "aten/ops/replication_pad3d_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/padding_shape.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

using ops_util::PadMode;

// The input position output position j of a dimension of `size` takes, padded by
// `before` (negative: cropped) at its start.
int64_t source_index(int64_t j, int64_t size, int64_t before, PadMode mode) {
  // Output position j is input position j - before, mirrored or clamped outside
  // [0, size). Each case is written so that no step overflows for the paddings the shape
  // check lets through (size + before fits; reflection keeps |before| below the size).
  if (j < before) return mode == PadMode::kReflect ? before - j : 0;
  if (j >= size + before) return mode == PadMode::kReflect ? 2 * (size - 1) + before - j : size - 1;
  return j - before;
}

// One padded dimension: the input offset (in elements) of each output position, and the
// output's stride.
struct DimMap {
  std::vector<int64_t> in_offset;
  int64_t out_stride = 0;
};

template <typename T>
void pad_planes(const Tensor& out, const Tensor& in, const DimMap (&maps)[3], int64_t lead) {
  int64_t planes = 1;
  for (int64_t d = 0; d < lead; ++d) planes *= out.size(d);
  const int64_t per_plane = static_cast<int64_t>(
      maps[0].in_offset.size() * maps[1].in_offset.size() * maps[2].in_offset.size());
  const T* src = static_cast<const T*>(in.data_ptr());
  T* dst = static_cast<T*>(out.data_ptr());
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(per_plane, 1));
  parallel_for(0, planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      int64_t in_base = 0;
      int64_t out_base = 0;
      for (int64_t d = lead - 1, rest = p; d >= 0; --d) {
        const int64_t at = rest % out.size(d);
        rest /= out.size(d);
        in_base += at * in.stride(d);
        out_base += at * out.stride(d);
      }
      for (std::size_t z = 0; z < maps[2].in_offset.size(); ++z) {
        for (std::size_t y = 0; y < maps[1].in_offset.size(); ++y) {
          const int64_t i0 = in_base + maps[2].in_offset[z] + maps[1].in_offset[y];
          const int64_t o0 = out_base + static_cast<int64_t>(z) * maps[2].out_stride +
                             static_cast<int64_t>(y) * maps[1].out_stride;
          const std::vector<int64_t>& xs = maps[0].in_offset;
          const int64_t os = maps[0].out_stride;
          for (std::size_t x = 0; x < xs.size(); ++x) {
            dst[o0 + static_cast<int64_t>(x) * os] = src[i0 + xs[x]];
          }
        }
      }
    }
  });
}

// out = input padded along its last n dimensions (out already has the padded shape).
void pad_kernel(const Tensor& out, const Tensor& input, IntArrayRef padding, int64_t n,
                PadMode mode, const char* name) {
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kEveryType & ~dtypes::kBoolType,
                                    name, "self");
  if (out.numel() == 0) return;
  const int64_t ndim = input.dim();
  DimMap maps[3];
  for (int64_t k = 0; k < 3; ++k) {  // k = 0: the last dimension
    if (k >= n) {
      maps[k].in_offset = {0};
      continue;
    }
    const int64_t d = ndim - 1 - k;
    const int64_t size = input.size(d);
    const int64_t before = padding[static_cast<std::size_t>(2 * k)];
    maps[k].out_stride = out.stride(d);
    maps[k].in_offset.resize(static_cast<std::size_t>(out.size(d)));
    for (int64_t j = 0; j < out.size(d); ++j) {
      const int64_t i = source_index(j, size, before, mode);
      SOPS_INTERNAL_ASSERT(i >= 0 && i < size, name, ": padding reads position ", i,
                           " of a dimension of size ", size);
      maps[k].in_offset[static_cast<std::size_t>(j)] = i * input.stride(d);
    }
  }
  const int64_t lead = ndim - n;
  switch (input.element_size()) {
    case 1:
      return pad_planes<uint8_t>(out, input, maps, lead);
    case 2:
      return pad_planes<uint16_t>(out, input, maps, lead);
    case 4:
      return pad_planes<uint32_t>(out, input, maps, lead);
    default:
      return pad_planes<uint64_t>(out, input, maps, lead);
  }
}

// reflection_pad2d's output: the checked shape, laid out as the input.
Tensor& reflection_pad2d_into(const Tensor& self, IntArrayRef padding, Tensor& out) {
  const DimVector sizes = ops_util::pad_output_sizes(self, padding, 2, PadMode::kReflect);
  const DimVector strides = ops_util::strides_for(sizes, ops_util::suggest_memory_format(self));
  if (!out.defined()) {
    out = strides.empty() ? sops::empty(sizes, self.options())
                          : sops::empty_strided(sizes, strides, self.options());
  } else {
    SOPS_CHECK_ARG(out.scalar_type() == self.scalar_type(), "out",
                   "Expected out tensor to have dtype ",
                   ops_util::typemeta_name(self.scalar_type()), ", but got ",
                   ops_util::typemeta_name(out.scalar_type()), " instead");
    out.resize_(sizes);
    if (!strides.empty()) out.as_strided_(sizes, strides, out.storage_offset());
  }
  if (!self.is_meta()) pad_kernel(out, self, padding, 2, PadMode::kReflect, "reflection_pad2d");
  return out;
}

}  // namespace

SOPS_IMPL_FUNC(reflection_pad1d_out_cpu)
(const Tensor& self, IntArrayRef padding, const Tensor& out) {
  pad_kernel(out, self, padding, 1, PadMode::kReflect, "reflection_pad1d");
}

SOPS_IMPL_FUNC(reflection_pad3d_out_cpu)
(const Tensor& self, IntArrayRef padding, const Tensor& out) {
  pad_kernel(out, self, padding, 3, PadMode::kReflect, "reflection_pad3d");
}

SOPS_IMPL_FUNC(replication_pad1d_out_cpu)
(const Tensor& self, IntArrayRef padding, const Tensor& out) {
  pad_kernel(out, self, padding, 1, PadMode::kReplicate, "replication_pad1d");
}

SOPS_IMPL_FUNC(replication_pad2d_out_cpu)
(const Tensor& self, IntArrayRef padding, const Tensor& out) {
  pad_kernel(out, self, padding, 2, PadMode::kReplicate, "replication_pad2d");
}

SOPS_IMPL_FUNC(replication_pad3d_out_cpu)
(const Tensor& self, IntArrayRef padding, const Tensor& out) {
  pad_kernel(out, self, padding, 3, PadMode::kReplicate, "replication_pad3d");
}

Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding) {
  Tensor out;
  return reflection_pad2d_into(self, padding, out);
}

Tensor& reflection_pad2d_out(const Tensor& self, IntArrayRef padding, Tensor& out) {
  return reflection_pad2d_into(self, padding, out);
}

}  // namespace sops::aten::native
