// A plain kernel whose signature does not match the generated header (an extra
// argument), defined with SOPS_KERNEL: it must not compile, and the compiler must name
// the kernel, where a plain definition would be a new overload that fails to link.
#include "demo_ops/NativeFunctions.h"

namespace demo::ops {

Tensor SOPS_KERNEL(relu)(const Tensor& self, int64_t extra) { return self; }

}  // namespace demo::ops
