// The fast path of TensorIteratorBase::build: a functional op (every output still
// to be allocated) over inputs of one dtype, one device and one shape, all
// contiguous, none a wrapped number. That is most calls of most element-wise ops,
// and for them the general path's steps reduce to what is below:
//
//   shape       every input has the same sizes, so broadcasting them (infer_size)
//               gives those sizes; no output is given, so none is resized or checked.
//   device      all inputs are on one Device, so it is the common device whichever
//               input compute_types would pick first (cpu scalars included), and
//               no operand is on another device.
//   dtype       result_type of inputs of one dtype d (none wrapped) is d, and so is
//               "the first input's dtype" without promotion; promote_integer_inputs
//               _to_float then applies as usual. check_all_same_dtype can only fail
//               when that last step changed it: then the general path reports it.
//               The outputs are new, so they get the static or the common dtype and
//               no cast check applies (those checks concern given outputs).
//   loops       the outputs come back with the broadcast shape (asserted as in the
//               general path); when they are contiguous too, every operand is
//               contiguous over one shape with numel > 0, and compute_loop_strides +
//               coalesce_dimensions would give exactly: no loop dimension for 0-dim
//               operands; one dimension of 1 with stride 0 (size-1 dimensions get
//               stride 0) when numel is 1; else one dimension of numel with each
//               operand's element size as its stride (each non-1 dimension's stride
//               is the product of the inner sizes, so every pair coalesces).
//
// The memory-overlap check still runs (cheap on contiguous outputs): it does not rely
// on what the final class's set_output_raw_strided handed back.
#include "runtime/tensor_iterator.h"

#include "runtime/type_promotion.h"

namespace sops {

TensorIteratorBase::FastPathOptions TensorIteratorBase::fast_path_options(
    const TensorIteratorConfig& config) {
  return {config.check_all_same_dtype_, config.promote_inputs_to_common_dtype_,
          config.promote_integer_inputs_to_float_, config.check_mem_overlap_, config.static_dtype_};
}

// What populate_operands sets for a binary config (out, self, other), minus its
// checks that cannot fail here: inputs are defined (checked below) and an undefined
// output is neither an input nor written in place.
bool TensorIteratorBase::build_borrowing_binary_fast(const Tensor& out, const Tensor& a,
                                                     const Tensor& b,
                                                     const FastPathOptions& options) {
  if (out.defined() || !a.defined() || !b.defined()) return false;
  num_outputs_ = 1;
  num_inputs_ = 2;
  operands_[0] = OperandInfo{&out, "out", ScalarType::Undefined, true, false, false};
  operands_[1] = OperandInfo{&a, "self", ScalarType::Undefined, false, false, false};
  operands_[2] = OperandInfo{&b, "other", ScalarType::Undefined, false, false, false};
  owns_operands_ = false;
  if (!fast_path_applies(options)) return false;
  build_fast(options);
  return true;
}

bool TensorIteratorBase::fast_path_applies(const FastPathOptions& options) const {
  if (num_inputs_ == 0) return false;
  for (int i = 0; i < num_outputs_; ++i) {
    if (op_at(i).tensor().defined()) return false;  // out= and inplace: general path
  }
  const TensorImpl& first = *op_at(num_outputs_).tensor().unsafe_get_impl();
  if (!first.is_contiguous() || first.numel() == 0 || first.is_wrapped_number()) return false;
  for (int i = num_outputs_ + 1; i < ntensors(); ++i) {
    const TensorImpl& in = *op_at(i).tensor().unsafe_get_impl();
    if (in.dtype() != first.dtype() || in.device() != first.device() || !in.is_contiguous() ||
        in.is_wrapped_number() || in.sizes() != first.sizes()) {
      return false;
    }
  }
  if (options.check_all_same_dtype && options.promote_integer_inputs_to_float &&
      is_integral(first.dtype(), true)) {
    return false;  // the common dtype would differ from the inputs': an error
  }
  return true;
}

void TensorIteratorBase::build_fast(const FastPathOptions& options) {
  const Tensor& first = op_at(num_outputs_).tensor();
  shape_ = first.sizes();
  numel_ = first.numel();
  common_device_ = first.device();
  common_dtype_ = first.scalar_type();
  if (options.promote_integer_inputs_to_float && is_integral(common_dtype_, true)) {
    common_dtype_ = kDefaultFloatingDtype;
  }
  const ScalarType output_dtype =
      options.static_dtype != ScalarType::Undefined ? options.static_dtype : common_dtype_;
  for (int i = 0; i < num_outputs_; ++i) mutable_operand(i).target_dtype = output_dtype;
  for (int i = num_outputs_; i < ntensors(); ++i) {
    mutable_operand(i).target_dtype =
        options.promote_inputs_to_common_dtype ? common_dtype_ : first.scalar_type();
  }

  declare_outputs();
  bool contiguous = true;
  bool shares_storage = false;
  for (int o = 0; o < num_outputs_; ++o) {
    const TensorImpl& out = *op_at(o).tensor().unsafe_get_impl();
    contiguous = contiguous && out.is_contiguous();
    for (int i = num_outputs_; i < ntensors(); ++i) {
      shares_storage = shares_storage || out.storage().impl() ==
                                             op_at(i).tensor().unsafe_get_impl()->storage().impl();
    }
  }
  // check_mem_overlap finds nothing on contiguous outputs (numel > 0 here) that share
  // no storage with an input, which is what a functional output normally is.
  if (options.check_mem_overlap && (!contiguous || shares_storage)) check_mem_overlap();
  if (!contiguous) {  // a final class chose other strides
    compute_loop_strides();
    coalesce_dimensions();
    return;
  }
  set_contiguous_loop();
}

void TensorIteratorBase::set_contiguous_loop() {
  // Every operand is defined here (inputs were checked, outputs asserted by
  // declare_outputs), so the impls are read directly.
  const std::size_t nt = static_cast<std::size_t>(ntensors());
  for (std::size_t arg = 0; arg < nt; ++arg) {
    data_[arg] = static_cast<char*>(operands_[arg].tensor().unsafe_get_impl()->data());
  }
  if (shape_.empty()) {
    loop_shape_.clear();
    loop_strides_.clear();
    return;
  }
  loop_shape_.resize_for_overwrite(1);
  loop_shape_[0] = numel_;
  loop_strides_.resize_for_overwrite(nt);
  int64_t* strides = loop_strides_.data();
  for (std::size_t arg = 0; arg < nt; ++arg) {
    strides[arg] = numel_ == 1 ? 0
                               : static_cast<int64_t>(element_size(
                                     operands_[arg].tensor().unsafe_get_impl()->dtype()));
  }
}

}  // namespace sops
