// MetaBase: the root of every structured kernel class (the RFC's design).
//
// A structured operator's generated classes form a chain:
//   MetaBase (or a subclass such as TensorIteratorBase, via structured_inherits)
//     <- meta::structured_<op>          user writes meta(...): checks, then set_output_*
//       <- native::structured_<kernel>  user writes impl(...): the computation
//         <- one final class per variant (functional / out / inplace / meta), generated,
//            overriding set_output_raw_strided and maybe_get_output.
// A final class's set_output_raw_strided allocates (create_out), resizes
// (resize_out) or checks (check_inplace) the output, then calls its parent's
// set_output_raw_strided last, so a base like TensorIteratorBase can see the output
// through maybe_get_output. MetaBase's own version does nothing, so the call can
// always be emitted.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/array_ref.h"
#include "runtime/tensor.h"
#include "runtime/tensor_options.h"

// The names of the user-written methods, as in ATen: meta classes are
// `structured_<name>` (or `structured_<name>_<overload>`), impl classes
// `structured_<kernel name>`.
#define SOPS_META_FUNC(name) void structured_##name::meta
#define SOPS_META_FUNC2(name, overload) void structured_##name##_##overload::meta
#define SOPS_IMPL_FUNC(name) void structured_##name::impl
// A plain (unstructured or composite) kernel of the default kernel namespace, defined
// from the library's namespace by its qualified name, so that a definition whose
// signature does not match NativeFunctions.h's declaration is a compile error naming
// the kernel ("should have been declared inside 'my::ops::native'"), not a new
// overload that fails to link:
//   namespace my::ops {
//   Tensor SOPS_KERNEL(relu)(const Tensor& self) { ... }
//   }
#define SOPS_KERNEL(name) native::name

namespace sops {

class MetaBase {
 public:
  MetaBase() = default;
  virtual ~MetaBase() = default;

  // Declares output `output_idx`: its sizes and options, with strides as a hint
  // (empty: contiguous). Final classes must override; this base version does nothing.
  virtual void set_output_raw_strided(int64_t output_idx, IntArrayRef sizes,
                                      IntArrayRef strides_hint, TensorOptions options) = 0;
  // As set_output_raw_strided, but the output must have exactly these strides.
  // Default: forwards to set_output_raw_strided (an out= tensor keeps its strides
  // when its size already matches; sops has no proxy outputs).
  virtual void set_output_strided(int64_t output_idx, IntArrayRef sizes, IntArrayRef strides,
                                  TensorOptions options);
  // A contiguous output.
  void set_output_contiguous(int64_t output_idx, IntArrayRef sizes, TensorOptions options);
  // The RFC's convenience: output 0, contiguous.
  void set_output(IntArrayRef sizes, TensorOptions options) {
    set_output_raw_strided(0, sizes, {}, options);
  }

  // The output tensor `output_idx`: the out= (or self for inplace) argument, or the
  // tensor set_output allocated; undefined before a functional variant allocates.
  virtual const Tensor& maybe_get_output(int64_t output_idx) = 0;
  const Tensor& maybe_get_output() { return maybe_get_output(0); }

 protected:
  MetaBase(const MetaBase&) = default;
  MetaBase(MetaBase&&) = default;
  MetaBase& operator=(const MetaBase&) = default;
  MetaBase& operator=(MetaBase&&) = default;
};

// Helpers for the generated final classes.

// Functional variants: a new tensor (no data for meta). Empty strides: contiguous.
Tensor create_out(IntArrayRef sizes, IntArrayRef strides, TensorOptions options);

// Out variants: checks that `out` (named `argument` in errors) has options' dtype
// and device ("Expected out tensor to have dtype float, but got long int instead"), then resizes it
// when its sizes differ, giving it `strides` (empty: contiguous). An out tensor whose sizes already
// match keeps its strides.
void resize_out(const Tensor& out, IntArrayRef sizes, IntArrayRef strides, TensorOptions options,
                std::string_view argument = "out");

// Inplace variants: the result must have self's sizes, dtype and device.
void check_inplace(const Tensor& self, IntArrayRef sizes, TensorOptions options,
                   std::string_view argument = "self");

}  // namespace sops
