// CPU kernels of batch norm (float32 and float64, as PyTorch's): inference on the running
// statistics (_native_batch_norm_legit_no_training, _native_batch_norm_legit with training
// false) and training on the batch's statistics (_native_batch_norm_legit, updating the
// running statistics in place, and its .no_stats overload), with their out= variants. All
// are registered for meta tensors too (CPU and Meta): there only the checks and the output
// shapes happen (ops/util/nn_utils.h, shared with the CUDA kernels).
#include <cmath>
#include <optional>
#include <tuple>
#include <vector>

#include "aten/ops/_native_batch_norm_legit_native.h"
#include "aten/ops/_native_batch_norm_legit_no_training_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

namespace sops::aten::native {
namespace {

using ops_util::defined_or_null;
using vec::vec_t;

// Rows [begin, end): y[r, i] = x[r, i] * a[r % C] + b[r % C] over rows of `inner`
// (contiguous NC...: one row per plane), or, channels-last (inner == C, one row per
// pixel), y[r, c] = x[r, c] * a[c] + b[c].
template <typename T, int B>
SOPS_ALWAYS_INLINE void batch_norm_rows(const T* x, T* y, const T* alpha, const T* beta,
                                        int64_t channels, int64_t inner, bool channels_last,
                                        int64_t begin, int64_t end) {
  constexpr int64_t L = vec::Vec<T, B>::kLanes;
  for (int64_t r = begin; r < end; ++r) {
    const T* xr = x + r * inner;
    T* yr = y + r * inner;
    int64_t i = 0;
    if (channels_last) {
      for (; i + L <= inner; i += L) {
        vec::store<T, B>(yr + i, vec::load<T, B>(xr + i) * vec::load<T, B>(alpha + i) +
                                     vec::load<T, B>(beta + i));
      }
      for (; i < inner; ++i) yr[i] = xr[i] * alpha[i] + beta[i];
    } else {
      const T a = alpha[r % channels], b = beta[r % channels];
      const vec_t<T, B> av = vec::splat<T, B>(a), bv = vec::splat<T, B>(b);
      for (; i + L <= inner; i += L) vec::store<T, B>(yr + i, vec::load<T, B>(xr + i) * av + bv);
      for (; i < inner; ++i) yr[i] = xr[i] * a + b;
    }
  }
}

template <typename T>
void batch_norm_rows_sse(const T* x, T* y, const T* alpha, const T* beta, int64_t channels,
                         int64_t inner, bool channels_last, int64_t begin, int64_t end) {
  batch_norm_rows<T, 16>(x, y, alpha, beta, channels, inner, channels_last, begin, end);
}
#if SOPS_HAVE_AVX2_CLONES
template <typename T>
SOPS_KERNEL_AVX2 void batch_norm_rows_avx2(const T* x, T* y, const T* alpha, const T* beta,
                                           int64_t channels, int64_t inner, bool channels_last,
                                           int64_t begin, int64_t end) {
  batch_norm_rows<T, 32>(x, y, alpha, beta, channels, inner, channels_last, begin, end);
}
#endif

// y = x * alpha[c] + beta[c] for x of [batch, channels, inner] (or channels-last).
template <typename T>
void batch_norm_apply(const T* x, T* y, const T* alpha, const T* beta, int64_t batch,
                      int64_t channels, int64_t inner, bool channels_last) {
  const int64_t rows = channels_last ? batch * inner : batch * channels;
  const int64_t row = channels_last ? channels : inner;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(row, 1));
  const bool avx2 = sops::cpu_has_avx2();
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
#if SOPS_HAVE_AVX2_CLONES
    if (avx2)
      return batch_norm_rows_avx2<T>(x, y, alpha, beta, channels, row, channels_last, begin, end);
#endif
    (void)avx2;
    batch_norm_rows_sse<T>(x, y, alpha, beta, channels, row, channels_last, begin, end);
  });
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  std::vector<T> v(static_cast<std::size_t>(t.numel()));
  const T* p = t.data_ptr<T>();
  for (int64_t i = 0; i < t.numel(); ++i) v[static_cast<std::size_t>(i)] = p[i * t.stride(0)];
  return v;
}

