// Element-wise activations that the load-time optimizer (lite/optimize.h) applies in place
// to the result of the convolution or matrix product before them, instead of running
// their own nodes: no second tensor allocated, no second dispatch, and the data still in
// cache when the product was small. The formulas are those of //ops:aten's CPU kernels
// (backends/cpu/kernels/activation_ops.cpp, with runtime/vec_math.h's exp, erf and tanh on
// whole vectors), so a fused model gives the unfused one's values within rounding.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/tensor.h"

namespace sops::lite {

enum class Activation : uint8_t {
  Relu,       // aten::relu
  Clamp,      // aten::hardtanh, aten::clamp (lo, hi; an absent bound is +-inf)
  Hardswish,  // aten::hardswish
  Silu,       // aten::silu
  Sigmoid,    // aten::sigmoid
  Gelu,       // aten::gelu, approximate='none'
  GeluTanh,   // aten::gelu, approximate='tanh'
};

struct Epilogue {
  Activation activation = Activation::Relu;
  double lo = 0;  // Clamp's bounds
  double hi = 0;
};

// "relu", "clamp", ...: for messages and the optimizer's summary.
std::string_view activation_name(Activation a);

// Applies `e` to every element of `t` in place. `t` must be a contiguous float32 or
// float64 CPU tensor (the optimizer checks both before it fuses; an error says which
// otherwise).
void apply_epilogue(const Epilogue& e, const Tensor& t);

// Whether add_in_place(t, other) applies: both contiguous CPU tensors of one float32 or
// float64 dtype and of the same sizes, not overlapping.
bool can_add_in_place(const Tensor& t, const Tensor& other);
// t += other, element by element (a residual add fused into the product that made t).
void add_in_place(const Tensor& t, const Tensor& other);

}  // namespace sops::lite
