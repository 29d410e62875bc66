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

namespace sops::cpu {

template <typename T>
struct MatrixArg {
  T* data;
  int64_t row_stride;
  int64_t col_stride;
};

// Defined for float and double.
template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, MatrixArg<const T> b,
          T beta, MatrixArg<T> c);

extern template void gemm<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                                 MatrixArg<const float>, float, MatrixArg<float>);
extern template void gemm<double>(int64_t, int64_t, int64_t, double, MatrixArg<const double>,
                                  MatrixArg<const double>, double, MatrixArg<double>);

}  // namespace sops::cpu
