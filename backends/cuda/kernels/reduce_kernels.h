// The CUDA launchers of the reductions sum, mean, amax, amin, any and argmax
// (reduce_ops.cu), called by their structured impls (reduce_ops.cpp). See binary_kernels.h
// for how the CUDA kernels of a family are split between a .cpp and a .cu file.
//
// `mask` bit d: dimension d of self is reduced (ops_util::reduction_mask); `out` was sized
// by the meta function (keepdim's shape or the squeezed one) and may have any strides.
// Each launcher dispatches on the dtype first, as the CPU kernel does, so that a dtype it
// does not support raises the CPU's error even for an empty tensor.
#pragma once

#include <cstdint>

#include "runtime/tensor.h"

namespace sops::cuda {

// sum (mean: divided by the number of reduced elements) of self's elements, each converted
// to out's dtype first; floating sums accumulate in double, integral ones wrap in out's
// type, bool is "or". `name` ("sum", "mean") names the unsupported-dtype error.
void sum_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out, bool mean,
                const char* name);

// amax (`max`) or amin: NaN wins over every number. out has self's dtype.
void minmax_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out, bool max,
                   const char* name);

// any: whether some element is non-zero (NaN counts), written as one byte 0 or 1 (out is
// bool, or uint8 for a uint8 input).
void any_kernel(const Tensor& self, uint64_t mask, bool keepdim, const Tensor& out);

// argmax over dimension `dim` (wrapped), or over the row-major flattened tensor when
// `flatten`: the first index of the maximum, NaN being the largest value. out is int64.
void argmax_kernel(const Tensor& self, int64_t dim, bool flatten, bool keepdim, const Tensor& out);

}  // namespace sops::cuda
