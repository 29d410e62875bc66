// General matrix multiply for the CPU kernels (mm, addmm, bmm, linear, convolution):
//
//   C = beta * C + alpha * A @ B      A: m x k, B: k x n, C: m x n
//
// Each matrix is a pointer and two element strides (row, column), so transposed,
// sliced and broadcast (stride 0) operands need no copy. As in BLAS, beta == 0 writes C
// without reading it (NaN in C is not propagated) and alpha == 0 skips the product.
// C must not overlap A or B. Large products are split over sops::parallel_for.
#pragma once

#include <cstdint>

#include "runtime/function_ref.h"

namespace sops::cpu {

template <typename T>
struct MatrixArg {
  T* data;
  int64_t row_stride;
  int64_t col_stride;
};

// Defined for float and double. With `row_bias` (m values), row i of C also gets
// row_bias[i] added: C = beta * C + alpha * A @ B + bias, in the tile stores of the first
// block of k (convolution's bias, without a pass that fills C with it first).
template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, MatrixArg<const T> b,
          T beta, MatrixArg<T> c, const T* row_bias = nullptr);

// The same product where B is not a matrix in memory but made while it is packed
// (convolution's im2col): pack(p0, kc, j0, nc, out) writes rows [p0, p0 + kc) and columns
// [j0, j0 + nc) of B into out as gemm_b_panel_width<T>() wide panels, each kc rows of
// that many contiguous elements (zero past column j0 + nc).
template <typename T>
using PackB = FunctionRef<void(int64_t p0, int64_t kc, int64_t j0, int64_t nc, T* out)>;

template <typename T>
void gemm_packing_b(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, PackB<T> pack,
                    T beta, MatrixArg<T> c, const T* row_bias = nullptr);

template <typename T>
constexpr int gemm_b_panel_width() {
  return 64 / static_cast<int>(sizeof(T));  // two AVX2 vectors (Blocking<T>::kNR)
}

extern template void gemm<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                                 MatrixArg<const float>, float, MatrixArg<float>, const float*);
extern template void gemm<double>(int64_t, int64_t, int64_t, double, MatrixArg<const double>,
                                  MatrixArg<const double>, double, MatrixArg<double>,
                                  const double*);
extern template void gemm_packing_b<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                                           PackB<float>, float, MatrixArg<float>, const float*);
extern template void gemm_packing_b<double>(int64_t, int64_t, int64_t, double,
                                            MatrixArg<const double>, PackB<double>, double,
                                            MatrixArg<double>, const double*);

}  // namespace sops::cpu
