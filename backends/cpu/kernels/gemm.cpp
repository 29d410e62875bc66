// A blocked and packed GEMM in the layout of BLIS/GotoBLAS, written with the compiler's
// portable vector extensions (no intrinsics), so that one source serves x86-64 (an
// AVX2+FMA clone picked at run time, runtime/cpu_capability.h) and any other target.
//
//   for each block of KC rows of B (and KC columns of A):
//     pack those rows of B, NR columns at a time, into contiguous panels;
//     in parallel over row blocks of A: pack MR rows at a time, then for every MR x NR
//     tile of C run the micro-kernel: MR x NR accumulators in vector registers, one
//     rank-1 update per k, written to C (scaled by alpha, plus beta * C on the first
//     block) once at the end.
//
// Products with few rows (a linear layer on one sample) or a small B skip the packing:
// each row of C is a sum of rows of B scaled by A's elements.
#include "backends/cpu/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/cpu_capability.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

#if defined(__GNUC__) && !defined(__clang__)
// FMA contraction (a * b + c in one instruction) is off under -std=c++17; the
// micro-kernel asks for it (the golden cases are exact either way).
#define SOPS_GEMM_CLONE_OPTIONS optimize("fp-contract=fast")
#define SOPS_GEMM_BASE __attribute__((SOPS_VECTORIZE_OPTIONS, SOPS_GEMM_CLONE_OPTIONS))
#define SOPS_GEMM_AVX2 \
  __attribute__((target("avx2,fma"), SOPS_VECTORIZE_OPTIONS, SOPS_GEMM_CLONE_OPTIONS))
#else
#define SOPS_GEMM_BASE SOPS_KERNEL_BASE
#define SOPS_GEMM_AVX2 SOPS_KERNEL_AVX2
#endif

