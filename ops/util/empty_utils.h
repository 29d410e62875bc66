// empty.memory_format's work for any device: checks the factory arguments (sizes,
// layout, pin_memory, memory_format) and allocates with the device's allocator. The
// CPU, Meta and CUDA kernels of `empty` differ only in the device they accept.
#pragma once

#include <optional>

#include "ops/util/op_utils.h"
#include "runtime/error.h"
#include "runtime/native_types.h"
#include "runtime/tensor.h"

namespace sops::aten::ops_util {

inline Tensor make_empty(IntArrayRef size, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, Device device,
                         std::optional<bool> pin_memory,
                         std::optional<MemoryFormat> memory_format) {
  for (const int64_t s : size) {
    SOPS_CHECK_ARG(s >= 0, "size", "Trying to create tensor with negative dimension ", s, ": ",
                   size);
  }
  SOPS_CHECK_ARG(layout.value_or(Layout::Strided) == Layout::Strided, "layout",
                 "empty: only strided tensors are supported, got layout ", *layout);
  SOPS_CHECK_ARG(!pin_memory.value_or(false), "pin_memory",
                 "Need to provide pin_memory allocator to use pin memory.");
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  const TensorOptions options = TensorOptions(dtype.value_or(ScalarType::Float)).device(device);
  switch (format) {
    case MemoryFormat::Contiguous:
      return sops::empty(size, options);
    case MemoryFormat::ChannelsLast:
      SOPS_CHECK_ARG(size.size() == 4, "memory_format",
                     "required rank 4 tensor to use channels_last format");
      return sops::empty_strided(size, ops_util::channels_last_strides(size), options);
    case MemoryFormat::ChannelsLast3d:
      SOPS_CHECK_ARG(size.size() == 5, "memory_format",
                     "required rank 5 tensor to use channels_last_3d format");
      return sops::empty_strided(size, ops_util::channels_last_strides(size), options);
    case MemoryFormat::Preserve:
      break;
  }
  SOPS_CHECK_ARG(false, "memory_format", "unsupported memory format ", format);
  return Tensor();
}

}  // namespace sops::aten::ops_util
