// convolution on CUDA, the CPU kernel's cases (backends/cpu/kernels/convolution.cpp): 1-d (as 2-d
// of height 1) and 2-d, plain and transposed, any stride, padding, dilation, output_padding and
// groups, with or without bias, every integral and floating dtype.
//
// Why these kernels. A convolution's work is a matrix product per (image, group): the weight
// (out_cg x in_cg*kH*kW) times the input's patches (im2col: in_cg*kH*kW x out_h*out_w). A
// direct kernel (one thread per output element) re-reads each input element and weight from
// memory once per product; the tiled GEMM of linear_algebra.cu stages 64 x 16 tiles in shared
// memory and reuses each loaded element 64 times, so the FLOP-heavy cases go through it:
//   - plain: im2col (one thread per (image, channel, output pixel), looping over the taps)
//     into a column buffer, then one GEMM per group over the images, the bias added by its
//     epilogue (addmm's beta * self with self the bias broadcast along the columns), written
//     straight into out's own (contiguous or channels-last) strides. A 1x1, stride-1,
//     unpadded convolution reads the input itself as the GEMM's second operand (no im2col).
//   - transposed: one GEMM per group gives the columns (out_cg*kH*kW x in_h*in_w) = weight^T
//     @ input, then col2im gathers each output element's taps from them (one thread per
//     output element, no atomics: the sum's order is the CPU's, bias first, then kh, kw).
//   - depthwise (plain, one input channel per group): a GEMM of out_cg rows would leave
//     most of its 64-row tiles empty, so a direct kernel, one thread per output element
//     summing its kH*kW taps from the bias up, as the CPU's depthwise loop does.
// Column buffers hold at most kColumnsBudget elements: the images go through in chunks
// (one image at a time when one needs more, as PyTorch's CUDA slow_conv2d does).
// Functors and templates, not __device__ lambdas: the dtype dispatch's bodies are generic
// lambdas.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "backends/cuda/kernels/convolution_kernels.h"
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/kernels/linear_algebra_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "backends/cuda/kernels/nchw.cuh"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::math::wrapping_add;
using aten::math::wrapping_mul;
using aten::ops_util::Conv2d;

constexpr int64_t kColumnsBudget = int64_t{1} << 25;  // elements of one column buffer

// Element strides of a [batch, channels, (height,) width] tensor (a 1-d one's height: 0).
Nchw strides_of(const Tensor& t) { return nchw_strides(t, /*unit_dim=*/2); }

// The stride s with which element (h, w) of each plane of t lies at (h * width + w) * s,
// when there is one (contiguous and channels-last tensors have one): the plane is then one
// row of a GEMM operand.
std::optional<int64_t> plane_stride(const Tensor& t) {
  const Nchw s = strides_of(t);
  const int64_t height = t.dim() == 4 ? t.size(2) : 1;
  const int64_t width = t.size(-1);
  if (height == 1) return s.w;
  if (width == 1) return s.h;
  if (s.h == width * s.w) return s.w;
  return std::nullopt;
}

template <typename T>
struct ConvArgs {
  Conv2d c;
  const T* x;  // input, strides xs
  Nchw xs;
  const T* w;  // weight (depthwise only), strides ws
  Nchw ws;
  const T* bias;  // nullptr: no bias
  int64_t bias_stride;
  T* out;  // strides os
  Nchw os;
  bool channels_inner;  // out is channels-last: threads go along the channels
};

// Output element e (of the images a launch covers), in out's memory order, so that
// consecutive threads write consecutive elements.
template <typename T>
__device__ __forceinline__ Nchw output_element(const ConvArgs<T>& a, int64_t e) {
  return position_of(e, Nchw{a.c.batch, a.c.out_c, a.c.out_h, a.c.out_w}, a.channels_inner);
}

