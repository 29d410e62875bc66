// The factory composites (CompositeExplicitAutograd), over empty / empty_strided and
// fill_, so they serve every backend: empty_like, full, full.out, full_like, scalar_tensor,
// zeros, zeros.out, zeros_like, ones, ones.out and ones_like.
#include "aten/ops/empty.h"
#include "aten/ops/empty_like.h"
#include "aten/ops/empty_like_native.h"
#include "aten/ops/fill.h"
#include "aten/ops/full_like_native.h"
#include "aten/ops/full_native.h"
#include "aten/ops/ones_like_native.h"
#include "aten/ops/ones_native.h"
#include "aten/ops/scalar_tensor_native.h"
#include "aten/ops/zeros_like_native.h"
#include "aten/ops/zeros_native.h"
#include "ops/util/op_utils.h"
#include "ops/util/scalar_checks.h"

namespace sops::aten::native {
namespace {

void check_like_options(std::optional<Layout> layout, std::optional<bool> pin_memory) {
  SOPS_CHECK_ARG(layout.value_or(Layout::Strided) == Layout::Strided, "layout",
                 "only strided tensors are supported, got layout ", *layout);
  SOPS_CHECK_ARG(!pin_memory.value_or(false), "pin_memory",
                 "Need to provide pin_memory allocator to use pin memory.");
}

// Negative sizes, refused in PyTorch's words: zeros and zeros.out say it one way, full.out
// (and empty, through make_empty) another.
void check_sizes_nonnegative(IntArrayRef size) {
  for (const int64_t s : size) {
    SOPS_CHECK_ARG(s >= 0, "size", "zeros: Dimension size must be non-negative.");
  }
}

void check_sizes(IntArrayRef size) {
  for (const int64_t s : size) {
    SOPS_CHECK_ARG(s >= 0, "size", "Trying to create tensor with negative dimension ", s, ": ",
                   size);
  }
}

// PyTorch's dtype of full() without a dtype: that of the fill value (bool, int64, or the
// default float32).
ScalarType full_dtype(const Scalar& fill_value) {
  if (fill_value.is_boolean()) return ScalarType::Bool;
  if (fill_value.is_integral(/*include_bool=*/false)) return ScalarType::Long;
  return ScalarType::Float;
}

}  // namespace

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  check_sizes_nonnegative(size);
  Tensor result = sops::aten::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  sops::aten::fill_(result, 0);
  return result;
}

Tensor& zeros_out(IntArrayRef size, Tensor& out) {
  check_sizes_nonnegative(size);
  out.resize_(size);
  sops::aten::fill_(out, 0);
  return out;
}

// A new tensor of self's sizes, on `device` (default: self's; _to_copy across devices
// passes another). memory_format preserve (the default): self's strides when they are
// dense and non-overlapping, else dense strides in the same dimension order.
Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  const Device target = device.value_or(self.device());  // another device: _to_copy's
  check_like_options(layout, pin_memory);
  const ScalarType type = dtype.value_or(self.scalar_type());
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  if (format != MemoryFormat::Preserve) {
    return sops::aten::empty(self.sizes(), type, std::nullopt, target, std::nullopt, format);
  }
  return sops::empty_strided(self.sizes(), preserved_strides(self),
                             TensorOptions(type).device(target));
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Layout> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  const ScalarType type = dtype.value_or(full_dtype(fill_value));
  ops_util::check_scalar_fits(fill_value, type, "fill_value");
  Tensor result = sops::aten::empty(size, type, layout, device, pin_memory, std::nullopt);
  sops::aten::fill_(result, fill_value);
  return result;
}

// A 0-dim tensor holding s: float32 (PyTorch's default dtype) unless dtype is given,
// whatever s holds (masked_fill with a number decomposes to this).
Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor result = sops::aten::empty({}, dtype.value_or(ScalarType::Float), layout, device,
                                    pin_memory, std::nullopt);
  sops::aten::fill_(result, s);
  return result;
}

Tensor& full_out(IntArrayRef size, const Scalar& fill_value, Tensor& out) {
  check_sizes(size);
  ops_util::check_scalar_fits(fill_value, out.scalar_type(), "fill_value");
  out.resize_(size);
  return sops::aten::fill_(out, fill_value);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  ops_util::check_scalar_fits(fill_value, dtype.value_or(self.scalar_type()), "fill_value");
  Tensor result = sops::aten::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  sops::aten::fill_(result, fill_value);
  return result;
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return full_like(self, 0, dtype, layout, device, pin_memory, memory_format);
}

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor result = sops::aten::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  sops::aten::fill_(result, 1);
  return result;
}

Tensor& ones_out(IntArrayRef size, Tensor& out) { return full_out(size, 1, out); }

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return full_like(self, 1, dtype, layout, device, pin_memory, memory_format);
}

}  // namespace sops::aten::native
