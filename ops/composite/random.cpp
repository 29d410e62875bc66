// The random factories (CompositeExplicitAutograd), over empty and the sampling kernels
// (backends/cpu/kernels/random.cpp) as PyTorch's are: rand and randn fill a new tensor
// with uniform_(0, 1) and normal_(0, 1), randperm makes an empty tensor for randperm.out;
// their out= variants resize `out` first. normal_functional is normal_ on a copy.
#include <optional>

#include "aten/ops/clone.h"
#include "aten/ops/empty.h"
#include "aten/ops/normal.h"
#include "aten/ops/normal_native.h"
#include "aten/ops/rand_native.h"
#include "aten/ops/randn_native.h"
#include "aten/ops/randperm.h"
#include "aten/ops/randperm_native.h"
#include "aten/ops/uniform.h"

namespace sops::aten::native {

Tensor rand(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
            std::optional<Layout> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  Tensor result = sops::aten::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return sops::aten::uniform_(result, 0, 1, std::move(generator));
}

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return rand(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor& rand_out(IntArrayRef size, std::optional<Generator> generator, Tensor& out) {
  out.resize_(size);
  return sops::aten::uniform_(out, 0, 1, std::move(generator));
}

Tensor& rand_out(IntArrayRef size, Tensor& out) { return rand_out(size, std::nullopt, out); }

Tensor randn(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
             std::optional<Layout> layout, std::optional<Device> device,
             std::optional<bool> pin_memory) {
  Tensor result = sops::aten::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return sops::aten::normal_(result, 0, 1, std::move(generator));
}

Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return randn(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor& randn_out(IntArrayRef size, std::optional<Generator> generator, Tensor& out) {
  out.resize_(size);
  return sops::aten::normal_(out, 0, 1, std::move(generator));
}

Tensor& randn_out(IntArrayRef size, Tensor& out) { return randn_out(size, std::nullopt, out); }

Tensor randperm(int64_t n, std::optional<Generator> generator, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  Tensor result = sops::aten::empty({n}, dtype.value_or(ScalarType::Long), layout, device,
                                    pin_memory, std::nullopt);
  return sops::aten::randperm_outf(n, std::move(generator), result);
}

Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  return randperm(n, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor& randperm_out(int64_t n, Tensor& out) {
  return sops::aten::randperm_outf(n, std::nullopt, out);
}

Tensor normal_functional(const Tensor& self, double mean, double std,
                         std::optional<Generator> generator) {
  Tensor result = sops::aten::clone(self);
  return sops::aten::normal_(result, mean, std, std::move(generator));
}

}  // namespace sops::aten::native
