#include "lite/epilogue.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "runtime/cpu_capability.h"
#include "runtime/error.h"
#include "runtime/parallel.h"
#include "runtime/vec_math.h"

namespace sops::lite {

namespace {

// One activation on [begin, end) of p: whole vectors, then the tail element by element,
// as cpu_kernel_vec splits a contiguous run.
template <typename T>
SOPS_ALWAYS_INLINE void epilogue_body(Activation a, T lo, T hi, T* p, int64_t n) {
  using V = typename Vec<T, 32>::type;
  constexpr int64_t W = Vec<T, 32>::kLanes;
  int64_t i = 0;
  switch (a) {
    case Activation::Relu:
      // NaN stays NaN (the comparison is false), as PyTorch's relu keeps it.
      for (; i < n; ++i) p[i] = p[i] < T(0) ? T(0) : p[i];
      return;
    case Activation::Clamp:
      for (; i < n; ++i) p[i] = std::min(std::max(p[i], lo), hi);
      return;
    case Activation::Hardswish:
      for (; i < n; ++i) {
        const T x = p[i];
        p[i] = x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
      }
      return;
    case Activation::Silu:
      for (; i + W <= n; i += W) {
        const V x = vec::load<T, 32>(p + i);
        vec::store<T, 32>(p + i, x / (T(1) + vec::exp(-x)));
      }
      for (; i < n; ++i) p[i] = p[i] / (T(1) + std::exp(-p[i]));
      return;
    case Activation::Sigmoid:
      for (; i + W <= n; i += W) vec::store<T, 32>(p + i, vec::sigmoid(vec::load<T, 32>(p + i)));
      for (; i < n; ++i) p[i] = T(1) / (T(1) + std::exp(-p[i]));
      return;
    case Activation::Gelu: {
      const T alpha = static_cast<T>(M_SQRT1_2);
      for (; i + W <= n; i += W) {
        const V x = vec::load<T, 32>(p + i);
        vec::store<T, 32>(p + i, x * T(0.5) * (T(1) + vec::erf(x * alpha)));
      }
      for (; i < n; ++i) p[i] = p[i] * T(0.5) * (T(1) + std::erf(p[i] * alpha));
      return;
    }
    case Activation::GeluTanh: {
      const T beta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const T kappa = static_cast<T>(0.044715);
      for (; i + W <= n; i += W) {
        const V x = vec::load<T, 32>(p + i);
        vec::store<T, 32>(p + i, T(0.5) * x * (T(1) + vec::tanh(beta * (x + kappa * x * x * x))));
      }
      for (; i < n; ++i) {
        const T x = p[i];
        p[i] = T(0.5) * x * (T(1) + std::tanh(beta * (x + kappa * x * x * x)));
      }
      return;
    }
  }
}

SOPS_CPU_CLONES(epilogue_loop, epilogue_body)

template <typename T>
void apply_typed(const Epilogue& e, T* p, int64_t n) {
  const T lo = static_cast<T>(e.lo), hi = static_cast<T>(e.hi);
  parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    epilogue_loop(e.activation, lo, hi, p + begin, end - begin);
  });
}

}  // namespace

bool can_add_in_place(const Tensor& t, const Tensor& other) {
  if (!t.defined() || !other.defined() || !t.device().is_cpu() || !other.device().is_cpu() ||
      !t.is_contiguous() || !other.is_contiguous() || t.scalar_type() != other.scalar_type() ||
      t.sizes() != other.sizes() ||
      (t.scalar_type() != ScalarType::Float && t.scalar_type() != ScalarType::Double)) {
    return false;
  }
  const auto* a = static_cast<const std::byte*>(t.data_ptr());
  const auto* b = static_cast<const std::byte*>(other.data_ptr());
  return a + t.nbytes() <= b || b + other.nbytes() <= a;
}

namespace {

template <typename T>
SOPS_ALWAYS_INLINE void add_body(T* __restrict p, const T* __restrict q, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] += q[i];
}

SOPS_CPU_CLONES(add_loop, add_body)

template <typename T>
void add_typed(T* p, const T* q, int64_t n) {
  parallel_for(0, n, kGrainSize,
               [&](int64_t begin, int64_t end) { add_loop(p + begin, q + begin, end - begin); });
}

}  // namespace

void add_in_place(const Tensor& t, const Tensor& other) {
  SOPS_CHECK(can_add_in_place(t, other),
             "the fused add needs two contiguous float32 or float64 tensors of one shape; run "
             "with the optimization off (--no-optimize)");
  if (t.scalar_type() == ScalarType::Float) {
    add_typed(t.data_ptr<float>(), other.data_ptr<float>(), t.numel());
  } else {
    add_typed(t.data_ptr<double>(), other.data_ptr<double>(), t.numel());
  }
}

std::string_view activation_name(Activation a) {
  switch (a) {
    case Activation::Relu:
      return "relu";
    case Activation::Clamp:
      return "clamp";
    case Activation::Hardswish:
      return "hardswish";
    case Activation::Silu:
      return "silu";
    case Activation::Sigmoid:
      return "sigmoid";
    case Activation::Gelu:
      return "gelu";
    case Activation::GeluTanh:
      return "gelu(tanh)";
  }
  return "?";
}

void apply_epilogue(const Epilogue& e, const Tensor& t) {
  SOPS_CHECK(t.device().is_cpu() && t.is_contiguous(), "the fused ", activation_name(e.activation),
             " needs a contiguous CPU tensor; run with the optimization off (--no-optimize)");
  if (t.scalar_type() == ScalarType::Float) {
    apply_typed(e, t.data_ptr<float>(), t.numel());
  } else if (t.scalar_type() == ScalarType::Double) {
    apply_typed(e, t.data_ptr<double>(), t.numel());
  } else {
    raise(Error(detail::str("the fused ", activation_name(e.activation),
                            " takes float32 or float64, not ", to_string(t.scalar_type()),
                            "; run with the optimization off (--no-optimize)")));
  }
}

}  // namespace sops::lite
