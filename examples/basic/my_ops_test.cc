// The generated library, seen from a workspace of its own.
#include <cmath>
#include <cstdio>

#include "my_ops/CPUFunctions.h"
#include "my_ops/Functions.h"
#include "my_ops/Operators.h"

int main() {
  sops::Tensor x = sops::empty({2}, sops::TensorOptions());
  x.data_ptr<float>()[0] = 1.0f;
  x.data_ptr<float>()[1] = -1.0f;
  const sops::Tensor y = my::ops::gelu(x);               // through the dispatcher
  const sops::Tensor z = my::ops::cpu::gelu(x, "tanh");  // static entry point
  // PyTorch: torch.nn.functional.gelu(torch.tensor([1., -1.])) = [0.8413, -0.1587]
  const bool ok = my::ops::operator_schemas().size() == 2 &&
                  std::fabs(y.data_ptr<float>()[0] - 0.841345f) < 1e-5f &&
                  std::fabs(y.data_ptr<float>()[1] + 0.158655f) < 1e-5f &&
                  std::fabs(z.data_ptr<float>()[0] - 0.841192f) < 1e-5f;
  std::printf("gelu([1, -1]) = [%.6f, %.6f]\n", y.data_ptr<float>()[0], y.data_ptr<float>()[1]);
  return ok ? 0 : 1;
}
