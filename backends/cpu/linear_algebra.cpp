// CPU kernels of mm and addmm: out = beta * self + alpha * (mat1 @ mat2), a plain
// triple loop over strided operands (no BLAS). As with BLAS, beta == 0 ignores self
// (NaN included) and alpha == 0 skips the product.
#include <type_traits>
#include <vector>

#include "aten_cpu/NativeFunctions.h"
#include "backends/cpu/cpu_utils.h"

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

// out (m x n) = beta * self + alpha * mat1 @ mat2; self undefined means beta = 0.
void addmm_kernel(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta, const Scalar& alpha, std::string_view name) {
  const ScalarType dtype = out.scalar_type();
  cpu_util::check_dtype_implemented(dtype, dtypes::kAllTypes, name);
  const int64_t m = mat1.size(0);
  const int64_t k = mat1.size(1);
  const int64_t n = mat2.size(1);
  if (m == 0 || n == 0) return;
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
            product = wrapping_add(product, wrapping_mul(static_cast<acc>(x(i, p)), static_cast<acc>(y(p, j))));
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

}  // namespace

SOPS_IMPL_FUNC(mm_out_cpu)(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  addmm_kernel(out, Tensor(), self, mat2, 0, 1, "addmm_impl_cpu_");
}

SOPS_IMPL_FUNC(addmm_out_cpu)
(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
 const Scalar& alpha, const Tensor& out) {
  addmm_kernel(out, self, mat1, mat2, beta, alpha, "addmm_impl_cpu_");
}

}  // namespace sops::aten::native
