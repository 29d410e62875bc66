// TensorIteratorBase's ownership of its operands (see "Ownership" in
// tensor_iterator.h): taking owned copies, and copying or moving an iterator.
#include <memory>

#include "runtime/tensor_iterator.h"

namespace sops {

void TensorIteratorBase::take_ownership() {
  // Fill a fresh array before dropping the old one: an operand may point into it.
  auto fresh = std::make_unique<std::array<Tensor, kMaxOperands>>();
  for (int i = 0; i < ntensors(); ++i) {
    OperandInfo& op = mutable_operand(i);
    (*fresh)[static_cast<std::size_t>(i)] = op.tensor();
    op.tensor_ptr = &(*fresh)[static_cast<std::size_t>(i)];
  }
  owned_ = std::move(fresh);
  owns_operands_ = true;
}

void TensorIteratorBase::copy_state(const TensorIteratorBase& other) {
  num_outputs_ = other.num_outputs_;
  num_inputs_ = other.num_inputs_;
  for (int i = 0; i < ntensors(); ++i) {
    operands_[static_cast<std::size_t>(i)] = other.op_at(i);
    data_[static_cast<std::size_t>(i)] = other.data_[static_cast<std::size_t>(i)];
  }
  shape_ = other.shape_;
  numel_ = other.numel_;
  common_dtype_ = other.common_dtype_;
  common_device_ = other.common_device_;
  loop_shape_ = other.loop_shape_;
  loop_strides_ = other.loop_strides_;
}

// A borrowed operand may live in the source's final class (a functional output), so
// a copy takes its own references to every operand.
TensorIteratorBase::TensorIteratorBase(const TensorIteratorBase& other) : MetaBase(other) {
  copy_state(other);
  take_ownership();
}

TensorIteratorBase& TensorIteratorBase::operator=(const TensorIteratorBase& other) {
  if (this != &other) {
    copy_state(other);
    take_ownership();
  }
  return *this;
}

// Owned operands sit on the heap, so stealing owned_ keeps every pointer valid.
TensorIteratorBase::TensorIteratorBase(TensorIteratorBase&& other) : MetaBase(std::move(other)) {
  *this = std::move(other);
}

TensorIteratorBase& TensorIteratorBase::operator=(TensorIteratorBase&& other) {
  if (this == &other) return *this;
  copy_state(other);
  if (other.owns_operands_) {
    owned_ = std::move(other.owned_);
    owns_operands_ = true;
    other.owns_operands_ = false;
    other.num_outputs_ = other.num_inputs_ = 0;
  } else {
    take_ownership();
  }
  return *this;
}

}  // namespace sops