namespace sops::cpu {
namespace {

// Tile and block sizes: MR x NR accumulators (12 vector registers of 16), KC deep
// panels (B's panel, KC x NR, stays in L1), MC x KC of A and KC x NC of packed B in L2
// (NC = 512 measured 1.4x faster than 2048 on convolution's wide B, the same on mm).
template <typename T>
struct Blocking {
  static constexpr int kMR = 6;
  static constexpr int kNV = 2;  // vectors per tile row
  static constexpr int kNR = kNV * Vec32<T>::kLanes;
  static constexpr int64_t kKC = 256;
  static constexpr int64_t kMC = kMR * 16;
  static constexpr int64_t kNC = 512;
};

// The MR x NR accumulators of one tile: sum over p < kc of A's packed column p times B's
// packed row p.
template <typename T>
struct Accumulators {
  typename Vec32<T>::type c[Blocking<T>::kMR][Blocking<T>::kNV];
};

template <typename T>
SOPS_ALWAYS_INLINE Accumulators<T> micro_kernel(int64_t kc, const T* ap, const T* bp) {
  using B = Blocking<T>;
  using V = typename Vec32<T>::type;
  constexpr int W = Vec32<T>::kLanes;
  Accumulators<T> acc;
#pragma GCC unroll 8
  for (int i = 0; i < B::kMR; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < B::kNV; ++v) acc.c[i][v] = V{};
  }
  for (int64_t p = 0; p < kc; ++p) {
    V b[B::kNV];
#pragma GCC unroll 4
    for (int v = 0; v < B::kNV; ++v) std::memcpy(&b[v], bp + p * B::kNR + v * W, sizeof(V));
#pragma GCC unroll 8
    for (int i = 0; i < B::kMR; ++i) {
      const V a = vec::splat<T, 32>(ap[p * B::kMR + i]);
#pragma GCC unroll 4
      for (int v = 0; v < B::kNV; ++v) acc.c[i][v] += a * b[v];
    }
  }
  return acc;
}

// A whole tile of C with unit column stride: C = alpha * acc + beta * C straight from the
// registers (beta == 0: C not read). With a short k (convolution's 144 = 16 x 3 x 3) the
// round trip through a tile buffer and scalar updates cost a tenth of the time.
template <typename T>
SOPS_ALWAYS_INLINE void store_tile(const Accumulators<T>& acc, T alpha, T beta, T* c,
                                   int64_t row_stride, const T* bias) {
  using B = Blocking<T>;
  using V = typename Vec32<T>::type;
  constexpr int W = Vec32<T>::kLanes;
#pragma GCC unroll 8
  for (int i = 0; i < B::kMR; ++i) {
#pragma GCC unroll 4
    for (int v = 0; v < B::kNV; ++v) {
      T* out = c + i * row_stride + v * W;
      V o = acc.c[i][v] * alpha;
      if (bias != nullptr) o += vec::splat<T, 32>(bias[i]);
      if (beta != T(0)) {
        V prev;
        std::memcpy(&prev, out, sizeof(V));
        o += beta * prev;
      }
      std::memcpy(out, &o, sizeof(V));
    }
  }
}

// C[0:mr, 0:nr] = alpha * tile + beta * C (beta == 0: C not read), plus bias[i] on row i
// when there is a bias.
template <typename T>
SOPS_ALWAYS_INLINE void update_tile(const T* tile, int mr, int nr, T alpha, T beta, MatrixArg<T> c,
                                    const T* bias) {
  constexpr int NR = Blocking<T>::kNR;
  for (int i = 0; i < mr; ++i) {
    T* row = c.data + i * c.row_stride;
    const T* t = tile + i * NR;
    const T add = bias != nullptr ? bias[i] : T(0);
    if (c.col_stride == 1) {
      if (beta == T(0)) {
        for (int j = 0; j < nr; ++j) row[j] = alpha * t[j] + add;
      } else {
        for (int j = 0; j < nr; ++j) row[j] = alpha * t[j] + add + beta * row[j];
      }
    } else {
      for (int j = 0; j < nr; ++j) {
        T& out = row[j * c.col_stride];
        out = beta == T(0) ? alpha * t[j] + add : alpha * t[j] + add + beta * out;
      }
    }
  }
}

// Every tile of an mc x nc block of C from packed A (mc rows) and packed B (nc columns).
template <typename T>
SOPS_ALWAYS_INLINE void macro_kernel_body(int64_t mc, int64_t nc, int64_t kc, const T* ap,
                                          const T* bp, T alpha, T beta, MatrixArg<T> c,
                                          const T* bias) {
  using B = Blocking<T>;
  alignas(64) T tile[B::kMR * B::kNR];
  for (int64_t j = 0; j < nc; j += B::kNR) {
    const int nr = static_cast<int>(std::min<int64_t>(B::kNR, nc - j));
    for (int64_t i = 0; i < mc; i += B::kMR) {
      const int mr = static_cast<int>(std::min<int64_t>(B::kMR, mc - i));
      const Accumulators<T> acc = micro_kernel<T>(kc, ap + i * kc, bp + j * kc);
      const T* tile_bias = bias != nullptr ? bias + i : nullptr;
      if (mr == B::kMR && nr == B::kNR && c.col_stride == 1) {
        store_tile<T>(acc, alpha, beta, c.data + i * c.row_stride + j, c.row_stride, tile_bias);
        continue;
      }
      static_assert(sizeof(Accumulators<T>) == sizeof tile, "a tile is MR rows of NR");
      std::memcpy(tile, &acc, sizeof tile);
      update_tile<T>(
          tile, mr, nr, alpha, beta,
          MatrixArg<T>{c.data + i * c.row_stride + j * c.col_stride, c.row_stride, c.col_stride},
          tile_bias);
    }
  }
}

// C[i, :] = beta * C[i, :] + alpha * sum_p A[i, p] * B[p, :], B and C rows contiguous:
// 4 vectors of C's row stay in registers while every row of B is added in (then one
// vector, then single elements, for the last columns).
template <typename T>
SOPS_ALWAYS_INLINE void few_rows_body(int64_t m, int64_t n, int64_t k, T alpha,
                                      MatrixArg<const T> a, MatrixArg<const T> b, T beta,
                                      MatrixArg<T> c) {
  using V = typename Vec32<T>::type;
  constexpr int W = Vec32<T>::kLanes;
  constexpr int kStrip = 4 * W;
  for (int64_t i = 0; i < m; ++i) {
    T* out = c.data + i * c.row_stride;
    const T* arow = a.data + i * a.row_stride;
    int64_t j = 0;
    for (; j + kStrip <= n; j += kStrip) {
      V acc[4] = {};
      for (int64_t p = 0; p < k; ++p) {
        const V s = vec::splat<T, 32>(arow[p * a.col_stride]);
        const T* brow = b.data + p * b.row_stride + j;
#pragma GCC unroll 4
        for (int v = 0; v < 4; ++v) {
          V x;
          std::memcpy(&x, brow + v * W, sizeof(V));
          acc[v] += s * x;
        }
      }
#pragma GCC unroll 4
      for (int v = 0; v < 4; ++v) {
        V o = acc[v] * alpha;
        if (beta != T(0)) {
          V prev;
          std::memcpy(&prev, out + j + v * W, sizeof(V));
          o += beta * prev;
        }
        std::memcpy(out + j + v * W, &o, sizeof(V));
      }
    }
    for (; j + W <= n; j += W) {  // then one vector at a time (n = 16, 24, ...)
      V acc = {};
      for (int64_t p = 0; p < k; ++p) {
        V x;
        std::memcpy(&x, b.data + p * b.row_stride + j, sizeof(V));
        acc += vec::splat<T, 32>(arow[p * a.col_stride]) * x;
      }
      V o = acc * alpha;
      if (beta != T(0)) {
        V prev;
        std::memcpy(&prev, out + j, sizeof(V));
        o += beta * prev;
      }
      std::memcpy(out + j, &o, sizeof(V));
    }
    for (; j < n; ++j) {
      T acc = T(0);
      for (int64_t p = 0; p < k; ++p) acc += arow[p * a.col_stride] * b.data[p * b.row_stride + j];
      out[j] = beta == T(0) ? alpha * acc : alpha * acc + beta * out[j];
    }
  }
}

// The same few rows when B's columns are contiguous (b.row_stride == 1: a linear layer's
// weight, [n, k], read as its transpose) and so are A's rows: each element of C is a dot
// product of two contiguous runs, up to four rows of A at once against one column of B
// (read once for them). Packing would gather all of B across its columns per call (5 ms
// for MobileNetV2's [1, 1280] x [1280, 1000] classifier, against 0.1 ms for this).
template <typename T>
SOPS_ALWAYS_INLINE void few_rows_dot_body(int64_t m, int64_t n, int64_t k, T alpha,
                                          MatrixArg<const T> a, MatrixArg<const T> b, T beta,
                                          MatrixArg<T> c) {
  using V = typename Vec32<T>::type;
  constexpr int W = Vec32<T>::kLanes;
  for (int64_t i0 = 0; i0 < m; i0 += 4) {
    const int rows = static_cast<int>(std::min<int64_t>(4, m - i0));
    for (int64_t j = 0; j < n; ++j) {
      const T* bcol = b.data + j * b.col_stride;
      V acc[4][2] = {};
      int64_t p = 0;
      for (; p + 2 * W <= k; p += 2 * W) {
        V x0, x1;
        std::memcpy(&x0, bcol + p, sizeof(V));
        std::memcpy(&x1, bcol + p + W, sizeof(V));
#pragma GCC unroll 4
        for (int r = 0; r < 4; ++r) {
          if (r >= rows) break;
          const T* arow = a.data + (i0 + r) * a.row_stride + p;
          V y0, y1;
          std::memcpy(&y0, arow, sizeof(V));
          std::memcpy(&y1, arow + W, sizeof(V));
          acc[r][0] += y0 * x0;
          acc[r][1] += y1 * x1;
        }
      }
      for (int r = 0; r < rows; ++r) {
        const T* arow = a.data + (i0 + r) * a.row_stride;
        T sum = vec::sum_lanes<T, 32>(acc[r][0] + acc[r][1]);
        for (int64_t q = p; q < k; ++q) sum += arow[q] * bcol[q];
        T* out = c.data + (i0 + r) * c.row_stride + j * c.col_stride;
        *out = beta == T(0) ? alpha * sum : alpha * sum + beta * *out;
      }
    }
  }
}

SOPS_CPU_CLONES_WITH(macro_kernel, macro_kernel_body, SOPS_GEMM_BASE, SOPS_GEMM_AVX2)
SOPS_CPU_CLONES_WITH(few_rows_dot, few_rows_dot_body, SOPS_GEMM_BASE, SOPS_GEMM_AVX2)
SOPS_CPU_CLONES_WITH(few_rows, few_rows_body, SOPS_GEMM_BASE, SOPS_GEMM_AVX2)

// The block of m starting at row i and column j.
template <typename T>
MatrixArg<T> block_of(MatrixArg<T> m, int64_t i, int64_t j) {
  return {m.data + i * m.row_stride + j * m.col_stride, m.row_stride, m.col_stride};
}

// A[0:mc, 0:kc] into panels of MR rows: panel r holds, for each p, rows r*MR.. of
// column p (zero past row mc).
template <typename T>
SOPS_KERNEL_BASE void pack_a(int64_t mc, int64_t kc, MatrixArg<const T> a, T* out) {
  constexpr int MR = Blocking<T>::kMR;
  for (int64_t i0 = 0; i0 < mc; i0 += MR) {
    const int mr = static_cast<int>(std::min<int64_t>(MR, mc - i0));
    for (int64_t p = 0; p < kc; ++p) {
      const T* col = a.data + i0 * a.row_stride + p * a.col_stride;
      for (int i = 0; i < mr; ++i) out[p * MR + i] = col[i * a.row_stride];
      for (int i = mr; i < MR; ++i) out[p * MR + i] = T(0);
    }
    out += MR * kc;
  }
}

// B[0:kc, 0:nc] into panels of NR columns: panel q holds, for each p, columns q*NR..
// of row p (zero past column nc).
template <typename T>
SOPS_KERNEL_BASE void pack_b(int64_t kc, int64_t nc, MatrixArg<const T> b, T* out) {
  constexpr int NR = Blocking<T>::kNR;
  for (int64_t j0 = 0; j0 < nc; j0 += NR) {
    const int nr = static_cast<int>(std::min<int64_t>(NR, nc - j0));
    for (int64_t p = 0; p < kc; ++p) {
      const T* row = b.data + p * b.row_stride + j0 * b.col_stride;
      T* dst = out + p * NR;
      if (b.col_stride == 1 && nr == NR) {
        std::memcpy(dst, row, sizeof(T) * NR);
      } else {
        for (int j = 0; j < nr; ++j) dst[j] = row[j * b.col_stride];
        for (int j = nr; j < NR; ++j) dst[j] = T(0);
      }
    }
    out += NR * kc;
  }
}

template <typename T>
T* scratch(std::vector<T>& buffer, int64_t size) {
  if (static_cast<int64_t>(buffer.size()) < size) buffer.resize(static_cast<std::size_t>(size));
  return buffer.data();
}

// Rows [row_begin, row_end) of C for one KC-deep block (A columns / B rows p0..p0+kc)
// and the packed B of columns j0..j0+nc.
template <typename T>
void gemm_rows(int64_t row_begin, int64_t row_end, int64_t j0, int64_t nc, int64_t p0, int64_t kc,
               T alpha, MatrixArg<const T> a, const T* bp, T beta, MatrixArg<T> c, const T* bias) {
  using B = Blocking<T>;
  thread_local std::vector<T> a_buffer;
  T* ap = scratch(a_buffer, B::kMC * B::kKC);
  for (int64_t i0 = row_begin; i0 < row_end; i0 += B::kMC) {
    const int64_t mc = std::min<int64_t>(B::kMC, row_end - i0);
    pack_a<T>(mc, kc, block_of(a, i0, p0), ap);
    macro_kernel(mc, nc, kc, static_cast<const T*>(ap), bp, alpha, beta, block_of(c, i0, j0),
                 bias != nullptr ? bias + i0 : nullptr);
  }
}

// A product with nothing to multiply (no C, k == 0 or alpha == 0) is C = beta * C:
// done here, and true returned.
template <typename T>
bool trivial_product(int64_t m, int64_t n, int64_t k, T alpha, T beta, MatrixArg<T> c) {
  if (m <= 0 || n <= 0) return true;
  if (k > 0 && alpha != T(0)) return false;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T& out = c.data[i * c.row_stride + j * c.col_stride];
      out = beta == T(0) ? T(0) : beta * out;
    }
  }
  return true;
}

