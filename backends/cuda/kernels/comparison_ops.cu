// The comparisons, the logical ops and where on CUDA: the CPU kernels' element functions
// (backends/cpu/kernels/comparison_ops.cpp) as functors run by gpu_kernel. Functors, not
// __device__ lambdas: the dtype dispatch's bodies are generic lambdas, which cannot hold
// extended lambdas.
#include "backends/cuda/kernels/comparison_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

// out = cmp(a, b) in the common dtype; the bool result is written as out's dtype.
#define SOPS_CUDA_COMPARE_FUNCTOR(Name, op)                       \
  template <typename T>                                           \
  struct Name {                                                   \
    __device__ bool operator()(T a, T b) const { return a op b; } \
  };

SOPS_CUDA_COMPARE_FUNCTOR(Eq, ==)
SOPS_CUDA_COMPARE_FUNCTOR(Ne, !=)
SOPS_CUDA_COMPARE_FUNCTOR(Lt, <)
SOPS_CUDA_COMPARE_FUNCTOR(Le, <=)
SOPS_CUDA_COMPARE_FUNCTOR(Gt, >)
SOPS_CUDA_COMPARE_FUNCTOR(Ge, >=)

#undef SOPS_CUDA_COMPARE_FUNCTOR

// The inputs read as the common dtype first (a 0-dim operand of a wider dtype, such as
// int64 256 against int8, is converted to it as PyTorch does), then tested against 0.
struct LogicalNot {
  __device__ bool operator()(bool a) const { return !a; }
};

template <typename T>
struct LogicalAnd {
  __device__ bool operator()(T a, T b) const { return convert<bool>(a) && convert<bool>(b); }
};

template <typename T>
struct LogicalOr {
  __device__ bool operator()(T a, T b) const { return convert<bool>(a) || convert<bool>(b); }
};

template <typename T>
struct Where {
  __device__ T operator()(bool c, T a, T b) const { return c ? a : b; }
};

}  // namespace

void comparison_kernel(const TensorIteratorBase& iter, CompareOp op, const char* name) {
  SOPS_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    switch (op) {
      case CompareOp::kEq:
        gpu_kernel(iter, Eq<scalar_t>{});
        break;
      case CompareOp::kNe:
        gpu_kernel(iter, Ne<scalar_t>{});
        break;
      case CompareOp::kLt:
        gpu_kernel(iter, Lt<scalar_t>{});
        break;
      case CompareOp::kLe:
        gpu_kernel(iter, Le<scalar_t>{});
        break;
      case CompareOp::kGt:
        gpu_kernel(iter, Gt<scalar_t>{});
        break;
      case CompareOp::kGe:
        gpu_kernel(iter, Ge<scalar_t>{});
        break;
    }
  });
}

void logical_not_kernel(const TensorIteratorBase& iter) { gpu_kernel(iter, LogicalNot{}); }

void logical_and_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_EVERY_TYPE(iter.common_dtype(), "logical_and",
                           [&] { gpu_kernel(iter, LogicalAnd<scalar_t>{}); });
}

void logical_or_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_EVERY_TYPE(iter.common_dtype(), "logical_or",
                           [&] { gpu_kernel(iter, LogicalOr<scalar_t>{}); });
}

void where_kernel(const TensorIteratorBase& iter) {
  SOPS_DISPATCH_EVERY_TYPE(iter.dtype(0), "where", [&] { gpu_kernel(iter, Where<scalar_t>{}); });
}

}  // namespace sops::cuda
