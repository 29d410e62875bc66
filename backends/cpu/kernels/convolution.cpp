// convolution's CPU kernel (also its Meta one: there only the checks and the result's
// shape happen), 1-d and 2-d, plain and transposed, with stride, padding, dilation,
// output_padding and groups. The checks, messages and result are shared with the CUDA
// kernel (ops/util/convolution_utils.h). float32/float64: im2col + sops::cpu::gemm
// per (image, group) (a 1x1 stride-1 convolution needs no im2col), transposed as gemm +
// col2im, and a direct loop for depthwise convolutions (one input channel per group),
// which is faster there. Integer dtypes (which PyTorch's CPU convolution also takes) use
// a direct loop. 1-d convolutions run as 2-d ones of height 1. The output is channels-last
// when a 4-d input or weight is, as PyTorch's CPU backends make it; it is computed
// contiguous, then copied.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "aten/ops/convolution_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/gemm.h"
#include "ops/util/convolution_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/cpu_capability.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using ops_util::Conv2d;

// The input of one (image, group) as im2col reads it: the planes with their zero padding
// around them, so that element (p, j) of im2col's matrix, row p = (ic, kh, kw) and
// column j = (oh, ow), is data[row_offset(p) + column_offset(j)] with no bounds check,
// for any stride and dilation.
template <typename T>
struct PaddedInput {
  const T* data;
  int64_t plane;  // elements per padded plane: (in_h + 2 pH) * row
  int64_t row;    // elements per padded row: in_w + 2 pW

  int64_t row_offset(const Conv2d& c, int64_t p) const {
    const int64_t K = c.kH * c.kW;
    return p / K * plane + (p % K / c.kW) * c.dH * row + p % c.kW * c.dW;
  }
  int64_t column_offset(const Conv2d& c, int64_t j) const {
    return j / c.out_w * c.sH * row + j % c.out_w * c.sW;
  }
};

// Planes [begin, end) of x (contiguous [*, in_h, in_w]) into out, each with pH zero rows
// above and below and pW zero columns left and right.
template <typename T>
void pad_planes(const Conv2d& c, const T* x, int64_t begin, int64_t end, T* out) {
  const int64_t pw = c.in_w + 2 * c.pW, ph = c.in_h + 2 * c.pH;
  for (int64_t q = begin; q < end; ++q) {
    const T* src = x + q * c.in_h * c.in_w;
    T* dst = out + q * ph * pw;
    std::fill(dst, dst + c.pH * pw, T(0));
    for (int64_t ih = 0; ih < c.in_h; ++ih) {
      T* r = dst + (ih + c.pH) * pw;
      std::fill(r, r + c.pW, T(0));
      std::memcpy(r + c.pW, src + ih * c.in_w, static_cast<std::size_t>(c.in_w) * sizeof(T));
      std::fill(r + c.pW + c.in_w, r + pw, T(0));
    }
    std::fill(dst + (c.in_h + c.pH) * pw, dst + ph * pw, T(0));
  }
}

// Rows [p0, p0 + kc) and columns [j0, j0 + nc) of im2col's matrix, packed as the GEMM
// reads B (gemm.h's PackB): im2col's matrix (7 MB for a 3x3 convolution of 64 channels
// at 56x56) never exists whole. A panel's columns that lie in one output row are one
// contiguous run of the padded input when the stride is 1 (a 16-element copy); the
// others are gathered through their column offsets.
template <typename T>
void im2col_pack(const Conv2d& c, const PaddedInput<T>& x, int64_t p0, int64_t kc, int64_t j0,
                 int64_t nc, T* out) {
  constexpr int64_t NR = sops::cpu::gemm_b_panel_width<T>();
  thread_local std::vector<int64_t> rows, columns;
  rows.resize(static_cast<std::size_t>(kc));
  columns.resize(static_cast<std::size_t>(nc));
  for (int64_t p = 0; p < kc; ++p) rows[p] = x.row_offset(c, p0 + p);
  for (int64_t j = 0; j < nc; ++j) columns[j] = x.column_offset(c, j0 + j);
  // Panel by panel, so that the writes run through memory in order.
  for (int64_t q = 0; q < nc; q += NR, out += kc * NR) {
    const int64_t* col = columns.data() + q;
    const int64_t nr = std::min(NR, nc - q);
    if (nr == NR && col[NR - 1] - col[0] == NR - 1) {  // offsets rise: a contiguous run
      const T* src = x.data + col[0];
      for (int64_t p = 0; p < kc; ++p) std::memcpy(out + p * NR, src + rows[p], NR * sizeof(T));
      continue;
    }
    for (int64_t p = 0; p < kc; ++p) {
      const T* src = x.data + rows[p];
      T* dst = out + p * NR;
      for (int64_t i = 0; i < nr; ++i) dst[i] = src[col[i]];
      for (int64_t i = nr; i < NR; ++i) dst[i] = T(0);
    }
  }
}

