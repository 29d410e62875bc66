// copy_ and fill_ on one CUDA device: element-wise kernels (loops.cuh) over an iterator
// whose input, when there is one, is read as the output's dtype.
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/kernels/loops.cuh"
#include "ops/util/scalar_checks.h"
#include "runtime/visit_dtype.h"

namespace sops::cuda {
namespace {

template <typename T>
struct Identity {  // the conversion happens in gpu_kernel's loads
  __device__ T operator()(T x) const { return x; }
};

template <typename T>
struct Constant {
  T value;
  __device__ T operator()() const { return value; }
};

}  // namespace

void copy_on_device(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  TensorIterator iter = TensorIterator::copy_op(dst, src);
  SOPS_DISPATCH_EVERY_TYPE(dst.scalar_type(), "copy_",
                           [&] { gpu_kernel(iter, Identity<scalar_t>{}); });
}

Tensor contiguous_on_device(const Tensor& t) {
  if (!t.defined() || t.is_contiguous()) return t;
  Tensor copy = sops::empty(t.sizes(), t.options());
  copy_on_device(copy, t);
  return copy;
}

void fill_kernel(const Tensor& self, const Scalar& value) {
  SOPS_DISPATCH_EVERY_TYPE(self.scalar_type(), "fill_", [&] {
    // The value's range is checked first, as on the CPU: an empty tensor too.
    const Constant<scalar_t> constant{aten::ops_util::scalar_to<scalar_t>(value)};
    if (self.numel() == 0) return;
    TensorIteratorConfig config;
    config.add_output(self, "self").resize_outputs(false).check_mem_overlap(false);
    TensorIterator iter(config);
    gpu_kernel(iter, constant);
  });
}

}  // namespace sops::cuda
