// col2im (nn.functional.fold), CPU and meta: the columns of sliding blocks (N, C*kH*kW, L)
// summed back into images (N, C, H, W), where the blocks overlap. float32, float64 and
// bool (a sum of bools is their or), as PyTorch's CPU kernel. Each output plane is summed
// on its own, parallel over batch * channels, its contributions in PyTorch's order (kernel
// offset, then block), so results match PyTorch's exactly.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "aten/ops/col2im_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/op_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

constexpr uint32_t kCol2imTypes = dtypes::kFloatingTypes | dtypes::kBoolType;

// The geometry of one col2im: the image, the kernel and its steps, the blocks.
struct Col2imShape {
  int64_t batch, planes;  // output planes per batch element
  int64_t height, width, kH, kW, dilH, dilW, padH, padW, dH, dW;
  int64_t blocks_h, blocks_w;
};

void check_two(IntArrayRef v, const char* name) {
  SOPS_CHECK_ARG(v.size() == 2, name, "It is expected ", name, " equals to 2, but got size ",
                 v.size());
}

// PyTorch's col2im_shape_check, and the result's sizes (3-d for a 2-d input).
Col2imShape col2im_shape(const Tensor& input, IntArrayRef output_size, IntArrayRef kernel_size,
                         IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride,
                         DimVector* sizes) {
  check_two(output_size, "output_size");
  check_two(kernel_size, "kernel_size");
  check_two(dilation, "dilation");
  check_two(padding, "padding");
  check_two(stride, "stride");
  Col2imShape g{};
  g.height = output_size[0], g.width = output_size[1];
  g.kH = kernel_size[0], g.kW = kernel_size[1];
  g.dilH = dilation[0], g.dilW = dilation[1];
  g.padH = padding[0], g.padW = padding[1];
  g.dH = stride[0], g.dW = stride[1];
  SOPS_CHECK_ARG(g.kW > 0 && g.kH > 0, "kernel_size",
                 "kernel size should be greater than zero, but got kernel_height: ", g.kH,
                 " kernel_width: ", g.kW);
  SOPS_CHECK_ARG(g.dW > 0 && g.dH > 0, "stride",
                 "stride should be greater than zero, but got stride_height: ", g.dH,
                 " stride_width: ", g.dW);
  SOPS_CHECK_ARG(g.dilW > 0 && g.dilH > 0, "dilation",
                 "dilation should be greater than zero, but got dilation_height: ", g.dilH,
                 " dilation_width: ", g.dilW);
  SOPS_CHECK_ARG(g.padW >= 0 && g.padH >= 0, "padding",
                 "padding should be non-negative, but got pad_height: ", g.padH,
                 " pad_width: ", g.padW);
  const int64_t ndim = input.dim();
  SOPS_CHECK_ARG((ndim == 2 && input.size(0) != 0 && input.size(1) != 0) ||
                     (ndim == 3 && input.size(1) != 0 && input.size(2) != 0),
                 "self",
                 "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                 "non-zero dimensions for input, but got: ",
                 input.sizes());
  const int64_t columns = input.size(-2);
  SOPS_CHECK_ARG(g.kH <= INT64_MAX / g.kW, "kernel_size", "Given kernel_width = ", g.kW,
                 " and kernel_height = ", g.kH,
                 " the product of kernel_width and kernel_height overflowed.");
  SOPS_CHECK_ARG(columns % (g.kW * g.kH) == 0, "self",
                 "Expected size of input's dimension 1 to be divisible by the product of "
                 "kernel_size, but got input.size(1)=",
                 columns, " and kernel_size=(", g.kH, ", ", g.kW, ").");
  auto count = [](int64_t size, int64_t pad, int64_t dil, int64_t k, int64_t step) {
    return ops_util::div_rtn(size + 2 * pad - (dil * (k - 1) + 1), step) + 1;
  };
  g.blocks_h = count(g.height, g.padH, g.dilH, g.kH, g.dH);
  g.blocks_w = count(g.width, g.padW, g.dilW, g.kW, g.dW);
  const int64_t length = input.size(-1);
  auto given = [&]() -> std::string {
    return ::sops::detail::str("Given output_size=(", g.height, ", ", g.width, "), kernel_size=(",
                               g.kH, ", ", g.kW, "), dilation=(", g.dilH, ", ", g.dilW,
                               "), padding=(", g.padH, ", ", g.padW, "), stride=(", g.dH, ", ",
                               g.dW, "), ");
  };
  SOPS_CHECK_ARG(length == g.blocks_h * g.blocks_w, "self", given(),
                 "expected size of input's dimension 2 to match the calculated number of sliding "
                 "blocks ",
                 g.blocks_h, " * ", g.blocks_w, " = ", g.blocks_h * g.blocks_w,
                 ", but got input.size(2)=", length, ".");
  SOPS_CHECK_ARG(g.blocks_h >= 1 && g.blocks_w >= 1, "self", given(),
                 "calculated shape of the array of sliding blocks as (", g.blocks_h, ", ",
                 g.blocks_w, "), which is too small (non-positive)");
  SOPS_CHECK_ARG(g.width >= 1 && g.height >= 1, "output_size",
                 "Expected output spatial size to be positive, but got: output_size=(", g.height,
                 ", ", g.width, ").");
  g.batch = ndim == 3 ? input.size(0) : 1;
  g.planes = columns / (g.kH * g.kW);
  *sizes = DimVector{g.planes, g.height, g.width};
  if (ndim == 3) sizes->insert(0, g.batch);
  return g;
}

