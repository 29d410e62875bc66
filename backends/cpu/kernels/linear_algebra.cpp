// CPU kernels of mm, bmm and addmm: out = beta * self + alpha * (mat1 @ mat2). float32 and
// float64 go through the blocked GEMM (backends/cpu/gemm.h); the integral and bool
// dtypes through a plain triple loop over strided operands. As with BLAS, beta == 0
// ignores self (NaN included) and alpha == 0 skips the product.
#include <type_traits>
#include <vector>

#include "aten/ops/addmm_native.h"
#include "aten/ops/bmm_native.h"
#include "aten/ops/mm_native.h"
#include "backends/cpu/cpu_utils.h"
#include "backends/cpu/gemm.h"
#include "runtime/parallel.h"

namespace sops::aten::native {
namespace {

using cpu_util::wrapping_add;
using cpu_util::wrapping_mul;

template <typename T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

// Element (i, j) of a 2-d (or broadcast lower-rank) tensor.
template <typename T>
struct Matrix {
  const T* data;
  int64_t row_stride;
  int64_t col_stride;
  T operator()(int64_t i, int64_t j) const { return data[i * row_stride + j * col_stride]; }
};

template <typename T>
Matrix<T> matrix_of(const Tensor& t) {
  // Broadcast: missing leading dimensions and size-1 dimensions step by 0.
  int64_t strides[2] = {0, 0};
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1) strides[2 - t.dim() + d] = t.stride(d);
  }
  return Matrix<T>{t.data_ptr<T>(), strides[0], strides[1]};
}

// The float32/float64 path: self (broadcast) copied into out unless it is out, then
// out = beta * out + alpha * mat1 @ mat2 by the GEMM.
template <typename T>
void addmm_gemm(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                T beta, T alpha) {
  const int64_t m = mat1.size(0);
  const int64_t k = mat1.size(1);
  const int64_t n = mat2.size(1);
  // The GEMM writes C while it reads A and B: an out that shares storage with them gets
  // the result through a temporary.
  if (out.is_alias_of(mat1) || out.is_alias_of(mat2)) {
    Tensor tmp = sops::empty({m, n}, out.options());
    if (beta != T(0)) {
      const Matrix<T> z = matrix_of<T>(self);
      T* t = tmp.data_ptr<T>();
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) t[i * n + j] = z(i, j);
      }
    }
    addmm_gemm<T>(tmp, tmp, mat1, mat2, beta, alpha);
    T* o = out.data_ptr<T>();
    const T* t = tmp.data_ptr<T>();
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) o[i * out.stride(0) + j * out.stride(1)] = t[i * n + j];
    }
    return;
  }
  T* o = out.data_ptr<T>();
  if (beta != T(0) && !self.is_same(out)) {
    const Matrix<T> z = matrix_of<T>(self);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) o[i * out.stride(0) + j * out.stride(1)] = z(i, j);
    }
  }
  const Matrix<T> x = matrix_of<T>(mat1);
  const Matrix<T> y = matrix_of<T>(mat2);
  cpu::gemm<T>(m, n, k, alpha, {x.data, x.row_stride, x.col_stride},
               {y.data, y.row_stride, y.col_stride}, beta, {o, out.stride(0), out.stride(1)});
}

// out (m x n) = beta * self + alpha * mat1 @ mat2; self undefined means beta = 0.
void addmm_kernel(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta, const Scalar& alpha, std::string_view name) {
  const ScalarType dtype = out.scalar_type();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, name);
  const int64_t m = mat1.size(0);
  const int64_t k = mat1.size(1);
  const int64_t n = mat2.size(1);
  if (m == 0 || n == 0) return;
  if (dtype == ScalarType::Float || dtype == ScalarType::Double) {
    SOPS_DISPATCH_FLOATING_TYPES(dtype, name, [&] {
      const scalar_t b = self.defined() ? cpu_util::scalar_to<scalar_t>(beta) : scalar_t(0);
      addmm_gemm<scalar_t>(out, self, mat1, mat2, b, cpu_util::scalar_to<scalar_t>(alpha));
    });
    return;
  }
  SOPS_DISPATCH_ALL_TYPES(dtype, name, [&] {
    using acc = acc_t<scalar_t>;
    const scalar_t b = self.defined() ? cpu_util::scalar_to<scalar_t>(beta) : scalar_t(0);
    const scalar_t a = cpu_util::scalar_to<scalar_t>(alpha);
    const Matrix<scalar_t> x = matrix_of<scalar_t>(mat1);
    const Matrix<scalar_t> y = matrix_of<scalar_t>(mat2);
    const Matrix<scalar_t> z =
        b != scalar_t(0) ? matrix_of<scalar_t>(self) : Matrix<scalar_t>{nullptr, 0, 0};
    // Computed in full before writing: out may alias self or the inputs.
    std::vector<scalar_t> result(static_cast<std::size_t>(m * n));
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        acc product = acc(0);
        if (a != scalar_t(0)) {
          for (int64_t p = 0; p < k; ++p) {
            product = wrapping_add(
                product, wrapping_mul(static_cast<acc>(x(i, p)), static_cast<acc>(y(p, j))));
          }
        }
        scalar_t value = a == scalar_t(1) ? static_cast<scalar_t>(product)
                                          : wrapping_mul(a, static_cast<scalar_t>(product));
        if (a == scalar_t(0)) value = scalar_t(0);
        if (b != scalar_t(0)) {
          const scalar_t s = z(i, j);
          value = wrapping_add(b == scalar_t(1) ? s : wrapping_mul(b, s), value);
        }
        result[static_cast<std::size_t>(i * n + j)] = value;
      }
    }
    scalar_t* o = out.data_ptr<scalar_t>();
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        o[i * out.stride(0) + j * out.stride(1)] = result[static_cast<std::size_t>(i * n + j)];
      }
    }
  });
}

