// mm, bmm and addmm on CUDA: one tiled GEMM kernel of ours (no cuBLAS) over strided
// operands, with addmm's beta * self in its epilogue.
//
// Each block of 256 threads computes a 64 x 64 tile of out: for each 16-deep slice of k it
// stages a 64 x 16 tile of mat1 and a 16 x 64 tile of mat2 in shared memory (zeros past
// the edges), then every thread adds their products into a 4 x 4 block of accumulators
// held in registers (rows ty + 16 i, columns tx + 16 j: a half warp reads 16 consecutive
// columns of the mat2 tile and writes 16 consecutive columns of out). The tiles are
// loaded with consecutive threads along whichever of an operand's dimensions has unit
// stride, so that row-major and transposed operands both read coalesced.
// Tiles over m, n and the batch are the grid's x, y and z, looped over when the grid's
// limits are smaller. Floating types accumulate in their own type (as the CPU's GEMM);
// integers in theirs, wrapping around (as the CPU's loop). Functors and templates, not
// __device__ lambdas: the dtype dispatch's bodies are generic lambdas.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "backends/cuda/kernels/linear_algebra_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/scalar_checks.h"
#include "ops/util/scalar_math.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

using aten::math::wrapping_add;
using aten::math::wrapping_mul;

constexpr int kTileM = 64;                       // rows of out per block
constexpr int kTileN = 64;                       // columns of out per block
constexpr int kTileK = 16;                       // depth of the shared-memory tiles
constexpr int kThreads = 256;                    // 16 x 16 threads, each a 4 x 4 block of out
constexpr int kThreadsN = 16;                    // threads along n (tx)
constexpr int kThreadsM = kThreads / kThreadsN;  // threads along m (ty)
constexpr int kPerThreadM = kTileM / kThreadsM;
constexpr int kPerThreadN = kTileN / kThreadsN;
constexpr int kLoadsA = kTileM * kTileK / kThreads;  // elements of each tile per thread
constexpr int kLoadsB = kTileK * kTileN / kThreads;
static_assert(kPerThreadM == 4 && kPerThreadN == 4, "each thread holds a 4 x 4 block");
static_assert(kTileM * kTileK % kThreads == 0 && kTileK * kTileN % kThreads == 0,
              "every thread loads the same number of tile elements");

template <typename T>
struct Operand {
  const T* data;
  int64_t batch_stride;
  int64_t row_stride;
  int64_t col_stride;
};

template <typename T>
struct GemmParams {
  int64_t batch, m, n, k;
  Operand<T> a;     // mat1, m x k
  Operand<T> b;     // mat2, k x n
  Operand<T> self;  // read only when use_self
  T* out;
  int64_t out_batch_stride, out_row_stride, out_col_stride;
  T alpha, beta;
  bool skip_product;  // alpha == 0 or k == 0: out = beta * self (or 0)
  bool use_self;      // beta != 0
  bool a_along_k;     // load mat1's tile with consecutive threads along k (else along m)
  bool b_along_n;     // load mat2's tile with consecutive threads along n (else along k)
};

// c + a * b: wrapping for integers; a fused multiply-add for floating types.
template <typename T>
__device__ __forceinline__ T mul_add(T a, T b, T c) {
  if constexpr (std::is_integral_v<T>) {
    return wrapping_add(c, wrapping_mul(a, b));
  } else {
    return a * b + c;
  }
}

// The value of out's element from the product's sum and self's element, as the CPU
// computes it: alpha * acc + beta * self (beta == 0: self not read; product skipped:
// beta * self, or 0).
template <typename T>
__device__ __forceinline__ T finish(const GemmParams<T>& p, T acc, const T* self) {
  if (p.skip_product) return p.use_self ? wrapping_mul(p.beta, *self) : T(0);
  const T product = wrapping_mul(p.alpha, acc);
  return p.use_self ? wrapping_add(product, wrapping_mul(p.beta, *self)) : product;
}

