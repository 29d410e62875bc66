// The dispatcher: operators by full name ("add.Tensor"), each with a schema and a
// kernel per DispatchKey; calls pick the kernel from the devices of the tensor
// arguments.
//
// Registering (generated code, at static initialization):
//   constexpr sops::KernelLibrary kLibrary{"aten", "ops/native_functions.yaml"};
//   static const sops::RegisterOperator def("add.Tensor(Tensor self, Tensor other, *, Scalar
//   alpha=1) -> Tensor", kLibrary); static const sops::RegisterKernel k("add.Tensor",
//   sops::DispatchKey::CPU, &wrapper_CPU_add_Tensor, kLibrary); static const
//   sops::RegisterFallthrough f("add.Tensor", sops::DispatchKey::Common, sops::DispatchKey::CUDA);
// Each registrar undoes its registration when destroyed. Kernels are plain function
// pointers; all kernels of one operator must have the same C++ signature.
//
// A clash (an operator defined twice, a second kernel for one key, a kernel of another
// C++ signature: two libraries declaring one operator) does not throw: at static
// initialization that would end the process before main(). The first registration
// stays, the operator is marked, and find() throws an error naming the operator and,
// for generated code, both libraries and their yamls. The mark lasts for the process.
//
// Calling:
//   static const auto op = sops::Dispatcher::singleton().find("add.Tensor")
//       .typed<sops::Tensor(const sops::Tensor&, const sops::Tensor&, const sops::Scalar&)>();
//   sops::Tensor r = op.call(a, b, 1);
// A call computes the backend key from the Tensor (and Tensor?, Tensor[],
// TensorOptions, Device) arguments, reads one slot of the operator's resolved table
// and calls through it: no lookup by name, no allocation. Tensors on different
// devices are an error; with no tensor and no device argument the key is CPU.
//
// Fallback: for backend B the kernel is the first registered at
//   B, Common, CompositeExplicitAutograd, CompositeImplicitAutograd
// that is not marked fallthrough for B. Tables are resolved at registration time.
// Register during start-up: registration is thread-safe, but a registration racing
// with calls to the same operator may see the old kernel.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/array_ref.h"
#include "runtime/call_observer.h"
#include "runtime/dispatch_key.h"
#include "runtime/error.h"
#include "runtime/kernel_library.h"
#include "runtime/static_dispatch.h"
#include "runtime/tensor.h"
#include "runtime/tensor_options.h"

namespace sops {

// A kernel with its type erased; cast back to its real type only to call it.
using ErasedKernel = void (*)();

class OperatorEntry {
 public:
  explicit OperatorEntry(std::string name) : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  const std::string& schema() const { return schema_; }
  // The kernel serving `backend` after fallback, or nullptr. The hot path.
  ErasedKernel lookup(DispatchKey backend) const {
    return table_[static_cast<std::size_t>(backend)].load(std::memory_order_acquire);
  }
  [[noreturn]] void throw_no_kernel(DispatchKey backend) const;
  [[noreturn]] void throw_mixed_devices(uint8_t device_mask) const;

 private:
  friend class Dispatcher;
  friend class OperatorHandle;

  // Marks the operator unusable, keeping the first reason: its registration by `second`
  // clashed with one by `first` (nullptr: a registrar outside generated code).
  void mark_clash(const KernelLibrary* first, const KernelLibrary* second, std::string what);

