// CPU kernel of grid_sampler_2d (float32 and float64, as PyTorch's): each output pixel
// (n, h, w) samples input[n] at the point grid[n, h, w] = (x, y) in [-1, 1] coordinates,
// bilinear, nearest (round half to even) or bicubic, outside the input zeros, the border
// or its reflection. Registered for meta tensors too (CPU and Meta): there only the
// checks and the output shape happen (ops/util/nn_utils.h). The arithmetic follows
// PyTorch's vectorized CPU kernel step by step (the unnormalization, reflection and
// weights in the input's dtype), so results agree to the last bits.
#include <cmath>
#include <cstdint>

#include "aten/ops/grid_sampler_2d_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

enum Interpolation : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

// One axis of the input (its size): grid coordinates to pixel coordinates, and the
// padding mode's map of a pixel coordinate into the input.
template <typename T>
struct Axis {
  int64_t size;
  bool align_corners;
  Padding padding;

  // [-1, 1] to [0, size - 1] (align_corners: the corner pixels' centers) or to
  // [-0.5, size - 0.5] (the corner pixels' outer edges).
  T unnormalize(T c) const {
    if (align_corners) return (c + T(1)) * (static_cast<T>(size - 1) / 2);
    return (c + T(1)) * (static_cast<T>(size) / 2) - T(0.5);
  }

  // Into [0, size - 1]; NaN becomes 0.
  T clip(T c) const {
    const T hi = static_cast<T>(size - 1);
    if (!(c > T(0))) return T(0);
    return c < hi ? c : hi;
  }

  // Reflected at the corner pixels' centers (align_corners) or outer edges until inside.
  T reflect(T c) const {
    const T low = align_corners ? T(0) : T(-0.5);
    const T twice_span = align_corners ? static_cast<T>(size - 1) * 2 : static_cast<T>(size) * 2;
    if (twice_span == T(0)) return T(0);
    const T a = std::abs(c - low);
    const T extra = a - std::trunc(a / twice_span) * twice_span;
    const T flipped = twice_span - extra;
    return (flipped < extra ? flipped : extra) + low;
  }

  // A pixel coordinate as the padding mode sees it.
  T pad(T c) const {
    if (padding == kBorder) return clip(c);
    if (padding == kReflection) return clip(reflect(c));
    return c;
  }

  // Whether integral coordinate i (a floating value) lies inside (NaN does not).
  bool inside(T i) const { return i > T(-1) && i < static_cast<T>(size); }
};

// The cubic convolution weights (A = -0.75) of the 4 taps around a point at fraction t.
template <typename T>
void cubic_coefficients(T (&k)[4], T t) {
  const T A = T(-0.75);
  T x = t + T(1);
  k[0] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
  x = t;
  k[1] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(1) - t;
  k[2] = ((A + T(2)) * x - (A + T(3))) * x * x + T(1);
  x = T(2) - t;
  k[3] = ((A * x - T(5) * A) * x + T(8) * A) * x - T(4) * A;
}

// The input plane of one (n, c): its pixel at integral (x, y), 0 outside.
template <typename T>
struct Plane {
  const T* data;
  int64_t stride_h, stride_w;
  const Axis<T>* ax;
  const Axis<T>* ay;

  T at(T x, T y) const {
    if (!ax->inside(x) || !ay->inside(y)) return T(0);
    return data[static_cast<int64_t>(y) * stride_h + static_cast<int64_t>(x) * stride_w];
  }
};

struct Geometry {
  int64_t channels, out_h, out_w;
  int64_t in_stride_n, in_stride_c, in_stride_h, in_stride_w;
};