// out = (input - mean[c]) * invstd[c] * weight[c] + bias[c], as x * alpha[c] + beta[c] over
// a contiguous or channels-last view of input (out is laid out as input suggests).
template <typename T>
void normalize(const Tensor& input, const Tensor& out, const std::vector<T>& mean,
               const std::vector<T>& invstd, const Tensor* weight, const Tensor* bias) {
  const bool channels_last = ops_util::suggest_memory_format(input) != MemoryFormat::Contiguous;
  const Tensor x = channels_last ? input : cpu_util::contiguous_of(input);
  const int64_t batch = input.size(0);
  const int64_t channels = input.size(1);
  const int64_t inner = input.numel() / (batch * channels);
  const std::vector<T> w = weight != nullptr ? values_of<T>(*weight) : std::vector<T>();
  const std::vector<T> b = bias != nullptr ? values_of<T>(*bias) : std::vector<T>();
  std::vector<T> alpha(static_cast<std::size_t>(channels)), beta(alpha.size());
  for (std::size_t c = 0; c < alpha.size(); ++c) {
    alpha[c] = w.empty() ? invstd[c] : invstd[c] * w[c];
    beta[c] = (b.empty() ? T(0) : b[c]) - mean[c] * alpha[c];
  }
  batch_norm_apply<T>(x.data_ptr<T>(), out.data_ptr<T>(), alpha.data(), beta.data(), batch,
                      channels, inner, channels_last);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_no_training(
    const Tensor& input, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, const Tensor& running_mean, const Tensor& running_var,
    double /*momentum*/, double eps) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  ops_util::BatchNormOutputs r =
      ops_util::batch_norm_outputs(input, weight, bias, running_mean, running_var, "CPU");
  if (input.is_meta()) return {r.out, r.save_mean, r.save_var};
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "batch_norm");
  if (input.numel() == 0) return {r.out, r.save_mean, r.save_var};
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm", [&] {
    using T = scalar_t;
    const std::vector<T> mean = values_of<T>(running_mean);
    std::vector<T> invstd = values_of<T>(running_var);
    for (T& v : invstd) v = T(1) / std::sqrt(v + static_cast<T>(eps));
    normalize<T>(input, r.out, mean, invstd, weight, bias);
  });
  return {r.out, r.save_mean, r.save_var};
}

// _native_batch_norm_legit_no_training.out, which native_functions.yaml leaves to autogen:
// written into out0 directly when input is contiguous (backends/cpu/autogen_kernels.yaml);
// out1 and out2 are the functional's empty statistics.
std::tuple<Tensor&, Tensor&, Tensor&> _batch_norm_legit_no_training_out(
    const Tensor& input, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& bias_opt, const Tensor& running_mean, const Tensor& running_var,
    double momentum, double eps, Tensor& out0, Tensor& out1, Tensor& out2) {
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  ops_util::check_batch_norm_arguments(input, weight, bias, &running_mean, &running_var, "CPU");
  const ScalarType dtype = input.scalar_type();
  if (!input.is_contiguous() || out1.scalar_type() != dtype || out2.scalar_type() != dtype ||
      !cpu_util::can_write_into(out0, dtype, input.sizes(),
                                {&input, weight, bias, &running_mean, &running_var})) {
    auto [out, save_mean, save_var] = _batch_norm_legit_no_training(
        input, weight_opt, bias_opt, running_mean, running_var, momentum, eps);
    cpu_util::copy_to_out(out0, out);
    cpu_util::copy_to_out(out1, save_mean);
    cpu_util::copy_to_out(out2, save_var);
    return {out0, out1, out2};
  }
  out1.resize_({0});
  out2.resize_({0});
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "batch_norm");
  if (input.numel() == 0) return {out0, out1, out2};
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm", [&] {
    using T = scalar_t;
    const std::vector<T> mean = values_of<T>(running_mean);
    std::vector<T> invstd = values_of<T>(running_var);
    for (T& v : invstd) v = T(1) / std::sqrt(v + static_cast<T>(eps));
    normalize<T>(input, out0, mean, invstd, weight, bias);
  });
  return {out0, out1, out2};
}