  std::string name_;
  std::string schema_;
  std::array<ErasedKernel, kNumDispatchKeys> kernels_{};
  // fallthrough_[key][backend]: key is skipped for backend.
  std::array<std::array<bool, kNumBackendKeys>, kNumDispatchKeys> fallthrough_{};
  std::array<std::optional<DispatchKey>, kNumBackendKeys> resolved_{};
  std::array<std::atomic<ErasedKernel>, kNumBackendKeys> table_{};
  std::string_view signature_;  // detail::type_name of the kernels' pointer type; empty: none yet
  // Who registered the schema and each kernel (nullptr: not generated code).
  const KernelLibrary* definer_ = nullptr;
  std::array<const KernelLibrary*, kNumDispatchKeys> kernel_libraries_{};
  // Why the operator cannot be called (the first clash of its registrations), or empty.
  std::string clash_;
};

// detail::DeviceMask and detail::collect(), the rule that picks a call's backend, live in
// static_dispatch.h: statically dispatched libraries use the same one.
namespace detail {

// The name of type T as the compiler spells it, from __PRETTY_FUNCTION__ (GCC: "... [with
// T = X; std::string_view = ...]", Clang: "... [T = X]"): the kernels' signatures are
// told apart by name, with or without RTTI (--config=mobile builds without). One
// compiler family spells a type one way (GCC "const T&", Clang "const T &"), so a
// process's kernels and callers must come from one family; types of two anonymous
// namespaces print alike (kernel signatures use sops's types).
template <typename T>
constexpr std::string_view type_name() {
  constexpr std::string_view f = __PRETTY_FUNCTION__;
  constexpr std::size_t begin = f.find("T = ") + 4;
  constexpr std::size_t semicolon = f.find(';', begin);
  return f.substr(begin, (semicolon != f.npos ? semicolon : f.rfind(']')) - begin);
}

}  // namespace detail

namespace detail {

// Reports a call (runtime/call_observer.h) and counts the depth while the kernel runs.
class ObservedCall {
 public:
  ObservedCall(CallObserver observer, const OperatorEntry& entry);
  ~ObservedCall();
  ObservedCall(const ObservedCall&) = delete;
  ObservedCall& operator=(const ObservedCall&) = delete;
};

}  // namespace detail

template <typename Signature>
class TypedOperatorHandle;

template <typename R, typename... Args>
class TypedOperatorHandle<R(Args...)> {
 public:
  using FnPtr = R (*)(Args...);

  R call(Args... args) const { return call_on_mask(false, std::forward<Args>(args)...); }

  // call for operators with `device_check: NoCheck`: cpu tensors beside those of one
  // other device type reach that device's kernel (static_dispatch.h).
  R call_across_devices(Args... args) const {
    return call_on_mask(true, std::forward<Args>(args)...);
  }

  R operator()(Args... args) const { return call(std::forward<Args>(args)...); }

  // Calls the kernel serving backend `backend`, ignoring the arguments' devices.
  R call_for_backend(DispatchKey backend, Args... args) const {
    SOPS_CHECK(is_backend_key(backend), "call_for_backend: ", backend, " is not a backend key");
    const ErasedKernel fn = entry_->lookup(backend);
    if (SOPS_UNLIKELY(fn == nullptr)) entry_->throw_no_kernel(backend);
    return reinterpret_cast<FnPtr>(fn)(std::forward<Args>(args)...);
  }

  const std::string& name() const { return entry_->name(); }

 private:
  friend class OperatorHandle;
  explicit TypedOperatorHandle(const OperatorEntry* entry) : entry_(entry) {}

  R call_on_mask(bool across_devices, Args... args) const {
    detail::DeviceMask mask;
    (detail::collect(mask, args), ...);
    uint8_t m = mask.tensors != 0 ? mask.tensors : mask.options;
    if (across_devices) m = detail::across_devices(m);
    DispatchKey key = DispatchKey::CPU;
    if (m != 0) {
      if (SOPS_UNLIKELY((m & (m - 1)) != 0)) entry_->throw_mixed_devices(m);
      key = static_cast<DispatchKey>(__builtin_ctz(m));
    }
    const ErasedKernel fn = entry_->lookup(key);
    if (SOPS_UNLIKELY(fn == nullptr)) entry_->throw_no_kernel(key);
    if (const CallObserver observer = detail::g_call_observer.load(std::memory_order_relaxed);
        SOPS_UNLIKELY(observer != nullptr)) {
      const detail::ObservedCall observed(observer, *entry_);
      return reinterpret_cast<FnPtr>(fn)(std::forward<Args>(args)...);
    }
    return reinterpret_cast<FnPtr>(fn)(std::forward<Args>(args)...);
  }

  const OperatorEntry* entry_;
};

class OperatorHandle {
 public:
  const std::string& name() const { return entry_->name(); }
  // The schema given to RegisterOperator; empty if only kernels were registered.
  const std::string& schema() const { return entry_->schema(); }
  bool has_kernel(DispatchKey key) const;
  // Keys with a kernel, in DispatchKey order.
  std::vector<DispatchKey> registered_keys() const;
  // Which key's kernel a call on `backend` reaches, after fallback.
  std::optional<DispatchKey> resolved_key(DispatchKey backend) const;

  // A callable for the kernels' C++ signature; throws sops::Error if the kernels
  // were registered with another one. Cache it: it is a pointer.
  template <typename Signature>
  TypedOperatorHandle<Signature> typed() const {
    check_signature(detail::type_name<Signature*>());
    return TypedOperatorHandle<Signature>(entry_);
  }

