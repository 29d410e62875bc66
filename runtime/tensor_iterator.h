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
// as they are read (a cpu scalar, such as a wrapped number, once, when the iterator is
// built); outputs of another dtype (out= with cast_common_dtype_to_outputs)
// are converted as they are written. An output that is also an input (inplace) is
// fine; partial overlap between an output and an input is an error.
//
// Ownership. The build_borrowing_* builders (what meta functions call) borrow every
// operand: the inputs are the structured kernel's arguments and the outputs are
// what maybe_get_output() returns (the final class's own tensor, or the out=/self
// argument), all of which outlive the iterator, so no reference count is touched.
// build(), the other build_*_op builders and TensorIterator own copies of their
// operands, so a standalone iterator stays valid after the caller's tensors go. A
// copied or moved iterator owns its operands.
//
// Common case first: a functional op whose inputs all have one dtype, one device and
// one shape, contiguous and not wrapped numbers, skips promotion, broadcasting and
// coalescing (tensor_iterator_fast_path.cc); every other case takes the general path.
// The build_borrowing_binary/binary_float/comparison builders test for it before
// building a TensorIteratorConfig, which the fast path does not need.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
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
  TensorIteratorConfig& add_output(const Tensor& t, std::string_view name = "out") {
    if (SOPS_UNLIKELY(num_inputs_ != 0 || num_outputs_ >= kMaxOperands)) throw_bad_add(true);
    outputs_[static_cast<std::size_t>(num_outputs_++)] = Entry{&t, name.data(), name.size()};
    return *this;
  }
  TensorIteratorConfig& add_input(const Tensor& t, std::string_view name = {}) {
    if (SOPS_UNLIKELY(num_outputs_ + num_inputs_ >= kMaxOperands)) throw_bad_add(false);
    inputs_[static_cast<std::size_t>(num_inputs_++)] = Entry{&t, name.data(), name.size()};
    return *this;
  }
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

  [[noreturn]] void throw_bad_add(bool output) const;

  // Trivially default-constructible (a std::string_view member would not be), so
  // that the arrays below are left uninitialized: only [0, num_outputs_) and
  // [0, num_inputs_) are ever read.
  struct Entry {
    const Tensor* tensor;
    const char* name_data;
    std::size_t name_size;
    std::string_view name() const { return {name_data, name_size}; }
  };
  std::array<Entry, kMaxOperands> outputs_;
  std::array<Entry, kMaxOperands> inputs_;
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

// One operand of an iterator. Trivially copyable (and left uninitialized until
// build): it refers to the tensor, borrowed or owned by the iterator (see above).
struct OperandInfo {
  const Tensor& tensor() const { return *tensor_ptr; }

  const Tensor* tensor_ptr;
  std::string_view name;
  // The dtype the computation uses for this operand: the common dtype for promoted
  // inputs, the tensor's own dtype otherwise.
  ScalarType target_dtype;
  bool is_output;
  bool is_read_write;  // an output that is also an input (inplace)
  bool will_resize;    // a given output whose sizes differ from the shape
};

class TensorIteratorBase : public MetaBase {
 public:
  // The 1-D inner loop of for_each: data[i] points at operand i's first element,
  // strides[i] is its step in bytes, n the number of elements.
  using loop1d_t = FunctionRef<void(char** data, const int64_t* strides, int64_t n)>;

  TensorIteratorBase() = default;
  // A copy (or a move from a borrowing iterator) owns all its operands.
  TensorIteratorBase(const TensorIteratorBase& other);
  TensorIteratorBase(TensorIteratorBase&& other);
  TensorIteratorBase& operator=(const TensorIteratorBase& other);
  TensorIteratorBase& operator=(TensorIteratorBase&& other);
  ~TensorIteratorBase() override = default;

  // Builds over copies of the config's tensors (owning).
  void build(const TensorIteratorConfig& config) { build_impl(config, /*borrow=*/false); }
  // The same, borrowing them: every tensor of the config, outputs defined, must outlive
  // the iterator; no copies are taken (and nothing allocated to hold them).
  void build_borrowing(const TensorIteratorConfig& config) { build_impl(config, /*borrow=*/true); }

