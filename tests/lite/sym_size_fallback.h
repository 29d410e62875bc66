// aten::sym_size.int for the lite tests, where the operator library does not have it yet:
// dynamic models take their SymInts from it (torch.export's x.size(0)). Registered into
// the global registry only when the library has not registered its own, so the tests run
// the same either way; a test-only kernel with PyTorch's schema,
// "sym_size.int(Tensor self, int dim) -> SymInt".
#pragma once

#include <cstdint>

#include "runtime/error.h"
#include "runtime/kernel_library.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"

namespace sops::lite::testing {

namespace sym_size_fallback {

inline void kernel(Stack& stack) {
  const Tensor self = stack[stack.size() - 2].to_tensor();
  int64_t dim = stack[stack.size() - 1].to_int();
  const int64_t ndim = self.dim();
  if (dim < -ndim || dim >= (ndim == 0 ? 1 : ndim)) {
    raise(Error(detail::str("dimension ", dim, " is out of range for a ", ndim, "-d tensor"), "dim",
                "aten::sym_size.int"));
  }
  if (dim < 0) dim += ndim;
  stack.resize(stack.size() - 2);
  stack.push_back(Value(self.sizes()[static_cast<std::size_t>(dim)]));
}

using K = TypeSchema::Kind;
inline constexpr ArgumentSchema kArguments[] = {
    {"self", {K::Tensor, false, false, false, 0, "Tensor"}},
    {"dim", {K::Int, false, false, false, 0, "int"}},
};
inline constexpr ReturnSchema kReturns[] = {{"", {K::Int, false, false, false, 0, "SymInt"}}};
inline constexpr FunctionSchema kSchema = {"aten::sym_size.int", "aten",  "sym_size", "int",
                                           kArguments,           kReturns};
inline constexpr Kernel kKernels[] = {{&kSchema, &kernel}};
inline constexpr KernelLibrary kLibrary = {"lite_tests", "tests/lite/sym_size_fallback.h"};

}  // namespace sym_size_fallback

// Registers the fallback unless aten::sym_size.int is there already.
inline void ensure_sym_size_int() {
  OperatorRegistry& registry = OperatorRegistry::global();
  if (registry.find("aten::sym_size.int") == nullptr) {
    registry.register_kernels(sym_size_fallback::kLibrary, sym_size_fallback::kKernels);
  }
}

}  // namespace sops::lite::testing