// Output rows [begin, end) of (n, h): every pixel's sampling point, then each channel.
template <typename T>
void sample_rows(const T* in, const T* grid, T* out, const Geometry& g, const Axis<T>& ax,
                 const Axis<T>& ay, Interpolation mode, int64_t begin, int64_t end) {
  const int64_t plane = g.out_h * g.out_w;
  for (int64_t r = begin; r < end; ++r) {
    const int64_t n = r / g.out_h;
    const T* in_n = in + n * g.in_stride_n;
    T* out_row = out + n * g.channels * plane + (r % g.out_h) * g.out_w;
    for (int64_t w = 0; w < g.out_w; ++w) {
      const T gx = grid[(r * g.out_w + w) * 2];
      const T gy = grid[(r * g.out_w + w) * 2 + 1];
      Plane<T> p{in_n, g.in_stride_h, g.in_stride_w, &ax, &ay};
      if (mode == kBilinear) {
        const T x = ax.pad(ax.unnormalize(gx));
        const T y = ay.pad(ay.unnormalize(gy));
        const T x0 = std::floor(x), y0 = std::floor(y);
        const T fw = x - x0, fe = T(1) - fw, fn = y - y0, fs = T(1) - fn;
        const T nw = fs * fe, ne = fs * fw, sw = fn * fe, se = fn * fw;
        for (int64_t c = 0; c < g.channels; ++c, p.data += g.in_stride_c) {
          out_row[c * plane + w] = p.at(x0, y0) * nw + p.at(x0 + 1, y0) * ne +
                                   p.at(x0, y0 + 1) * sw + p.at(x0 + 1, y0 + 1) * se;
        }
      } else if (mode == kNearest) {
        const T x = std::nearbyint(ax.pad(ax.unnormalize(gx)));
        const T y = std::nearbyint(ay.pad(ay.unnormalize(gy)));
        for (int64_t c = 0; c < g.channels; ++c, p.data += g.in_stride_c) {
          out_row[c * plane + w] = p.at(x, y);
        }
      } else {
        // Bicubic: the 4 x 4 taps around the unpadded point, each tap mapped by the
        // padding mode.
        const T x = ax.unnormalize(gx), y = ay.unnormalize(gy);
        const T x0 = std::floor(x), y0 = std::floor(y);
        T kx[4], ky[4], tx[4], ty[4];
        cubic_coefficients(kx, x - x0);
        cubic_coefficients(ky, y - y0);
        for (int i = 0; i < 4; ++i) {
          tx[i] = ax.pad(x0 + T(i - 1));
          ty[i] = ay.pad(y0 + T(i - 1));
        }
        for (int64_t c = 0; c < g.channels; ++c, p.data += g.in_stride_c) {
          T rows[4];
          for (int i = 0; i < 4; ++i) {
            rows[i] = kx[0] * p.at(tx[0], ty[i]) + kx[1] * p.at(tx[1], ty[i]) +
                      kx[2] * p.at(tx[2], ty[i]) + kx[3] * p.at(tx[3], ty[i]);
          }
          out_row[c * plane + w] =
              ky[0] * rows[0] + ky[1] * rows[1] + ky[2] * rows[2] + ky[3] * rows[3];
        }
      }
    }
  }
}

}  // namespace

Tensor grid_sampler_2d_cpu(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                           int64_t padding_mode, bool align_corners) {
  Tensor out = ops_util::grid_sampler_2d_output(input, grid, interpolation_mode, padding_mode);
  if (input.is_meta()) return out;
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "grid_sampler_2d_cpu_kernel_impl");
  SOPS_CHECK_ARG(grid.scalar_type() == input.scalar_type(), "grid", "expected scalar type ",
                 ops_util::aten_name(input.scalar_type()), " but found ",
                 ops_util::aten_name(grid.scalar_type()));
  if (out.numel() == 0) return out;
  const Tensor g = cpu_util::contiguous_of(grid);
  const Geometry geo{input.size(1),   out.size(2),     out.size(3),    input.stride(0),
                     input.stride(1), input.stride(2), input.stride(3)};
  const auto mode = static_cast<Interpolation>(interpolation_mode);
  const auto padding = static_cast<Padding>(padding_mode);
  const int64_t rows = out.size(0) * out.size(2);
  const int64_t per_row = std::max<int64_t>(1, out.size(1) * out.size(3));
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "grid_sampler_2d_cpu_kernel_impl", [&] {
    using T = scalar_t;
    const Axis<T> ax{input.size(3), align_corners, padding};
    const Axis<T> ay{input.size(2), align_corners, padding};
    const T* in = input.data_ptr<T>();
    const T* gp = g.data_ptr<T>();
    T* op = out.data_ptr<T>();
    parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / per_row),
                 [&](int64_t begin, int64_t end) {
                   sample_rows<T>(in, gp, op, geo, ax, ay, mode, begin, end);
                 });
  });
  return out;
}

}  // namespace sops::aten::native
