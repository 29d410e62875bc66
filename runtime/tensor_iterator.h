// TensorIteratorBase: element-wise operations over broadcast operands, usable as
// `structured_inherits: TensorIteratorBase`.
//
// In a meta function, build_*_op (or build(config)) computes the broadcast shape,
// the common dtype and each output's dtype, then declares every output through
// set_output_raw_strided, so the final class decides whether it is allocated
// (functional), resized (out=) or checked (inplace). In the impl, cpu_kernel
// (cpu_loops.h) or for_each walks the operands:
//
//   SOPS_META_FUNC2(add, Tensor)(const Tensor& self, const Tensor& other, const Scalar& alpha) {
//     build_borrowing_binary_op(maybe_get_output(), self, other);
//   }
//   SOPS_IMPL_FUNC(add_out)(const Tensor& self, const Tensor& other, const Scalar& alpha,
//                           const Tensor& out) {
//     SOPS_DISPATCH_ALL_TYPES(common_dtype(), "add", [&] {
//       const auto a = alpha.to<scalar_t>();
//       sops::cpu_kernel(*this, [=](scalar_t x, scalar_t y) -> scalar_t { return x + a * y; });
//     });
//   }
//
// Operands are numbered outputs first: operand 0 is output 0, then the inputs.
// Inputs whose dtype differs from the common dtype are converted element by element
// as they are read; outputs of another dtype (out= with cast_common_dtype_to_outputs)
// are converted as they are written. An output that is also an input (inplace) is
// fine; partial overlap between an output and an input is an error.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/device.h"
#include "runtime/function_ref.h"
#include "runtime/meta_base.h"
#include "runtime/scalar_type.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops {

// Most operands one iterator takes (outputs and inputs together).
inline constexpr int kMaxOperands = 8;

// How to build an iterator. Setters return *this for chaining. The tensors are
// borrowed: they must live until build() returns.
class TensorIteratorConfig {
 public:
  // `name` is the argument name used in errors ("out", "self", "other").
  TensorIteratorConfig& add_output(const Tensor& t, std::string_view name = "out");
  TensorIteratorConfig& add_input(const Tensor& t, std::string_view name = {});
  TensorIteratorConfig& add_const_input(const Tensor& t, std::string_view name = {}) {
    return add_input(t, name);
  }

  // All operands must have one dtype (default on; turned off by the three below).
  TensorIteratorConfig& check_all_same_dtype(bool value);
  // The common dtype is the result_type of the inputs; inputs are read as it.
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool value);
  // An integral (or bool) common dtype becomes float32 (true division, sqrt, ...).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool value);
  // A given output keeps its own dtype; results are converted when written.
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool value);
  // ... but only if the common dtype can be cast to it (torch.can_cast).
  TensorIteratorConfig& enforce_safe_casting_to_output(bool value);
  // Outputs whose sizes differ from the broadcast shape are resized (default on).
  TensorIteratorConfig& resize_outputs(bool value);
  // 0-dim cpu inputs may join operands on another device (read with scalar_value).
  TensorIteratorConfig& allow_cpu_scalars(bool value);
  // Error on partial overlap of outputs and inputs (default on).
  TensorIteratorConfig& check_mem_overlap(bool value);
  // Outputs not given get this dtype instead of the common dtype (e.g. bool for
  // comparisons).
  TensorIteratorConfig& declare_static_dtype(ScalarType dtype);

 private:
  friend class TensorIteratorBase;

  struct Entry {
    const Tensor* tensor;
    std::string_view name;
  };
  std::array<Entry, kMaxOperands> outputs_{};
  std::array<Entry, kMaxOperands> inputs_{};
  int num_outputs_ = 0;
  int num_inputs_ = 0;
  bool check_all_same_dtype_ = true;
  bool promote_inputs_to_common_dtype_ = false;
  bool promote_integer_inputs_to_float_ = false;
  bool cast_common_dtype_to_outputs_ = false;
  bool enforce_safe_casting_to_output_ = false;
  bool resize_outputs_ = true;
  bool allow_cpu_scalars_ = false;
  bool check_mem_overlap_ = true;
  ScalarType static_dtype_ = ScalarType::Undefined;
};

struct OperandInfo {
  Tensor tensor;
  std::string_view name;
  // The dtype the computation uses for this operand: the common dtype for promoted
  // inputs, the tensor's own dtype otherwise.
  ScalarType target_dtype = ScalarType::Undefined;
  bool is_output = false;
  bool is_read_write = false;  // an output that is also an input (inplace)
  bool will_resize = false;    // a given output whose sizes differ from the shape
};

class TensorIteratorBase : public MetaBase {
 public:
  // The 1-D inner loop of for_each: data[i] points at operand i's first element,
  // strides[i] is its step in bytes, n the number of elements.
  using loop1d_t = FunctionRef<void(char** data, const int64_t* strides, int64_t n)>;

