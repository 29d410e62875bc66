// The CUDA launchers of mm, bmm and addmm (linear_algebra.cu), called by their structured
// impls (linear_algebra.cpp).
//
// One tiled kernel of ours (no cuBLAS) computes every product: a batch of
//   out[b] = beta * self[b] + alpha * mat1[b] @ mat2[b]     mat1: m x k, mat2: k x n
// with each operand given as a pointer and element strides, so that transposed, sliced
// and broadcast (stride 0) operands need no copy.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/scalar.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"

namespace sops::cuda {

// Matrices in device memory: element (b, i, j) at
// data[b * batch_stride + i * row_stride + j * col_stride] (element strides).
struct MatrixBatch {
  void* data = nullptr;
  int64_t batch_stride = 0;
  int64_t row_stride = 0;
  int64_t col_stride = 0;
};

// out[b] = beta * self[b] + alpha * mat1[b] @ mat2[b] for b < batch, in `dtype` (the
// integral types, float32, float64: anything else is the dispatch's error, under `name`).
// beta == nullptr means no self (beta 0); otherwise beta is converted before alpha, both
// as the CPU kernel converts them (ops_util::scalar_to: an overflow is an error raised
// before anything runs). As in BLAS, beta == 0 does not read self (NaN in it is not
// propagated), and alpha == 0 or k == 0 skips the product (out = beta * self).
// Floating types accumulate in their own type, integers wrap around. Each element of out
// is read (as self) and written by one thread: out must not overlap mat1 or mat2, nor
// self anywhere but at the element itself. batch, m and n > 0.
void addmm_kernel(ScalarType dtype, std::string_view name, int64_t batch, int64_t m, int64_t n,
                  int64_t k, const MatrixBatch& mat1, const MatrixBatch& mat2,
                  const MatrixBatch& self, const Scalar* beta, const Scalar& alpha,
                  const MatrixBatch& out);

}  // namespace sops::cuda
