// CPU kernels of native_layer_norm and native_group_norm (float32 and float64, as PyTorch's
// CPU kernels; float32 accumulates in float; batch norm's are in batch_norm.cpp). Both are
// registered for meta tensors too (CPU and Meta): there only the checks and the output shapes
// happen (ops/util/nn_utils.h, shared with the CUDA kernels).
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "aten/ops/native_group_norm_native.h"
#include "aten/ops/native_layer_norm_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using ops_util::check_parameter_dtypes;
using ops_util::defined_or_null;

using vec::vec_t;

// Sum of x[0..n), in two vector sums (float for float, double for double).
template <typename T, int B>
SOPS_ALWAYS_INLINE T sum_of(const T* x, int64_t n) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  vec_t<T, B> s0{}, s1{};
  int64_t j = 0;
  for (; j + 2 * L <= n; j += 2 * L) {
    s0 += vec::load<T, B>(x + j);
    s1 += vec::load<T, B>(x + j + L);
  }
  for (; j + L <= n; j += L) s0 += vec::load<T, B>(x + j);
  T r = vec::sum_lanes<T, B>(s0 + s1);
  for (; j < n; ++j) r += x[j];
  return r;
}

// Sum of (x[j] - m)^2.
template <typename T, int B>
SOPS_ALWAYS_INLINE T squared_deviation(const T* x, int64_t n, T m) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  const vec_t<T, B> mv = vec::splat<T, B>(m);
  vec_t<T, B> s0{}, s1{};
  int64_t j = 0;
  for (; j + 2 * L <= n; j += 2 * L) {
    const vec_t<T, B> d0 = vec::load<T, B>(x + j) - mv;
    const vec_t<T, B> d1 = vec::load<T, B>(x + j + L) - mv;
    s0 += d0 * d0;
    s1 += d1 * d1;
  }
  for (; j + L <= n; j += L) {
    const vec_t<T, B> d = vec::load<T, B>(x + j) - mv;
    s0 += d * d;
  }
  T r = vec::sum_lanes<T, B>(s0 + s1);
  for (; j < n; ++j) {
    const T d = x[j] - m;
    r += d * d;
  }
  return r;
}

// y = (x * scale + shift) * gamma + beta (gamma / beta absent: 1 / 0).
template <typename T, int B>
SOPS_ALWAYS_INLINE void normalize_row(const T* x, const T* gamma, const T* beta, T* y, int64_t n,
                                      T scale, T shift) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  const vec_t<T, B> sv = vec::splat<T, B>(scale), tv = vec::splat<T, B>(shift);
  int64_t j = 0;
  for (; j + L <= n; j += L) {
    vec_t<T, B> v = vec::load<T, B>(x + j) * sv + tv;
    if (gamma != nullptr) v = v * vec::load<T, B>(gamma + j);
    if (beta != nullptr) v = v + vec::load<T, B>(beta + j);
    vec::store<T, B>(y + j, v);
  }
  for (; j < n; ++j) {
    T v = x[j] * scale + shift;
    if (gamma != nullptr) v = v * gamma[j];
    if (beta != nullptr) v = v + beta[j];
    y[j] = v;
  }
}

// Rows [begin, end) of n elements: y = (x - mean) * rstd * gamma + beta, with mean and
// rstd per row (an empty row has mean 0 and variance 0/0, NaN, as in PyTorch).
template <typename T, int B>
SOPS_ALWAYS_INLINE void layer_norm_rows(const T* x, const T* gamma, const T* beta, T* y, T* mean,
                                        T* rstd, int64_t begin, int64_t end, int64_t n,
                                        double eps) {
  for (int64_t r = begin; r < end; ++r) {
    const T* xr = x + r * n;
    const T m = n == 0 ? T(0) : sum_of<T, B>(xr, n) / static_cast<T>(n);
    const T var = n == 0 ? std::numeric_limits<T>::quiet_NaN()
                         : squared_deviation<T, B>(xr, n, m) / static_cast<T>(n);
    const T rs = T(1) / std::sqrt(std::max(var, T(0)) + static_cast<T>(eps));
    mean[r] = m;
    rstd[r] = rs;
    normalize_row<T, B>(xr, gamma, beta, y + r * n, n, rs, -rs * m);
  }
}