// y[oc, oh*sH - pH + kh*dH, iw*sW - pW + kw*dW] += cols[(oc, kh, kw), (ih, iw)]: the
// scatter of a transposed convolution for one image and group (y is [out_cg, out_h, out_w]).
template <typename T>
void col2im(const Conv2d& c, const T* cols, T* y) {
  const int64_t ihw = c.in_h * c.in_w;
  for (int64_t oc = 0; oc < c.out_cg(); ++oc) {
    T* plane = y + oc * c.out_h * c.out_w;
    for (int64_t kh = 0; kh < c.kH; ++kh) {
      for (int64_t kw = 0; kw < c.kW; ++kw) {
        const T* row = cols + ((oc * c.kH + kh) * c.kW + kw) * ihw;
        for (int64_t ih = 0; ih < c.in_h; ++ih) {
          const int64_t oh = ih * c.sH - c.pH + kh * c.dH;
          if (oh < 0 || oh >= c.out_h) continue;
          T* dst = plane + oh * c.out_w;
          const T* src = row + ih * c.in_w;
          for (int64_t iw = 0; iw < c.in_w; ++iw) {
            const int64_t ow = iw * c.sW - c.pW + kw * c.dW;
            if (ow >= 0 && ow < c.out_w) dst[ow] += src[iw];
          }
        }
      }
    }
  }
}

// Each output plane starts as its bias (or 0).
template <typename T>
void fill_bias(const Conv2d& c, const T* bias, T* y) {
  const int64_t ohw = c.out_h * c.out_w;
  parallel_for(0, c.batch * c.out_c, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(ohw, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t p = begin; p < end; ++p) {
                   std::fill(y + p * ohw, y + (p + 1) * ohw,
                             bias != nullptr ? bias[p % c.out_c] : T(0));
                 }
               });
}

// One output plane of a depthwise convolution: every tap (kh, kw) adds its weight times
// the shifted input rows into the output rows (which already hold the bias).
template <typename T>
SOPS_ALWAYS_INLINE void depthwise_plane_body(const Conv2d& c, const T* plane, const T* wk, T* out) {
  for (int64_t kh = 0; kh < c.kH; ++kh) {
    for (int64_t kw = 0; kw < c.kW; ++kw) {
      const T wv = wk[kh * c.kW + kw];
      const int64_t off = kw * c.dW - c.pW;
      // Ceiling divisions as (x - 1) / s + 1: x + s - 1 overflows for a stride near
      // INT64_MAX, which a model may give.
      int64_t lo = off >= 0 ? 0 : (-off - 1) / c.sW + 1;
      int64_t hi = c.in_w - off <= 0 ? 0 : (c.in_w - off - 1) / c.sW + 1;
      hi = std::min(hi, c.out_w);
      for (int64_t oh = 0; oh < c.out_h; ++oh) {
        const int64_t ih = oh * c.sH - c.pH + kh * c.dH;
        if (ih < 0 || ih >= c.in_h) continue;
        const T* __restrict src = plane + ih * c.in_w + off;  // input and output never overlap
        T* __restrict dst = out + oh * c.out_w;
        if (c.sW == 1) {
          for (int64_t ow = lo; ow < hi; ++ow) dst[ow] += wv * src[ow];
        } else {
          for (int64_t ow = lo; ow < hi; ++ow) dst[ow] += wv * src[ow * c.sW];
        }
      }
    }
  }
}

// The nine taps of output columns [ow, ow + W) of output row oh, plus the bias, from a
// zero-padded copy of the plane (row stride pw): no tap needs a bounds check. A function,
// not a lambda: a lambda's body would not take the AVX2 target of the clone it is
// written in, and vectors cannot cross that boundary.
template <typename T>
SOPS_ALWAYS_INLINE typename Vec<T, 32>::type depthwise_3x3_block(const T* padded, int64_t pw,
                                                                 const typename Vec<T, 32>::type* w,
                                                                 T bias, int64_t oh, int64_t ow) {
  typename Vec<T, 32>::type acc = vec::splat<T, 32>(bias);
#pragma GCC unroll 3
  for (int64_t kh = 0; kh < 3; ++kh) {
    const T* src = padded + (oh + kh) * pw + ow;
    acc += w[kh * 3] * vec::load<T, 32>(src) + w[kh * 3 + 1] * vec::load<T, 32>(src + 1) +
           w[kh * 3 + 2] * vec::load<T, 32>(src + 2);
  }
  return acc;
}