  void build(const TensorIteratorConfig& config);

  // out = f(a, b): inputs promoted to their result_type; a given out keeps its dtype
  // if the result can be cast to it (PyTorch's binary_op). Names: out, self, other.
  void build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_binary_op(out, a, b);
  }
  // As build_binary_op, integral results promoted to float32 (true division).
  void build_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_binary_float_op(out, a, b);
  }
  // Comparisons: inputs promoted; a new output is bool, a given one keeps its dtype.
  void build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  void build_borrowing_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_comparison_op(out, a, b);
  }
  // out = f(a): out has a's dtype (PyTorch's unary_op). Names: out, self.
  void build_unary_op(const Tensor& out, const Tensor& a);
  void build_borrowing_unary_op(const Tensor& out, const Tensor& a) { build_unary_op(out, a); }
  // out = f(a) computed in floating point (integral a gives float32).
  void build_unary_float_op(const Tensor& out, const Tensor& a);
  void build_borrowing_unary_float_op(const Tensor& out, const Tensor& a) {
    build_unary_float_op(out, a);
  }

  int ntensors() const { return num_outputs_ + num_inputs_; }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return num_inputs_; }
  // The broadcast shape.
  IntArrayRef shape() const { return shape_; }
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numel_; }

  ScalarType common_dtype() const { return common_dtype_; }
  // The dtype of operand `arg` (outputs first): its tensor's dtype.
  ScalarType dtype(int arg = 0) const { return operand(arg).tensor.scalar_type(); }
  ScalarType input_dtype(int i = 0) const { return dtype(num_outputs_ + i); }
  const Tensor& tensor(int arg) const { return operand(arg).tensor; }
  const Tensor& output(int i = 0) const { return operand(i).tensor; }
  const Tensor& input(int i = 0) const { return operand(num_outputs_ + i).tensor; }
  const OperandInfo& operand(int arg) const;
  Device device(int arg = 0) const { return operand(arg).tensor.device(); }
  DeviceType device_type(int arg = 0) const { return device(arg).type(); }
  // Whether operand `arg` is one element broadcast over the whole shape.
  bool is_scalar(int arg) const;
  // Whether operand `arg` is a 0-dim cpu tensor (read it with scalar_value).
  bool is_cpu_scalar(int arg) const;
  template <typename T>
  T scalar_value(int arg) const {
    return tensor(arg).item<T>();
  }
  // Whether every operand is contiguous over the whole shape (no broadcasting): the
  // iteration is one flat loop.
  bool is_contiguous() const;

  // Data pointer and byte strides of operand `arg` over the (coalesced) loop
  // dimensions, innermost first.
  char* data_ptr(int arg) const { return data_[static_cast<std::size_t>(arg)]; }
  int64_t loop_ndim() const { return static_cast<int64_t>(loop_shape_.size()); }
  IntArrayRef loop_shape() const { return loop_shape_; }
  int64_t loop_stride(int arg, int64_t dim) const {
    return loop_strides_[static_cast<std::size_t>(dim * ntensors() + arg)];
  }

  // Calls loop over the elements, one run of the innermost dimension at a time.
  void for_each(loop1d_t loop) const;

 private:
  void populate_operands(const TensorIteratorConfig& config);
  void compute_shape(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  void declare_outputs();
  void check_mem_overlap() const;
  void compute_loop_strides();
  void coalesce_dimensions();
  OperandInfo& mutable_operand(int arg) { return operands_[static_cast<std::size_t>(arg)]; }

  std::array<OperandInfo, kMaxOperands> operands_{};
  std::array<char*, kMaxOperands> data_{};
  int num_outputs_ = 0;
  int num_inputs_ = 0;
  DimVector shape_;
  int64_t numel_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device common_device_{DeviceType::CPU};
  // Loop dimensions innermost first; strides flat as [dim][operand], in bytes.
  DimVector loop_shape_;
  SmallVector<int64_t, 16> loop_strides_;
};

// A TensorIteratorBase for code outside structured kernels: it allocates missing
// outputs and resizes given ones itself.
class TensorIterator final : public TensorIteratorBase {
 public:
  TensorIterator() = default;
  explicit TensorIterator(const TensorIteratorConfig& config) { build(config); }

  static TensorIterator binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIterator unary_op(const Tensor& out, const Tensor& a);
  static TensorIterator unary_float_op(const Tensor& out, const Tensor& a);

  void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides_hint,
                              TensorOptions options) override;
  const Tensor& maybe_get_output(int64_t output_idx) override;

 private:
  std::array<Tensor, kMaxOperands> outputs_{};
};

}  // namespace sops