// Columns of images [n0, n0 + images): cols[n][(ch, kh, kw)][(oh, ow)] = the input element
// tap (kh, kw) of output pixel (oh, ow) reads from channel ch, 0 in the padding. One thread
// per (image, channel, output pixel), writing its kH*kW column entries.
template <typename T>
__global__ void im2col_kernel(ConvArgs<T> a, int64_t n0, int64_t images, T* cols) {
  const Conv2d& c = a.c;
  const int64_t out_hw = c.out_h * c.out_w;
  const int64_t total = images * c.in_c * out_hw;
  for (int64_t e = first_index(); e < total; e += index_step()) {
    const int64_t ow = e % c.out_w;
    const int64_t oh = e / c.out_w % c.out_h;
    const int64_t plane = e / out_hw;  // (image, channel)
    const int64_t n = plane / c.in_c, ch = plane % c.in_c;
    const T* x = a.x + (n0 + n) * a.xs.n + ch * a.xs.c;
    T* dst = cols + plane * c.kH * c.kW * out_hw + oh * c.out_w + ow;
    for (int64_t kh = 0; kh < c.kH; ++kh) {
      const int64_t ih = oh * c.sH - c.pH + kh * c.dH;
      for (int64_t kw = 0; kw < c.kW; ++kw, dst += out_hw) {
        const int64_t iw = ow * c.sW - c.pW + kw * c.dW;
        const bool inside = ih >= 0 && ih < c.in_h && iw >= 0 && iw < c.in_w;
        *dst = inside ? x[ih * a.xs.h + iw * a.xs.w] : T(0);
      }
    }
  }
}

// Transposed, images [n0, n0 + images): out[n, oc, oh, ow] = bias[oc] + the sum over the
// taps (kh, kw) that reach (oh, ow) from an input pixel (ih, iw) of
// cols[n][(oc, kh, kw)][(ih, iw)] (cols: [images, out_c * kH * kW, in_h * in_w]).
template <typename T>
__global__ void col2im_kernel(ConvArgs<T> a, int64_t n0, int64_t images, const T* cols) {
  const Conv2d& c = a.c;
  const int64_t in_hw = c.in_h * c.in_w;
  const int64_t total = images * c.out_c * c.out_h * c.out_w;
  for (int64_t e = first_index(); e < total; e += index_step()) {
    const Nchw o = output_element(a, e);
    T acc = a.bias != nullptr ? a.bias[o.c * a.bias_stride] : T(0);
    const T* taps = cols + (o.n * c.out_c + o.c) * c.kH * c.kW * in_hw;
    for (int64_t kh = 0; kh < c.kH; ++kh) {
      const int64_t th = o.h + c.pH - kh * c.dH;  // ih * sH
      if (th < 0 || th % c.sH != 0 || th / c.sH >= c.in_h) continue;
      for (int64_t kw = 0; kw < c.kW; ++kw) {
        const int64_t tw = o.w + c.pW - kw * c.dW;  // iw * sW
        if (tw < 0 || tw % c.sW != 0 || tw / c.sW >= c.in_w) continue;
        acc = wrapping_add(acc, taps[(kh * c.kW + kw) * in_hw + th / c.sH * c.in_w + tw / c.sW]);
      }
    }
    a.out[offset_of(a.os, n0 + o.n, o.c, o.h, o.w)] = acc;
  }
}

