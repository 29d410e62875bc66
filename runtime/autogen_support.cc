#include "runtime/autogen_support.h"

#include "runtime/dispatcher.h"
#include "runtime/error.h"

namespace sops::autogen {
namespace {

using CopySignature = Tensor&(Tensor&, const Tensor&, bool);

// dst.copy_(src) through the dispatcher; found once, on first use.
void copy(Tensor dst, const Tensor& src) {
  static const TypedOperatorHandle<CopySignature> op = [] {
    std::optional<OperatorHandle> handle = Dispatcher::singleton().try_find("copy_");
    SOPS_CHECK(handle.has_value(),
               "this kernel was written by `autogen:` and copies with the operator "
               "`copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)`, "
               "which no library of this process registers: declare it in the yaml, or link "
               "a library that has it (such as //ops:aten_cpu)");
    return handle->typed<CopySignature>();
  }();
  op.call(dst, src, false);
}

}  // namespace

Tensor clone_of(const Tensor& t) {
  if (!t.defined()) return t;
  Tensor result = empty(t.sizes(), t.options());
  copy(result, t);
  return result;
}

std::optional<Tensor> clone_of(const std::optional<Tensor>& t) {
  if (!t.has_value()) return t;
  return clone_of(*t);
}

std::vector<Tensor> clone_of(ArrayRef<Tensor> ts) {
  std::vector<Tensor> copies;
  copies.reserve(ts.size());
  for (const Tensor& t : ts) copies.push_back(clone_of(t));
  return copies;
}

void copy_to_out(const Tensor& out, const Tensor& value) {
  out.resize_(value.sizes());
  copy(out, value);
}

void copy_to_out(const std::optional<Tensor>& out, const std::optional<Tensor>& value) {
  if (out.has_value() && out->defined() && value.has_value() && value->defined()) {
    copy_to_out(*out, *value);
  }
}

void copy_to_out(ArrayRef<Tensor> out, ArrayRef<Tensor> values) {
  SOPS_CHECK(out.size() == values.size(), "expected ", values.size(), " out= tensors, got ",
             out.size());
  for (std::size_t i = 0; i < out.size(); ++i) copy_to_out(out[i], values[i]);
}

}  // namespace sops::autogen
