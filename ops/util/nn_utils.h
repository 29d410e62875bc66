// The argument checks and outputs of the unstructured nn kernels that every backend
// shares (layer norm, batch norm, embedding): the CPU and CUDA kernels call
// these, then compute on their device.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string_view>

#include "ops/util/op_utils.h"
#include "runtime/error.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops::aten::ops_util {

inline const Tensor* defined_or_null(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? &*t : nullptr;
}

// PyTorch's mixed-dtype rule of its normalization kernels: parameters of another dtype
// than the input are only accepted as float32 for a reduced-precision input, which sops
// does not compute with, so they are always an error here. `device` names the kernel's
// device in the message ("CPU", "CUDA").
inline void check_parameter_dtypes(const Tensor& input, std::initializer_list<const Tensor*> params,
                                   std::string_view device) {
  const Tensor* first = nullptr;
  for (const Tensor* p : params) {
    if (p != nullptr) {
      first = p;
      break;
    }
  }
  bool mixed = first != nullptr && first->scalar_type() != input.scalar_type();
  if (mixed) {
    for (const Tensor* p : params) {
      SOPS_CHECK(p == nullptr || p->scalar_type() == ScalarType::Float, "mixed dtype (", device,
                 "): expect parameter to have scalar type of Float");
    }
  }
  for (const Tensor* p : params)
    mixed = mixed || (p != nullptr && p->scalar_type() != input.scalar_type());
  SOPS_CHECK(!mixed, "mixed dtype (", device, "): all inputs must share same datatype.");
}

// native_layer_norm's outputs, checked and allocated on input's device: out (input's
// sizes), mean and rstd (input's leading sizes, 1 for each normalized dimension), and the
// rows x n the normalized dimensions make of input.
struct LayerNormOutputs {
  Tensor out, mean, rstd;
  int64_t rows = 1;
  int64_t n = 1;
};

// layer_norm_outputs' checks and sizes without the tensors (for an out= kernel that is
// given them): rows, n and the statistics' shape.
struct LayerNormShape {
  int64_t rows = 1;
  int64_t n = 1;
  DimVector stat_shape;
};

inline LayerNormShape layer_norm_shape(const Tensor& input, IntArrayRef normalized_shape,
                                       const Tensor* weight, const Tensor* bias,
                                       std::string_view device) {
  const int64_t norm_ndim = static_cast<int64_t>(normalized_shape.size());
  SOPS_CHECK_ARG(norm_ndim >= 1, "normalized_shape",
                 "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                 "least one element, but got normalized_shape = ",
                 normalized_shape);
  SOPS_CHECK_ARG(
      weight == nullptr || weight->sizes() == normalized_shape, "weight",
      "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
      weight->sizes(), " and normalized_shape = ", normalized_shape);
  SOPS_CHECK_ARG(bias == nullptr || bias->sizes() == normalized_shape, "bias",
                 "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
                 bias->sizes(), " and normalized_shape = ", normalized_shape);
  const int64_t ndim = input.dim();
  const int64_t axis = ndim - norm_ndim;
  if (axis < 0 || input.sizes().slice(static_cast<std::size_t>(axis)) != normalized_shape) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (const int64_t s : normalized_shape) ss << ", " << s;
    ss << "], but got input of size" << input.sizes();
    raise(Error(ss.str(), "input"));
  }
  check_parameter_dtypes(input, {weight, bias}, device);
  LayerNormShape shape;
  for (int64_t d = 0; d < ndim; ++d) {
    if (d < axis) {
      shape.rows *= input.size(d);
      shape.stat_shape.push_back(input.size(d));
    } else {
      shape.n *= input.size(d);
      shape.stat_shape.push_back(1);
    }
  }
  return shape;
}

inline LayerNormOutputs layer_norm_outputs(const Tensor& input, IntArrayRef normalized_shape,
                                           const Tensor* weight, const Tensor* bias,
                                           std::string_view device) {
  const LayerNormShape shape = layer_norm_shape(input, normalized_shape, weight, bias, device);
  LayerNormOutputs result;
  result.rows = shape.rows;
  result.n = shape.n;
  result.out = sops::empty(input.sizes(), input.options());
  result.mean = sops::empty(shape.stat_shape, input.options());
  result.rstd = sops::empty(shape.stat_shape, input.options());
  return result;
}

// A per-channel parameter of batch norm: 1-d, `channels` elements (PyTorch reads them per
// channel without checking their size; sops refuses a wrong one). nullptr passes.
inline void check_per_channel(const Tensor* t, int64_t channels, std::string_view name) {
  if (t == nullptr) return;
  SOPS_CHECK_ARG(t->dim() == 1 && t->size(0) == channels, name, name, " should contain ", channels,
                 " elements not ", t->numel());
}

// Batch norm's outputs, checked and allocated on input's device: out (input's sizes,
// channels-last when input is), and save_mean and save_var of `stats` elements (0 where
// the running statistics are used, none computed; the channels in training). `device`
// names the kernel's device in the mixed-dtype message, as for layer norm. The running
// statistics may be absent (nullptr: _native_batch_norm_legit.no_stats).
struct BatchNormOutputs {
  Tensor out, save_mean, save_var;
};