// Depthwise (one input channel per group): out[n, oc, oh, ow] = bias[oc] + the sum over the
// taps inside the input of weight[oc, 0, kh, kw] * input[n, oc / out_cg, ih, iw].
template <typename T>
__global__ void depthwise_kernel(ConvArgs<T> a) {
  const Conv2d& c = a.c;
  const int64_t total = c.batch * c.out_c * c.out_h * c.out_w;
  const int64_t out_cg = c.out_c / c.groups;
  for (int64_t e = first_index(); e < total; e += index_step()) {
    const Nchw o = output_element(a, e);
    const T* x = a.x + o.n * a.xs.n + o.c / out_cg * a.xs.c;
    const T* w = a.w + o.c * a.ws.n;
    T acc = a.bias != nullptr ? a.bias[o.c * a.bias_stride] : T(0);
    for (int64_t kh = 0; kh < c.kH; ++kh) {
      const int64_t ih = o.h * c.sH - c.pH + kh * c.dH;
      if (ih < 0 || ih >= c.in_h) continue;
      for (int64_t kw = 0; kw < c.kW; ++kw) {
        const int64_t iw = o.w * c.sW - c.pW + kw * c.dW;
        if (iw < 0 || iw >= c.in_w) continue;
        acc = wrapping_add(
            acc, wrapping_mul(w[kh * a.ws.h + kw * a.ws.w], x[ih * a.xs.h + iw * a.xs.w]));
      }
    }
    a.out[offset_of(a.os, o.n, o.c, o.h, o.w)] = acc;
  }
}

template <typename T>
MatrixBatch matrices(const T* data, int64_t batch_stride, int64_t row_stride, int64_t col_stride) {
  return MatrixBatch{const_cast<T*>(data), batch_stride, row_stride, col_stride};
}

constexpr const char* kName = "slow_conv2d_cuda";

// Plain convolution through GEMMs: per chunk of images and group g,
//   out[n, g] (out_cg x out_hw) = weight[g] (out_cg x in_cg*K) @ columns[n, g] + bias[g].
template <typename T>
void convolution_gemm(const ConvArgs<T>& a, const Tensor& input, const Tensor& weight,
                      const Tensor& out) {
  const Conv2d& c = a.c;
  const int64_t K = c.kH * c.kW, out_hw = c.out_h * c.out_w;
  const int64_t kk = c.in_cg() * K;
  const Tensor w = contiguous_on_device(weight);  // [out_c, in_cg * K]
  const T* wp = w.data_ptr<T>();
  const int64_t out_plane = *plane_stride(out);  // contiguous or channels-last
  const Scalar one(1);
  auto gemm = [&](int64_t n0, int64_t images, int64_t g, const MatrixBatch& columns) {
    const MatrixBatch bias =
        a.bias != nullptr ? matrices(a.bias + g * c.out_cg() * a.bias_stride, 0, a.bias_stride, 0)
                          : MatrixBatch{};
    addmm_kernel(
        scalar_type_of<T>, kName, images, c.out_cg(), out_hw, kk,
        matrices(wp + g * c.out_cg() * kk, 0, kk, 1), columns, bias,
        a.bias != nullptr ? &one : nullptr, one,
        matrices(a.out + n0 * a.os.n + g * c.out_cg() * a.os.c, a.os.n, a.os.c, out_plane));
  };
  const std::optional<int64_t> x_plane = plane_stride(input);
  if (K == 1 && c.sH == 1 && c.sW == 1 && c.pH == 0 && c.pW == 0 && x_plane.has_value()) {
    for (int64_t g = 0; g < c.groups; ++g) {  // the input is the columns
      gemm(0, c.batch, g, matrices(a.x + g * c.in_cg() * a.xs.c, a.xs.n, a.xs.c, *x_plane));
    }
    return;
  }
  const int64_t per_image = std::max<int64_t>(1, c.in_c * K * out_hw);
  const int64_t chunk = std::clamp<int64_t>(kColumnsBudget / per_image, 1, c.batch);
  const Tensor cols = sops::empty({chunk * per_image}, input.options());
  T* cp = cols.data_ptr<T>();
  for (int64_t n0 = 0; n0 < c.batch; n0 += chunk) {
    const int64_t images = std::min(chunk, c.batch - n0);
    launch(im2col_kernel<T>, images * c.in_c * out_hw, "launching the im2col kernel", a, n0, images,
           cp);
    for (int64_t g = 0; g < c.groups; ++g) {
      gemm(n0, images, g, matrices(cp + g * kk * out_hw, per_image, out_hw, 1));
    }
  }
}

