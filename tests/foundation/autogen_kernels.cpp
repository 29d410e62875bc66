// The only kernels of autogen_ops.yaml: the variants autogen writes come from these.
#include <algorithm>
#include <vector>

#include "autogen_ops/NativeFunctions.h"

namespace autogen_ops::native {

std::tuple<Tensor, Tensor> minmax_cpu(const Tensor& self) {
  const float* x = self.data_ptr<float>();
  Tensor lo = sops::empty({}, self.options());
  Tensor hi = sops::empty({}, self.options());
  const auto [min_it, max_it] = std::minmax_element(x, x + self.numel());
  *lo.data_ptr<float>() = *min_it;
  *hi.data_ptr<float>() = *max_it;
  return {lo, hi};
}

std::vector<Tensor> halves_cpu(const Tensor& self) {
  const int64_t n = self.numel();
  std::vector<Tensor> parts;
  for (const auto& [begin, end] : {std::pair{int64_t{0}, n / 2}, std::pair{n / 2, n}}) {
    Tensor part = sops::empty({end - begin}, self.options());
    std::copy(self.data_ptr<float>() + begin, self.data_ptr<float>() + end, part.data_ptr<float>());
    parts.push_back(part);
  }
  return parts;
}

// Returns self + total, and adds self into total.
Tensor running_add_cpu(const Tensor& self, Tensor& total) {
  Tensor result = sops::empty(self.sizes(), self.options());
  for (int64_t i = 0; i < self.numel(); ++i) {
    result.data_ptr<float>()[i] = self.data_ptr<float>()[i] + total.data_ptr<float>()[i];
    total.data_ptr<float>()[i] += self.data_ptr<float>()[i];
  }
  return result;
}

}  // namespace autogen_ops::native