template <typename T>
__global__ void __launch_bounds__(kThreads) gemm_kernel(GemmParams<T> p) {
  // One column of padding: the k-major stores of a row-major operand spread over the banks.
  __shared__ T a_tile[kTileK][kTileM + 1];
  __shared__ T b_tile[kTileK][kTileN + 1];
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % kThreadsN;
  const int ty = tid / kThreadsN;
  const int64_t tiles_m = (p.m + kTileM - 1) / kTileM;
  const int64_t tiles_n = (p.n + kTileN - 1) / kTileN;
  // The loops' bounds are the same for every thread of the block: the barriers inside
  // are reached by all of them.
  for (int64_t batch = blockIdx.z; batch < p.batch; batch += gridDim.z) {
    for (int64_t tile_m = blockIdx.x; tile_m < tiles_m; tile_m += gridDim.x) {
      for (int64_t tile_n = blockIdx.y; tile_n < tiles_n; tile_n += gridDim.y) {
        const int64_t row0 = tile_m * kTileM;
        const int64_t col0 = tile_n * kTileN;
        T acc[kPerThreadM][kPerThreadN];
#pragma unroll
        for (int i = 0; i < kPerThreadM; ++i) {
#pragma unroll
          for (int j = 0; j < kPerThreadN; ++j) acc[i][j] = T(0);
        }
        if (!p.skip_product) {
          const T* a = p.a.data + batch * p.a.batch_stride;
          const T* b = p.b.data + batch * p.b.batch_stride;
          for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
#pragma unroll
            for (int r = 0; r < kLoadsA; ++r) {
              const int e = tid + r * kThreads;
              const int mm = p.a_along_k ? e / kTileK : e % kTileM;
              const int kk = p.a_along_k ? e % kTileK : e / kTileM;
              const int64_t i = row0 + mm, q = k0 + kk;
              a_tile[kk][mm] =
                  i < p.m && q < p.k ? a[i * p.a.row_stride + q * p.a.col_stride] : T(0);
            }
#pragma unroll
            for (int r = 0; r < kLoadsB; ++r) {
              const int e = tid + r * kThreads;
              const int nn = p.b_along_n ? e % kTileN : e / kTileK;
              const int kk = p.b_along_n ? e / kTileN : e % kTileK;
              const int64_t q = k0 + kk, j = col0 + nn;
              b_tile[kk][nn] =
                  q < p.k && j < p.n ? b[q * p.b.row_stride + j * p.b.col_stride] : T(0);
            }
            __syncthreads();
#pragma unroll
            for (int kk = 0; kk < kTileK; ++kk) {
              T av[kPerThreadM], bv[kPerThreadN];
#pragma unroll
              for (int i = 0; i < kPerThreadM; ++i) av[i] = a_tile[kk][ty + i * kThreadsM];
#pragma unroll
              for (int j = 0; j < kPerThreadN; ++j) bv[j] = b_tile[kk][tx + j * kThreadsN];
#pragma unroll
              for (int i = 0; i < kPerThreadM; ++i) {
#pragma unroll
                for (int j = 0; j < kPerThreadN; ++j) acc[i][j] = mul_add(av[i], bv[j], acc[i][j]);
              }
            }
            __syncthreads();  // the tiles are overwritten next
          }
        }
        T* out = p.out + batch * p.out_batch_stride;
        const T* self = p.use_self ? p.self.data + batch * p.self.batch_stride : nullptr;
#pragma unroll
        for (int i = 0; i < kPerThreadM; ++i) {
          const int64_t row = row0 + ty + i * kThreadsM;
          if (row >= p.m) continue;
#pragma unroll
          for (int j = 0; j < kPerThreadN; ++j) {
            const int64_t col = col0 + tx + j * kThreadsN;
            if (col >= p.n) continue;
            const T* s = self != nullptr ? self + row * p.self.row_stride + col * p.self.col_stride
                                         : nullptr;
            out[row * p.out_row_stride + col * p.out_col_stride] = finish(p, acc[i][j], s);
          }
        }
      }
    }
  }
}

template <typename T>
Operand<T> operand_of(const MatrixBatch& v) {
  return Operand<T>{static_cast<const T*>(v.data), v.batch_stride, v.row_stride, v.col_stride};
}

template <typename T>
void launch_gemm(int64_t batch, int64_t m, int64_t n, int64_t k, const MatrixBatch& mat1,
                 const MatrixBatch& mat2, const MatrixBatch& self, T beta, T alpha,
                 const MatrixBatch& out) {
  GemmParams<T> p{};
  p.batch = batch;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = operand_of<T>(mat1);
  p.b = operand_of<T>(mat2);
  p.self = operand_of<T>(self);
  p.out = static_cast<T*>(out.data);
  p.out_batch_stride = out.batch_stride;
  p.out_row_stride = out.row_stride;
  p.out_col_stride = out.col_stride;
  p.alpha = alpha;
  p.beta = beta;
  p.skip_product = alpha == T(0) || k == 0;
  p.use_self = beta != T(0);
  // Consecutive threads along the dimension of unit stride: m only for a column-major
  // mat1, k only for a column-major mat2.
  p.a_along_k = !(mat1.row_stride == 1 && mat1.col_stride != 1);
  p.b_along_n = !(mat2.row_stride == 1 && mat2.col_stride != 1);
  const int64_t tiles_m = (m + kTileM - 1) / kTileM;
  const int64_t tiles_n = (n + kTileN - 1) / kTileN;
  const dim3 grid(static_cast<unsigned>(std::min<int64_t>(tiles_m, int64_t{1} << 30)),
                  static_cast<unsigned>(std::min<int64_t>(tiles_n, 65535)),
                  static_cast<unsigned>(std::min<int64_t>(batch, 65535)));
  gemm_kernel<T><<<grid, kThreads, 0, current_stream().handle()>>>(p);
  check(cudaGetLastError(), "launching the GEMM kernel");
}

}  // namespace

void addmm_kernel(ScalarType dtype, std::string_view name, int64_t batch, int64_t m, int64_t n,
                  int64_t k, const MatrixBatch& mat1, const MatrixBatch& mat2,
                  const MatrixBatch& self, const Scalar* beta, const Scalar& alpha,
                  const MatrixBatch& out) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  SOPS_DISPATCH_ALL_TYPES(dtype, name, [&] {
    // beta first, then alpha: the CPU kernel's order, so that the same overflow is reported.
    const scalar_t b = beta != nullptr ? aten::ops_util::scalar_to<scalar_t>(*beta) : scalar_t(0);
    const scalar_t a = aten::ops_util::scalar_to<scalar_t>(alpha);
    launch_gemm<scalar_t>(batch, m, n, k, mat1, mat2, self, b, a, out);
  });
}

}  // namespace sops::cuda