// 3x3, stride 1, dilation 1 (MobileNet's depthwise layers): the plane is first copied
// with its zero padding into a scratch buffer, so that every output row is whole
// vectors of the nine taps summed in registers, with no edge case: the last block
// overlaps the one before it and stores only its new columns. out holds the bias, one
// value per plane.
template <typename T>
SOPS_ALWAYS_INLINE void depthwise_3x3_body(const Conv2d& c, const T* plane, const T* wk, T* out) {
  using V = typename Vec<T, 32>::type;
  constexpr int64_t W = Vec<T, 32>::kLanes;
  if (c.out_w < W || c.out_h == 0) return depthwise_plane_body(c, plane, wk, out);
  // The padded plane: (in_h + 2 pH) rows of in_w + 2 pW; output (oh, ow) reads rows
  // oh..oh+2 and columns ow..ow+2 of it.
  const int64_t pw = c.in_w + 2 * c.pW;
  const int64_t ph = c.in_h + 2 * c.pH;
  thread_local std::vector<T> scratch;
  if (static_cast<int64_t>(scratch.size()) < pw * ph)
    scratch.resize(static_cast<std::size_t>(pw * ph));
  T* padded = scratch.data();
  pad_planes(c, plane, 0, 1, padded);

  const T bias = out[0];  // the plane is not empty here
  V w[9];
  for (int t = 0; t < 9; ++t) w[t] = vec::splat<T, 32>(wk[t]);
  for (int64_t oh = 0; oh < c.out_h; ++oh) {
    T* dst = out + oh * c.out_w;
    int64_t ow = 0;
    for (; ow + W <= c.out_w; ow += W) {
      vec::store<T, 32>(dst + ow, depthwise_3x3_block<T>(padded, pw, w, bias, oh, ow));
    }
    if (ow < c.out_w) {  // the tail: recompute the last W columns, store the new ones
      const int64_t at = c.out_w - W;
      const V tail = depthwise_3x3_block<T>(padded, pw, w, bias, oh, at);
      for (int64_t j = ow; j < c.out_w; ++j) dst[j] = tail[j - at];
    }
  }
}

// The nine taps of output columns [ow, ow + W) of output row oh at stride 2: input columns
// 2 ow + kw, taken as the even lanes of two loaded vectors (kw = 0, 2) and the odd ones
// (kw = 1). Reads padded row elements up to 2 ow + 2 W + 1.
template <typename T>
SOPS_ALWAYS_INLINE typename Vec<T, 32>::type depthwise_3x3_s2_block(
    const T* padded, int64_t pw, const typename Vec<T, 32>::type* w, T bias, int64_t oh,
    int64_t ow) {
  using V = typename Vec<T, 32>::type;
  constexpr int64_t W = Vec<T, 32>::kLanes;
  V acc = vec::splat<T, 32>(bias);
#pragma GCC unroll 3
  for (int64_t kh = 0; kh < 3; ++kh) {
    const T* src = padded + (2 * oh + kh) * pw + 2 * ow;
    const V a = vec::load<T, 32>(src), b = vec::load<T, 32>(src + W);
    const V a2 = vec::load<T, 32>(src + 2), b2 = vec::load<T, 32>(src + W + 2);
    V even, odd, even2;
    if constexpr (W == 8) {
      even = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
      odd = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
      even2 = __builtin_shufflevector(a2, b2, 0, 2, 4, 6, 8, 10, 12, 14);
    } else {
      even = __builtin_shufflevector(a, b, 0, 2, 4, 6);
      odd = __builtin_shufflevector(a, b, 1, 3, 5, 7);
      even2 = __builtin_shufflevector(a2, b2, 0, 2, 4, 6);
    }
    acc += w[kh * 3] * even + w[kh * 3 + 1] * odd + w[kh * 3 + 2] * even2;
  }
  return acc;
}