namespace {

// Per channel c of x (contiguous [batch, channels, inner]) as PyTorch's CPU kernel: the
// mean (a double sum, rounded to T) and the sum of squared deviations (each square in T,
// summed in double).
template <typename T>
void channel_statistics(const T* x, int64_t batch, int64_t channels, int64_t inner, T* mean,
                        T* var_sum) {
  const int64_t n = batch * inner;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  parallel_for(0, channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      double sum = 0;
      for (int64_t b = 0; b < batch; ++b) {
        const T* row = x + (b * channels + c) * inner;
        for (int64_t i = 0; i < inner; ++i) sum += static_cast<double>(row[i]);
      }
      const T m = static_cast<T>(sum / static_cast<double>(n));
      double squares = 0;
      for (int64_t b = 0; b < batch; ++b) {
        const T* row = x + (b * channels + c) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          const T d = row[i] - m;
          squares += static_cast<double>(d * d);
        }
      }
      mean[c] = m;
      var_sum[c] = static_cast<T>(squares);
    }
  });
}

// Training: normalizes input by the batch's statistics, writes them into save_mean and
// save_invstd (1 / sqrt(biased variance + eps); 0 where both are 0, as PyTorch's) and
// moves the running statistics (when given) towards them by `momentum`, the variance
// unbiased (n / (n - 1)).
template <typename T>
void batch_norm_training(const Tensor& input, const Tensor* weight, const Tensor* bias,
                         const Tensor* running_mean, const Tensor* running_var, double momentum,
                         double eps, const ops_util::BatchNormOutputs& r) {
  const Tensor x = cpu_util::contiguous_of(input);
  const int64_t batch = input.size(0);
  const int64_t channels = input.size(1);
  const int64_t n = input.numel() / channels;
  std::vector<T> mean(static_cast<std::size_t>(channels)), invstd(mean.size());
  std::vector<T> var_sum(mean.size());
  channel_statistics<T>(x.data_ptr<T>(), batch, channels, n / batch, mean.data(), var_sum.data());
  const T m = static_cast<T>(momentum);
  T* save_mean = r.save_mean.data_ptr<T>();
  T* save_invstd = r.save_var.data_ptr<T>();
  T* rm = running_mean != nullptr ? running_mean->data_ptr<T>() : nullptr;
  T* rv = running_var != nullptr ? running_var->data_ptr<T>() : nullptr;
  for (int64_t c = 0; c < channels; ++c) {
    const std::size_t i = static_cast<std::size_t>(c);
    const double var = static_cast<double>(var_sum[i] / static_cast<T>(n));
    invstd[i] = var == 0 && eps == 0 ? T(0) : static_cast<T>(1 / std::sqrt(var + eps));
    save_mean[c] = mean[i];
    save_invstd[c] = invstd[i];
    if (rm != nullptr) {
      T& v = rm[c * running_mean->stride(0)];
      v = m * mean[i] + (T(1) - m) * v;
    }
    if (rv != nullptr) {
      T& v = rv[c * running_var->stride(0)];
      const double unbiased = static_cast<double>(var_sum[i] / static_cast<T>(n - 1));
      v = static_cast<T>(static_cast<double>(m) * unbiased + static_cast<double>((T(1) - m) * v));
    }
  }
  normalize<T>(input, r.out, mean, invstd, weight, bias);
}

