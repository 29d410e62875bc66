#include "runtime/kernel_library.h"

namespace sops {

std::string describe(const KernelLibrary& library) {
  return "library '" + std::string(library.name) + "' (from " + std::string(library.source) + ")";
}

std::string duplicate_operator_message(std::string_view op, const KernelLibrary& first,
                                       const KernelLibrary& second,
                                       std::string_view linked_twice_hint) {
  if (first.name == second.name && first.source == second.source) {
    return "registered twice by " + describe(first) + " (" + std::string(linked_twice_hint) + ")";
  }
  const std::size_t colons = op.find("::");
  const std::string_view base = colons == std::string_view::npos ? op : op.substr(colons + 2);
  return "registered by two libraries: " + describe(first) + " and " + describe(second) +
         ". Operator names are global to a process: declare one library's operators in a "
         "namespace of its own (e.g. `func: my_ops::" +
         std::string(base) + "(...)` in its yaml), or link only one of them";
}

}  // namespace sops