// The blocked product, B's columns [b_col0, b_col0 + n) packed by `pack`.
template <typename T>
void gemm_packed(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, PackB<T> pack,
                 int64_t b_col0, T beta, MatrixArg<T> c, const T* row_bias) {
  using B = Blocking<T>;
  static_assert(B::kNR == gemm_b_panel_width<T>());
  // Split rows over the threads in whole MR tiles, when there is enough work.
  const int64_t tiles = (m + B::kMR - 1) / B::kMR;
  const int64_t threads = get_num_threads();
  const bool parallel = m * n * k >= (int64_t{1} << 18) && threads > 1 && !in_parallel_region();
  // A product at least as wide as it is tall splits its columns instead: each thread
  // packs and reads only its part of B, where a split of the rows has every thread
  // stream all of B (measured at 2 threads: [64,512] @ [512,512] 0.4-0.7x libtorch
  // with rows, 0.93x with columns; 512^3 0.88x and 1.0x).
  if (parallel && m <= n && n >= 2 * B::kNR * threads) {
    const int64_t panels = (n + B::kNR - 1) / B::kNR;
    parallel_for(0, panels, 1, [&](int64_t q0, int64_t q1) {
      const int64_t j0 = q0 * B::kNR;
      const int64_t j1 = std::min(n, q1 * B::kNR);
      gemm_packed<T>(m, j1 - j0, k, alpha, a, pack, b_col0 + j0, beta, block_of(c, 0, j0),
                     row_bias);
    });
    return;
  }
  thread_local std::vector<T> b_buffer;
  // All of A in one row block (m <= MC) and several column blocks, on one thread: A is
  // packed once, every KC block of it, not once per column block (convolution: 64 output
  // channels by 3136 positions; the packing was 4% of its time).
  thread_local std::vector<T> a_buffer;
  const int64_t m_padded = tiles * B::kMR;
  const bool pack_a_once = !parallel && m <= B::kMC && n > B::kNC;
  T* a_packed = pack_a_once ? scratch(a_buffer, m_padded * k) : nullptr;
  for (int64_t j0 = 0; j0 < n; j0 += B::kNC) {
    const int64_t nc = std::min<int64_t>(B::kNC, n - j0);
    const int64_t nc_padded = (nc + B::kNR - 1) / B::kNR * B::kNR;
    for (int64_t p0 = 0; p0 < k; p0 += B::kKC) {
      const int64_t kc = std::min<int64_t>(B::kKC, k - p0);
      T* bp = scratch(b_buffer, nc_padded * kc);
      // Packed in parallel too (whole NR panels each): serial, it was a third of a
      // [64,512] @ [512,512] addmm on 2 threads.
      auto pack_panels = [&](int64_t q0, int64_t q1) {
        const int64_t j = q0 * B::kNR;
        pack(p0, kc, b_col0 + j0 + j, std::min(nc, q1 * B::kNR) - j, bp + j * kc);
      };
      const int64_t panels = nc_padded / B::kNR;
      if (parallel) {
        parallel_for(0, panels, 1, pack_panels);
      } else {
        pack_panels(0, panels);
      }
      // The first block of k writes beta * C plus the bias; the others add to it.
      const T block_beta = p0 == 0 ? beta : T(1);
      const T* block_bias = p0 == 0 ? row_bias : nullptr;
      auto rows = [&](int64_t t_begin, int64_t t_end) {
        gemm_rows<T>(t_begin * B::kMR, std::min(m, t_end * B::kMR), j0, nc, p0, kc, alpha, a, bp,
                     block_beta, c, block_bias);
      };
      if (pack_a_once) {
        T* ap = a_packed + m_padded * p0;
        if (j0 == 0) pack_a<T>(m, kc, block_of(a, 0, p0), ap);
        macro_kernel(m, nc, kc, static_cast<const T*>(ap), static_cast<const T*>(bp), alpha,
                     block_beta, block_of(c, 0, j0), block_bias);
      } else if (parallel) {
        parallel_for(0, tiles, 1, rows);
      } else {
        rows(0, tiles);
      }
    }
  }
}

}  // namespace

