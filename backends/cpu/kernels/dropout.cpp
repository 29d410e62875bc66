// native_dropout (registered for CPU and Meta). In inference (train False) the input is
// returned as a copy with an all-true mask, as PyTorch does; in training (train True or
// None) each element is kept with probability 1 - p, scaled by 1 / (1 - p), the draws
// coming from the default generator (runtime/generator.h; not PyTorch's stream).
#include <mutex>
#include <optional>
#include <tuple>

#include "aten/ops/clone.h"
#include "aten/ops/empty_like.h"
#include "aten/ops/native_dropout_native.h"
#include "aten/ops/ones_like.h"
#include "backends/cpu/cpu_utils.h"
#include "runtime/generator.h"

namespace sops::aten::native {

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p,
                                          std::optional<bool> train) {
  // An empty input: PyTorch returns it with an uninitialized mask of its dtype.
  if (input.numel() == 0) return {input, sops::aten::empty_like(input)};
  if (train.has_value() && !*train) {
    return {sops::aten::clone(input), sops::aten::ones_like(input, ScalarType::Bool)};
  }
  // The keep probability 1 - p is a Bernoulli parameter (PyTorch's bernoulli_ check).
  SOPS_CHECK_ARG(p >= 0 && p <= 1, "p",
                 "bernoulli_ expects p to be in [0, 1], but got p=", 1.0 - p);
  Tensor output = sops::aten::empty_like(input);
  Tensor mask = sops::aten::empty_like(input, ScalarType::Bool);
  if (input.is_meta()) return {output, mask};
  cpu_util::check_dtype_implemented(input.scalar_type(), dtypes::kFloatingTypes, "native_dropout",
                                    "input");
  const Tensor x = cpu_util::contiguous_of(input);
  const Tensor y = output.is_contiguous() ? output : sops::empty(input.sizes(), input.options());
  const Tensor m = mask.is_contiguous() ? mask : sops::empty(input.sizes(), mask.options());
  const double keep = 1.0 - p;
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  Generator gen = get_generator_or_default(std::nullopt);
  const std::lock_guard<std::mutex> lock(gen.mutex());
  SOPS_DISPATCH_FLOATING_TYPES(input.scalar_type(), "native_dropout", [&] {
    const scalar_t* xp = x.data_ptr<scalar_t>();
    scalar_t* yp = y.data_ptr<scalar_t>();
    bool* mp = m.data_ptr<bool>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      // A uniform draw in [0, 1) from 53 random bits.
      const double u = static_cast<double>(gen.random64() >> 11) * 0x1.0p-53;
      mp[i] = u < keep;
      // input * mask * scale, as PyTorch computes it (a dropped negative gives -0).
      yp[i] = xp[i] * static_cast<scalar_t>(mp[i]) * static_cast<scalar_t>(scale);
    }
  });
  if (!y.is_same(output)) cpu_util::copy_cast(output, y);
  if (!m.is_same(mask)) cpu_util::copy_cast(mask, m);
  return {output, mask};
}

}  // namespace sops::aten::native