// Transposed convolution: per chunk of images and group g,
//   columns[n, g] (out_cg*K x in_hw) = weight[g]^T (weight[g]: in_cg x out_cg*K) @ input[n, g]
// then col2im sums each output element's taps from the columns, and its bias.
template <typename T>
void convolution_transposed(const ConvArgs<T>& args, const Tensor& input, const Tensor& weight) {
  ConvArgs<T> a = args;
  const Conv2d& c = a.c;
  const int64_t K = c.kH * c.kW, in_hw = c.in_h * c.in_w;
  const int64_t mk = c.out_cg() * K;
  const Tensor w = contiguous_on_device(weight);  // [in_c, out_cg * K]
  const T* wp = w.data_ptr<T>();
  std::optional<int64_t> x_plane = plane_stride(input);
  const Tensor x = x_plane.has_value() ? input : contiguous_on_device(input);
  if (!x_plane.has_value()) {
    a.x = x.data_ptr<T>();
    a.xs = strides_of(x);
    x_plane = plane_stride(x);
  }
  const int64_t per_image = std::max<int64_t>(1, c.out_c * K * in_hw);
  const int64_t chunk = std::clamp<int64_t>(kColumnsBudget / per_image, 1, c.batch);
  const Tensor cols = sops::empty({chunk * per_image}, input.options());
  T* cp = cols.data_ptr<T>();
  const Scalar one(1);
  for (int64_t n0 = 0; n0 < c.batch; n0 += chunk) {
    const int64_t images = std::min(chunk, c.batch - n0);
    for (int64_t g = 0; g < c.groups; ++g) {
      addmm_kernel(scalar_type_of<T>, kName, images, mk, in_hw, c.in_cg(),
                   matrices(wp + g * c.in_cg() * mk, 0, 1, mk),
                   matrices(a.x + n0 * a.xs.n + g * c.in_cg() * a.xs.c, a.xs.n, a.xs.c, *x_plane),
                   MatrixBatch{}, nullptr, one, matrices(cp + g * mk * in_hw, per_image, in_hw, 1));
    }
    launch(col2im_kernel<T>, images * c.out_c * c.out_h * c.out_w, "launching the col2im kernel", a,
           n0, images, static_cast<const T*>(cp));
  }
}

template <typename T>
void run_convolution(const Conv2d& c, const Tensor& input, const Tensor& weight, const Tensor& bias,
                     const Tensor& out) {
  ConvArgs<T> a{};
  a.c = c;
  a.x = input.data_ptr<T>();
  a.xs = strides_of(input);
  a.w = weight.data_ptr<T>();
  a.ws = strides_of(weight);
  a.bias = bias.defined() ? bias.data_ptr<T>() : nullptr;
  a.bias_stride = bias.defined() ? bias.stride(0) : 0;
  a.out = out.data_ptr<T>();
  a.os = strides_of(out);
  a.channels_inner = a.os.c == 1 && c.out_c > 1;
  if (c.transposed) {
    convolution_transposed(a, input, weight);
  } else if (c.in_cg() == 1) {
    launch(depthwise_kernel<T>, out.numel(), "launching the depthwise convolution kernel", a);
  } else {
    convolution_gemm(a, input, weight, out);
  }
}

}  // namespace

void convolution_kernel(const Conv2d& c, const Tensor& input, const Tensor& weight,
                        const Tensor& bias, const Tensor& out) {
  if (out.numel() == 0) return;
  Tensor b = bias;
  if (bias.defined() && bias.scalar_type() != out.scalar_type()) {
    b = sops::empty(bias.sizes(), out.options());  // PyTorch takes a bias of another dtype
    copy_on_device(b, bias);
  }
  SOPS_DISPATCH_ALL_TYPES(out.scalar_type(), kName,
                          [&] { run_convolution<scalar_t>(c, input, weight, b, out); });
}

}  // namespace sops::cuda