// 3x3, stride 2, dilation 1 (MobileNet's downsampling depthwise layers), from a padded
// copy of the plane as the stride-1 body: whole vectors of outputs while their loads stay
// inside the padded row, then the last columns one by one. out holds the bias.
template <typename T>
SOPS_ALWAYS_INLINE void depthwise_3x3_s2_body(const Conv2d& c, const T* plane, const T* wk,
                                              T* out) {
  using V = typename Vec<T, 32>::type;
  constexpr int64_t W = Vec<T, 32>::kLanes;
  if (c.out_w < W || c.out_h == 0) return depthwise_plane_body(c, plane, wk, out);
  const int64_t pw = c.in_w + 2 * c.pW;
  const int64_t ph = c.in_h + 2 * c.pH;
  thread_local std::vector<T> scratch;
  if (static_cast<int64_t>(scratch.size()) < pw * ph)
    scratch.resize(static_cast<std::size_t>(pw * ph));
  T* padded = scratch.data();
  pad_planes(c, plane, 0, 1, padded);
  const T bias = out[0];
  V w[9];
  for (int t = 0; t < 9; ++t) w[t] = vec::splat<T, 32>(wk[t]);
  for (int64_t oh = 0; oh < c.out_h; ++oh) {
    T* dst = out + oh * c.out_w;
    int64_t ow = 0;
    for (; ow + W <= c.out_w && 2 * ow + 2 * W + 2 <= pw; ow += W) {
      vec::store<T, 32>(dst + ow, depthwise_3x3_s2_block<T>(padded, pw, w, bias, oh, ow));
    }
    for (; ow < c.out_w; ++ow) {
      T acc = bias;
      for (int64_t kh = 0; kh < 3; ++kh) {
        const T* src = padded + (2 * oh + kh) * pw + 2 * ow;
        acc += wk[kh * 3] * src[0] + wk[kh * 3 + 1] * src[1] + wk[kh * 3 + 2] * src[2];
      }
      dst[ow] = acc;
    }
  }
}

template <typename T>
SOPS_ALWAYS_INLINE void depthwise_plane_any(const Conv2d& c, const T* plane, const T* wk, T* out) {
  if (c.kH == 3 && c.kW == 3 && c.sH == 1 && c.sW == 1 && c.dH == 1 && c.dW == 1) {
    depthwise_3x3_body(c, plane, wk, out);
  } else if (c.kH == 3 && c.kW == 3 && c.sH == 2 && c.sW == 2 && c.dH == 1 && c.dW == 1) {
    depthwise_3x3_s2_body(c, plane, wk, out);
  } else {
    depthwise_plane_body(c, plane, wk, out);
  }
}

SOPS_CPU_CLONES(depthwise_plane, depthwise_plane_any)

// groups == in_channels: a direct loop per output plane (im2col would only copy).
template <typename T>
void depthwise(const Conv2d& c, const T* x, const T* w, T* y) {
  const int64_t ohw = c.out_h * c.out_w;
  const int64_t mult = c.out_cg();
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(ohw * c.kH * c.kW, 1));
  parallel_for(0, c.batch * c.out_c, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const int64_t n = p / c.out_c, oc = p % c.out_c;
      const T* plane = x + (n * c.in_c + oc / mult) * c.in_h * c.in_w;
      const T* wk = w + oc * c.kH * c.kW;
      T* out = y + p * ohw;
      depthwise_plane(c, plane, wk, out);
    }
  });
}

// Whether conv_floating adds the bias in the GEMM's stores (the im2col and 1x1 paths),
// so that y needs no filling with it first; the depthwise and transposed paths add into
// a y that holds it.
bool bias_in_gemm(const Conv2d& c) { return !c.transposed && c.in_cg() != 1; }