// _native_batch_norm_legit and .no_stats: training on the batch's statistics, or inference
// on the running ones (which .no_stats lacks: PyTorch crashes there, sops refuses).
std::tuple<Tensor, Tensor, Tensor> batch_norm_legit(const Tensor& input,
                                                    const std::optional<Tensor>& weight_opt,
                                                    const std::optional<Tensor>& bias_opt,
                                                    const Tensor* running_mean,
                                                    const Tensor* running_var, bool training,
                                                    double momentum, double eps) {
  if (!training) {
    SOPS_CHECK_ARG(running_mean != nullptr, "training",
                   "running_mean must be defined in evaluation mode");
    return _batch_norm_legit_no_training(input, weight_opt, bias_opt, *running_mean, *running_var,
                                         momentum, eps);
  }
  const Tensor* weight = defined_or_null(weight_opt);
  const Tensor* bias = defined_or_null(bias_opt);
  ops_util::BatchNormOutputs r =
      ops_util::batch_norm_outputs(input, weight, bias, running_mean, running_var, true, "CPU");
  if (input.is_meta()) return {r.out, r.save_mean, r.save_var};
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "batch_norm");
  SOPS_CHECK_ARG(
      input.numel() != 0, "input",
      "input tensor must have at least one element, but got input_sizes = ", input.sizes());
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm", [&] {
    batch_norm_training<scalar_t>(input, weight, bias, running_mean, running_var, momentum, eps, r);
  });
  return {r.out, r.save_mean, r.save_var};
}

// An out= variant's outs: resized (contiguous) to the functional results and written, of
// the same dtype (PyTorch's message otherwise).
std::tuple<Tensor&, Tensor&, Tensor&> write_outs(const std::tuple<Tensor, Tensor, Tensor>& r,
                                                 Tensor& out, Tensor& save_mean,
                                                 Tensor& save_invstd) {
  const Tensor* results[] = {&std::get<0>(r), &std::get<1>(r), &std::get<2>(r)};
  Tensor* outs[] = {&out, &save_mean, &save_invstd};
  const char* names[] = {"out", "save_mean", "save_invstd"};
  for (int i = 0; i < 3; ++i) {
    SOPS_CHECK_ARG(outs[i]->scalar_type() == results[i]->scalar_type(), names[i],
                   "expected scalar type ", ops_util::aten_name(results[i]->scalar_type()),
                   " but found ", ops_util::aten_name(outs[i]->scalar_type()));
  }
  for (int i = 0; i < 3; ++i) {
    outs[i]->resize_(results[i]->sizes());
    if (!outs[i]->is_meta()) cpu_util::copy_cast(*outs[i], *results[i]);
  }
  return {out, save_mean, save_invstd};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_cpu(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    Tensor& running_mean, Tensor& running_var, bool training, double momentum, double eps) {
  return batch_norm_legit(input, weight, bias, &running_mean, &running_var, training, momentum,
                          eps);
}

std::tuple<Tensor, Tensor, Tensor> _batch_norm_legit_no_stats_cpu(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    bool training, double momentum, double eps) {
  return batch_norm_legit(input, weight, bias, nullptr, nullptr, training, momentum, eps);
}

std::tuple<Tensor&, Tensor&, Tensor&> _batch_norm_legit_cpu_out(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    Tensor& running_mean, Tensor& running_var, bool training, double momentum, double eps,
    Tensor& out, Tensor& save_mean, Tensor& save_invstd) {
  return write_outs(
      batch_norm_legit(input, weight, bias, &running_mean, &running_var, training, momentum, eps),
      out, save_mean, save_invstd);
}

std::tuple<Tensor&, Tensor&, Tensor&> _batch_norm_legit_no_stats_cpu_out(
    const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    bool training, double momentum, double eps, Tensor& out, Tensor& save_mean,
    Tensor& save_invstd) {
  return write_outs(
      batch_norm_legit(input, weight, bias, nullptr, nullptr, training, momentum, eps), out,
      save_mean, save_invstd);
}

}  // namespace sops::aten::native