// bmm against one matrix repeated over the batch (mat2's batch stride 0: what a linear
// on a 3-d input exports to, `bmm(x, expand(w))`): one product of the batch's rows
// stacked, [batch*m, k] @ [k, n], so that the GEMM packs w once, not once per batch entry.
// self and out take part through row-stacked views where their strides allow one, and
// through contiguous copies (clone, copy_) otherwise. Returns false when this does not apply.
bool bmm_shared_mat2(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  const ScalarType dtype = out.scalar_type();
  const int64_t batch = self.size(0), m = self.size(1), k = self.size(2), n = mat2.size(2);
  if (mat2.stride(0) != 0 || batch < 2 ||
      (dtype != ScalarType::Float && dtype != ScalarType::Double) || out.is_alias_of(self) ||
      out.is_alias_of(mat2)) {
    return false;
  }
  // A [batch, rows, cols] tensor as [batch*rows, cols], if one row stride spans the batch.
  auto stacked = [](const Tensor& t) -> Tensor {
    const int64_t rows = t.size(1);
    if (rows != 1 && t.stride(0) != rows * t.stride(1)) return Tensor();
    const int64_t row_stride = rows == 1 ? t.stride(0) : t.stride(1);
    return t.as_strided({t.size(0) * rows, t.size(2)}, {row_stride, t.stride(2)});
  };
  Tensor a = stacked(self);
  if (!a.defined()) a = stacked(cpu_util::contiguous_of(self));
  const Tensor w = mat2.as_strided({k, n}, {mat2.stride(1), mat2.stride(2)});
  Tensor c = stacked(out);
  if (c.defined()) {
    addmm_kernel(c, Tensor(), a, w, 0, 1, "bmm");
    return true;
  }
  Tensor tmp = sops::empty({batch * m, n}, out.options());
  addmm_kernel(tmp, Tensor(), a, w, 0, 1, "bmm");
  cpu_util::copy_cast(out, tmp.as_strided({batch, m, n}, {m * n, n, 1}));
  return true;
}

}  // namespace

SOPS_IMPL_FUNC(mm_out_cpu)(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  addmm_kernel(out, Tensor(), self, mat2, 0, 1, "addmm_impl_cpu_");
}

SOPS_IMPL_FUNC(bmm_out_cpu)(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  cpu_util::check_dtype_implemented(out.scalar_type(), dtypes::kAllTypes, "bmm");
  const int64_t batch = self.size(0);
  const int64_t m = self.size(1), k = self.size(2), n = mat2.size(2);
  if (batch == 0 || m == 0 || n == 0) return;
  if (k != 0 && bmm_shared_mat2(self, mat2, out)) return;
  // One matrix product per batch entry, over 2-d views; batches split over the threads
  // when each product is small (a large one splits its own rows instead).
  const int64_t work = std::max<int64_t>(1, m * n * std::max<int64_t>(k, 1));
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 18) / work);
  auto matrix = [](const Tensor& t, int64_t b) {
    return t.as_strided({t.size(1), t.size(2)}, {t.stride(1), t.stride(2)},
                        t.storage_offset() + b * t.stride(0));
  };
  parallel_for(0, batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      addmm_kernel(matrix(out, b), Tensor(), matrix(self, b), matrix(mat2, b), 0, 1, "bmm");
    }
  });
}

SOPS_IMPL_FUNC(addmm_out_cpu)
(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
 const Scalar& alpha, const Tensor& out) {
  addmm_kernel(out, self, mat1, mat2, beta, alpha, "addmm_impl_cpu_");
}

}  // namespace sops::aten::native
