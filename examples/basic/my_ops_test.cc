// The operators of native_functions.yaml, seen from a workspace of its own.
#include <cstdio>

#include "my_ops/Operators.h"

int main() {
  const auto* gelu = my::ops::find_operator("gelu", "out");
  if (my::ops::kNumOperators != 2 || gelu == nullptr) {
    std::fprintf(stderr, "expected gelu and gelu.out\n");
    return 1;
  }
  std::printf("%.*s\n", static_cast<int>(gelu->schema.size()), gelu->schema.data());
  return 0;
}
