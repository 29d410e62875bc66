// How a built TensorIteratorBase walks its elements: the loop order (new outputs take
// the operands' memory layout, as PyTorch's reorder_dimensions), the loop strides and the
// merging of dimensions that are contiguous with each other, then the walks themselves
// (for_each over everything, serial_for_each over one chunk of a parallel_for).
#include <algorithm>
#include <array>

#include "runtime/tensor_iterator.h"

namespace sops {

DimVector TensorIteratorBase::compute_permutation() const {
  const std::size_t ndim = shape_.size();
  if (ndim <= 1) return {};
  DimVector perm(ndim);
  for (std::size_t d = 0; d < ndim; ++d) perm[d] = static_cast<int64_t>(ndim - 1 - d);
  // Operand arg's stride along dimension dim of shape_; 0 where it broadcasts.
  auto stride_of = [&](int arg, int64_t dim) -> int64_t {
    const Tensor& t = op_at(arg).tensor();
    const int64_t lead = static_cast<int64_t>(ndim) - t.dim();
    if (dim < lead || t.size(dim - lead) == 1) return 0;
    return t.stride(dim - lead);
  };
  // 1 when dim0 (now inside dim1) should be outside it: the first operand (outputs first)
  // that orders the two by stride decides, as in PyTorch's reorder_dimensions.
  auto should_swap = [&](int64_t dim0, int64_t dim1) -> int {
    for (int arg = 0; arg < ntensors(); ++arg) {
      const OperandInfo& op = op_at(arg);
      if (!op.tensor().defined() || op.will_resize) continue;
      const int64_t s0 = stride_of(arg, dim0);
      const int64_t s1 = stride_of(arg, dim1);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape_[static_cast<std::size_t>(dim0)] > shape_[static_cast<std::size_t>(dim1)]) {
        return 1;
      }
    }
    return 0;
  };
  bool moved = false;
  for (std::size_t i = 1; i < ndim; ++i) {
    std::size_t dim1 = i;
    for (std::size_t dim0 = i; dim0-- > 0;) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
        moved = true;
      } else if (c < 0) {
        break;
      }
    }
  }
  return moved ? perm : DimVector();
}

DimVector TensorIteratorBase::dense_strides(IntArrayRef perm) const {
  DimVector strides(shape_.size(), 1);
  int64_t next = 1;
  for (const int64_t dim : perm) {
    strides[static_cast<std::size_t>(dim)] = next;
    // A shape with no element may still have sizes whose product overflows
    // ([0, 2^40, 2^40], from expanding an empty tensor): PyTorch refuses its strides too.
    next = checked_mul(next, std::max<int64_t>(shape_[static_cast<std::size_t>(dim)], 1),
                       "the strides of the output");
  }
  return strides;
}

void TensorIteratorBase::compute_loop_strides(IntArrayRef perm) {
  const std::size_t ndim = shape_.size();
  const std::size_t nt = static_cast<std::size_t>(ntensors());
  // Loop dimension d (innermost first) walks dimension dim_of(d) of shape_.
  auto dim_of = [&](std::size_t d) -> std::size_t {
    return perm.empty() ? ndim - 1 - d : static_cast<std::size_t>(perm[d]);
  };
  loop_shape_.resize(ndim);
  loop_strides_.resize(ndim * nt);
  for (std::size_t d = 0; d < ndim; ++d) loop_shape_[d] = shape_[dim_of(d)];
  for (std::size_t arg = 0; arg < nt; ++arg) {
    const Tensor& t = operands_[arg].tensor();
    data_[arg] = static_cast<char*>(t.data_ptr());
    const std::size_t lead = ndim - static_cast<std::size_t>(t.dim());  // broadcast dims
    const int64_t itemsize = static_cast<int64_t>(t.element_size());
    for (std::size_t d = 0; d < ndim; ++d) {
      const std::size_t dim = dim_of(d);
      int64_t stride = 0;
      // A stride of an empty operand may be anything (as_strided checks no storage for
      // it), so the product in bytes may not fit: such an operand is never walked.
      if (dim >= lead && t.sizes()[dim - lead] != 1 &&
          mul_overflows(t.strides()[dim - lead], itemsize, &stride)) {
        SOPS_CHECK(t.numel() == 0, "the stride ", t.strides()[dim - lead], " of an operand of ",
                   "sizes ", t.sizes(), " in bytes overflows int64");
        stride = 0;
      }
      loop_strides_[d * nt + arg] = stride;
    }
  }
}