 private:
  friend class Dispatcher;
  explicit OperatorHandle(OperatorEntry* entry) : entry_(entry) {}
  void check_signature(std::string_view requested) const;

  OperatorEntry* entry_;
};

class Dispatcher {
 public:
  static Dispatcher& singleton();

  // The operator; throws sops::Error naming it if nothing is registered under it, or
  // if its registrations clash (try_find too).
  OperatorHandle find(std::string_view name);
  std::optional<OperatorHandle> try_find(std::string_view name);
  // Names of every operator with a schema or a kernel, sorted.
  std::vector<std::string> operator_names();

  // The lower-level API behind the registrars. The name of a schema is the text
  // before '(' ("add.Tensor"). define and register_kernel return false on a clash
  // (nothing registered; the operator is marked).
  bool define(std::string_view schema, const KernelLibrary* library = nullptr);
  void undefine(std::string_view name);
  bool register_kernel(std::string_view name, DispatchKey key, ErasedKernel kernel,
                       std::string_view signature, const KernelLibrary* library = nullptr);
  void deregister_kernel(std::string_view name, DispatchKey key);
  // Skip `key` for `backend` when resolving this operator (no backend: for all).
  void register_fallthrough(std::string_view name, DispatchKey key,
                            std::optional<DispatchKey> backend = std::nullopt);
  void deregister_fallthrough(std::string_view name, DispatchKey key,
                              std::optional<DispatchKey> backend = std::nullopt);
  // Skip `key` for `backend` in every operator, present and future.
  void register_fallthrough(DispatchKey key, DispatchKey backend);
  void deregister_fallthrough(DispatchKey key, DispatchKey backend);

 private:
  friend class OperatorHandle;
  Dispatcher() = default;
  OperatorEntry& entry_locked(std::string_view name);
  void resolve_locked(OperatorEntry& entry);
  void set_fallthrough_locked(std::string_view name, DispatchKey key,
                              std::optional<DispatchKey> backend, bool value);

  std::mutex mutex_;
  std::unordered_map<std::string, std::unique_ptr<OperatorEntry>> operators_;
  std::array<std::array<bool, kNumBackendKeys>, kNumDispatchKeys> global_fallthrough_{};
};

// Registrars: construct as static objects; each undoes its registration on
// destruction.
class RegisterOperator {
 public:
  explicit RegisterOperator(std::string_view schema);
  RegisterOperator(std::string_view schema, const KernelLibrary& library);
  ~RegisterOperator();
  RegisterOperator(const RegisterOperator&) = delete;
  RegisterOperator& operator=(const RegisterOperator&) = delete;

 private:
  std::string name_;
  bool defined_;  // false: it clashed, and there is nothing of it to undo
};

class RegisterKernel {
 public:
  template <typename R, typename... Args>
  RegisterKernel(std::string_view op, DispatchKey key, R (*kernel)(Args...))
      : RegisterKernel(op, key, reinterpret_cast<ErasedKernel>(kernel),
                       detail::type_name<R (*)(Args...)>(), nullptr) {}
  template <typename R, typename... Args>
  RegisterKernel(std::string_view op, DispatchKey key, R (*kernel)(Args...),
                 const KernelLibrary& library)
      : RegisterKernel(op, key, reinterpret_cast<ErasedKernel>(kernel),
                       detail::type_name<R (*)(Args...)>(), &library) {}
  ~RegisterKernel();
  RegisterKernel(const RegisterKernel&) = delete;
  RegisterKernel& operator=(const RegisterKernel&) = delete;

 private:
  RegisterKernel(std::string_view op, DispatchKey key, ErasedKernel kernel,
                 std::string_view signature, const KernelLibrary* library);

  std::string op_;
  DispatchKey key_;
  bool registered_;  // false: it clashed, and there is nothing of it to undo
};

// Marks `key` as skipped for `backend` (all backends if none) for one operator, or,
// with op == "*", for every operator: the RFC's opt-out from Common.
class RegisterFallthrough {
 public:
  RegisterFallthrough(std::string_view op, DispatchKey key,
                      std::optional<DispatchKey> backend = std::nullopt);
  ~RegisterFallthrough();
  RegisterFallthrough(const RegisterFallthrough&) = delete;
  RegisterFallthrough& operator=(const RegisterFallthrough&) = delete;

 private:
  std::string op_;
  DispatchKey key_;
  std::optional<DispatchKey> backend_;
};

}  // namespace sops
