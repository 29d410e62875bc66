// CPU kernels of the comparisons, the logical ops and where. Inputs are read as the
// common dtype (comparisons) or as bool (logical ops); the bool result is converted to
// the output's dtype as it is written.
#include "aten/ops/eq_native.h"
#include "aten/ops/ge_native.h"
#include "aten/ops/gt_native.h"
#include "aten/ops/le_native.h"
#include "aten/ops/logical_and_native.h"
#include "aten/ops/logical_not_native.h"
#include "aten/ops/logical_or_native.h"
#include "aten/ops/lt_native.h"
#include "aten/ops/ne_native.h"
#include "aten/ops/where_native.h"
#include "backends/cpu/cpu_utils.h"

namespace sops::aten::native {
namespace {

// out = cmp(self, other) in the common dtype, bool and every computing dtype included.
template <typename Cmp>
void comparison_kernel(const TensorIteratorBase& iter, const char* name) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    sops::cpu_kernel(iter, [](scalar_t a, scalar_t b) -> bool { return Cmp{}(a, b); });
  });
}

struct Eq {
  template <typename T>
  bool operator()(T a, T b) const {
    return a == b;
  }
};
struct Ne {
  template <typename T>
  bool operator()(T a, T b) const {
    return a != b;
  }
};
struct Lt {
  template <typename T>
  bool operator()(T a, T b) const {
    return a < b;
  }
};
struct Le {
  template <typename T>
  bool operator()(T a, T b) const {
    return a <= b;
  }
};
struct Gt {
  template <typename T>
  bool operator()(T a, T b) const {
    return a > b;
  }
};
struct Ge {
  template <typename T>
  bool operator()(T a, T b) const {
    return a >= b;
  }
};

}  // namespace

#define SOPS_COMPARISON_IMPL(name, Cmp)                                            \
  SOPS_IMPL_FUNC(name##_Tensor_out)(const Tensor&, const Tensor&, const Tensor&) { \
    comparison_kernel<Cmp>(*this, #name);                                          \
  }                                                                                \
  SOPS_IMPL_FUNC(name##_Scalar_out)(const Tensor&, const Scalar&, const Tensor&) { \
    comparison_kernel<Cmp>(*this, #name);                                          \
  }

SOPS_COMPARISON_IMPL(eq, Eq)
SOPS_COMPARISON_IMPL(ne, Ne)
SOPS_COMPARISON_IMPL(lt, Lt)
SOPS_COMPARISON_IMPL(le, Le)
SOPS_COMPARISON_IMPL(gt, Gt)
SOPS_COMPARISON_IMPL(ge, Ge)

#undef SOPS_COMPARISON_IMPL

// Every input is read as bool (!= 0, NaN is true), as PyTorch's `!a`, `a && b`, `a || b`.
SOPS_IMPL_FUNC(logical_not_out)(const Tensor& /*self*/, const Tensor& /*out*/) {
  sops::cpu_kernel(*this, [](bool a) -> bool { return !a; });
}

SOPS_IMPL_FUNC(logical_and_out)(const Tensor& /*self*/, const Tensor& /*other*/,
                                const Tensor& /*out*/) {
  sops::cpu_kernel(*this, [](bool a, bool b) -> bool { return a && b; });
}

SOPS_IMPL_FUNC(logical_or_out)(const Tensor& /*self*/, const Tensor& /*other*/,
                               const Tensor& /*out*/) {
  sops::cpu_kernel(*this, [](bool a, bool b) -> bool { return a || b; });
}

// out = condition ? self : other; self and other are read as out's dtype.
SOPS_IMPL_FUNC(where_self_out)
(const Tensor& /*condition*/, const Tensor& /*self*/, const Tensor& /*other*/,
 const Tensor& /*out*/) {
  SOPS_DISPATCH_EVERY_TYPE(dtype(0), "where", [&] {
    sops::cpu_kernel(*this, [](bool c, scalar_t a, scalar_t b) -> scalar_t { return c ? a : b; });
  });
}

}  // namespace sops::aten::native