  // out = f(a, b): inputs promoted to their result_type; a given out keeps its dtype
  // if the result can be cast to it (PyTorch's binary_op). Names: out, self, other.
  // The build_borrowing_* forms borrow out, a and b: they must outlive the iterator.
  void build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_impl(binary_config(out, a, b), /*borrow=*/false);
  }
  void build_borrowing_binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    if (build_borrowing_binary_fast(out, a, b, kBinaryFastPath)) return;
    build_impl(binary_config(out, a, b), /*borrow=*/true);
  }
  // As build_binary_op, integral results promoted to float32 (true division).
  void build_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_impl(binary_float_config(out, a, b), /*borrow=*/false);
  }
  void build_borrowing_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    if (build_borrowing_binary_fast(out, a, b, kBinaryFloatFastPath)) return;
    build_impl(binary_float_config(out, a, b), /*borrow=*/true);
  }
  // Comparisons: inputs promoted; a new output is bool, a given one keeps its dtype.
  void build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    build_impl(comparison_config(out, a, b), /*borrow=*/false);
  }
  void build_borrowing_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
    if (build_borrowing_binary_fast(out, a, b, kComparisonFastPath)) return;
    build_impl(comparison_config(out, a, b), /*borrow=*/true);
  }
  // out = f(a): out has a's dtype (PyTorch's unary_op). Names: out, self.
  void build_unary_op(const Tensor& out, const Tensor& a) {
    build_impl(unary_config(out, a), /*borrow=*/false);
  }
  void build_borrowing_unary_op(const Tensor& out, const Tensor& a) {
    build_impl(unary_config(out, a), /*borrow=*/true);
  }
  // out = f(a) computed in floating point (integral a gives float32).
  void build_unary_float_op(const Tensor& out, const Tensor& a) {
    build_impl(unary_float_config(out, a), /*borrow=*/false);
  }
  void build_borrowing_unary_float_op(const Tensor& out, const Tensor& a) {
    build_impl(unary_float_config(out, a), /*borrow=*/true);
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
  ScalarType dtype(int arg = 0) const { return operand(arg).tensor().scalar_type(); }
  ScalarType input_dtype(int i = 0) const { return dtype(num_outputs_ + i); }
  // dtype(arg) without its checks, for loops that have checked ntensors() (every
  // operand of a built iterator is defined).
  ScalarType dtype_unchecked(int arg) const {
    return op_at(arg).tensor().unsafe_get_impl()->dtype();
  }
  const Tensor& tensor(int arg) const { return operand(arg).tensor(); }
  const Tensor& output(int i = 0) const { return operand(i).tensor(); }
  const Tensor& input(int i = 0) const { return operand(num_outputs_ + i).tensor(); }
  // Throws sops::Error unless 0 <= arg < ntensors().
  const OperandInfo& operand(int arg) const {
    if (SOPS_UNLIKELY(arg < 0 || arg >= ntensors())) throw_operand_out_of_range(arg);
    return operands_[static_cast<std::size_t>(arg)];
  }
  Device device(int arg = 0) const { return operand(arg).tensor().device(); }
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
  // The same over the elements [begin, end) of the loop order (innermost dimension
  // fastest), for one chunk of a parallel_for; runs may start or end mid-dimension.
  void serial_for_each(loop1d_t loop, int64_t begin, int64_t end) const;
  // The same, with the common one-run case (at most one loop dimension) calling
  // `loop` directly, where the compiler can inline it.
  template <typename F>
  void for_each(F&& loop) const {
    if (loop_shape_.size() > 1) {
      for_each(loop1d_t(loop));
      return;
    }
    // One run at most: for_each_2d's direct call, one row.
    for_each_2d([&](char** data, const int64_t* strides, int64_t n, int64_t /*rows*/,
                    const int64_t* /*outer_strides*/) { loop(data, strides, n); });
  }

  // The 2-D loop of for_each_2d: `rows` runs of n elements (strides[i] apart), run r
  // starting at data[i] + r * outer_strides[i] (bytes). One call covers many rows, as
  // PyTorch's loop2d: a [1024, 1024] + [1024] add is one call, not 1024.
  using loop2d_t = FunctionRef<void(char** data, const int64_t* strides, int64_t n, int64_t rows,
                                    const int64_t* outer_strides)>;
  void for_each_2d(loop2d_t loop) const;
  void serial_for_each_2d(loop2d_t loop, int64_t begin, int64_t end) const;
  // The same, the one-run case called directly.
  template <typename F>
  void for_each_2d(F&& loop) const {
    if (loop_shape_.size() > 1) {
      for_each_2d(loop2d_t(loop));
      return;
    }
    if (numel_ == 0) return;
    static constexpr std::array<int64_t, kMaxOperands> kZeroStrides{};
    std::array<char*, kMaxOperands> ptrs = data_;  // the loop may move its pointers
    const int64_t n = loop_shape_.empty() ? 1 : loop_shape_[0];
    loop(ptrs.data(), loop_shape_.empty() ? kZeroStrides.data() : loop_strides_.data(), n,
         int64_t{1}, kZeroStrides.data());
  }

 private:
  static TensorIteratorConfig binary_config(const Tensor& out, const Tensor& a, const Tensor& b);
  static TensorIteratorConfig binary_float_config(const Tensor& out, const Tensor& a,
                                                  const Tensor& b);
  static TensorIteratorConfig comparison_config(const Tensor& out, const Tensor& a,
                                                const Tensor& b);
  static TensorIteratorConfig unary_config(const Tensor& out, const Tensor& a);
  static TensorIteratorConfig unary_float_config(const Tensor& out, const Tensor& a);

  void build_impl(const TensorIteratorConfig& config, bool borrow);
  void populate_operands(const TensorIteratorConfig& config, bool borrow);

  // The fast path (tensor_iterator_fast_path.cc). What it needs of a config: the
  // binary builders pass a constant instead of building one (the *_config above
  // hold the same settings).
  struct FastPathOptions {
    bool check_all_same_dtype;
    bool promote_inputs_to_common_dtype;
    bool promote_integer_inputs_to_float;
    bool check_mem_overlap;
    ScalarType static_dtype;
  };
  static constexpr FastPathOptions kBinaryFastPath{false, true, false, true, ScalarType::Undefined};
  static constexpr FastPathOptions kBinaryFloatFastPath{false, true, true, true,
                                                        ScalarType::Undefined};
  static constexpr FastPathOptions kComparisonFastPath{false, true, false, true, ScalarType::Bool};
  static FastPathOptions fast_path_options(const TensorIteratorConfig& config);
  // Borrowing out, a and b, builds through the fast path and returns true when it
  // applies; otherwise changes nothing that build_impl does not set again.
  bool build_borrowing_binary_fast(const Tensor& out, const Tensor& a, const Tensor& b,
                                   const FastPathOptions& options);
  bool fast_path_applies(const FastPathOptions& options) const;
  void build_fast(const FastPathOptions& options);
  void set_contiguous_loop();
  void compute_shape(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  // The loop order: perm[d] is the dimension of shape_ that loop dimension d (innermost
  // first) walks. Empty: the logical order (the last dimension innermost).
  DimVector compute_permutation() const;
  // Dense strides for shape_ laid out in `perm`'s order (perm[0] innermost).
  DimVector dense_strides(IntArrayRef perm) const;
  // Declares every output; new ones get `strides` (empty: contiguous).
  void declare_outputs(IntArrayRef strides = {});
  void check_mem_overlap() const;
  void compute_loop_strides(IntArrayRef perm = {});
  void coalesce_dimensions();
  // Points every operand at a copy held in owned_.
  void take_ownership();
  // Replaces input `arg`, a cpu scalar, by its value converted to `dtype`.
  void convert_input(int arg, ScalarType dtype);
  void copy_state(const TensorIteratorBase& other);
  [[noreturn]] void throw_operand_out_of_range(int arg) const;
  OperandInfo& mutable_operand(int arg) { return operands_[static_cast<std::size_t>(arg)]; }
  const OperandInfo& op_at(int arg) const { return operands_[static_cast<std::size_t>(arg)]; }

  // [0, ntensors()) are set by build; the rest stay uninitialized (nothing to zero
  // or destroy: a functional add uses 3 of 8).
  std::array<OperandInfo, kMaxOperands> operands_;
  std::array<char*, kMaxOperands> data_;
  // Copies of the operands when the iterator owns them, on the heap so that a move
  // keeps their addresses; the borrowing path never allocates it.
  std::unique_ptr<std::array<Tensor, kMaxOperands>> owned_;
  bool owns_operands_ = false;
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
  // copy_'s: dst = src converted to dst's dtype, src broadcast to dst's shape, dst
  // neither resized nor allocated.
  static TensorIterator copy_op(const Tensor& dst, const Tensor& src);

  void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides_hint,
                              TensorOptions options) override;
  const Tensor& maybe_get_output(int64_t output_idx) override;

 private:
  std::array<Tensor, kMaxOperands> outputs_{};
};

}  // namespace sops