template <typename T>
void layer_norm_rows_sse(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* rstd,
                         int64_t begin, int64_t end, int64_t n, double eps) {
  layer_norm_rows<T, 16>(x, gamma, beta, y, mean, rstd, begin, end, n, eps);
}
#if SOPS_HAVE_AVX2_CLONES
template <typename T>
SOPS_KERNEL_AVX2 void layer_norm_rows_avx2(const T* x, const T* gamma, const T* beta, T* y, T* mean,
                                           T* rstd, int64_t begin, int64_t end, int64_t n,
                                           double eps) {
  layer_norm_rows<T, 32>(x, gamma, beta, y, mean, rstd, begin, end, n, eps);
}
#endif

template <typename T>
void layer_norm_kernel(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* rstd,
                       int64_t rows, int64_t n, double eps) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  const bool avx2 = sops::cpu_has_avx2();
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
#if SOPS_HAVE_AVX2_CLONES
    if (avx2) return layer_norm_rows_avx2<T>(x, gamma, beta, y, mean, rstd, begin, end, n, eps);
#endif
    (void)avx2;
    layer_norm_rows_sse<T>(x, gamma, beta, y, mean, rstd, begin, end, n, eps);
  });
}

// Layer norm of input (checked, on the CPU) into contiguous out, mean and rstd.
void layer_norm_into(const Tensor& input, const Tensor* weight, const Tensor* bias, double eps,
                     int64_t rows, int64_t n, const Tensor& out, const Tensor& mean,
                     const Tensor& rstd) {
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "LayerNormKernelImpl");
  if (rows == 0) return;
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor w = weight != nullptr ? cpu_util::contiguous_of(*weight) : Tensor();
  const Tensor b = bias != nullptr ? cpu_util::contiguous_of(*bias) : Tensor();
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "LayerNormKernelImpl", [&] {
    layer_norm_kernel<scalar_t>(
        x.data_ptr<scalar_t>(), w.defined() ? w.data_ptr<scalar_t>() : nullptr,
        b.defined() ? b.data_ptr<scalar_t>() : nullptr, out.data_ptr<scalar_t>(),
        mean.data_ptr<scalar_t>(), rstd.data_ptr<scalar_t>(), rows, n, eps);
  });
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> layer_norm_cpu(const Tensor& input, IntArrayRef normalized_shape,
                                                  const std::optional<Tensor>& weight_opt,
                                                  const std::optional<Tensor>& bias_opt,
                                                  double eps) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  auto [out, mean, rstd, rows, n] =
      ops_util::layer_norm_outputs(input, normalized_shape, weight, bias, "CPU");
  if (input.is_meta()) return {out, mean, rstd};
  layer_norm_into(input, weight, bias, eps, rows, n, out, mean, rstd);
  return {out, mean, rstd};
}

// native_layer_norm.out, which native_functions.yaml leaves to autogen: written into the
// out tensors directly (backends/cpu/autogen_kernels.yaml).
std::tuple<Tensor&, Tensor&, Tensor&> native_layer_norm_out(
    const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, double eps, Tensor& out0, Tensor& out1, Tensor& out2) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  const ops_util::LayerNormShape shape =
      ops_util::layer_norm_shape(input, normalized_shape, weight, bias, "CPU");
  const std::initializer_list<const Tensor*> inputs = {&input, weight, bias};
  const ScalarType dtype = input.scalar_type();
  if (!cpu_util::can_write_into(out0, dtype, input.sizes(), inputs) ||
      !cpu_util::can_write_into(out1, dtype, shape.stat_shape, inputs) ||
      !cpu_util::can_write_into(out2, dtype, shape.stat_shape, inputs) || out0.is_alias_of(out1) ||
      out0.is_alias_of(out2) || out1.is_alias_of(out2)) {
    auto [out, mean, rstd] = layer_norm_cpu(input, normalized_shape, weight_opt, bias_opt, eps);
    cpu_util::copy_to_out(out0, out);
    cpu_util::copy_to_out(out1, mean);
    cpu_util::copy_to_out(out2, rstd);
    return {out0, out1, out2};
  }
  layer_norm_into(input, weight, bias, eps, shape.rows, shape.n, out0, out1, out2);
  return {out0, out1, out2};
}