template <typename T>
void col2im_planes(const Col2imShape& g, const T* in, T* out) {
  const int64_t area = g.height * g.width;
  const int64_t blocks = g.blocks_h * g.blocks_w;
  const int64_t grain =
      std::max<int64_t>(1, kGrainSize / std::max<int64_t>(g.kH * g.kW * blocks, 1));
  parallel_for(0, g.batch * g.planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      T* y = out + p * area;
      std::fill(y, y + area, T(0));
      // Plane p's columns: kH * kW rows of `blocks` values, one row per kernel offset.
      const T* x = in + p * g.kH * g.kW * blocks;
      for (int64_t kh = 0; kh < g.kH; ++kh) {
        for (int64_t kw = 0; kw < g.kW; ++kw) {
          const T* col = x + (kh * g.kW + kw) * blocks;
          for (int64_t bh = 0; bh < g.blocks_h; ++bh) {
            const int64_t h = bh * g.dH - g.padH + kh * g.dilH;
            if (h < 0 || h >= g.height) continue;
            for (int64_t bw = 0; bw < g.blocks_w; ++bw) {
              const int64_t w = bw * g.dW - g.padW + kw * g.dilW;
              if (w < 0 || w >= g.width) continue;
              T& dst = y[h * g.width + w];
              if constexpr (std::is_same_v<T, bool>) {
                dst = dst || col[bh * g.blocks_w + bw];
              } else {
                dst += col[bh * g.blocks_w + bw];
              }
            }
          }
        }
      }
    }
  });
}

void col2im_into(const Tensor& input, const Col2imShape& g, const Tensor& out) {
  if (input.is_meta()) return;
  cpu_util::check_dtype_implemented(input.scalar_type(), kCol2imTypes, "col2im_out_cpu");
  // The kernel writes out's data as self's type (PyTorch's data_ptr check).
  SOPS_CHECK_ARG(out.scalar_type() == input.scalar_type(), "out", "expected scalar type ",
                 ops_util::aten_name(input.scalar_type()), " but found ",
                 ops_util::aten_name(out.scalar_type()));
  if (out.numel() == 0) return;
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor y = out.is_contiguous() ? out : empty(out.sizes(), out.options());
  SOPS_DISPATCH_TYPES(kCol2imTypes, input.scalar_type(), "col2im_out_cpu", [&] {
    col2im_planes<scalar_t>(g, x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>());
  });
  if (!y.is_same(out)) cpu_util::copy_cast(out, y);
}

}  // namespace

Tensor col2im_cpu(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                  IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  DimVector sizes;
  const Col2imShape g =
      col2im_shape(self, output_size, kernel_size, dilation, padding, stride, &sizes);
  Tensor out = empty(sizes, self.options());
  col2im_into(self, g, out);
  return out;
}

Tensor& col2im_out_cpu(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                       IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride, Tensor& out) {
  DimVector sizes;
  const Col2imShape g =
      col2im_shape(self, output_size, kernel_size, dilation, padding, stride, &sizes);
  out.resize_(sizes);
  col2im_into(self, g, out);
  return out;
}

}  // namespace sops::aten::native
