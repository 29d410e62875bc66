// Reduction: how a loss combines its per-element values, passed as the `int reduction`
// argument of native_functions.yaml (PyTorch's at::Reduction). The generator writes the
// yaml default `reduction=Mean` as `int64_t reduction=Reduction::Mean`, so the values
// convert implicitly to int64_t, with PyTorch's numbers:
//
//   switch (sops::check_reduction(reduction)) {
//     case sops::Reduction::None: ...
//     case sops::Reduction::Mean: ...
//     case sops::Reduction::Sum: ...
//   }
#pragma once

#include <cstdint>
#include <string_view>

namespace sops {

// A struct (not a namespace, as in ATen) so that `using ::sops::Reduction;` works.
struct Reduction {
  enum Value : int64_t { None = 0, Mean = 1, Sum = 2 };
};

// PyTorch's names, as in F.mse_loss(..., reduction='mean'): "none", "mean", "sum";
// "unknown" for any other value.
constexpr std::string_view to_string(Reduction::Value reduction) {
  switch (reduction) {
    case Reduction::None:
      return "none";
    case Reduction::Mean:
      return "mean";
    case Reduction::Sum:
      return "sum";
  }
  return "unknown";
}

constexpr bool is_valid_reduction(int64_t reduction) {
  return reduction >= Reduction::None && reduction <= Reduction::Sum;
}

// `reduction` as a Reduction::Value; throws sops::Error naming `argument` and the bad
// value unless it is 0 (none), 1 (mean) or 2 (sum).
Reduction::Value check_reduction(int64_t reduction, std::string_view argument = "reduction");

}  // namespace sops
