#include "runtime/reduction.h"

#include "runtime/error.h"

namespace sops {

Reduction::Value check_reduction(int64_t reduction, std::string_view argument) {
  SOPS_CHECK_ARG(is_valid_reduction(reduction), argument,
                 "expected reduction 0 (none), 1 (mean) or 2 (sum), got ", reduction);
  return static_cast<Reduction::Value>(reduction);
}

}  // namespace sops
