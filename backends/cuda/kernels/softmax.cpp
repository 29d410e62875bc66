// The CUDA impls of _softmax and _log_softmax: the meta functions (shared with the CPU)
// sized out; these make the CPU kernels' checks (backends/cpu/kernels/softmax.cpp), in its order
// and with its messages (float32 and float64 only; half_to_float refused), then call the
// launcher (softmax.cu).
#include <cstdint>
#include <string_view>

#include "aten/ops/_log_softmax_native.h"
#include "aten/ops/_softmax_native.h"
#include "backends/cuda/kernels/softmax_kernels.h"
#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"
#include "runtime/visit_dtype.h"

namespace sops::aten::native {
namespace {

void softmax_out(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out, bool log,
                 std::string_view last_name, std::string_view name) {
  SOPS_CHECK_ARG(!half_to_float, "half_to_float", "softmax",
                 " with half to float conversion is not supported on CUDA");
  const int64_t ndim = self.dim();
  const int64_t d = ops_util::wrap_dim(dim, ndim);
  const bool last = ndim == 0 || d == ndim - 1;
  ops_util::check_dtype_implemented(self.scalar_type(), dtypes::kFloatingTypes,
                                    last ? last_name : name);
  if (self.numel() == 0) return;
  cuda::softmax_kernel(self, d, out, log);
}

}  // namespace

SOPS_IMPL_FUNC(softmax_cuda_out)
(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  softmax_out(self, dim, half_to_float, out, /*log=*/false, "softmax_lastdim_kernel_impl",
              "softmax_kernel_impl");
}

SOPS_IMPL_FUNC(log_softmax_cuda_out)
(const Tensor& self, int64_t dim, bool half_to_float, const Tensor& out) {
  softmax_out(self, dim, half_to_float, out, /*log=*/true, "log_softmax_lastdim_kernel_impl",
              "log_softmax_kernel_impl");
}

}  // namespace sops::aten::native