// batch_norm_outputs' checks alone (for an out= kernel given its outputs); the channels.
inline int64_t check_batch_norm_arguments(const Tensor& input, const Tensor* weight,
                                          const Tensor* bias, const Tensor* running_mean,
                                          const Tensor* running_var, std::string_view device) {
  const int64_t channels = input.size(wrap_dim(1, input.dim(), "input"));
  check_parameter_dtypes(input, {weight, bias, running_mean, running_var}, device);
  check_per_channel(weight, channels, "weight");
  check_per_channel(bias, channels, "bias");
  check_per_channel(running_mean, channels, "running_mean");
  check_per_channel(running_var, channels, "running_var");
  return channels;
}

inline BatchNormOutputs batch_norm_outputs(const Tensor& input, const Tensor* weight,
                                           const Tensor* bias, const Tensor* running_mean,
                                           const Tensor* running_var, bool training,
                                           std::string_view device) {
  const int64_t channels =
      check_batch_norm_arguments(input, weight, bias, running_mean, running_var, device);
  const DimVector strides = strides_for(input.sizes(), suggest_memory_format(input));
  BatchNormOutputs result;
  result.out = strides.empty() ? sops::empty(input.sizes(), input.options())
                               : sops::empty_strided(input.sizes(), strides, input.options());
  result.save_mean = sops::empty({training ? channels : 0}, input.options());
  result.save_var = sops::empty({training ? channels : 0}, input.options());
  return result;
}

// _native_batch_norm_legit_no_training's: the running statistics used, none computed.
inline BatchNormOutputs batch_norm_outputs(const Tensor& input, const Tensor* weight,
                                           const Tensor* bias, const Tensor& running_mean,
                                           const Tensor& running_var, std::string_view device) {
  return batch_norm_outputs(input, weight, bias, &running_mean, &running_var, false, device);
}

// embedding's result sizes, checked: indices.sizes() + [weight.size(1)]; and the result
// allocated on weight's device.
inline DimVector embedding_sizes(const Tensor& weight, const Tensor& indices) {
  SOPS_CHECK_ARG(weight.dim() == 2, "weight", "'weight' must be 2-D");
  const ScalarType index_type = indices.scalar_type();
  SOPS_CHECK_ARG(index_type == ScalarType::Long || index_type == ScalarType::Int, "indices",
                 "Expected tensor for argument #1 'indices' to have one of the following scalar "
                 "types: Long, Int; but got ",
                 aten_name(index_type), " instead (while checking arguments for embedding)");
  DimVector sizes(indices.sizes());
  sizes.push_back(weight.size(1));
  return sizes;
}

inline Tensor embedding_output(const Tensor& weight, const Tensor& indices) {
  return sops::empty(embedding_sizes(weight, indices), weight.options());
}

// grid_sampler_2d's result, checked and allocated on input's device: [N, C, H_out, W_out]
// for input [N, C, H, W] and grid [N, H_out, W_out, 2], with PyTorch's checks in its order
// (the dtypes are the kernel's: the dtype support first, then grid's dtype).
inline Tensor grid_sampler_2d_output(const Tensor& input, const Tensor& grid,
                                     int64_t interpolation_mode, int64_t padding_mode) {
  SOPS_CHECK_ARG(input.dim() >= 1 && grid.dim() >= 1 && input.size(0) == grid.size(0), "grid",
                 "grid_sampler(): expected grid and input to have same batch size, but got "
                 "input with sizes ",
                 input.sizes(), " and grid with sizes ", grid.sizes());
  SOPS_CHECK_ARG(grid.size(grid.dim() - 1) == input.dim() - 2, "grid",
                 "grid_sampler(): expected grid to have size ", input.dim() - 2,
                 " in last dimension, but got grid with sizes ", grid.sizes());
  for (int64_t d = 2; d < input.dim(); ++d) {
    SOPS_CHECK_ARG(input.size(d) > 0, "input",
                   "grid_sampler(): expected input to have non-empty spatial dimensions, but "
                   "input has sizes ",
                   input.sizes(), " with dimension ", d, " being empty");
  }
  SOPS_CHECK_ARG(input.dim() == 4 && grid.dim() == 4, "input",
                 "grid_sampler(): expected 4D input and grid with same number of dimensions, "
                 "but got input with sizes ",
                 input.sizes(), " and grid with sizes ", grid.sizes());
  // PyTorch leaves the result unwritten for another mode; sops refuses it.
  SOPS_CHECK_ARG(interpolation_mode >= 0 && interpolation_mode <= 2, "interpolation_mode",
                 "grid_sampler(): expected interpolation_mode 0 (bilinear), 1 (nearest) or 2 "
                 "(bicubic), but got ",
                 interpolation_mode);
  SOPS_CHECK_ARG(padding_mode >= 0 && padding_mode <= 2, "padding_mode",
                 "grid_sampler(): expected padding_mode 0 (zeros), 1 (border) or 2 "
                 "(reflection), but got ",
                 padding_mode);
  return sops::empty({input.size(0), input.size(1), grid.size(1), grid.size(2)}, input.options());
}

}  // namespace sops::aten::ops_util
