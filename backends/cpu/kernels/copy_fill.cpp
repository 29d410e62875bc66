// copy_ (CompositeExplicitAutograd: cpu and meta) and fill_ (CPU and Meta kernels); clone.out,
// which native_functions.yaml leaves to autogen (backends/cpu/autogen_kernels.yaml).
#include "aten/ops/clone.h"
#include "aten/ops/clone_native.h"
#include "aten/ops/copy_native.h"
#include "aten/ops/fill_native.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/broadcast.h"

namespace sops::aten::native {

Tensor& copy_(Tensor& self, const Tensor& src, bool /*non_blocking*/) {
  if (self.is_same(src)) return self;
  if (self.is_meta() || src.is_meta()) {
    SOPS_CHECK_ARG(is_expandable_to(src.sizes(), self.sizes()), "src", "output with shape ",
                   self.sizes(), " doesn't match the broadcast shape ",
                   infer_size(self.sizes(), src.sizes()));
    return self;
  }
  cpu_util::copy_cast(self, src);
  return self;
}

// self's values into `out` (resized to self's sizes unless it has them, converted to its
// dtype): what autogen's kernel gives (clone, then a copy into out) without the clone. clone's
// memory format decides the clone's strides, which the copy into `out` does not keep.
Tensor& clone_out(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out) {
  if (self.is_alias_of(out)) {
    cpu_util::copy_to_out(out, sops::aten::clone(self, memory_format));
    return out;
  }
  out.resize_(self.sizes());
  cpu_util::copy_cast(out, self);
  return out;
}

Tensor& fill_(Tensor& self, const Scalar& value) {
  // An output-only iterator: any strides, expanded (stride 0) dimensions included.
  TensorIteratorConfig config;
  config.add_output(self, "self").resize_outputs(false).check_mem_overlap(false);
  TensorIterator iter;
  iter.build_borrowing(config);
  SOPS_DISPATCH_EVERY_TYPE(self.scalar_type(), "fill_", [&] {
    const scalar_t v = cpu_util::scalar_to<scalar_t>(value);
    iter.for_each([v](char** data, const int64_t* strides, int64_t n) {
      for (int64_t k = 0; k < n; ++k) *reinterpret_cast<scalar_t*>(data[0] + k * strides[0]) = v;
    });
  });
  return self;
}

namespace {
void check_fill_value(const Tensor& value) {
  SOPS_CHECK_ARG(value.dim() == 0, "value",
                 "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
                 " dimensions.");
}
}  // namespace

Tensor& fill_(Tensor& self, const Tensor& value) {
  check_fill_value(value);
  return fill_(self, value.item());
}

Tensor& fill_meta_(Tensor& self, const Scalar& /*value*/) { return self; }

Tensor& fill_meta_(Tensor& self, const Tensor& value) {
  check_fill_value(value);
  return self;
}

}  // namespace sops::aten::native
