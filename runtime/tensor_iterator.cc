#include "runtime/tensor_iterator.h"

#include <algorithm>

#include "runtime/broadcast.h"
#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/memory_overlap.h"
#include "runtime/type_promotion.h"
#include "runtime/visit_dtype.h"

namespace sops {

// ---------------------------------------------------------------------------------
// TensorIteratorConfig

void TensorIteratorConfig::throw_bad_add(bool output) const {
  SOPS_CHECK(!output || num_inputs_ == 0,
             "TensorIteratorConfig: add every output before the inputs");
  SOPS_CHECK(false, "TensorIteratorConfig: at most ", kMaxOperands, " operands are supported");
  __builtin_unreachable();
}

TensorIteratorConfig& TensorIteratorConfig::check_all_same_dtype(bool value) {
  check_all_same_dtype_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::promote_inputs_to_common_dtype(bool value) {
  promote_inputs_to_common_dtype_ = value;
  if (value) check_all_same_dtype_ = false;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::promote_integer_inputs_to_float(bool value) {
  promote_integer_inputs_to_float_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::cast_common_dtype_to_outputs(bool value) {
  cast_common_dtype_to_outputs_ = value;
  if (value) check_all_same_dtype_ = false;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::enforce_safe_casting_to_output(bool value) {
  enforce_safe_casting_to_output_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::resize_outputs(bool value) {
  resize_outputs_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::allow_cpu_scalars(bool value) {
  allow_cpu_scalars_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::check_mem_overlap(bool value) {
  check_mem_overlap_ = value;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::declare_static_dtype(ScalarType dtype) {
  static_dtype_ = dtype;
  check_all_same_dtype_ = false;
  return *this;
}

// ---------------------------------------------------------------------------------
// Building

TensorIteratorConfig TensorIteratorBase::binary_config(const Tensor& out, const Tensor& a,
                                                       const Tensor& b) {
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(a, "self")
      .add_input(b, "other")
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  return config;
}

TensorIteratorConfig TensorIteratorBase::binary_float_config(const Tensor& out, const Tensor& a,
                                                             const Tensor& b) {
  TensorIteratorConfig config = binary_config(out, a, b);
  config.promote_integer_inputs_to_float(true);
  return config;
}

TensorIteratorConfig TensorIteratorBase::comparison_config(const Tensor& out, const Tensor& a,
                                                           const Tensor& b) {
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(a, "self")
      .add_input(b, "other")
      .allow_cpu_scalars(true)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .declare_static_dtype(ScalarType::Bool);
  return config;
}

TensorIteratorConfig TensorIteratorBase::unary_config(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  config.add_output(out, "out").add_input(a, "self");
  return config;
}

TensorIteratorConfig TensorIteratorBase::unary_float_config(const Tensor& out, const Tensor& a) {
  TensorIteratorConfig config;
  config.add_output(out, "out")
      .add_input(a, "self")
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  return config;
}

void TensorIteratorBase::build_impl(const TensorIteratorConfig& config, bool borrow) {
  populate_operands(config, borrow);
  const FastPathOptions options = fast_path_options(config);
  if (fast_path_applies(options)) {
    build_fast(options);
    return;
  }
  compute_shape(config);
  compute_types(config);
  // New outputs take the inputs' memory layout (PyTorch's rule: relu of a transposed or
  // channels-last tensor is transposed or channels-last), and the loop runs in it.
  const DimVector perm = compute_permutation();
  declare_outputs(perm.empty() ? IntArrayRef() : IntArrayRef(dense_strides(perm)));
  if (config.check_mem_overlap_) check_mem_overlap();
  compute_loop_strides(perm);
  coalesce_dimensions();
}

void TensorIteratorBase::populate_operands(const TensorIteratorConfig& config, bool borrow) {
  num_outputs_ = config.num_outputs_;
  num_inputs_ = config.num_inputs_;
  SOPS_CHECK(num_outputs_ > 0, "TensorIterator needs at least one output");
  for (int i = 0; i < ntensors(); ++i) {
    const bool is_output = i < num_outputs_;
    const auto& entry = is_output ? config.outputs_[static_cast<std::size_t>(i)]
                                  : config.inputs_[static_cast<std::size_t>(i - num_outputs_)];
    OperandInfo& op = mutable_operand(i);
    op.tensor_ptr = entry.tensor;
    op.name = entry.name();
    op.target_dtype = ScalarType::Undefined;
    op.is_output = is_output;
    op.is_read_write = false;
    op.will_resize = false;
    SOPS_CHECK_ARG(is_output || op.tensor().defined(), op.name,
                   "expected a tensor but got an undefined one");
  }
  owns_operands_ = !borrow;
  if (!borrow) take_ownership();
  // An output that is also an input is written in place; errors name it as the input.
  for (int o = 0; o < num_outputs_; ++o) {
    OperandInfo& out = mutable_operand(o);
    if (!out.tensor().defined()) continue;
    for (int i = num_outputs_; i < ntensors(); ++i) {
      const OperandInfo& in = op_at(i);
      if (out.tensor().is_same(in.tensor())) {
        out.is_read_write = true;
        if (!in.name.empty()) out.name = in.name;
        break;
      }
    }
  }
}

void TensorIteratorBase::compute_shape(const TensorIteratorConfig& config) {
  shape_.clear();
  bool have_shape = false;
  const bool inputs_only = config.resize_outputs_ && num_inputs_ > 0;
  for (int i = 0; i < ntensors(); ++i) {
    const OperandInfo& op = op_at(i);
    if (!op.tensor().defined() || (op.is_output && inputs_only)) continue;
    if (!have_shape) {
      shape_ = op.tensor().sizes();
      have_shape = true;
      continue;
    }
    const ArgumentScope scope(op.name);
    shape_ = infer_size(shape_, op.tensor().sizes());
  }
  SOPS_CHECK(have_shape, "TensorIterator: no input and no given output to take a shape from");
  numel_ = checked_numel(shape_);

  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = mutable_operand(i);
    if (!op.tensor().defined() || op.tensor().sizes() == IntArrayRef(shape_)) continue;
    SOPS_CHECK_ARG(!op.is_read_write && config.resize_outputs_, op.name, "output with shape ",
                   op.tensor().sizes(), " doesn't match the broadcast shape ", shape_);
    op.will_resize = true;
  }
}

void TensorIteratorBase::compute_types(const TensorIteratorConfig& config) {
  // Device: the first operand that is not a cpu scalar sets it (or the first at all).
  auto is_cpu_scalar_candidate = [&](const OperandInfo& op) {
    return !op.is_output && op.tensor().is_cpu() &&
           (op.tensor().is_wrapped_number() ||
            (config.allow_cpu_scalars_ && op.tensor().dim() == 0));
  };
  bool have_device = false;
  for (int pass = 0; pass < 2 && !have_device; ++pass) {
    for (int i = num_outputs_; i < ntensors() + num_outputs_ && !have_device; ++i) {
      const OperandInfo& op = op_at(i % ntensors());  // inputs first, then outputs
      if (!op.tensor().defined() || (pass == 0 && is_cpu_scalar_candidate(op))) continue;
      common_device_ = op.tensor().device();
      have_device = true;
    }
  }
  for (int i = 0; i < ntensors(); ++i) {
    const OperandInfo& op = op_at(i);
    if (!op.tensor().defined() || devices_compatible(op.tensor().device(), common_device_))
      continue;
    SOPS_CHECK_ARG(is_cpu_scalar_candidate(op), op.name,
                   "expected all tensors to be on the same device, but found at least two "
                   "devices, ",
                   common_device_, " and ", op.tensor().device());
  }

  // Common dtype.
  if (config.promote_inputs_to_common_dtype_) {
    ResultTypeState state;
    for (int i = num_outputs_; i < ntensors(); ++i) {
      state = update_result_type_state(op_at(i).tensor(), state);
    }
    common_dtype_ = result_type(state);
  } else {
    common_dtype_ = ScalarType::Undefined;
    for (int pass = 0; pass < 2 && common_dtype_ == ScalarType::Undefined; ++pass) {
      for (int i = 0; i < ntensors(); ++i) {
        const OperandInfo& op = op_at(i);
        if (op.tensor().defined() && op.is_output == (pass == 1)) {
          common_dtype_ = op.tensor().scalar_type();
          break;
        }
      }
    }
  }
  if (config.promote_integer_inputs_to_float_ && is_integral(common_dtype_, true)) {
    common_dtype_ = kDefaultFloatingDtype;
  }

  if (config.check_all_same_dtype_) {
    for (int i = 0; i < ntensors(); ++i) {
      const OperandInfo& op = op_at(i);
      if (!op.tensor().defined()) continue;
      SOPS_CHECK_ARG(op.tensor().scalar_type() == common_dtype_, op.name, "expected dtype ",
                     common_dtype_, " but got ", op.tensor().scalar_type());
    }
  }

  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = mutable_operand(i);
    if (!op.tensor().defined()) {
      op.target_dtype =
          config.static_dtype_ != ScalarType::Undefined ? config.static_dtype_ : common_dtype_;
      continue;
    }
    op.target_dtype = op.tensor().scalar_type();
    if (config.enforce_safe_casting_to_output_) {
      SOPS_CHECK_ARG(can_cast(common_dtype_, op.target_dtype), op.name, "result type ",
                     common_dtype_, " can't be cast to the desired output type ", op.target_dtype);
    }
    if (!config.cast_common_dtype_to_outputs_ && !config.check_all_same_dtype_) {
      const ScalarType expected =
          config.static_dtype_ != ScalarType::Undefined ? config.static_dtype_ : common_dtype_;
      SOPS_CHECK_ARG(op.target_dtype == expected, op.name, "expected dtype ", expected, " but got ",
                     op.target_dtype);
    }
  }
  for (int i = num_outputs_; i < ntensors(); ++i) {
    OperandInfo& op = mutable_operand(i);
    op.target_dtype =
        config.promote_inputs_to_common_dtype_ ? common_dtype_ : op.tensor().scalar_type();
    // A cpu scalar of another dtype (`x * 0.5`: a float64 wrapped number against a
    // float32 tensor) is converted once here, as the casting loop would convert it for
    // every element, so that the kernel sees one dtype and runs its vector loop.
    if (op.target_dtype != op.tensor().scalar_type() && common_device_.is_cpu() &&
        is_cpu_scalar_candidate(op) && is_tensor_dtype(op.target_dtype)) {
      convert_input(i, op.target_dtype);
    }
  }
}

void TensorIteratorBase::convert_input(int arg, ScalarType dtype) {
  const Tensor& from = op_at(arg).tensor();
  Tensor to = empty({}, TensorOptions(dtype));
  SOPS_DISPATCH_EVERY_TYPE(dtype, "TensorIterator", [&] {
    *to.data_ptr<scalar_t>() = load_as<scalar_t>(from.const_data_ptr(), from.scalar_type());
  });
  to.unsafe_get_impl()->set_wrapped_number(from.is_wrapped_number());
  if (!owns_operands_) take_ownership();
  (*owned_)[static_cast<std::size_t>(arg)] = std::move(to);
}

void TensorIteratorBase::declare_outputs(IntArrayRef strides) {
  for (int i = 0; i < num_outputs_; ++i) {
    const TensorOptions options = TensorOptions(op_at(i).target_dtype).device(common_device_);
    set_output_raw_strided(i, shape_, strides, options);
    const Tensor& t = maybe_get_output(i);
    OperandInfo& op = mutable_operand(i);
    SOPS_INTERNAL_ASSERT(t.defined(), "output ", i, " is undefined after set_output");
    SOPS_INTERNAL_ASSERT(t.sizes() == IntArrayRef(shape_), "output ", i, " has sizes ", t.sizes(),
                         " after set_output, expected ", shape_);
    if (owns_operands_) {
      Tensor& slot = (*owned_)[static_cast<std::size_t>(i)];
      if (!slot.is_same(t)) slot = t;
    } else {
      op.tensor_ptr = &t;  // the final class's tensor or the out=/self argument
    }
    op.will_resize = false;
  }
}

void TensorIteratorBase::check_mem_overlap() const {
  for (int o = 0; o < num_outputs_; ++o) {
    const OperandInfo& out = op_at(o);
    const Tensor& t = out.tensor();
    if (t.is_meta()) continue;
    check_no_internal_overlap(t, out.name);
    if (!t.is_contiguous() || t.numel() == 0) continue;
    const char* out_begin = static_cast<const char*>(t.const_data_ptr());
    const char* out_end = out_begin + t.nbytes();
    for (int i = num_outputs_; i < ntensors(); ++i) {
      const Tensor& in = op_at(i).tensor();
      if (in.is_same(t) || !in.is_alias_of(t) || !in.is_contiguous() || in.numel() == 0) {
        continue;
      }
      const char* in_begin = static_cast<const char*>(in.const_data_ptr());
      const char* in_end = in_begin + in.nbytes();
      const bool full = in_begin == out_begin && in_end == out_end;
      const bool partial = !full && in_begin < out_end && out_begin < in_end;
      SOPS_CHECK_ARG(!partial, out.name,
                     "unsupported operation: some elements of the input tensor '", operand(i).name,
                     "' and the written-to tensor refer to a single memory location; "
                     "clone() it first");
    }
  }
}

// ---------------------------------------------------------------------------------
// Queries (the loop order and the walks: tensor_iterator_loops.cc)

void TensorIteratorBase::throw_operand_out_of_range(int arg) const {
  raise(Error(
      detail::str("TensorIterator: operand ", arg, " out of range (it has ", ntensors(), ")")));
}

bool TensorIteratorBase::is_scalar(int arg) const {
  operand(arg);
  for (int64_t d = 0; d < loop_ndim(); ++d) {
    if (loop_shape_[static_cast<std::size_t>(d)] != 1 && loop_stride(arg, d) != 0) return false;
  }
  return true;
}

bool TensorIteratorBase::is_cpu_scalar(int arg) const {
  const Tensor& t = tensor(arg);
  return t.is_cpu() && t.dim() == 0;
}

// ---------------------------------------------------------------------------------
// TensorIterator

void TensorIterator::set_output_raw_strided(int64_t output_idx, IntArrayRef sizes,
                                            IntArrayRef strides_hint, TensorOptions options) {
  const OperandInfo& op = operand(static_cast<int>(output_idx));
  Tensor& slot = outputs_[static_cast<std::size_t>(output_idx)];
  if (!op.tensor().defined()) {
    slot = create_out(sizes, strides_hint, options);
  } else {
    resize_out(op.tensor(), sizes, strides_hint, options, op.name);
    slot = op.tensor();
  }
}

const Tensor& TensorIterator::maybe_get_output(int64_t output_idx) {
  SOPS_CHECK(output_idx >= 0 && output_idx < noutputs(), "TensorIterator: output ", output_idx,
             " out of range");
  return outputs_[static_cast<std::size_t>(output_idx)];
}

TensorIterator TensorIterator::binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.build_binary_op(out, a, b);
  return iter;
}

TensorIterator TensorIterator::binary_float_op(const Tensor& out, const Tensor& a,
                                               const Tensor& b) {
  TensorIterator iter;
  iter.build_binary_float_op(out, a, b);
  return iter;
}

TensorIterator TensorIterator::comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.build_comparison_op(out, a, b);
  return iter;
}

TensorIterator TensorIterator::unary_op(const Tensor& out, const Tensor& a) {
  TensorIterator iter;
  iter.build_unary_op(out, a);
  return iter;
}

TensorIterator TensorIterator::copy_op(const Tensor& dst, const Tensor& src) {
  TensorIteratorConfig config;
  config.add_output(dst, "self")
      .add_input(src, "src")
      .cast_common_dtype_to_outputs(true)
      .resize_outputs(false);
  return TensorIterator(config);
}

TensorIterator TensorIterator::unary_float_op(const Tensor& out, const Tensor& a) {
  TensorIterator iter;
  iter.build_unary_float_op(out, a);
  return iter;
}

}  // namespace sops