// float32 / float64: y (contiguous [batch, out_c, out_h, out_w]) already holds the bias,
// except where bias_in_gemm(c): there the GEMM writes y with `bias` (null: none) added.
template <typename T>
void conv_floating(const Conv2d& c, const T* x, const T* w, T* y, const T* bias) {
  if (!c.transposed && c.in_cg() == 1) {
    depthwise(c, x, w, y);
    return;
  }
  const int64_t G = c.groups;
  const int64_t K = c.kH * c.kW;
  const int64_t in_hw = c.in_h * c.in_w, out_hw = c.out_h * c.out_w;
  const bool direct =
      !c.transposed && c.kH == 1 && c.kW == 1 && c.sH == 1 && c.sW == 1 && c.pH == 0 && c.pW == 0;
  // Work items: (image, group) pairs, and, when there are fewer of those than threads (one
  // image: what mobile models run), blocks of their output columns too, so that im2col
  // and the product both split over the threads instead of only the product's few row
  // tiles.
  const int64_t tasks = c.batch * G;
  const int64_t threads = get_num_threads();
  const bool im2col = !c.transposed && !direct;
  const bool split_blocks = im2col && tasks < threads;
  const int64_t block =
      split_blocks ? std::max<int64_t>(64, ((out_hw + threads - 1) / threads + 63) / 64 * 64)
                   : out_hw;
  const int64_t blocks = split_blocks ? (out_hw + block - 1) / block : 1;
  const int64_t items = tasks * blocks;
  const int64_t grain = items >= threads ? 1 : items;
  // im2col reads the input with its padding made once, up front, planes in parallel
  // (one at a time when the product itself is split: for one small image the padding,
  // serial, took the time the split saved).
  const bool pad = im2col && (c.pH > 0 || c.pW > 0);
  const int64_t padded_hw = (c.in_h + 2 * c.pH) * (c.in_w + 2 * c.pW);
  std::unique_ptr<T[]> padded(pad ? new T[static_cast<std::size_t>(c.batch * c.in_c * padded_hw)]
                                  : nullptr);
  if (pad) {
    const int64_t pad_grain = split_blocks ? 1 : std::max<int64_t>(1, kGrainSize / padded_hw);
    parallel_for(0, c.batch * c.in_c, pad_grain,
                 [&](int64_t begin, int64_t end) { pad_planes(c, x, begin, end, padded.get()); });
  }
  parallel_for(0, items, grain, [&](int64_t begin, int64_t end) {
    // The transposed convolution's columns; not value-initialized: gemm writes them all.
    std::unique_ptr<T[]> cols(c.transposed ? new T[static_cast<std::size_t>(c.out_cg() * K * in_hw)]
                                           : nullptr);
    for (int64_t item = begin; item < end; ++item) {
      const int64_t t = item / blocks;
      const int64_t n = t / G, g = t % G;
      const T* xg = x + (n * c.in_c + g * c.in_cg()) * in_hw;
      T* yg = y + (n * c.out_c + g * c.out_cg()) * out_hw;
      if (!c.transposed) {
        // y_g (out_cg x out_hw) += w_g (out_cg x in_cg*K) @ im2col(x_g) (in_cg*K x out_hw),
        // columns [j0, j0 + nj); im2col's matrix is made as the GEMM packs it.
        const int64_t kk = c.in_cg() * K;
        const T* wg = w + g * c.out_cg() * kk;
        const T* bg = bias != nullptr ? bias + g * c.out_cg() : nullptr;
        if (direct) {
          sops::cpu::gemm<T>(c.out_cg(), out_hw, kk, T(1), {wg, kk, 1}, {xg, out_hw, 1}, T(0),
                             {yg, out_hw, 1}, bg);
          continue;
        }
        const int64_t j0 = item % blocks * block;
        const int64_t nj = std::min(block, out_hw - j0);
        const int64_t first_plane = n * c.in_c + g * c.in_cg();
        const PaddedInput<T> xp{pad ? padded.get() + first_plane * padded_hw : xg,
                                pad ? padded_hw : in_hw, c.in_w + 2 * c.pW};
        auto pack = [&](int64_t p0, int64_t kc, int64_t jb, int64_t nc, T* out) {
          im2col_pack(c, xp, p0, kc, j0 + jb, nc, out);
        };
        sops::cpu::gemm_packing_b<T>(c.out_cg(), nj, kk, T(1), {wg, kk, 1}, pack, T(0),
                                     {yg + j0, out_hw, 1}, bg);
      } else {
        // cols (out_cg*K x in_hw) = w_g^T (w_g: in_cg x out_cg*K) @ x_g (in_cg x in_hw)
        const int64_t mk = c.out_cg() * K;
        sops::cpu::gemm<T>(mk, in_hw, c.in_cg(), T(1), {w + g * c.in_cg() * mk, 1, mk},
                           {xg, in_hw, 1}, T(0), {cols.get(), in_hw, 1});
        col2im(c, cols.get(), yg);
      }
    }
  });
}