namespace {

// Group rows [begin, end) of x ([N * group] rows of per_group * hw elements): mean and
// rstd as layer norm's rows (vector sums in T), then each channel's plane
// y = x * (rstd * gamma[c]) + (beta[c] - mean * rstd * gamma[c]).
template <typename T, int B>
SOPS_ALWAYS_INLINE void group_norm_rows(const T* x, const T* gamma, const T* beta, T* y, T* mean,
                                        T* rstd, int64_t begin, int64_t end, int64_t per_group,
                                        int64_t hw, int64_t group, double eps) {
  const int64_t m = per_group * hw;
  for (int64_t r = begin; r < end; ++r) {
    const T* xr = x + r * m;
    const T mu = m == 0 ? T(0) : sum_of<T, B>(xr, m) / static_cast<T>(m);
    const T var = m == 0 ? T(0) : squared_deviation<T, B>(xr, m, mu) / static_cast<T>(m);
    const T rs = T(1) / std::sqrt(std::max(var, T(0)) + static_cast<T>(eps));
    mean[r] = mu;
    rstd[r] = rs;
    const int64_t c0 = (r % group) * per_group;
    for (int64_t c = 0; c < per_group; ++c) {
      const T a = rs * (gamma != nullptr ? gamma[c0 + c] : T(1));
      const T shift = (beta != nullptr ? beta[c0 + c] : T(0)) - mu * a;
      normalize_row<T, B>(xr + c * hw, nullptr, nullptr, y + r * m + c * hw, hw, a, shift);
    }
  }
}

template <typename T>
void group_norm_rows_sse(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* rstd,
                         int64_t begin, int64_t end, int64_t per_group, int64_t hw, int64_t group,
                         double eps) {
  group_norm_rows<T, 16>(x, gamma, beta, y, mean, rstd, begin, end, per_group, hw, group, eps);
}
#if SOPS_HAVE_AVX2_CLONES
template <typename T>
SOPS_KERNEL_AVX2 void group_norm_rows_avx2(const T* x, const T* gamma, const T* beta, T* y, T* mean,
                                           T* rstd, int64_t begin, int64_t end, int64_t per_group,
                                           int64_t hw, int64_t group, double eps) {
  group_norm_rows<T, 32>(x, gamma, beta, y, mean, rstd, begin, end, per_group, hw, group, eps);
}
#endif

template <typename T>
void group_norm_kernel(const T* x, const T* gamma, const T* beta, T* y, T* mean, T* rstd,
                       int64_t rows, int64_t per_group, int64_t hw, int64_t group, double eps) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(per_group * hw, 1));
  const bool avx2 = sops::cpu_has_avx2();
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
#if SOPS_HAVE_AVX2_CLONES
    if (avx2) {
      return group_norm_rows_avx2<T>(x, gamma, beta, y, mean, rstd, begin, end, per_group, hw,
                                     group, eps);
    }
#endif
    (void)avx2;
    group_norm_rows_sse<T>(x, gamma, beta, y, mean, rstd, begin, end, per_group, hw, group, eps);
  });
}

}  // namespace

namespace {

void check_group_norm(const Tensor& input, const Tensor* weight, const Tensor* bias, int64_t N,
                      int64_t C, int64_t HxW, int64_t group) {
  SOPS_CHECK_ARG(group > 0, "group", "Expected num groups to be greater than 0, got ", group);
  SOPS_CHECK_ARG(C % group == 0, "group",
                 "Expected number of channels in input to be divisible by num_groups, but got "
                 "input of shape ",
                 input.sizes(), " and num_groups=", group);
  SOPS_CHECK_ARG(input.numel() == N * C * HxW, "input",
                 "Expected X.numel() == N * C * HxW to be true, but got false.");
  for (const auto& [t, name] : {std::pair{weight, "weight"}, std::pair{bias, "bias"}}) {
    SOPS_CHECK_ARG(t == nullptr || (t->dim() == 1 && t->numel() == C), name, "Expected ", name,
                   " to be a vector of size equal to the number of channels in input, but got ",
                   name, " of shape ", t == nullptr ? IntArrayRef() : t->sizes(),
                   " and input of shape ", input.sizes());
  }
}

// Group norm of contiguous x into contiguous y, mean and rstd.
void group_norm_into(const Tensor& x, const Tensor* weight, const Tensor* bias, int64_t N,
                     int64_t C, int64_t HxW, int64_t group, double eps, const Tensor& y,
                     const Tensor& mean, const Tensor& rstd) {
  const Tensor w = weight != nullptr ? cpu_util::contiguous_of(*weight) : Tensor();
  const Tensor b = bias != nullptr ? cpu_util::contiguous_of(*bias) : Tensor();
  const int64_t per_group = C / group;
  SOPS_DISPATCH_FLOATING_TYPES(x.scalar_type(), "GroupNormKernelImpl", [&] {
    group_norm_kernel<scalar_t>(x.data_ptr<scalar_t>(),
                                w.defined() ? w.data_ptr<scalar_t>() : nullptr,
                                b.defined() ? b.data_ptr<scalar_t>() : nullptr,
                                y.data_ptr<scalar_t>(), mean.data_ptr<scalar_t>(),
                                rstd.data_ptr<scalar_t>(), N * group, per_group, HxW, group, eps);
  });
}

}  // namespace

