// Where registrations come from: a generated library's name and its yaml. The operator
// registry (boxed calls) and the dispatcher (unboxed calls) keep one per registration,
// so that an operator two libraries both declare is an error naming both.
#pragma once

#include <string>
#include <string_view>

namespace sops {

struct KernelLibrary {
  std::string_view name;    // "aten"
  std::string_view source;  // "ops/native_functions.yaml"
};

// "library 'aten' (from ops/native_functions.yaml)"
std::string describe(const KernelLibrary& library);

// Why `op` cannot be registered by `second` after `first` registered it: names both
// libraries and their yamls, and how to fix it (`linked_twice_hint`: what to check when
// the two are one library).
std::string duplicate_operator_message(std::string_view op, const KernelLibrary& first,
                                       const KernelLibrary& second,
                                       std::string_view linked_twice_hint);

}  // namespace sops
