#include "backends/cpu/gemm.h"

namespace sops::cpu {

template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, T alpha, MatrixArg<const T> a, MatrixArg<const T> b,
          T beta, MatrixArg<T> c) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T acc = T(0);
      if (alpha != T(0)) {
        for (int64_t p = 0; p < k; ++p) {
          acc += a.data[i * a.row_stride + p * a.col_stride] *
                 b.data[p * b.row_stride + j * b.col_stride];
        }
      }
      T& out = c.data[i * c.row_stride + j * c.col_stride];
      out = (beta == T(0) ? T(0) : beta * out) + alpha * acc;
    }
  }
}

template void gemm<float>(int64_t, int64_t, int64_t, float, MatrixArg<const float>,
                          MatrixArg<const float>, float, MatrixArg<float>);
template void gemm<double>(int64_t, int64_t, int64_t, double, MatrixArg<const double>,
                           MatrixArg<const double>, double, MatrixArg<double>);

}  // namespace sops::cpu
