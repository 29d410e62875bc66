// scaled_add on the CPU: its values, and the meta function's error for a wrong dtype.
#include <cstdio>
#include <string>

#include "my_ops/Functions.h"

int main() {
  sops::Tensor a = sops::empty({3}, sops::TensorOptions());
  sops::Tensor b = sops::empty({3}, sops::TensorOptions());
  for (int i = 0; i < 3; ++i) {
    a.data_ptr<float>()[i] = static_cast<float>(i + 1);
    b.data_ptr<float>()[i] = static_cast<float>(10 * (i + 1));
  }
  const sops::Tensor r = my::ops::scaled_add(a, b, 2.0);  // [1, 2, 3] + 2 * [10, 20, 30]
  bool ok = r.data_ptr<float>()[0] == 21.0f && r.data_ptr<float>()[1] == 42.0f &&
            r.data_ptr<float>()[2] == 63.0f;
  std::printf("scaled_add([1, 2, 3], [10, 20, 30], 2) = [%g, %g, %g]\n", r.data_ptr<float>()[0],
              r.data_ptr<float>()[1], r.data_ptr<float>()[2]);
  try {
    my::ops::scaled_add(a, sops::empty({3}, sops::TensorOptions(sops::ScalarType::Double)));
    ok = false;
  } catch (const sops::Error& e) {
    std::printf("float64 other: %s\n", e.what());
    ok = ok && std::string(e.what()).find("argument 'other'") != std::string::npos;
  }
  return ok ? 0 : 1;
}
