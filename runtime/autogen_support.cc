#include "runtime/autogen_support.h"

#include "runtime/dispatcher.h"
#include "runtime/error.h"

namespace sops::autogen {
namespace {

using CopySignature = Tensor&(Tensor&, const Tensor&, bool);

// dst.copy_(src) through the dispatcher; found once, on first use.
void copy(const Tensor& dst, const Tensor& src) {
  static const TypedOperatorHandle<CopySignature> op = [] {
    std::optional<OperatorHandle> handle = Dispatcher::singleton().try_find("copy_");
    SOPS_CHECK(handle.has_value(),
               "this kernel was written by `autogen:` and copies with the operator "
               "`copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)`, "
               "which no library of this process registers: declare it in the yaml, or link "
               "a library that has it (such as //ops:aten)");
    return handle->typed<CopySignature>();
  }();
  Tensor target = dst;
  op.call(target, src, false);
}

}  // namespace

Tensor clone_of(const Tensor& t) { return clone_of(t, &copy); }

std::optional<Tensor> clone_of(const std::optional<Tensor>& t) { return clone_of(t, &copy); }

std::vector<Tensor> clone_of(ArrayRef<Tensor> ts) { return clone_of(ts, &copy); }

void copy_to_out(const Tensor& out, const Tensor& value) { copy_to_out(out, value, &copy); }

void copy_to_out(const std::optional<Tensor>& out, const std::optional<Tensor>& value) {
  copy_to_out(out, value, &copy);
}

void copy_to_out(ArrayRef<Tensor> out, ArrayRef<Tensor> values) { copy_to_out(out, values, &copy); }

}  // namespace sops::autogen