// x of [N, C, HxW] in `group` groups of C / group channels: per (n, g) the mean and
// rstd = 1 / sqrt(biased variance + eps) over the group's elements, then
// y = (x - mean) * rstd * weight[c] + bias[c] (group_norm_rows). Returns (y, mean, rstd), mean and
// rstd of shape [N, group].
std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input,
                                                     const std::optional<Tensor>& weight_opt,
                                                     const std::optional<Tensor>& bias_opt,
                                                     int64_t N, int64_t C, int64_t HxW,
                                                     int64_t group, double eps) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  check_group_norm(input, weight, bias, N, C, HxW, group);
  // A channels-last input gives a channels-last result, as PyTorch's (the statistics are
  // computed over a contiguous copy).
  const bool channels_last =
      (input.dim() == 4 || input.dim() == 5) && !input.is_contiguous() &&
      input.strides() == IntArrayRef(ops_util::channels_last_strides(input.sizes()));
  Tensor out = empty(input.sizes(), input.options());
  if (channels_last)
    out.as_strided_(input.sizes(), ops_util::channels_last_strides(input.sizes()), 0);
  Tensor mean = empty({N, group}, input.options());
  Tensor rstd = empty({N, group}, input.options());
  if (input.is_meta()) return {out, mean, rstd};
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "GroupNormKernelImpl");
  if (input.numel() == 0) return {out, mean, rstd};
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor y = channels_last ? empty(input.sizes(), input.options()) : out;
  group_norm_into(x, weight, bias, N, C, HxW, group, eps, y, mean, rstd);
  if (channels_last) cpu_util::copy_cast(out, y);
  return {out, mean, rstd};
}

// native_group_norm.out, which native_functions.yaml leaves to autogen: written into the
// out tensors directly when input is contiguous (backends/cpu/autogen_kernels.yaml).
std::tuple<Tensor&, Tensor&, Tensor&> native_group_norm_out(const Tensor& input,
                                                            const std::optional<Tensor>& weight_opt,
                                                            const std::optional<Tensor>& bias_opt,
                                                            int64_t N, int64_t C, int64_t HxW,
                                                            int64_t group, double eps, Tensor& out0,
                                                            Tensor& out1, Tensor& out2) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  check_group_norm(input, weight, bias, N, C, HxW, group);
  const int64_t stat_sizes[] = {N, group};
  const std::initializer_list<const Tensor*> inputs = {&input, weight, bias};
  const ScalarType dtype = input.scalar_type();
  if (!input.is_contiguous() || !cpu_util::can_write_into(out0, dtype, input.sizes(), inputs) ||
      !cpu_util::can_write_into(out1, dtype, stat_sizes, inputs) ||
      !cpu_util::can_write_into(out2, dtype, stat_sizes, inputs) || out0.is_alias_of(out1) ||
      out0.is_alias_of(out2) || out1.is_alias_of(out2)) {
    auto [out, mean, rstd] = native_group_norm(input, weight_opt, bias_opt, N, C, HxW, group, eps);
    cpu_util::copy_to_out(out0, out);
    cpu_util::copy_to_out(out1, mean);
    cpu_util::copy_to_out(out2, rstd);
    return {out0, out1, out2};
  }
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes,
                                    "GroupNormKernelImpl");
  if (input.numel() == 0) return {out0, out1, out2};
  group_norm_into(input, weight, bias, N, C, HxW, group, eps, out0, out1, out2);
  return {out0, out1, out2};
}

}  // namespace sops::aten::native
