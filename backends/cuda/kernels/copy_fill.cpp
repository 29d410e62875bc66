// copy_ and fill_ for CUDA tensors (the yaml's `CUDA: copy_cuda_`, `CUDA: fill_cuda_`).
//
// copy_ has `device_check: NoCheck`, so a copy between cpu and CUDA reaches this kernel
// (runtime/static_dispatch.h). A copy crosses devices as one contiguous block of the
// destination's dtype and shape: converted and broadcast on the source's side, moved
// with one cudaMemcpy, and scattered into the destination's strides on its side when
// they are not contiguous. Copies are synchronous (non_blocking is a hint PyTorch may
// ignore too).
#include "aten/ops/copy.h"
#include "aten/ops/copy_native.h"
#include "aten/ops/fill_native.h"
#include "backends/cuda/kernels/copy_fill_kernels.h"
#include "backends/cuda/runtime/cuda_backend.h"
#include "ops/util/scalar_checks.h"
#include "runtime/broadcast.h"
#include "runtime/device_guard.h"

namespace sops::aten::native {
namespace {

// src itself when it already is a contiguous block of `like`'s dtype and shape, else
// such a block on src's device.
Tensor as_block_of(const Tensor& src, const Tensor& like) {
  if (src.scalar_type() == like.scalar_type() && src.sizes() == like.sizes() &&
      src.is_contiguous()) {
    return src;
  }
  Tensor block = sops::empty(like.sizes(), TensorOptions(like.scalar_type()).device(src.device()));
  if (src.is_cuda()) {
    const DeviceGuard guard(src.device());
    cuda::copy_on_device(block, src);
  } else {
    sops::aten::copy_(block, src);  // the cpu kernel
  }
  return block;
}

// dst = block (a contiguous tensor of dst's dtype and shape on another device).
void copy_block_into(const Tensor& dst, const Tensor& block) {
  if (dst.is_contiguous()) {
    cuda::copy_bytes(dst.data_ptr(), block.const_data_ptr(), dst.nbytes());
    return;
  }
  Tensor landed = sops::empty(dst.sizes(), TensorOptions(dst.scalar_type()).device(dst.device()));
  cuda::copy_bytes(landed.data_ptr(), block.const_data_ptr(), dst.nbytes());
  if (dst.is_cuda()) {
    cuda::copy_on_device(dst, landed);
  } else {
    Tensor target = dst;
    sops::aten::copy_(target, landed);  // the cpu kernel
  }
}

}  // namespace

Tensor& copy_cuda_(Tensor& self, const Tensor& src, bool /*non_blocking*/) {
  if (self.is_same(src)) return self;
  SOPS_CHECK_ARG(is_expandable_to(src.sizes(), self.sizes()), "src", "output with shape ",
                 self.sizes(), " doesn't match the broadcast shape ",
                 infer_size(self.sizes(), src.sizes()));
  if (self.numel() == 0) return self;
  // copy_ has device_guard: false; the CUDA side's device runs the kernels.
  const DeviceGuard guard(self.is_cuda() ? self.device() : src.device());
  if (self.is_cuda() && src.is_cuda() && devices_compatible(self.device(), src.device())) {
    cuda::copy_on_device(self, src);
    return self;
  }
  copy_block_into(self, as_block_of(src, self));
  return self;
}

Tensor& fill_cuda_(Tensor& self, const Scalar& value) {
  cuda::fill_kernel(self, value);
  return self;
}

Tensor& fill_cuda_(Tensor& self, const Tensor& value) {
  SOPS_CHECK_ARG(value.dim() == 0, "value",
                 "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
                 " dimensions.");
  if (value.is_cpu()) return fill_cuda_(self, value.item());
  // A CUDA value: read it back (one element) rather than launch a kernel reading it.
  Tensor host = sops::empty({}, TensorOptions(value.scalar_type()));
  cuda::copy_bytes(host.data_ptr(), value.const_data_ptr(), value.nbytes());
  return fill_cuda_(self, host.item());
}

}  // namespace sops::aten::native
