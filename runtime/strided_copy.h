// Dtype-agnostic copies for the kernels that only move storage (clone, _to_copy,
// constant_pad_nd, embedding): bytes, not values, so one loop serves every dtype.
//
// copy_same_dtype(dst, src): dst and src have the same dtype and sizes; dst must not
// overlap itself or src. Both contiguous: one memcpy. Otherwise the dimensions are
// coalesced (dst's order; size-1 dimensions dropped; neighbours merged where both
// tensors are contiguous across them) and the innermost one is a memcpy when both are
// dense there, else a fixed-size element loop (1, 2, 4 or 8 bytes, chosen once).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "runtime/small_sort.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops::cpu {

namespace detail {

// One coalesced dimension: its size and both strides in bytes.
struct CopyDim {
  int64_t size;
  int64_t dst;
  int64_t src;
};

template <typename Word>
inline void copy_elements(char* dst, const char* src, int64_t n, int64_t dst_stride,
                          int64_t src_stride) {
  for (int64_t k = 0; k < n; ++k) {
    Word w;
    std::memcpy(&w, src + k * src_stride, sizeof(Word));
    std::memcpy(dst + k * dst_stride, &w, sizeof(Word));
  }
}

}  // namespace detail

// Copies every element of src into dst (same dtype, same sizes), as raw bytes.
inline void copy_same_dtype(const Tensor& dst, const Tensor& src) {
  const int64_t numel = dst.numel();
  if (numel == 0) return;
  const int64_t item = static_cast<int64_t>(dst.element_size());
  char* out = static_cast<char*>(dst.data_ptr());
  const char* in = static_cast<const char*>(src.data_ptr());
  if (dst.is_contiguous() && src.is_contiguous()) {
    std::memcpy(out, in, static_cast<std::size_t>(numel * item));
    return;
  }
  // Dimensions from outermost to innermost, size-1 ones dropped, neighbours merged.
  SmallVector<detail::CopyDim, 8> dims;
  for (int64_t d = 0; d < dst.dim(); ++d) {
    const int64_t size = dst.size(d);
    if (size == 1) continue;
    const detail::CopyDim cur{size, dst.stride(d) * item, src.stride(d) * item};
    if (!dims.empty()) {
      detail::CopyDim& prev = dims.back();
      if (prev.dst == cur.dst * cur.size && prev.src == cur.src * cur.size) {
        prev = detail::CopyDim{prev.size * cur.size, cur.dst, cur.src};
        continue;
      }
    }
    dims.push_back(cur);
  }
  if (dims.empty()) {  // one element
    std::memcpy(out, in, static_cast<std::size_t>(item));
    return;
  }
  const detail::CopyDim inner = dims.back();
  const int64_t outer_dims = static_cast<int64_t>(dims.size()) - 1;
  const bool dense_rows = inner.dst == item && inner.src == item;
  auto copy_row = [&](char* o, const char* i) {
    if (dense_rows) {
      std::memcpy(o, i, static_cast<std::size_t>(inner.size * item));
      return;
    }
    switch (item) {
      case 1:
        detail::copy_elements<uint8_t>(o, i, inner.size, inner.dst, inner.src);
        break;
      case 2:
        detail::copy_elements<uint16_t>(o, i, inner.size, inner.dst, inner.src);
        break;
      case 4:
        detail::copy_elements<uint32_t>(o, i, inner.size, inner.dst, inner.src);
        break;
      default:
        detail::copy_elements<uint64_t>(o, i, inner.size, inner.dst, inner.src);
        break;
    }
  };
  // Odometer over the outer dimensions.
  SmallVector<int64_t, 8> index(static_cast<std::size_t>(outer_dims), 0);
  int64_t dst_off = 0;
  int64_t src_off = 0;
  while (true) {
    copy_row(out + dst_off, in + src_off);
    int64_t d = outer_dims - 1;
    for (; d >= 0; --d) {
      const auto ud = static_cast<std::size_t>(d);
      if (++index[ud] < dims[ud].size) {
        dst_off += dims[ud].dst;
        src_off += dims[ud].src;
        break;
      }
      dst_off -= dims[ud].dst * (dims[ud].size - 1);
      src_off -= dims[ud].src * (dims[ud].size - 1);
      index[ud] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace sops::cpu