void TensorIteratorBase::coalesce_dimensions() {
  const std::size_t ndim = loop_shape_.size();
  if (ndim <= 1) return;
  const std::size_t nt = static_cast<std::size_t>(ntensors());
  auto stride = [&](std::size_t d, std::size_t arg) -> int64_t& {
    return loop_strides_[d * nt + arg];
  };
  std::size_t prev = 0;
  for (std::size_t d = 1; d < ndim; ++d) {
    const int64_t shape0 = loop_shape_[prev];
    const int64_t shape1 = loop_shape_[d];
    bool can = shape0 == 1 || shape1 == 1;
    if (!can) {
      can = true;
      for (std::size_t arg = 0; arg < nt && can; ++arg) {
        int64_t outer = 0;  // (an empty operand's strides may be anything)
        can = !mul_overflows(shape0, stride(prev, arg), &outer) && outer == stride(d, arg);
      }
    }
    if (can) {
      if (shape0 == 1) {
        for (std::size_t arg = 0; arg < nt; ++arg) stride(prev, arg) = stride(d, arg);
      }
      loop_shape_[prev] = shape0 * shape1;
    } else {
      ++prev;
      if (prev != d) {
        loop_shape_[prev] = loop_shape_[d];
        for (std::size_t arg = 0; arg < nt; ++arg) stride(prev, arg) = stride(d, arg);
      }
    }
  }
  loop_shape_.resize(prev + 1);
  loop_strides_.resize((prev + 1) * nt);
}

bool TensorIteratorBase::is_contiguous() const {
  if (numel_ == 1) return true;
  if (loop_ndim() != 1) return false;
  for (int arg = 0; arg < ntensors(); ++arg) {
    if (loop_stride(arg, 0) != static_cast<int64_t>(tensor(arg).element_size())) return false;
  }
  return true;
}

void TensorIteratorBase::for_each(loop1d_t loop) const { serial_for_each(loop, 0, numel_); }

void TensorIteratorBase::serial_for_each(loop1d_t loop, int64_t begin, int64_t end) const {
  const std::size_t nt = static_cast<std::size_t>(ntensors());
  serial_for_each_2d(
      [&](char** data, const int64_t* strides, int64_t n, int64_t rows, const int64_t* outer) {
        std::array<char*, kMaxOperands> run;
        for (int64_t r = 0; r < rows; ++r) {
          for (std::size_t arg = 0; arg < nt; ++arg) run[arg] = data[arg] + r * outer[arg];
          loop(run.data(), strides, n);
        }
      },
      begin, end);
}

void TensorIteratorBase::for_each_2d(loop2d_t loop) const { serial_for_each_2d(loop, 0, numel_); }

void TensorIteratorBase::serial_for_each_2d(loop2d_t loop, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  static constexpr std::array<int64_t, kMaxOperands> kZeroStrides{};
  const std::size_t nt = static_cast<std::size_t>(ntensors());
  const std::size_t ndim = loop_shape_.size();
  std::array<char*, kMaxOperands> run = data_;  // the loop may move its pointers
  if (ndim == 0) {
    loop(run.data(), kZeroStrides.data(), 1, 1, kZeroStrides.data());
    return;
  }
  // The position of `begin` in every loop dimension, and the pointers there.
  std::array<char*, kMaxOperands> ptrs = data_;
  DimVector counter(ndim, 0);
  int64_t rest = begin;
  for (std::size_t d = 0; d < ndim; ++d) {
    counter[d] = rest % loop_shape_[d];
    rest /= loop_shape_[d];
    const int64_t* strides = loop_strides_.data() + d * nt;
    for (std::size_t arg = 0; arg < nt; ++arg) ptrs[arg] += counter[d] * strides[arg];
  }
  const int64_t* inner_strides = loop_strides_.data();
  const int64_t* outer_strides = ndim > 1 ? loop_strides_.data() + nt : kZeroStrides.data();
  const int64_t inner = loop_shape_[0];
  int64_t remaining = end - begin;
  while (true) {
    // A run that starts or ends mid-row is one row; otherwise as many whole rows as
    // there are left in this step of the third dimension and in [begin, end).
    const int64_t at = counter[0];
    int64_t n = std::min(inner - at, remaining), rows = 1;
    if (at == 0 && ndim > 1 && remaining >= inner) {
      n = inner;
      rows = std::min(loop_shape_[1] - counter[1], remaining / inner);
    }
    for (std::size_t arg = 0; arg < nt; ++arg) run[arg] = ptrs[arg];
    loop(run.data(), inner_strides, n, rows, outer_strides);
    remaining -= n * rows;
    if (remaining == 0) return;
    // The runs ended at the end of a row (ndim > 1 here): back to its start, `rows` steps
    // along the second dimension, carrying into the next ones.
    for (std::size_t arg = 0; arg < nt; ++arg) ptrs[arg] -= at * inner_strides[arg];
    counter[0] = 0;
    int64_t step = rows;
    for (std::size_t d = 1; d < ndim; ++d) {
      const int64_t* strides = loop_strides_.data() + d * nt;
      for (std::size_t arg = 0; arg < nt; ++arg) ptrs[arg] += step * strides[arg];
      counter[d] += step;
      if (counter[d] < loop_shape_[d]) break;
      for (std::size_t arg = 0; arg < nt; ++arg) ptrs[arg] -= strides[arg] * loop_shape_[d];
      counter[d] = 0;
      step = 1;
    }
  }
}

}  // namespace sops