// Integer dtypes: a direct loop, summing in int64 with wrap-around (the same result modulo
// 2^bits as PyTorch's wrapping sums in the element type; no signed overflow).
template <typename T>
void conv_integral(const Conv2d& c, const T* x, const T* w, const T* bias, T* y) {
  const int64_t out_hw = c.out_h * c.out_w;
  std::vector<int64_t> acc(static_cast<std::size_t>(c.batch * c.out_c * out_hw));
  for (int64_t p = 0; p < c.batch * c.out_c; ++p) {
    const int64_t b = bias != nullptr ? static_cast<int64_t>(bias[p % c.out_c]) : 0;
    std::fill(acc.begin() + p * out_hw, acc.begin() + (p + 1) * out_hw, b);
  }
  auto tap = [](int64_t& sum, int64_t wv, T xv) {
    sum = cpu_util::wrapping_add(sum, cpu_util::wrapping_mul(wv, static_cast<int64_t>(xv)));
  };
  for (int64_t n = 0; n < c.batch; ++n) {
    for (int64_t ic = 0; ic < c.in_c; ++ic) {
      const int64_t g = ic / c.in_cg(), icg = ic % c.in_cg();
      for (int64_t ocg = 0; ocg < c.out_cg(); ++ocg) {
        const int64_t oc = g * c.out_cg() + ocg;
        // Weight [out_c, in_cg, kH, kW], or [in_c, out_cg, kH, kW] when transposed.
        const T* wk = c.transposed ? w + (ic * c.out_cg() + ocg) * c.kH * c.kW
                                   : w + (oc * c.in_cg() + icg) * c.kH * c.kW;
        int64_t* out = acc.data() + (n * c.out_c + oc) * out_hw;
        const T* plane = x + (n * c.in_c + ic) * c.in_h * c.in_w;
        for (int64_t kh = 0; kh < c.kH; ++kh) {
          for (int64_t kw = 0; kw < c.kW; ++kw) {
            const int64_t wv = static_cast<int64_t>(wk[kh * c.kW + kw]);
            if (!c.transposed) {
              for (int64_t oh = 0; oh < c.out_h; ++oh) {
                const int64_t ih = oh * c.sH - c.pH + kh * c.dH;
                if (ih < 0 || ih >= c.in_h) continue;
                for (int64_t ow = 0; ow < c.out_w; ++ow) {
                  const int64_t iw = ow * c.sW - c.pW + kw * c.dW;
                  if (iw >= 0 && iw < c.in_w)
                    tap(out[oh * c.out_w + ow], wv, plane[ih * c.in_w + iw]);
                }
              }
            } else {
              for (int64_t ih = 0; ih < c.in_h; ++ih) {
                const int64_t oh = ih * c.sH - c.pH + kh * c.dH;
                if (oh < 0 || oh >= c.out_h) continue;
                for (int64_t iw = 0; iw < c.in_w; ++iw) {
                  const int64_t ow = iw * c.sW - c.pW + kw * c.dW;
                  if (ow >= 0 && ow < c.out_w)
                    tap(out[oh * c.out_w + ow], wv, plane[ih * c.in_w + iw]);
                }
              }
            }
          }
        }
      }
    }
  }
  for (std::size_t i = 0; i < acc.size(); ++i) y[i] = static_cast<T>(acc[i]);
}

}  // namespace

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  const Tensor* bias = ops_util::defined_or_null(bias_opt);
  const ops_util::ConvolutionOutput result = ops_util::convolution_output(
      input, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
  const Tensor& out = result.out;
  const Conv2d& c = result.geometry;
  if (input.is_meta() || weight.is_meta()) return out;
  ops_util::check_convolution_dtype(input.scalar_type(), transposed, "cpu");
  if (out.numel() == 0) return out;

  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor w = cpu_util::contiguous_of(weight);
  Tensor b;
  if (bias != nullptr) {
    b = empty(bias->sizes(), input.options());
    cpu_util::copy_cast(b, *bias);  // PyTorch takes a bias of another dtype, converted
  }
  const Tensor y = out.is_contiguous() ? out : empty(out.sizes(), input.options());
  SOPS_DISPATCH_ALL_TYPES(input.scalar_type(), "slow_conv2d_cpu", [&] {
    const scalar_t* bp = b.defined() ? b.data_ptr<scalar_t>() : nullptr;
    if constexpr (std::is_floating_point_v<scalar_t>) {
      const bool any = input.numel() > 0 && weight.numel() > 0;
      if (!any || !bias_in_gemm(c)) fill_bias(c, bp, y.data_ptr<scalar_t>());
      if (any) {
        conv_floating(c, x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                      bp);
      }
    } else {
      conv_integral(c, x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), bp, y.data_ptr<scalar_t>());
    }
  });
  if (!y.is_same(out)) cpu_util::copy_cast(out, y);
  return out;
}

}  // namespace sops::aten::native
