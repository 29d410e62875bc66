// embedding on CUDA: rows of a 2-d weight picked by integer indices, result sizes
// indices.sizes() + [weight.size(1)], as the CPU kernel (backends/cpu/kernels/embedding.cpp): the
// same checks and messages, any weight dtype (bytes are moved, not values), forward only
// (padding_idx, scale_grad_by_freq and sparse change the gradient, not the result). The
// indices live on the device: the gather kernel (embedding.cu) checks their range there
// and reports the first bad one, which is raised here with the CPU's message.
#include <cstdint>
#include <optional>

#include "aten/ops/embedding_native.h"
#include "backends/cuda/kernels/embedding_kernels.h"
#include "ops/util/nn_utils.h"

namespace sops::aten {

Tensor SOPS_KERNEL(embedding_cuda)(const Tensor& weight, const Tensor& indices,
                                   int64_t /*padding_idx*/, bool /*scale_grad_by_freq*/,
                                   bool /*sparse*/) {
  Tensor result = ops_util::embedding_output(weight, indices);
  if (indices.numel() == 0) return result;
  const std::optional<int64_t> bad = cuda::embedding_kernel(weight, indices, result);
  SOPS_CHECK_ARG(!bad.has_value(), "indices", "index out of range in self (index ", *bad,
                 " for a weight of ", weight.size(0), " rows)");
  return result;
}

}  // namespace sops::aten
