// scaled_add's CUDA impl: the meta function (shared with the CPU) checked the arguments
// and made out; the generated wrapper made their device current and checked that they
// share it.
#include "my_ops/NativeFunctions.h"
#include "scaled_add_launch.h"  // beside this file

namespace my::ops::native {

SOPS_IMPL_FUNC(scaled_add_out_cuda)
(const Tensor& self, const Tensor& other, double alpha, const Tensor& out) {
  cuda::launch_scaled_add(self.data_ptr<float>(), other.data_ptr<float>(),
                          static_cast<float>(alpha), out.data_ptr<float>(), out.numel());
}

}  // namespace my::ops::native