// C = beta * C + bias per row (beta == 0: C not read): a bias the product paths below
// do not add in their stores is put in C first, and they then run with beta 1.
template <typename T>
void fill_rows(int64_t m, int64_t n, const T* bias, T beta, MatrixArg<T> c) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T& out = c.data[i * c.row_stride + j * c.col_stride];
      out = beta == T(0) ? bias[i] : beta * out + bias[i];
    }
  }
}

template <typename T>
void gemm_packing_b(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, PackB<T> pack,
                    T beta, MatrixArg<T> c, const T* row_bias) {
  if (row_bias != nullptr && (m <= 0 || n <= 0 || k <= 0 || alpha == T(0))) {
    fill_rows(m, n, row_bias, beta, c);
    return;
  }
  if (trivial_product(m, n, k, alpha, beta, c)) return;
  gemm_packed<T>(m, n, k, alpha, a, pack, 0, beta, c, row_bias);
}

template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, MatrixArg<const T> b,
          T beta, MatrixArg<T> c, const T* row_bias) {
  if (row_bias != nullptr && (m <= 0 || n <= 0 || k <= 0 || alpha == T(0))) {
    fill_rows(m, n, row_bias, beta, c);
    return;
  }
  if (trivial_product(m, n, k, alpha, beta, c)) return;
  // Few rows, or a B small enough to stay in L1/L2 while every row of C reads it: no
  // packing (measured faster on both sides of these limits; bench/kernels_bench).
  const bool unpacked =
      m <= 4 || (m <= 32 && k * n * static_cast<int64_t>(sizeof(T)) <= (int64_t{64} << 10));
  if (unpacked && row_bias != nullptr) {  // (the unpacked paths store no bias)
    fill_rows(m, n, row_bias, beta, c);
    beta = T(1);
    row_bias = nullptr;
  }
  if (unpacked && b.col_stride == 1 && c.col_stride == 1) {
    return few_rows(m, n, k, alpha, a, b, beta, c);
  }
  // (Only a few rows: each dot product ends in a sum across a vector's lanes, which the
  // packed kernel's tiles never pay; a transformer's [32, 64] x [64, 256] with transposed
  // weights measured slower here.)
  if (m <= 4 && b.row_stride == 1 && a.col_stride == 1) {
    // Columns of C split over the threads (each reads its own columns of B).
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(m * k, 1));
    parallel_for(0, n, grain, [&](int64_t j0, int64_t j1) {
      few_rows_dot(m, j1 - j0, k, alpha, a,
                   MatrixArg<const T>{b.data + j0 * b.col_stride, 1, b.col_stride}, beta,
                   MatrixArg<T>{c.data + j0 * c.col_stride, c.row_stride, c.col_stride});
    });
    return;
  }
  auto pack = [&](int64_t p0, int64_t kc, int64_t j0, int64_t nc, T* out) {
    pack_b<T>(kc, nc, {b.data + p0 * b.row_stride + j0 * b.col_stride, b.row_stride, b.col_stride},
              out);
  };
  gemm_packed<T>(m, n, k, alpha, a, pack, 0, beta, c, row_bias);
}

template void gemm<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                          MatrixArg<const float>, float, MatrixArg<float>, const float*);
template void gemm<double>(int64_t, int64_t, int64_t, double, MatrixArg<const double>,
                           MatrixArg<const double>, double, MatrixArg<double>, const double*);

template void gemm_packing_b<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                                    PackB<float>, float, MatrixArg<float>, const float*);
template void gemm_packing_b<double>(int64_t, int64_t, int64_t, double, MatrixArg<const double>,
                                     PackB<double>, double, MatrixArg<double>, const double*);

}  // namespace sops::cpu
